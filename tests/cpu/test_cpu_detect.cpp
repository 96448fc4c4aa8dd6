// Structure::Detect on the CPU backend: C must equal triu(A·B) (or tril) of A and B exactly as
// they are, against the dense fp64 product: noise in the other triangle, dense inputs, and NaN
// and Inf wherever they are (C has NaN/Inf exactly where the dense product does).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/test_util.hpp"
#include "cpu/structure.hpp"
#include "trimm/cpu.hpp"

namespace trimm {
namespace {

using test::in_triangle;

using test::Kind;
using test::make;
using test::matches_dense;
using test::name;

using Param = std::tuple<Kind, Fill, int64_t>;
class CpuDetect : public ::testing::TestWithParam<Param>, public test::Seeded {};

TEST_P(CpuDetect, EqualsTheDenseProductsTriangle) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kind, fill, n] = GetParam();
  const int64_t lda = n + 3, ldb = n + 1, ldc = n + 2;
  // Integers keep every sum exact; NonFinite uses them too, so NaN/Inf placement is all there is.
  const bool exact = kind != Kind::Noisy;
  auto gen = exact ? std::function<double()>(test::integers(rng_))
                   : std::function<double()>(test::uniform(rng_));
  const auto A = make(kind, fill, n, lda, gen, rng_);
  const auto B = make(kind, fill, n, ldb, gen, rng_);
  const auto A0 = A, B0 = B;
  std::vector<float> C(static_cast<size_t>(n * ldc));
  test::poison(C);
  Options o;
  o.structure = Structure::Detect;
  cpu::trtrmm(fill, n, A.data(), lda, B.data(), ldb, C.data(), ldc, o);
  std::vector<double> ref(static_cast<size_t>(n * n));
  cpu::reference_dense(fill, n, A.data(), lda, B.data(), ldb, ref.data(), n);
  EXPECT_TRUE(matches_dense(fill, n, C.data(), ldc, ref, exact));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = n; j < ldc; ++j)
      ASSERT_TRUE(std::isnan(C[i * ldc + j])) << "padding C[" << i << "][" << j << "] written";
  EXPECT_TRUE(test::same_bits(A0, A)) << "A modified";
  EXPECT_TRUE(test::same_bits(B0, B)) << "B modified";
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, CpuDetect,
    ::testing::Combine(::testing::Values(Kind::Triangular, Kind::Noisy, Kind::Dense,
                                         Kind::NonFinite, Kind::TriangularNonFinite),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values<int64_t>(1, 2, 3, 17, 127, 129, 300)),
    [](const auto& info) {
      return std::string(name(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param)) + "_n" + std::to_string(std::get<2>(info.param));
    });

// fp64: the same paths on dtrmm/dgemm, against the dense fp64 reference (integers: exact).
TEST_P(CpuDetect, Fp64EqualsTheDenseProductsTriangle) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kind, fill, n] = GetParam();
  const int64_t ld = n + 3;
  const auto Af = make(kind, fill, n, ld, test::integers(rng_), rng_);
  const auto Bf = make(kind, fill, n, ld, test::integers(rng_), rng_);
  const std::vector<double> A(Af.begin(), Af.end()), B(Bf.begin(), Bf.end());
  std::vector<double> C(static_cast<size_t>(n * ld));
  test::poison(C);
  Options o;
  o.structure = Structure::Detect;
  cpu::trtrmm(fill, n, A.data(), ld, B.data(), ld, C.data(), ld, o);
  std::vector<double> ref(static_cast<size_t>(n * n));
  cpu::reference_dense(fill, n, A.data(), ld, B.data(), ld, ref.data(), n);
  // Integer inputs sum exactly in any order; the noise (not integers) within 1e-12 relative.
  const double tol = kind == Kind::Noisy ? 1e-12 : 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double c = C[size_t(i * ld + j)], r = ref[size_t(i * n + j)];
      ASSERT_TRUE(std::isnan(r) ? std::isnan(c)
                                : c == r || std::abs(c - r) <= tol * (1.0 + std::abs(r)))
          << "C[" << i << "][" << j << "] = " << c << ", dense reference " << r;
    }
}

// Detect changes nothing for inputs that honour the contract of Structure::Triangular, but the
// two modes differ as soon as the other triangle holds anything.
TEST(CpuDetectModes, TriangularModeIgnoresWhatDetectCounts) {
  std::mt19937_64 rng(test::seed());
  const int64_t n = 200;
  const auto A = make(Kind::Noisy, Fill::Upper, n, n, test::integers(rng), rng);
  const auto B = make(Kind::Noisy, Fill::Upper, n, n, test::integers(rng), rng);
  std::vector<float> tri(static_cast<size_t>(n * n)), det(tri.size());
  cpu::trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, tri.data(), n);
  Options o;
  o.structure = Structure::Detect;
  cpu::trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, det.data(), n, o);
  std::vector<double> band(tri.size()), dense(tri.size());
  cpu::reference_trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, band.data(), n);
  cpu::reference_dense(Fill::Upper, n, A.data(), n, B.data(), n, dense.data(), n);
  EXPECT_TRUE(test::equals_exactly(Fill::Upper, n, tri.data(), n, band.data(), n));
  EXPECT_TRUE(matches_dense(Fill::Upper, n, det.data(), n, dense, false));
  EXPECT_FALSE(test::same_bits(tri, det)) << "the noise should have changed C";
}

TEST(CpuDetectModes, BatchMixesStructuredAndGeneralMatrices) {
  std::mt19937_64 rng(test::seed());
  const int64_t n = 150, stride = n * n, batch = 3;
  std::vector<float> A, B;
  const Kind kinds[batch] = {Kind::Triangular, Kind::Dense, Kind::NonFinite};
  for (const Kind k : kinds) {
    const auto a = make(k, Fill::Lower, n, n, test::integers(rng), rng);
    const auto b = make(k, Fill::Lower, n, n, test::integers(rng), rng);
    A.insert(A.end(), a.begin(), a.end());
    B.insert(B.end(), b.begin(), b.end());
  }
  std::vector<float> C(static_cast<size_t>(batch * stride));
  test::poison(C);
  Options o;
  o.structure = Structure::Detect;
  cpu::trtrmm_strided_batched(Fill::Lower, n, A.data(), n, stride, B.data(), n, stride, C.data(),
                              n, stride, batch, o);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> ref(static_cast<size_t>(stride));
    cpu::reference_dense(Fill::Lower, n, A.data() + b * stride, n, B.data() + b * stride, n,
                         ref.data(), n);
    EXPECT_TRUE(matches_dense(Fill::Lower, n, C.data() + b * stride, n, ref, true))
        << name(kinds[b]);
  }
}

TEST(CpuDetectModes, BadStructureIsNamedAndNothingIsWritten) {
  const int64_t n = 8;
  std::vector<float> A(n * n, 1.f), B(n * n, 1.f), C(n * n);
  test::poison(C);
  const auto C0 = C;
  Options o;
  o.structure = static_cast<Structure>(7);
  try {
    cpu::trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, C.data(), n, o);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("structure = 7"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(test::same_bits(C0, C));
}

// What the scan reports, on a matrix small enough to read.
TEST(CpuFindStructure, ReportsRowAndColumnExtentsAndNonFinite) {
  // A (3×3, ld 4):  [0 2 0 | x]     B:  [1 0 0 | x]
  //                 [0 0 0 | x]         [0 0 5 | x]
  //                 [7 0 1 | x]         [0 0 0 | x]
  const float x = test::kNaN<float>;  // padding: never scanned
  const std::vector<float> A = {0, 2, 0, x, 0, 0, 0, x, 7, 0, 1, x};
  const std::vector<float> B = {1, 0, 0, x, 0, 0, 5, x, 0, 0, 0, x};
  const cpu::Found f = cpu::find_structure(3, A.data(), 4, B.data(), 4);
  EXPECT_TRUE(f.finite);
  EXPECT_EQ(f.a_lo, (std::vector<int64_t>{1, 3, 0}));
  EXPECT_EQ(f.a_hi, (std::vector<int64_t>{2, 0, 3}));
  EXPECT_EQ(f.b_lo, (std::vector<int64_t>{0, 3, 1}));
  EXPECT_EQ(f.b_hi, (std::vector<int64_t>{1, 0, 2}));
  EXPECT_FALSE(f.triangular(Fill::Upper));  // A(2, 0) = 7
  EXPECT_FALSE(f.triangular(Fill::Lower));  // A(0, 1) = 2
  std::vector<float> A2 = A;
  A2[4 + 1] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(cpu::find_structure(3, A2.data(), 4, B.data(), 4).finite);
  const std::vector<float> U = {1, 2, 3, x, 0, 4, 5, x, 0, 0, 6, x};
  EXPECT_TRUE(cpu::find_structure(3, U.data(), 4, U.data(), 4).triangular(Fill::Upper));
}

// Detect on n×n integer-valued A and B (ld = n) into a poisoned C, against the dense fp64
// product's triangle, exactly.
::testing::AssertionResult detect_matches_dense(Fill fill, int64_t n, const std::vector<float>& A,
                                                const std::vector<float>& B) {
  std::vector<float> C(size_t(n * n));
  test::poison(C);
  Options o;
  o.structure = Structure::Detect;
  cpu::trtrmm(fill, n, A.data(), n, B.data(), n, C.data(), n, o);
  std::vector<double> ref(size_t(n * n));
  cpu::reference_dense(fill, n, A.data(), n, B.data(), n, ref.data(), n);
  return matches_dense(fill, n, C.data(), n, ref, /*exact=*/true);
}

// One value just outside the triangle (the first off-diagonal of the other side), in A or in B:
// not triangular, so Detect takes the general path and C is the dense product's triangle. The
// random noisy inputs fill the whole other triangle and never test that boundary alone.
TEST(CpuDetectModes, OneValueJustOffTheDiagonal) {
  constexpr int64_t n = 6;
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const bool in_a : {true, false}) {
      SCOPED_TRACE(std::string(to_string(fill)) + (in_a ? ", in A" : ", in B"));
      std::vector<float> A(n * n, 0.f), B(n * n, 0.f);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (in_triangle(fill, i, j)) {
            A[size_t(i * n + j)] = float(1 + (i + 2 * j) % 3);
            B[size_t(i * n + j)] = float(1 + (2 * i + j) % 3);
          }
      // (3, 2) below the diagonal for Upper, (2, 3) above it for Lower.
      const int64_t at = fill == Fill::Upper ? 3 * n + 2 : 2 * n + 3;
      (in_a ? A : B)[size_t(at)] = 5.f;
      EXPECT_FALSE(cpu::find_structure(n, A.data(), n, B.data(), n).triangular(fill));
      EXPECT_TRUE(detect_matches_dense(fill, n, A, B));
    }
}

// A's nonzeros only in columns k < 4 and B's only in rows k >= 4: the supports touch without
// overlapping, so every product is zero, and C (poisoned first) must be written with zeros.
TEST(CpuDetectModes, TouchingSupportsGiveZero) {
  constexpr int64_t n = 8;
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    SCOPED_TRACE(to_string(fill));
    std::vector<float> A(n * n, 0.f), B(n * n, 0.f);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = 0; k < n; ++k) {
        if (k < 4) A[size_t(i * n + k)] = float(1 + (i + k) % 3);
        if (k >= 4) B[size_t(k * n + i)] = float(1 + (i * k) % 3);
      }
    std::vector<double> ref(n * n);
    cpu::reference_dense(fill, n, A.data(), n, B.data(), n, ref.data(), n);
    for (double r : ref) ASSERT_EQ(r, 0.0);
    EXPECT_TRUE(detect_matches_dense(fill, n, A, B));
  }
}

}  // namespace
}  // namespace trimm
