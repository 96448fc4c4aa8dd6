// trimm::trtrmm_backward on the GPU (float and double) against the CPU backward in fp64
// (trimm::cpu::trtrmm_backward on the widened inputs) and against plain loops: dA = M(G)·Bᵀ, dB =
// Aᵀ·M(G) on dense signed inputs, G's other triangle NaN (M drops it), distinct leading dimensions,
// batches with shared operands, non-finite inputs with the dense product's semantics. The outputs
// are poisoned before every call and every element is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_util.hpp"
#include "kernels/gpu_util.hpp"
#include "trimm/cpu.hpp"
#include "trimm/cuda.hpp"

namespace trimm {
namespace {

using test::DeviceBuffer;
using test::Seeded;

// A dense n×n operand in n·ld elements (padding NaN); for G, its other triangle NaN too.
template <typename T>
std::vector<T> dense(int64_t n, int64_t ld, const std::function<double()>& gen,
                     const Fill* nan_outside = nullptr) {
  std::vector<T> x(static_cast<size_t>(n * ld), test::kNaN<T>);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (nan_outside == nullptr || test::in_triangle(*nan_outside, i, j))
        x[size_t(i * ld + j)] = static_cast<T>(gen());
  return x;
}

template <typename T>
std::vector<T> absolute(std::vector<T> x) {
  for (T& v : x) v = std::fabs(v);
  return x;
}

// The n×n matrix of an output (leading dimension ld) equals want exactly, or within
// 2·γ·bound(i, j) (γ = 1.1·n·eps of T) where bound is given; the ld padding stays NaN.
template <typename T, typename W>
::testing::AssertionResult check_output(const char* what, int64_t n, const T* out, int64_t ld,
                                        const W* want, int64_t ldw, const W* bound = nullptr) {
  const double gamma =
      1.1 * double(std::max<int64_t>(n, 1)) * double(std::numeric_limits<T>::epsilon()) / 2;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const T o = out[i * ld + j];
      const W w = want[i * ldw + j];
      bool ok;
      if (std::isnan(w)) ok = std::isnan(o);
      else if (bound == nullptr || std::isinf(w))
        ok = double(o) == double(w);
      else ok = std::fabs(double(o) - double(w)) <= 2.0 * gamma * double(bound[i * ldw + j]) + 1e-30;
      if (!ok)
        return ::testing::AssertionFailure() << what << "(" << i << ", " << j << ") = " << o
                                             << ", expected " << w;
    }
    for (int64_t j = n; j < ld; ++j)
      if (!std::isnan(out[i * ld + j]))
        return ::testing::AssertionFailure() << what << " padding (" << i << ", " << j
                                             << ") written";
  }
  return ::testing::AssertionSuccess();
}

struct Layout {
  int64_t n, ldg, lda, ldb, ldda, lddb;
};

// One gradient on the GPU against the CPU backward in fp64 on the same inputs: exact on integers,
// within the fp32/fp64 bound (from the same products on |G|, |A|, |B|) on signed random inputs.
template <typename T>
void check_against_cpu(Fill fill, const Layout& s, bool integers, std::mt19937_64& rng) {
  SCOPED_TRACE(sizeof(T) == 4 ? "float" : "double");
  std::function<double()> gen = test::normal(rng);
  if (integers) gen = test::integers(rng);
  const auto G = dense<T>(s.n, s.ldg, gen, &fill);
  const auto A = dense<T>(s.n, s.lda, gen), B = dense<T>(s.n, s.ldb, gen);
  std::vector<T> dA0(static_cast<size_t>(s.n * s.ldda)), dB0(static_cast<size_t>(s.n * s.lddb));
  test::poison(dA0);
  test::poison(dB0);
  DeviceBuffer<T> g(G), a(A), b(B), da(dA0), db(dB0);
  ASSERT_NE(db.get(), nullptr);
  trtrmm_backward(fill, s.n, g.get(), s.ldg, a.get(), s.lda, b.get(), s.ldb, da.get(), s.ldda,
                  db.get(), s.lddb);
  TEST_CUDA(cudaGetLastError());
  const auto dA = da.download(), dB = db.download();
  // The reference in fp64 whatever T is (widening is exact).
  auto wide = [](const std::vector<T>& x) { return std::vector<double>(x.begin(), x.end()); };
  const auto Gd = wide(G), Ad = wide(A), Bd = wide(B);
  std::vector<double> rA(static_cast<size_t>(s.n * s.n)), rB(rA.size());
  cpu::trtrmm_backward(fill, s.n, Gd.data(), s.ldg, Ad.data(), s.lda, Bd.data(), s.ldb, rA.data(),
                       s.n, rB.data(), s.n);
  if (integers) {
    EXPECT_TRUE(check_output("dA", s.n, dA.data(), s.ldda, rA.data(), s.n));
    EXPECT_TRUE(check_output("dB", s.n, dB.data(), s.lddb, rB.data(), s.n));
  } else {
    const auto Ga = absolute(Gd), Aa = absolute(Ad), Ba = absolute(Bd);
    std::vector<double> mA(rA.size()), mB(rA.size());
    cpu::trtrmm_backward(fill, s.n, Ga.data(), s.ldg, Aa.data(), s.lda, Ba.data(), s.ldb,
                         mA.data(), s.n, mB.data(), s.n);
    EXPECT_TRUE(check_output("dA", s.n, dA.data(), s.ldda, rA.data(), s.n, mA.data()));
    EXPECT_TRUE(check_output("dB", s.n, dB.data(), s.lddb, rB.data(), s.n, mB.data()));
  }
  EXPECT_TRUE(test::same_bits(G, g.download())) << "G modified";
  EXPECT_TRUE(test::same_bits(A, a.download())) << "A modified";
  EXPECT_TRUE(test::same_bits(B, b.download())) << "B modified";
}

using Param = std::tuple<Fill, int64_t>;
class GpuBackward : public ::testing::TestWithParam<Param>, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<1>(GetParam()));
  }
};

TEST_P(GpuBackward, IntegersExactlyAsTheCpuBackward) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_cpu<float>(fill, {n, n, n, n, n, n}, true, rng_);
  check_against_cpu<double>(fill, {n, n, n, n, n, n}, true, rng_);
}

TEST_P(GpuBackward, SignedWithinTheBoundOfTheCpuBackward) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_cpu<float>(fill, {n, n, n, n, n, n}, false, rng_);
  check_against_cpu<double>(fill, {n, n, n, n, n, n}, false, rng_);
}

TEST_P(GpuBackward, DistinctLeadingDimensions) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  const Layout s{n, n + 1, n + 2, n + 3, n + 4, n + 5};
  check_against_cpu<float>(fill, s, true, rng_);
  check_against_cpu<double>(fill, s, true, rng_);
  check_against_cpu<float>(fill, s, false, rng_);
  check_against_cpu<double>(fill, s, false, rng_);
}

// The dense product's semantics, against plain loops (whatever the CPU BLAS does with them): Inf
// and NaN in A and B, a zero of M(G) times an Inf is NaN, NaN in G's dropped triangle stays out.
template <typename T>
void check_nonfinite(Fill fill, int64_t n, std::mt19937_64& rng) {
  SCOPED_TRACE(sizeof(T) == 4 ? "float" : "double");
  auto G = dense<T>(n, n, test::integers(rng), &fill);
  auto A = dense<T>(n, n, test::integers(rng)), B = dense<T>(n, n, test::integers(rng));
  const T inf = std::numeric_limits<T>::infinity();
  std::uniform_int_distribution<int64_t> pos(0, n - 1);
  B[size_t(pos(rng) * n + pos(rng))] = inf;
  B[size_t(pos(rng) * n + pos(rng))] = -inf;
  A[size_t(pos(rng) * n + pos(rng))] = inf;
  A[size_t(pos(rng) * n + pos(rng))] = test::kNaN<T>;
  std::vector<T> out(static_cast<size_t>(n * n));
  test::poison(out);
  DeviceBuffer<T> g(G), a(A), b(B), da(out), db(out);
  trtrmm_backward(fill, n, g.get(), n, a.get(), n, b.get(), n, da.get(), n, db.get(), n);
  TEST_CUDA(cudaGetLastError());
  const auto dA = da.download(), dB = db.download();
  auto m = [&](int64_t i, int64_t j) {
    return test::in_triangle(fill, i, j) ? double(G[size_t(i * n + j)]) : 0.0;
  };
  std::vector<T> wA(out.size()), wB(out.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sa = 0, sb = 0;
      for (int64_t k = 0; k < n; ++k) {
        sa += m(i, k) * double(B[size_t(j * n + k)]);  // (M(G)·Bᵀ)(i, j)
        sb += double(A[size_t(k * n + i)]) * m(k, j);  // (Aᵀ·M(G))(i, j)
      }
      wA[size_t(i * n + j)] = T(sa);
      wB[size_t(i * n + j)] = T(sb);
    }
  EXPECT_TRUE(check_output("dA", n, dA.data(), n, wA.data(), n));
  EXPECT_TRUE(check_output("dB", n, dB.data(), n, wB.data(), n));
}

TEST_P(GpuBackward, NonFiniteAsTheDenseProduct) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  if (n > 300) GTEST_SKIP() << "the plain-loop reference is checked up to n = 300";
  check_nonfinite<float>(fill, n, rng_);
  check_nonfinite<double>(fill, n, rng_);
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuBackward,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(1, 2, 3, 17, 64, 65, 127,
                                                                       129, 130, 300, 1000, 2500)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param));
                         });

// A batch of gradients with G per entry, A or B shared (stride 0), distinct strides with gaps:
// each entry against the CPU backward, exactly (integers), the gaps untouched.
template <typename T>
void check_batched(Fill fill, int64_t n, int shared, std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(sizeof(T) == 4 ? "float" : "double") + ", shared " +
               std::to_string(shared));
  const int64_t batch = 3, ld = n + 1;
  const int64_t sg = n * ld + 3, sa = shared == 1 ? 0 : n * ld + 4, sb = shared == 2 ? 0 : n * ld + 5;
  const int64_t sda = n * ld + 6, sdb = n * ld + 7;
  std::vector<T> G, A, B;
  for (int64_t b = 0; b < batch; ++b) {
    auto g = dense<T>(n, ld, test::integers(rng), &fill);
    auto a = dense<T>(n, ld, test::integers(rng)), bb = dense<T>(n, ld, test::integers(rng));
    g.resize(size_t(sg), test::kNaN<T>);
    a.resize(size_t(n * ld + 4), test::kNaN<T>);
    bb.resize(size_t(n * ld + 5), test::kNaN<T>);
    G.insert(G.end(), g.begin(), g.end());
    if (sa != 0 || b == 0) A.insert(A.end(), a.begin(), a.end());
    if (sb != 0 || b == 0) B.insert(B.end(), bb.begin(), bb.end());
  }
  std::vector<T> oA(size_t(batch * sda)), oB(size_t(batch * sdb));
  test::poison(oA);
  test::poison(oB);
  DeviceBuffer<T> g(G), a(A), b(B), da(oA), db(oB);
  trtrmm_backward_strided_batched(fill, n, g.get(), ld, sg, a.get(), ld, sa, b.get(), ld, sb,
                                  da.get(), ld, sda, db.get(), ld, sdb, batch);
  TEST_CUDA(cudaGetLastError());
  const auto dA = da.download(), dB = db.download();
  for (int64_t e = 0; e < batch; ++e) {
    std::vector<T> rA(size_t(n * n)), rB(rA.size());
    cpu::trtrmm_backward(fill, n, G.data() + e * sg, ld, A.data() + e * sa, ld,
                         B.data() + e * sb, ld, rA.data(), n, rB.data(), n);
    EXPECT_TRUE(check_output("dA", n, dA.data() + e * sda, ld, rA.data(), n)) << "batch " << e;
    EXPECT_TRUE(check_output("dB", n, dB.data() + e * sdb, ld, rB.data(), n)) << "batch " << e;
    for (int64_t x = n * ld; x < sda; ++x)
      ASSERT_TRUE(std::isnan(dA[size_t(e * sda + x)])) << "gap after dA " << e << " written";
    for (int64_t x = n * ld; x < sdb; ++x)
      ASSERT_TRUE(std::isnan(dB[size_t(e * sdb + x)])) << "gap after dB " << e << " written";
  }
}

class GpuBackwardBatched : public ::testing::TestWithParam<Param>, public Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

TEST_P(GpuBackwardBatched, EachEntryAsTheCpuBackward) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  for (const int shared : {0, 1, 2}) {  // none, A, B
    check_batched<float>(fill, n, shared, rng_);
    check_batched<double>(fill, n, shared, rng_);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuBackwardBatched,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(1, 33, 130)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(GpuBackwardErrors, BadArgumentsThrowNamingTheArgumentAndWriteNothing) {
  SKIP_WITHOUT_GPU();
  const int64_t n = 16;
  std::vector<float> host(static_cast<size_t>(n * n), 1.f), poisoned(host.size());
  test::poison(poisoned);
  DeviceBuffer<float> G(host), A(host), B(host), dA(poisoned), dB(poisoned);
  auto expect_error = [&](const char* name, auto&& call) {
    test::expect_invalid_argument(name, call, poisoned, {&dA, &dB});
  };
  const auto g = G.get(), a = A.get(), b = B.get();
  const auto da = dA.get(), db = dB.get();
  expect_error("n = -1", [&] { trtrmm_backward(Fill::Upper, -1, g, n, a, n, b, n, da, n, db, n); });
  expect_error("ldg", [&] { trtrmm_backward(Fill::Upper, n, g, n - 1, a, n, b, n, da, n, db, n); });
  expect_error("lda", [&] { trtrmm_backward(Fill::Upper, n, g, n, a, 2, b, n, da, n, db, n); });
  expect_error("ldb", [&] { trtrmm_backward(Fill::Lower, n, g, n, a, n, b, 0, da, n, db, n); });
  expect_error("ldda", [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, da, 1, db, n); });
  expect_error("lddb", [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, da, n, db, 3); });
  expect_error("G is null",
               [&] { trtrmm_backward(Fill::Upper, n, nullptr, n, a, n, b, n, da, n, db, n); });
  expect_error("dA is null",
               [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, nullptr, n, db, n); });
  expect_error("dB is null",
               [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, da, n, nullptr, n); });
  expect_error("dA overlaps A", [&] { trtrmm_backward(Fill::Upper, n, g, n, da, n, b, n, da, n, db, n); });
  expect_error("dB overlaps B", [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, db, n, da, n, db, n); });
  expect_error("dA overlaps G", [&] { trtrmm_backward(Fill::Upper, n, da, n, a, n, b, n, da, n, db, n); });
  expect_error("dB overlaps dA", [&] { trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, da, n, da, n); });
  expect_error("fill = 2", [&] {
    trtrmm_backward(static_cast<Fill>(2), n, g, n, a, n, b, n, da, n, db, n);
  });
  expect_error("stride_da", [&] {
    trtrmm_backward_strided_batched(Fill::Upper, n, g, n, 0, a, n, 0, b, n, 0, da, n, 1, db, n,
                                    n * n, 2);
  });
  expect_error("stride_g = -1", [&] {
    trtrmm_backward_strided_batched(Fill::Upper, n, g, n, -1, a, n, 0, b, n, 0, da, n, n * n, db,
                                    n, n * n, 1);
  });
  expect_error("kernel", [&] {
    Options o;
    o.kernel = "simt_fp64";
    trtrmm_backward(Fill::Upper, n, g, n, a, n, b, n, da, n, db, n, nullptr, o);
  });
  EXPECT_NO_THROW(trtrmm_backward(Fill::Upper, 0, static_cast<const float*>(nullptr), 1, nullptr,
                                  1, nullptr, 1, nullptr, 1, nullptr, 1));
}

}  // namespace
}  // namespace trimm
