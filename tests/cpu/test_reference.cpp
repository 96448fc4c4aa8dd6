// The fp64 reference against the dense product written out in full: every other test trusts it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_util.hpp"
#include "trimm/cpu.hpp"

namespace trimm {
namespace {

using test::in_triangle;

// triu/tril(A·B) from the dense n³ product of the zero-filled triangles (`whole`: of the whole
// matrices, as reference_dense takes them), summed in increasing k like the reference.
template <typename T>
std::vector<double> brute_force(Fill fill, int64_t n, const std::vector<T>& A, int64_t lda,
                                const std::vector<T>& B, int64_t ldb, bool whole = false) {
  auto dense = [&](const std::vector<T>& X, int64_t ld) {
    std::vector<double> d(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (whole || in_triangle(fill, i, j)) d[i * n + j] = X[i * ld + j];
    return d;
  };
  const std::vector<double> a = dense(A, lda), b = dense(B, ldb);
  std::vector<double> c(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (int64_t k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = in_triangle(fill, i, j) ? s : 0.0;
    }
  return c;
}

// (fill, n): odd sizes on purpose; lda, ldb, ldc > n pad with NaN.
class CpuFp64Reference : public ::testing::TestWithParam<std::tuple<Fill, int64_t>> {
 protected:
  void SetUp() override { rng_.seed(seed_); }
  const uint64_t seed_ = test::seed();
  std::mt19937_64 rng_;
};

template <typename T, typename Gen>
void check_against_brute_force(Fill fill, int64_t n, Gen&& gen, bool exact) {
  const int64_t lda = n + 3, ldb = n + 1, ldc = n + 2;
  const auto A = test::make_triangular<T>(fill, n, lda, gen);
  const auto B = test::make_triangular<T>(fill, n, ldb, gen);
  std::vector<double> C(static_cast<size_t>(n * ldc), test::kNaN<double>);
  cpu::reference_trtrmm(fill, n, A.data(), lda, B.data(), ldb, C.data(), ldc);
  const auto expected = brute_force(fill, n, A, lda, B, ldb);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = ldc - 2; j < ldc; ++j)
      ASSERT_TRUE(std::isnan(C[i * ldc + j])) << "padding C[" << i << "][" << j << "] written";
  if (exact) {
    EXPECT_TRUE(test::equals_exactly(fill, n, C.data(), ldc, expected.data(), n));
  } else {
    // Rounding aside (a compiler may fuse the multiply-adds differently), both sum the same terms.
    EXPECT_TRUE(test::is_close(fill, n, C.data(), ldc, expected.data(), n, {1e-14, 1e-13, 1e-13}));
  }
}

TEST_P(CpuFp64Reference, Fp32IntegerInputsMatchBruteForceExactly) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_brute_force<float>(fill, n, test::integers(rng_), true);
}

TEST_P(CpuFp64Reference, Fp64IntegerInputsMatchBruteForceExactly) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_brute_force<double>(fill, n, test::integers(rng_, 1000), true);
}

TEST_P(CpuFp64Reference, Fp32UniformInputsMatchBruteForce) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_brute_force<float>(fill, n, test::uniform(rng_), false);
}

TEST_P(CpuFp64Reference, Fp64UniformInputsMatchBruteForce) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  check_against_brute_force<double>(fill, n, test::uniform(rng_), false);
}

// The dense yardstick (Structure::Detect's) against the product of the whole matrices written
// out in full: every element of A and B read, NaN and Inf carried as the sums carry them, C's
// other triangle zero. The sizes cross the reference's blocks of rows (17, 33, 64).
template <typename T>
void check_dense_against_brute_force(test::Kind kind, Fill fill, int64_t n, std::mt19937_64& rng) {
  const int64_t lda = n + 3, ldb = n + 1, ldc = n + 2;
  const auto A = test::make<T>(kind, fill, n, lda, test::integers(rng), rng);
  const auto B = test::make<T>(kind, fill, n, ldb, test::integers(rng), rng);
  std::vector<double> C(static_cast<size_t>(n * ldc), test::kNaN<double>);
  cpu::reference_dense(fill, n, A.data(), lda, B.data(), ldb, C.data(), ldc);
  const auto expected = brute_force(fill, n, A, lda, B, ldb, true);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = ldc - 2; j < ldc; ++j)
      ASSERT_TRUE(std::isnan(C[i * ldc + j])) << "padding C[" << i << "][" << j << "] written";
  // Integers: every sum exact, so equality; NaN and Inf where the brute force has them.
  EXPECT_TRUE(test::matches_dense(fill, n, C.data(), ldc, expected, true)) << test::name(kind);
}

TEST_P(CpuFp64Reference, DenseMatchesBruteForceOnAnyInput) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  for (const test::Kind kind : {test::Kind::Dense, test::Kind::NonFinite}) {
    check_dense_against_brute_force<float>(kind, fill, n, rng_);
    check_dense_against_brute_force<double>(kind, fill, n, rng_);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, CpuFp64Reference,
    ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values<int64_t>(1, 2, 3, 5, 17, 33, 64)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_n" +
             std::to_string(std::get<1>(info.param));
    });

TEST(CpuFp64ReferenceArgs, RejectsLikeTrtrmm) {
  std::vector<float> A(16, 1.0f), B(16, 1.0f);
  std::vector<double> C(16, 0.0);
  try {
    cpu::reference_trtrmm(Fill::Upper, 4, A.data(), 3, B.data(), 4, C.data(), 4);
    FAIL() << "lda < n accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("trimm::cpu::reference_trtrmm: lda = 3"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(cpu::reference_trtrmm(Fill::Lower, -1, A.data(), 4, B.data(), 4, C.data(), 4),
               InvalidArgument);
  EXPECT_THROW(cpu::reference_trtrmm(Fill::Upper, 4, A.data(), 4, nullptr, 4, C.data(), 4),
               InvalidArgument);
}

// C is double and A float: the overlap check must measure C in 8-byte elements.
TEST(CpuFp64ReferenceArgs, DetectsOverlapOfDoubleCWithFloatA) {
  const int64_t n = 4;
  std::vector<double> storage(static_cast<size_t>(2 * n * n), 0.0);
  // A starts half-way through C's n² doubles: disjoint only if C were measured in floats.
  const float* A = reinterpret_cast<const float*>(storage.data() + n * n / 2);
  std::vector<float> B(static_cast<size_t>(n * n), 1.0f);
  try {
    cpu::reference_trtrmm(Fill::Upper, n, A, n, B.data(), n, storage.data(), n);
    FAIL() << "C overlapping A accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("C overlaps A"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace trimm
