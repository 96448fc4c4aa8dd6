// trimm::cpu::trtrmm (fp32, OpenBLAS strips) against the fp64 reference. Inputs are fresh each run;
// the unreferenced triangles, the ld padding and C itself start as NaN so that any stray read or
// missed write shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_util.hpp"
#include "trimm/cpu.hpp"

namespace trimm {
namespace {

struct Problem {
  Fill fill;
  int64_t n, lda, ldb, ldc;
};

// Runs cpu::trtrmm on inputs from `gen` and checks C against the reference, the ld padding of C
// untouched and the inputs unchanged.
template <typename Gen>
void run_and_check(const Problem& p, Gen&& gen, bool exact, const Options& options = {}) {
  const auto A = test::make_triangular<float>(p.fill, p.n, p.lda, gen);
  const auto B = test::make_triangular<float>(p.fill, p.n, p.ldb, gen);
  const auto A0 = A, B0 = B;
  std::vector<float> C(static_cast<size_t>(p.n * p.ldc));
  test::poison(C);
  cpu::trtrmm(p.fill, p.n, A.data(), p.lda, B.data(), p.ldb, C.data(), p.ldc, options);

  std::vector<double> ref(static_cast<size_t>(p.n * p.n));
  cpu::reference_trtrmm(p.fill, p.n, A.data(), p.lda, B.data(), p.ldb, ref.data(), p.n);
  if (exact)
    EXPECT_TRUE(test::equals_exactly(p.fill, p.n, C.data(), p.ldc, ref.data(), p.n));
  else
    EXPECT_TRUE(test::is_close(p.fill, p.n, C.data(), p.ldc, ref.data(), p.n));
  for (int64_t i = 0; i < p.n; ++i)
    for (int64_t j = p.n; j < p.ldc; ++j)
      ASSERT_TRUE(std::isnan(C[i * p.ldc + j])) << "padding C[" << i << "][" << j << "] written";
  EXPECT_TRUE(test::same_bits(A0, A)) << "A modified";
  EXPECT_TRUE(test::same_bits(B0, B)) << "B modified";
}

using test::Seeded;

// (fill, n) over sizes that do and do not fit the 128-row strips.
class CpuFp32Trtrmm : public ::testing::TestWithParam<std::tuple<Fill, int64_t>>, public Seeded {};

TEST_P(CpuFp32Trtrmm, IntegerInputsMatchReferenceExactly) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  run_and_check({fill, n, n, n, n}, test::integers(rng_), true);
}

TEST_P(CpuFp32Trtrmm, UniformInputsMatchReference) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  run_and_check({fill, n, n, n, n}, test::uniform(rng_), false);
}

TEST_P(CpuFp32Trtrmm, PaddedLeadingDimensions) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  run_and_check({fill, n, n + 3, n + 16, n + 1}, test::integers(rng_), true);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, CpuFp32Trtrmm,
    ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values<int64_t>(1, 2, 3, 17, 31, 64, 127, 128, 129, 255, 1000,
                                                  1024)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_n" +
             std::to_string(std::get<1>(info.param));
    });

class CpuFp32TrtrmmLarge : public ::testing::Test, public Seeded {};

// 4097 = 16 strips of 256 rows (strip_rows) + 1 row; the reference alone takes a few seconds.
TEST_F(CpuFp32TrtrmmLarge, N4097IntegerInputsMatchReferenceExactly) {
  SCOPED_TRACE(test::seed_note(seed_));
  run_and_check({Fill::Upper, 4097, 4097, 4100, 4097}, test::integers(rng_), true);
  run_and_check({Fill::Lower, 4097, 4100, 4097, 4097}, test::integers(rng_), true);
}

class CpuFp32TrtrmmOptions : public ::testing::TestWithParam<Fill>, public Seeded {};

TEST_P(CpuFp32TrtrmmOptions, AcceptsKernelNameAndBothPrecisions) {
  SCOPED_TRACE(test::seed_note(seed_));
  const Fill fill = GetParam();
  run_and_check({fill, 300, 300, 300, 300}, test::integers(rng_), true,
                {Precision::Ieee, "cpu_openblas_strips"});
  run_and_check({fill, 300, 300, 300, 300}, test::integers(rng_), true, {Precision::Auto, ""});
}

// 0·Inf is NaN: C's zero triangle has to be written, not computed.
TEST_P(CpuFp32TrtrmmOptions, InfInputsLeaveZeroTriangleZero) {
  SCOPED_TRACE(test::seed_note(seed_));
  const Fill fill = GetParam();
  const int64_t n = 300;
  auto A = test::make_triangular<float>(fill, n, n, test::integers(rng_));
  auto B = test::make_triangular<float>(fill, n, n, test::integers(rng_));
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < n; i += 7) {
    A[i * n + i] = inf;
    B[i * n + i] = -inf;
  }
  std::vector<float> C(static_cast<size_t>(n * n));
  test::poison(C);
  cpu::trtrmm(fill, n, A.data(), n, B.data(), n, C.data(), n);
  EXPECT_TRUE(test::zero_outside(fill, n, C.data(), n));
}

INSTANTIATE_TEST_SUITE_P(Fills, CpuFp32TrtrmmOptions,
                         ::testing::Values(Fill::Upper, Fill::Lower),
                         [](const auto& info) { return std::string(to_string(info.param)); });

class CpuFp32TrtrmmStridedBatched : public ::testing::TestWithParam<Fill>, public Seeded {};

// Each C of the batch against the reference of its own A and B; stride 0 shares one A or B.
void check_batch(Fill fill, int64_t n, int64_t ld, int64_t stride_a, int64_t stride_b,
                 int64_t batch, std::mt19937_64& rng) {
  const int64_t stride_c = n * ld + 5;
  const auto gen = test::integers(rng);
  auto operand = [&](int64_t stride) {
    std::vector<float> x(static_cast<size_t>((batch - 1) * stride + n * ld), test::kNaN<float>);
    for (int64_t b = 0; b < batch; ++b) {
      const auto m = test::make_triangular<float>(fill, n, ld, gen);
      std::copy(m.begin(), m.end(), x.begin() + b * stride);
    }
    return x;
  };
  const auto A = operand(stride_a), B = operand(stride_b);
  const auto A0 = A, B0 = B;
  std::vector<float> C(static_cast<size_t>((batch - 1) * stride_c + n * ld));
  test::poison(C);
  cpu::trtrmm_strided_batched(fill, n, A.data(), ld, stride_a, B.data(), ld, stride_b, C.data(),
                              ld, stride_c, batch);
  std::vector<double> ref(static_cast<size_t>(n * n));
  for (int64_t b = 0; b < batch; ++b) {
    SCOPED_TRACE("batch entry " + std::to_string(b));
    cpu::reference_trtrmm(fill, n, A.data() + b * stride_a, ld, B.data() + b * stride_b, ld,
                          ref.data(), n);
    EXPECT_TRUE(test::equals_exactly(fill, n, C.data() + b * stride_c, ld, ref.data(), n));
  }
  for (int64_t b = 0; b + 1 < batch; ++b)
    for (int64_t e = n * ld; e < stride_c; ++e)
      ASSERT_TRUE(std::isnan(C[b * stride_c + e])) << "gap after C " << b << " written";
  EXPECT_TRUE(test::same_bits(A0, A)) << "A modified";
  EXPECT_TRUE(test::same_bits(B0, B)) << "B modified";
}

TEST_P(CpuFp32TrtrmmStridedBatched, DistinctMatrices) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = 129, ld = 131;
  check_batch(GetParam(), n, ld, n * ld + 7, n * ld, 3, rng_);
}

TEST_P(CpuFp32TrtrmmStridedBatched, BroadcastA) {
  SCOPED_TRACE(test::seed_note(seed_));
  check_batch(GetParam(), 100, 100, 0, 100 * 100, 3, rng_);
}

TEST_P(CpuFp32TrtrmmStridedBatched, BroadcastB) {
  SCOPED_TRACE(test::seed_note(seed_));
  check_batch(GetParam(), 257, 260, 257 * 260, 0, 2, rng_);
}

TEST_P(CpuFp32TrtrmmStridedBatched, OneByOneMatrices) {
  SCOPED_TRACE(test::seed_note(seed_));
  check_batch(GetParam(), 1, 1, 2, 1, 4, rng_);
}

TEST_P(CpuFp32TrtrmmStridedBatched, EmptyBatchOrSizeWritesNothing) {
  std::vector<float> A(64, 1.0f), B(64, 1.0f), C(64);
  test::poison(C);
  const auto C0 = C;
  cpu::trtrmm_strided_batched(GetParam(), 8, A.data(), 8, 0, B.data(), 8, 0, C.data(), 8, 64, 0);
  cpu::trtrmm_strided_batched(GetParam(), 0, A.data(), 1, 0, B.data(), 1, 0, C.data(), 1, 0, 4);
  cpu::trtrmm(GetParam(), 0, static_cast<const float*>(nullptr), 1,
              static_cast<const float*>(nullptr), 1, static_cast<float*>(nullptr), 1);
  EXPECT_TRUE(test::same_bits(C0, C));
}

INSTANTIATE_TEST_SUITE_P(Fills, CpuFp32TrtrmmStridedBatched,
                         ::testing::Values(Fill::Upper, Fill::Lower),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// Each bad argument throws InvalidArgument naming it, with C left as it was.
class CpuFp32TrtrmmArgs : public ::testing::Test {
 protected:
  static constexpr int64_t n = 8;
  std::vector<float> A = std::vector<float>(4 * n * n, 1.0f), B = A, C = A;

  void expect_rejected(const std::function<void()>& call, const std::string& message_part) {
    const auto C0 = C;
    try {
      call();
      ADD_FAILURE() << "accepted; expected an error naming '" << message_part << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(message_part), std::string::npos)
          << "what() = " << e.what();
    }
    EXPECT_TRUE(test::same_bits(C0, C)) << "C written on error";
  }
  void single(int64_t n_, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
              int64_t ldc, const Options& options, const std::string& message_part) {
    expect_rejected([&] { cpu::trtrmm(Fill::Upper, n_, a, lda, b, ldb, c, ldc, options); },
                    "trimm::cpu::trtrmm: " + message_part);
  }
  void batched(int64_t stride_a, int64_t stride_b, float* c, int64_t stride_c, int64_t batch,
               const Options& options, const std::string& message_part) {
    expect_rejected(
        [&] {
          cpu::trtrmm_strided_batched(Fill::Lower, n, A.data(), n, stride_a, B.data(), n,
                                      stride_b, c, n, stride_c, batch, options);
        },
        "trimm::cpu::trtrmm_strided_batched: " + message_part);
  }
};

TEST_F(CpuFp32TrtrmmArgs, Trtrmm) {
  const float* a = A.data();
  const float* b = B.data();
  float* c = C.data();
  single(-1, a, n, b, n, c, n, {}, "n = -1");
  single(n, a, n - 1, b, n, c, n, {}, "lda = 7");
  single(n, a, n, b, 0, c, n, {}, "ldb = 0");
  single(n, a, n, b, n, c, 3, {}, "ldc = 3");
  single(0, a, 0, b, 1, c, 1, {}, "lda = 0");
  single(n, nullptr, n, b, n, c, n, {}, "A is null");
  single(n, a, n, nullptr, n, c, n, {}, "B is null");
  single(n, a, n, b, n, nullptr, n, {}, "C is null");
  single(n, c + 10, n, b, n, c, n, {}, "C overlaps A");
  single(n, a, n, c + n * n - 1, n, c, n, {}, "C overlaps B");
  single(n, a, n, b, n, c, n, {Precision::Auto, "simt_fp32"}, "kernel = 'simt_fp32'");
  single(0, a, 1, b, 1, c, 1, {Precision::Ieee, "bogus"}, "kernel = 'bogus'");
  single(n, a, n, b, n, c, n, {static_cast<Precision>(7), ""}, "precision = 7");
  // An ld so large that the matrix's extent wraps around int64 must not slip through.
  single(n, a, int64_t(1) << 62, b, n, c, n, {}, "lda = 4611686018427387904");
  // One matrix whose bytes, not its elements, overflow: its leading dimension is named (there is
  // no batch stride in this call).
  const int64_t big = INT32_MAX;
  single(big, a, big, b, big, c, big, {},
         "ldc = 2147483647, expected a matrix that fits in memory");
  // C's extent, (n-1)·ldc + n, past int64: refused by name, before anything computes it in
  // plain int64 (signed overflow; scripts/cpu_sanitize.sh's UBSan would report it).
  single(n, a, n, b, n, c, INT64_MAX, {},
         "ldc = 9223372036854775807, expected a matrix that fits in memory");
  // fp64 is plain fp64 arithmetic, as on the GPU: the tensor-core precisions are refused.
  std::vector<double> d(64, 1.0), dc(64, -3.0);
  expect_rejected(
      [&] {
        cpu::trtrmm(Fill::Upper, n, d.data(), n, d.data(), n, dc.data(), n, {Precision::Fp32, ""});
      },
      "trimm::cpu::trtrmm: precision = fp32 with double operands, expected auto or ieee");
  for (double x : dc) EXPECT_EQ(x, -3.0);
  expect_rejected(
      [&] { cpu::trtrmm(static_cast<Fill>(2), n, a, n, b, n, c, n); },
      "trimm::cpu::trtrmm: fill = 2, expected Fill::Upper or Fill::Lower");
}

TEST_F(CpuFp32TrtrmmArgs, StridedBatched) {
  float* c = C.data();
  batched(-1, 0, c, n * n, 2, {}, "stride_a = -1");
  batched(0, -n, c, n * n, 2, {}, "stride_b = -8");
  batched(0, 0, c, n * n, -1, {}, "batch = -1");
  batched(0, 0, c, n * n - 1, 2, {}, "stride_c = 63");
  batched(0, 0, c, 0, 3, {}, "stride_c = 0");
  batched(0, 0, c, -1, 1, {}, "stride_c = -1");  // >= 0 whatever the batch, as stride_a's
  batched(0, 0, nullptr, n * n, 2, {}, "C is null");
  // C's second matrix runs into A's.
  expect_rejected(
      [&] {
        cpu::trtrmm_strided_batched(Fill::Upper, n, C.data() + 2 * n * n, n, 0, B.data(), n, 0,
                                    C.data(), n, n * n + n, 2);
      },
      "trimm::cpu::trtrmm_strided_batched: C overlaps A");
  batched(0, 0, c, n * n, 2, {Precision::Auto, "naive"}, "kernel = 'naive'");
  batched(int64_t(1) << 61, 0, c, n * n, 5, {},
          "stride_a = 2305843009213693952 with batch = 5, expected a batch that fits in memory");
  // A batch too long for memory names the batch, not only a stride that is fine by itself.
  batched(0, 0, c, n * n, INT64_MAX, {},
          "stride_c = 64 with batch = 9223372036854775807, expected a batch that fits in memory");
  // One matrix too large for memory is its leading dimension's fault even in a batch (here with
  // A shared: stride 0).
  expect_rejected(
      [&] {
        cpu::trtrmm_strided_batched(Fill::Upper, 2, A.data(), int64_t(1) << 61, 0, B.data(), 2, 0,
                                    C.data(), 2, 4, 2);
      },
      "trimm::cpu::trtrmm_strided_batched: lda = 2305843009213693952, expected a matrix that "
      "fits in memory");
}

}  // namespace
}  // namespace trimm
