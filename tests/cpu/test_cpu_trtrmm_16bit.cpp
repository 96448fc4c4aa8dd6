// trimm::cpu::trtrmm on 16-bit data (half_t, bfloat16_t) against the fp64 product of the same
// 16-bit values: integer inputs bit for bit (fp32 sums them exactly, so C is the exact sum
// rounded once), random inputs within fp32 accumulation plus one rounding. Inputs are fresh each
// run; the unreferenced triangles, the ld padding and C start as NaN patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "common/float16.hpp"
#include "common/test_util.hpp"
#include "trimm/cpu.hpp"

namespace trimm {
namespace {

struct Half {
  using T = half_t;
  static constexpr uint16_t kNaN = 0x7E00;
  static constexpr double kU = 0x1p-11;  // unit roundoff
  static constexpr const char* kName = "fp16";
};
struct Bf16 {
  using T = bfloat16_t;
  static constexpr uint16_t kNaN = 0x7FC0;
  static constexpr double kU = 0x1p-8;
  static constexpr const char* kName = "bf16";
};

struct Problem {
  Fill fill;
  int64_t n, lda, ldb, ldc;
};

// The `fill` triangle from gen(), rounded to the type; everything else a NaN pattern.
template <class F>
std::vector<typename F::T> make16(Fill fill, int64_t n, int64_t ld,
                                  const std::function<double()>& gen) {
  std::vector<typename F::T> x(size_t(n * ld), typename F::T{F::kNaN});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (test::in_triangle(fill, i, j))
        x[size_t(i * ld + j)] = detail::narrow<typename F::T>(float(gen()));
  return x;
}

// The fp32 values of a 16-bit matrix (NaN patterns included), for the fp64 reference.
template <class T>
std::vector<float> widened(const std::vector<T>& x) {
  std::vector<float> w(x.size());
  for (size_t e = 0; e < x.size(); ++e) w[e] = detail::widen(x[e]);
  return w;
}

template <class T>
std::vector<uint16_t> bits(const std::vector<T>& x) {
  std::vector<uint16_t> b(x.size());
  for (size_t e = 0; e < x.size(); ++e) b[e] = x[e].bits;
  return b;
}

// Runs the 16-bit CPU product and checks every element of C: on the triangle, bit for bit the
// rounded exact sum (exact) or within |c − ref| <= u·|ref| + 1.01·n·2^-24·Σ|a||b| + half the
// type's smallest subnormal (fp32 accumulation, then one rounding to nearest: truncation would
// not pass); +0 bits outside it; the ld padding untouched; the inputs unchanged. batch > 1: A
// shared by every entry (stride 0), B and C one matrix each with a gap between them (strides
// past the extent), each entry checked against its own B.
template <class F>
void run_and_check(const Problem& p, const std::function<double()>& gen, bool exact,
                   int64_t batch = 1) {
  using T = typename F::T;
  const auto A = make16<F>(p.fill, p.n, p.lda, gen);
  const int64_t stride_b = p.n * p.ldb + 5, stride_c = p.n * p.ldc + 3;
  std::vector<T> B(size_t(stride_b * batch), T{F::kNaN});
  for (int64_t e = 0; e < batch; ++e) {
    const auto Be = make16<F>(p.fill, p.n, p.ldb, gen);
    std::copy(Be.begin(), Be.end(), B.begin() + e * stride_b);
  }
  const auto A0 = bits(A), B0 = bits(B);
  std::vector<T> C(size_t(stride_c * batch), T{F::kNaN});
  if (batch == 1)
    cpu::trtrmm(p.fill, p.n, A.data(), p.lda, B.data(), p.ldb, C.data(), p.ldc);
  else
    cpu::trtrmm_strided_batched(p.fill, p.n, A.data(), p.lda, 0, B.data(), p.ldb, stride_b,
                                C.data(), p.ldc, stride_c, batch);

  const auto Aw = widened(A);
  std::vector<float> Aa(Aw.size());
  for (size_t e = 0; e < Aw.size(); ++e) Aa[e] = std::fabs(Aw[e]);
  const double tiny = std::ldexp(1.0, F::kU == 0x1p-11 ? -25 : -134);
  for (int64_t e = 0; e < batch; ++e) {
    const std::vector<T> Be(B.begin() + e * stride_b, B.begin() + e * stride_b + p.n * p.ldb);
    const auto Bw = widened(Be);
    std::vector<float> Ba(Bw.size());
    for (size_t q = 0; q < Bw.size(); ++q) Ba[q] = std::fabs(Bw[q]);
    std::vector<double> ref(size_t(p.n * p.n)), mag(size_t(p.n * p.n));
    cpu::reference_trtrmm(p.fill, p.n, Aw.data(), p.lda, Bw.data(), p.ldb, ref.data(), p.n);
    cpu::reference_trtrmm(p.fill, p.n, Aa.data(), p.lda, Ba.data(), p.ldb, mag.data(), p.n);
    const T* c = C.data() + e * stride_c;
    for (int64_t i = 0; i < p.n; ++i) {
      for (int64_t j = 0; j < p.n; ++j) {
        const uint16_t got = c[i * p.ldc + j].bits;
        const double r = ref[size_t(i * p.n + j)];
        if (!test::in_triangle(p.fill, i, j)) {
          ASSERT_EQ(got, 0) << F::kName << " C[" << i << "][" << j << "] outside the triangle";
        } else if (exact) {
          ASSERT_EQ(got, detail::narrow<T>(float(r)).bits)
              << F::kName << " C[" << i << "][" << j << "] = " << detail::widen(c[i * p.ldc + j])
              << ", expected exactly " << r;
        } else {
          const double v = detail::widen(c[i * p.ldc + j]);
          const double bound = F::kU * std::fabs(r) +
                               1.01 * double(p.n) * 0x1p-24 * mag[size_t(i * p.n + j)] + tiny;
          ASSERT_LE(std::fabs(v - r), bound)
              << F::kName << " C[" << i << "][" << j << "] = " << v << ", reference " << r;
        }
      }
      for (int64_t j = p.n; j < p.ldc; ++j)
        ASSERT_EQ(c[i * p.ldc + j].bits, F::kNaN) << "padding C[" << i << "][" << j << "] written";
    }
  }
  EXPECT_EQ(A0, bits(A)) << "A modified";
  EXPECT_EQ(B0, bits(B)) << "B modified";
}

template <class F>
class CpuTrtrmm16 : public ::testing::Test, public test::Seeded {
 protected:
  void each(const std::function<void(Fill, int64_t)>& body) {
    SCOPED_TRACE(test::seed_note(seed_));
    for (Fill fill : {Fill::Upper, Fill::Lower})
      for (int64_t n : {1, 2, 3, 17, 127, 129, 300}) {
        SCOPED_TRACE(std::string(to_string(fill)) + " n = " + std::to_string(n));
        body(fill, n);
      }
  }
};
using Formats = ::testing::Types<Half, Bf16>;
TYPED_TEST_SUITE(CpuTrtrmm16, Formats);

// Integers in [-4, 4]: fp32 sums them exactly (|sum| <= 16n < 2^24), so C is the exact sum
// rounded once, bit for bit. Many sums pass 256, where bf16 starts rounding integers; fp16's 2048
// is rarely reached (its rounding is checked by the random tests' bound, which truncation fails).
TYPED_TEST(CpuTrtrmm16, IntegerInputsBitExact) {
  this->each([&](Fill fill, int64_t n) {
    run_and_check<TypeParam>({fill, n, n, n, n}, test::integers(this->rng_), true);
  });
}

TYPED_TEST(CpuTrtrmm16, UniformInputsWithinFp32AccumulationAndOneRounding) {
  this->each([&](Fill fill, int64_t n) {
    run_and_check<TypeParam>({fill, n, n, n, n}, test::uniform01(this->rng_), false);
  });
}

TYPED_TEST(CpuTrtrmm16, NormalInputsWithinFp32AccumulationAndOneRounding) {
  this->each([&](Fill fill, int64_t n) {
    run_and_check<TypeParam>({fill, n, n, n, n}, test::normal(this->rng_), false);
  });
}

TYPED_TEST(CpuTrtrmm16, PaddedLeadingDimensions) {
  this->each([&](Fill fill, int64_t n) {
    run_and_check<TypeParam>({fill, n, n + 3, n + 1, n + 5}, test::integers(this->rng_), true);
  });
}

TYPED_TEST(CpuTrtrmm16, StridedBatchedSharedAAndGappedBC) {
  this->each([&](Fill fill, int64_t n) {
    run_and_check<TypeParam>({fill, n, n, n, n + 1}, test::normal(this->rng_), false, 3);
  });
}

// Each bad argument or option throws InvalidArgument naming it, with C left as it was.
// Structure::Detect: the dense product's semantics on any 16-bit input (test_util.hpp's kinds:
// noise or dense values in the other triangle, NaN and Inf planted), against the dense fp64
// product of the same values: NaN where it is NaN, the same infinity, else the product rounded
// once (integers, bit for bit) or within fp32 accumulation over all n terms and one rounding;
// +0 outside the triangle.
TYPED_TEST(CpuTrtrmm16, DetectEqualsTheDenseProductsTriangle) {
  using F = TypeParam;
  using T = typename F::T;
  const double tiny = std::ldexp(1.0, F::kU == 0x1p-11 ? -25 : -134);
  for (const test::Kind kind : {test::Kind::Triangular, test::Kind::Noisy, test::Kind::Dense,
                                test::Kind::NonFinite, test::Kind::TriangularNonFinite})
    this->each([&](Fill fill, int64_t n) {
      SCOPED_TRACE(test::name(kind));
      const bool exact = kind != test::Kind::Noisy;
      const auto gen = exact ? std::function<double()>(test::integers(this->rng_))
                             : std::function<double()>(test::uniform(this->rng_));
      const int64_t lda = n + 2, ldb = n + 1, ldc = n + 3;
      auto make = [&](int64_t ld) {
        const std::vector<float> x = test::make<float>(kind, fill, n, ld, gen, this->rng_);
        std::vector<T> y(x.size());
        for (size_t e = 0; e < x.size(); ++e) y[e] = detail::narrow<T>(x[e]);
        return y;
      };
      const std::vector<T> A = make(lda), B = make(ldb);
      const auto A0 = bits(A), B0 = bits(B);
      std::vector<T> C(size_t(n * ldc), T{F::kNaN});
      Options o;
      o.structure = Structure::Detect;
      cpu::trtrmm(fill, n, A.data(), lda, B.data(), ldb, C.data(), ldc, o);

      auto absolute = [](std::vector<float> x) {
        for (float& v : x) v = std::fabs(v);
        return x;
      };
      const auto Aw = widened(A), Bw = widened(B);
      std::vector<double> ref(size_t(n * n)), mag(size_t(n * n));
      cpu::reference_dense(fill, n, Aw.data(), lda, Bw.data(), ldb, ref.data(), n);
      cpu::reference_dense(fill, n, absolute(Aw).data(), lda, absolute(Bw).data(), ldb,
                           mag.data(), n);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const T c = C[size_t(i * ldc + j)];
          const double v = detail::widen(c), r = ref[size_t(i * n + j)];
          bool ok;
          if (!test::in_triangle(fill, i, j)) ok = c.bits == 0;
          else if (std::isnan(r)) ok = std::isnan(v);
          else if (std::isinf(r)) ok = v == r;
          else if (exact) ok = c.bits == detail::narrow<T>(float(r)).bits || (v == 0 && r == 0);
          else
            ok = std::fabs(v - r) <=
                 F::kU * std::fabs(r) + 1.01 * double(n) * 0x1p-24 * mag[size_t(i * n + j)] + tiny;
          ASSERT_TRUE(ok) << F::kName << " C[" << i << "][" << j << "] = " << v
                          << ", dense reference " << r;
        }
        for (int64_t j = n; j < ldc; ++j)
          ASSERT_EQ(C[size_t(i * ldc + j)].bits, F::kNaN) << "padding C[" << i << "][" << j << "]";
      }
      EXPECT_EQ(A0, bits(A)) << "A modified";
      EXPECT_EQ(B0, bits(B)) << "B modified";
    });
}

TEST(CpuTrtrmm16Args, RefusedCallsNameTheArgumentAndWriteNothing) {
  constexpr int64_t n = 8;
  std::vector<bfloat16_t> A(n * n, bfloat16_t{0x3F80}), B = A, C(n * n, bfloat16_t{0x7FC0});
  const auto C0 = bits(C);
  auto expect_rejected = [&](const std::function<void()>& call, const std::string& part) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected an error naming '" << part << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << "what() = " << e.what();
    }
    EXPECT_EQ(C0, bits(C)) << "C written on error";
  };
  const bfloat16_t* a = A.data();
  bfloat16_t* c = C.data();
  expect_rejected([&] { cpu::trtrmm(Fill::Upper, n, a, n - 1, B.data(), n, c, n); },
                  "trimm::cpu::trtrmm: lda = 7");
  expect_rejected([&] { cpu::trtrmm(Fill::Upper, n, a, n, nullptr, n, c, n); },
                  "trimm::cpu::trtrmm: B is null");
  expect_rejected([&] { cpu::trtrmm(Fill::Upper, n, c + 1, n, B.data(), n, c, n); },
                  "trimm::cpu::trtrmm: C overlaps A");
  for (Precision precision : {Precision::Tf32, Precision::Ieee}) {
    Options o;
    o.precision = precision;
    expect_rejected([&] { cpu::trtrmm(Fill::Upper, n, a, n, B.data(), n, c, n, o); },
                    std::string("trimm::cpu::trtrmm: precision = ") + to_string(precision) +
                        " for 16-bit data");
  }
  Options bad_structure;
  bad_structure.structure = static_cast<Structure>(7);
  expect_rejected([&] { cpu::trtrmm(Fill::Lower, n, a, n, B.data(), n, c, n, bad_structure); },
                  "trimm::cpu::trtrmm: structure = ");
  expect_rejected(
      [&] { cpu::trtrmm(Fill::Upper, n, a, n, B.data(), n, c, n, {Precision::Auto, "bogus"}); },
      "trimm::cpu::trtrmm: kernel = 'bogus'");
  expect_rejected(
      [&] {
        cpu::trtrmm_strided_batched(Fill::Upper, n, a, n, 0, B.data(), n, 0, c, n, 0, 2);
      },
      "trimm::cpu::trtrmm_strided_batched: stride_c = 0");
  std::vector<half_t> H(n * n, half_t{0x3C00}), HC(n * n, half_t{0x7E00});
  const auto HC0 = bits(HC);
  try {
    cpu::trtrmm(Fill::Upper, n, H.data(), n, H.data(), -1, HC.data(), n);
    ADD_FAILURE() << "accepted ldb = -1";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("ldb = -1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(HC0, bits(HC)) << "C written on error";
}

TEST(CpuTrtrmm16Args, EmptyProblemsWriteNothing) {
  std::vector<half_t> A(4, half_t{0x3C00}), C(4, half_t{0x7E00});
  const auto C0 = bits(C);
  cpu::trtrmm(Fill::Upper, 0, A.data(), 1, A.data(), 1, C.data(), 1);
  cpu::trtrmm_strided_batched(Fill::Upper, 2, A.data(), 2, 0, A.data(), 2, 0, C.data(), 2, 4, 0);
  EXPECT_EQ(C0, bits(C));
}

}  // namespace
}  // namespace trimm
