// trtrmm on double operands (both kernels: sm80_fp64, the default, and simt_fp64 by name)
// against the CPU's fp64 references: sizes on and off their 64×64 tiles, both triangles, ld > n,
// batches with shared operands, Triangular (the band: the other triangles NaN and never read)
// and Detect (the dense product's triangle on any input). C is poisoned with NaN before every
// call and every element of it is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/test_util.hpp"
#include "config/tile_config.hpp"
#include "kernels/gpu_util.hpp"
#include "trimm/cpu.hpp"
#include "trimm/cuda.hpp"

namespace trimm {
namespace {

using test::DeviceBuffer;
using test::Seeded;

struct Layout {
  int64_t n, lda, ldb, ldc;
};

// |c − r| <= 2·γ·M(i, j) + tiny on the triangle, where M = |A|·|B| over the same k and γ = 1.1·n·eps:
// both the GPU's FMA sums and the reference's plain sums are within γ·M of the exact value, for
// any input (no flakes from cancellation), and a dropped or doubled term of size ~1 exceeds it.
::testing::AssertionResult within_fp64_bound(Fill fill, int64_t n, const double* C, int64_t ldc,
                                             const std::vector<double>& ref,
                                             const std::vector<double>& abs_ref) {
  const double gamma = 1.1 * double(std::max<int64_t>(n, 1)) * std::ldexp(1.0, -53);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (!test::in_triangle(fill, i, j)) continue;
      const double c = C[i * ldc + j], r = ref[size_t(i * n + j)];
      const double bound = 2.0 * gamma * abs_ref[size_t(i * n + j)] + 1e-300;
      if (!(std::fabs(c - r) <= bound))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << c
                                             << ", reference " << r << ", bound " << bound;
    }
  return test::zero_outside(fill, n, C, ldc);
}

std::vector<double> absolute(std::vector<double> x) {
  for (double& v : x) v = std::fabs(v);  // NaN stays NaN (never read where it lies)
  return x;
}

// Nothing of C outside its n×n matrix written (the ld padding stays NaN).
::testing::AssertionResult padding_untouched(int64_t n, const double* C, int64_t ldc) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = n; j < ldc; ++j)
      if (!std::isnan(C[i * ldc + j]))
        return ::testing::AssertionFailure() << "padding C[" << i << "][" << j << "] written";
  return ::testing::AssertionSuccess();
}

// (kernel: "" for dispatch's default, or a name; fill; n)
using Param = std::tuple<std::string, Fill, int64_t>;

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const std::string& kernel = std::get<0>(info.param);
  return (kernel.empty() ? std::string("default") : kernel) + "_" +
         to_string(std::get<1>(info.param)) + "_n" + std::to_string(std::get<2>(info.param));
}

class GpuFp64 : public ::testing::TestWithParam<Param>, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
  }
  Options options(Structure structure = Structure::Triangular) const {
    Options o;
    o.kernel = std::get<0>(GetParam());
    o.structure = structure;
    return o;
  }

  // Triangular on n×n operands holding NaN or Inf: NaN and Inf exactly where reference_trtrmm
  // has them, every other element exactly (integer-valued inputs).
  void check_nonfinite(const std::vector<double>& A, const std::vector<double>& B) {
    const Fill fill = std::get<1>(GetParam());
    const int64_t n = std::get<2>(GetParam());
    std::vector<double> C0(static_cast<size_t>(n * n));
    test::poison(C0);
    DeviceBuffer<double> dA(A), dB(B), dC(C0);
    trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, options());
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    std::vector<double> ref(static_cast<size_t>(n * n));
    cpu::reference_trtrmm(fill, n, A.data(), n, B.data(), n, ref.data(), n);
    EXPECT_TRUE(test::matches_dense(fill, n, C.data(), n, ref, true));
  }

  // Triangular: inputs whose other triangle and padding are NaN, against reference_trtrmm.
  void check_triangular(const Layout& s, bool integers) {
    const Fill fill = std::get<1>(GetParam());
    std::function<double()> gen = test::normal(rng_);
    if (integers) gen = test::integers(rng_);
    const auto A = test::make_triangular<double>(fill, s.n, s.lda, gen);
    const auto B = test::make_triangular<double>(fill, s.n, s.ldb, gen);
    std::vector<double> C0(static_cast<size_t>(s.n * s.ldc));
    test::poison(C0);
    DeviceBuffer<double> dA(A), dB(B), dC(C0);
    ASSERT_NE(dC.get(), nullptr);
    trtrmm(fill, s.n, dA.get(), s.lda, dB.get(), s.ldb, dC.get(), s.ldc, nullptr, options());
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    std::vector<double> ref(static_cast<size_t>(s.n * s.n));
    cpu::reference_trtrmm(fill, s.n, A.data(), s.lda, B.data(), s.ldb, ref.data(), s.n);
    if (integers) {
      EXPECT_TRUE(test::equals_exactly(fill, s.n, C.data(), s.ldc, ref.data(), s.n));
    } else {
      std::vector<double> M(ref.size());
      const auto Aabs = absolute(A), Babs = absolute(B);
      cpu::reference_trtrmm(fill, s.n, Aabs.data(), s.lda, Babs.data(), s.ldb, M.data(), s.n);
      EXPECT_TRUE(within_fp64_bound(fill, s.n, C.data(), s.ldc, ref, M));
    }
    EXPECT_TRUE(padding_untouched(s.n, C.data(), s.ldc));
    EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
    EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
  }
};

TEST_P(GpuFp64, TriangularIntegersExact) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::get<2>(GetParam());
  check_triangular({n, n, n, n}, true);
}

TEST_P(GpuFp64, TriangularSignedWithinTheFp64Bound) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::get<2>(GetParam());
  check_triangular({n, n, n, n}, false);
}

TEST_P(GpuFp64, PaddedLeadingDimensions) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::get<2>(GetParam());
  check_triangular({n, n + 1, n + 3, n + 5}, true);
  check_triangular({n, n + 7, n + 2, n + 1}, false);
}

// Inf and NaN inside the triangles: the band's terms only, so exactly the elements whose band
// meets them turn non-finite (a kernel that multiplied structural zeros would put 0·Inf = NaN
// elsewhere), and C's other triangle stays exactly zero.
TEST_P(GpuFp64, TriangularNonFiniteOnlyInTheBand) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  auto A = test::make_triangular<double>(fill, n, n, test::integers(rng_));
  auto B = test::make_triangular<double>(fill, n, n, test::integers(rng_));
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t d = 0; d < n; d += 7) {
    A[d * n + d] = inf;
    const int64_t j = fill == Fill::Upper ? std::min(n - 1, d + 3) : std::max<int64_t>(0, d - 3);
    B[d * n + j] = -inf;
    if (d % 3 == 0) A[d * n + j] = test::kNaN<double>;
  }
  check_nonfinite(A, B);
}

// One NaN or Inf at a random place in A's or B's triangle: the tiles whose sums it reaches (or
// whose zeros it meets on sm80_fp64's tensor cores) run the band edges again in plain FMA, the
// others not; both must give the band's sums.
TEST_P(GpuFp64, TriangularOneNonFiniteValue) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  auto A = test::make_triangular<double>(fill, n, n, test::integers(rng_));
  auto B = test::make_triangular<double>(fill, n, n, test::integers(rng_));
  std::uniform_int_distribution<int64_t> pick(0, n - 1);
  int64_t i = pick(rng_), j = pick(rng_);
  if (!test::in_triangle(fill, i, j)) std::swap(i, j);
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {inf, -inf, test::kNaN<double>};
  (rng_() % 2 ? A : B)[i * n + j] = values[rng_() % 3];
  check_nonfinite(A, B);
}

// Structure::Detect's flag word: none; zeroed; every bit set (a stale word, whose epoch bits may
// even match the call's: only more flags, so a slower path, never a wrong one).
enum class FlagWord { None, Zeroed, Dirty };

// Structure::Detect: the dense product's triangle (every k of A and B as they are) against
// reference_dense, exactly on integer-valued inputs, NaN and Inf exactly where it has them;
// without a workspace (one dense launch) and with one (sm80_fp64 from
// config::kSm80Fp64GatedMinN: a scan, then the band or the dense launch by its flags).
TEST_P(GpuFp64, DetectEqualsTheDenseProductsTriangle) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  // Odd and even leading dimensions: sm80_fp64 copies two doubles at a time where A's and B's
  // rows are 16-byte aligned (even lds), one otherwise.
  const int64_t even = n + 2 - n % 2;
  // lda, ldb, inputs, and whether the other triangles' zeros are -0.0 (the scan reads no sign:
  // still triangular).
  using Case = std::tuple<int64_t, int64_t, test::Kind, bool>;
  for (const auto& [lda, ldb, kind, negative_zeros] :
       std::initializer_list<Case>{{n + 2, n + 5, test::Kind::Triangular, false},
                                   {n + 2, n + 5, test::Kind::Noisy, false},
                                   {n + 2, n + 5, test::Kind::Dense, false},
                                   {n + 2, n + 5, test::Kind::NonFinite, false},
                                   {n + 2, n + 5, test::Kind::TriangularNonFinite, false},
                                   {even, even, test::Kind::Triangular, true},
                                   {even, even, test::Kind::Dense, false},
                                   {even, even, test::Kind::NonFinite, false}}) {
    const int64_t ldc = n + 3;
    SCOPED_TRACE(test::name(kind) + std::string(", lda ") + std::to_string(lda) +
                 (negative_zeros ? ", -0.0 outside" : ""));
    const bool exact = kind != test::Kind::Noisy;
    auto gen = exact ? std::function<double()>(test::integers(rng_))
                     : std::function<double()>(test::uniform(rng_));
    auto A = test::make<double>(kind, fill, n, lda, gen, rng_);
    auto B = test::make<double>(kind, fill, n, ldb, gen, rng_);
    if (negative_zeros)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (!test::in_triangle(fill, i, j)) A[i * lda + j] = B[i * ldb + j] = -0.0;
    std::vector<double> ref(static_cast<size_t>(n * n));
    cpu::reference_dense(fill, n, A.data(), lda, B.data(), ldb, ref.data(), n);
    for (const FlagWord word : {FlagWord::None, FlagWord::Zeroed, FlagWord::Dirty}) {
      SCOPED_TRACE(word == FlagWord::None     ? "no workspace"
                   : word == FlagWord::Zeroed ? "zeroed flag word"
                                              : "dirty flag word");
      std::vector<double> C0(static_cast<size_t>(n * ldc));
      test::poison(C0);
      DeviceBuffer<double> dA(A), dB(B), dC(C0);
      DeviceBuffer<uint32_t> flags(
          std::vector<uint32_t>{word == FlagWord::Dirty ? 0xFFFFFFFFu : 0u});
      Options o = options(Structure::Detect);
      if (word != FlagWord::None) {
        o.workspace = flags.get();
        o.workspace_bytes = sizeof(uint32_t);
      }
      trtrmm(fill, n, dA.get(), lda, dB.get(), ldb, dC.get(), ldc, nullptr, o);
      TEST_CUDA(cudaGetLastError());
      const auto C = dC.download();
      // Noisy: |A|, |B| <= 1, so |C(i, j)| <= n and each sum is within 2·n·eps·n of the other.
      const double atol = 2.2 * double(n) * double(n) * std::ldexp(1.0, -53);
      EXPECT_TRUE(test::matches_dense(fill, n, C.data(), ldc, ref, exact, atol, 0.0));
      EXPECT_TRUE(padding_untouched(n, C.data(), ldc));
      EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
      EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
    }
  }
}

// Up to 1000: sm80_fp64 on its 32×32 tile in both modes, on eight warps up to 255
// (config::kSm80Fp64TinyEightWarpsMaxN, kSm80Fp64TinyDense) and on four at 801 and 1000, Detect's
// dense launch at 801 with the deeper ring (config::kSm80Fp64TinyDense); 1089 (34 tiles of 32 and
// one row, 17 of 64 and one): that tile for Triangular and the band (config::kSm80Fp64TinyMaxN),
// the 64×64 one for Detect's dense launch (config::kSm80Fp64TinyDenseMaxN). 1089 and up: Detect
// with a workspace gated (config::kSm80Fp64GatedMinN). 2049: Detect's dense launch on the 128×128
// tile (config::kSm80Fp64LargeMinN), Triangular and the band on 33 × 33 tiles of 64, more than the
// blocks resident at once, so that each block takes several tiles in turn (the ring restarting
// between them).
INSTANTIATE_TEST_SUITE_P(Sizes, GpuFp64,
                         ::testing::Combine(::testing::Values(std::string(),
                                                              std::string("simt_fp64"),
                                                              std::string("sm80_fp64_m8n8k4")),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(1, 2, 3, 17, 64, 127, 129,
                                                                       255, 801, 1000, 1089, 2049)),
                         param_name);

// Batches: A or B shared (stride 0) or not, distinct leading dimensions and strides with gaps;
// each problem against its own reference, the gaps left untouched, Triangular and Detect.
class GpuFp64Batched : public ::testing::TestWithParam<Param>, public Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }

  // `batch` problems of order n in one call, A or B shared (shared: 0 none, 1 A, 2 B; a shared
  // operand is entry 0's), lds n + 1, n + 2, n + 3 and strides with gaps of NaN. Triangular: each
  // entry's inputs triangular with NaN in the other triangles, against reference_trtrmm. Detect:
  // entry b's inputs of kinds[b] (integer-valued), against reference_dense, NaN and Inf where it
  // has them; with the flag word when `workspace`.
  void check_batch(int64_t n, int64_t batch, Structure structure, int shared,
                   const std::vector<test::Kind>& kinds, bool workspace) {
    const std::string& kernel = std::get<0>(GetParam());
    const Fill fill = std::get<1>(GetParam());
    const int64_t lda = n + 1, ldb = n + 2, ldc = n + 3;
    const int64_t sa = n * lda + 5, sb = n * ldb + 6, sc = n * ldc + 7;
    const bool share_a = shared == 1, share_b = shared == 2;
    const bool detect = structure == Structure::Detect;
    std::vector<double> A, B, C(static_cast<size_t>(batch * sc));
    test::poison(C);
    bool exact = true;
    for (int64_t b = 0; b < batch; ++b) {
      const test::Kind kind = kinds[size_t(b)];
      exact = exact && kind != test::Kind::Noisy;
      auto a = detect ? test::make<double>(kind, fill, n, lda, test::integers(rng_), rng_)
                      : test::make_triangular<double>(fill, n, lda, test::integers(rng_));
      auto bb = detect ? test::make<double>(kind, fill, n, ldb, test::integers(rng_), rng_)
                       : test::make_triangular<double>(fill, n, ldb, test::integers(rng_));
      a.resize(static_cast<size_t>(sa), test::kNaN<double>);
      bb.resize(static_cast<size_t>(sb), test::kNaN<double>);
      if (!share_a || b == 0) A.insert(A.end(), a.begin(), a.end());
      if (!share_b || b == 0) B.insert(B.end(), bb.begin(), bb.end());
    }
    DeviceBuffer<double> dA(A), dB(B), dC(C);
    DeviceBuffer<uint32_t> flags(std::vector<uint32_t>{0u});
    Options o;
    o.kernel = kernel;
    o.structure = structure;
    if (workspace) {
      o.workspace = flags.get();
      o.workspace_bytes = sizeof(uint32_t);
    }
    trtrmm_strided_batched(fill, n, dA.get(), lda, share_a ? 0 : sa, dB.get(), ldb,
                           share_b ? 0 : sb, dC.get(), ldc, sc, batch, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto out = dC.download();
    const std::string what = std::string(to_string(structure)) + ", shared " +
                             std::to_string(shared) + (workspace ? ", flag word" : "");
    // Noisy entries: the noise is not integer-valued; |C(i, j)| <= 2·n² bounds each sum's error.
    const double atol = 4.4 * double(n) * double(n) * double(n) * std::ldexp(1.0, -53);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<double> ref(static_cast<size_t>(n * n));
      const double* a = A.data() + (share_a ? 0 : b * sa);
      const double* bb = B.data() + (share_b ? 0 : b * sb);
      if (detect)
        cpu::reference_dense(fill, n, a, lda, bb, ldb, ref.data(), n);
      else
        cpu::reference_trtrmm(fill, n, a, lda, bb, ldb, ref.data(), n);
      EXPECT_TRUE(test::matches_dense(fill, n, out.data() + b * sc, ldc, ref, exact, atol, 0.0))
          << "batch " << b << ", " << what;
      for (int64_t e = 0; e < sc; ++e)
        if (e / ldc >= n || e % ldc >= n)
          ASSERT_TRUE(std::isnan(out[size_t(b * sc + e)]))
              << "batch " << b << " element " << e << " outside C written, " << what;
    }
  }
};

TEST_P(GpuFp64Batched, StridedBatchMatchesEachProblem) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::get<2>(GetParam());
  const std::vector<test::Kind> dense(3, test::Kind::Dense);
  for (const int shared : {0, 1, 2}) {  // none, A, B
    check_batch(n, 3, Structure::Triangular, shared, dense, false);
    for (const bool workspace : {false, true})
      check_batch(n, 3, Structure::Detect, shared, dense, workspace);
  }
}

// Detect with the flag word past config::kSm80Fp64GatedMinN, where sm80_fp64 scans and gates:
// one word for the whole batch, so one entry that is not triangular (noise) or not finite sends
// every entry to the dense launch; all triangular and finite, every entry to the band launch; a
// shared operand scanned once.
TEST_P(GpuFp64Batched, DetectGatedOverTheBatch) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n_param] = GetParam();
  if (n_param != 1 || kernel == "simt_fp64")
    GTEST_SKIP() << "run once per fill for each sm80_fp64 name (simt_fp64 is never gated)";
  const int64_t n = config::kSm80Fp64GatedMinN + 3;
  using K = test::Kind;
  check_batch(n, 2, Structure::Detect, 0, {K::Triangular, K::Triangular}, true);
  check_batch(n, 2, Structure::Detect, 1, {K::Triangular, K::TriangularNonFinite}, true);
  check_batch(n, 2, Structure::Detect, 2, {K::Triangular, K::Noisy}, true);
}

// More problems than a grid's y dimension holds (65535): the kernel strides over the batch.
TEST_P(GpuFp64Batched, BatchLargerThanOneGrid) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n_param] = GetParam();
  if (n_param != 1) GTEST_SKIP() << "run once per kernel and fill (n = 3, batch 70000)";
  const int64_t n = 3, batch = 70000, stride = n * n;
  std::vector<double> A, B;
  for (int64_t b = 0; b < batch; ++b) {
    const auto a = test::make_triangular<double>(fill, n, n, test::integers(rng_));
    const auto bb = test::make_triangular<double>(fill, n, n, test::integers(rng_));
    A.insert(A.end(), a.begin(), a.end());
    B.insert(B.end(), bb.begin(), bb.end());
  }
  std::vector<double> C(static_cast<size_t>(batch * stride));
  test::poison(C);
  DeviceBuffer<double> dA(A), dB(B), dC(C);
  Options o;
  o.kernel = kernel;
  trtrmm_strided_batched(fill, n, dA.get(), n, stride, dB.get(), n, stride, dC.get(), n, stride,
                         batch, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  const auto out = dC.download();
  for (const int64_t b : {int64_t(0), int64_t(65534), int64_t(65535), batch - 1}) {
    std::vector<double> ref(static_cast<size_t>(n * n));
    cpu::reference_trtrmm(fill, n, A.data() + b * stride, n, B.data() + b * stride, n,
                          ref.data(), n);
    EXPECT_TRUE(test::equals_exactly(fill, n, out.data() + b * stride, n, ref.data(), n))
        << "batch " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuFp64Batched,
                         ::testing::Combine(::testing::Values(std::string(),
                                                              std::string("simt_fp64"),
                                                              std::string("sm80_fp64_m8n8k4")),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(1, 33, 130, 300)),
                         param_name);

// Errors: named, thrown before anything is written.
TEST(GpuFp64Errors, BadArgumentsThrowNamingTheArgumentAndWriteNothing) {
  SKIP_WITHOUT_GPU();
  const int64_t n = 64;
  std::vector<double> host(static_cast<size_t>(n * n), 1.0);
  std::vector<double> poisoned(static_cast<size_t>(n * n));
  test::poison(poisoned);
  DeviceBuffer<double> A(host), B(host), C(poisoned);
  auto expect_error = [&](const char* name, auto&& call) {
    test::expect_invalid_argument(name, call, poisoned, {&C});
  };
  expect_error("n = -1", [&] { trtrmm(Fill::Upper, -1, A.get(), n, B.get(), n, C.get(), n); });
  expect_error("lda", [&] { trtrmm(Fill::Upper, n, A.get(), n - 1, B.get(), n, C.get(), n); });
  expect_error("ldb", [&] { trtrmm(Fill::Lower, n, A.get(), n, B.get(), 0, C.get(), n); });
  expect_error("ldc", [&] { trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), 3); });
  expect_error("A is null", [&] { trtrmm(Fill::Upper, n, nullptr, n, B.get(), n, C.get(), n); });
  expect_error("B is null", [&] { trtrmm(Fill::Upper, n, A.get(), n, nullptr, n, C.get(), n); });
  expect_error("C is null", [&] { trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, nullptr, n); });
  expect_error("C overlaps A", [&] { trtrmm(Fill::Upper, n, C.get(), n, B.get(), n, C.get(), n); });
  expect_error("C overlaps B", [&] { trtrmm(Fill::Upper, n, A.get(), n, C.get(), n, C.get(), n); });
  expect_error("fill = 2", [&] {
    trtrmm(static_cast<Fill>(2), n, A.get(), n, B.get(), n, C.get(), n);
  });
  expect_error("stride_c", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, 0, B.get(), n, 0, C.get(), n, 1, 2);
  });
  expect_error("stride_b = -1", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, 0, B.get(), n, -1, C.get(), n, n * n, 1);
  });
  expect_error("batch = -1", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, 0, B.get(), n, 0, C.get(), n, 0, -1);
  });
  expect_error("precision = fp32 with double operands", [&] {
    Options o;
    o.precision = Precision::Fp32;
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error("precision = 9", [&] {
    Options o;
    o.precision = static_cast<Precision>(9);
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error("structure = 5", [&] {
    Options o;
    o.structure = static_cast<Structure>(5);
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error(
      "kernel = 'sm90_tf32x3' with double operands, expected '', 'sm80_fp64', 'simt_fp64' or "
      "'sm80_fp64_m8n8k4'",
      [&] {
        Options o;
        o.kernel = "sm90_tf32x3";
        trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
      });
}

TEST(GpuFp64Errors, EmptyProblemsAndTheKernelsOwnName) {
  SKIP_WITHOUT_GPU();
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, static_cast<const double*>(nullptr), 1, nullptr, 1,
                         static_cast<double*>(nullptr), 1));
  EXPECT_NO_THROW(trtrmm_strided_batched(Fill::Lower, 5, static_cast<const double*>(nullptr), 5,
                                         0, nullptr, 5, 0, static_cast<double*>(nullptr), 5, 25,
                                         0));
  const int64_t n = 5;
  std::vector<double> host(static_cast<size_t>(n * n), 2.0), out(host.size());
  test::poison(out);
  DeviceBuffer<double> A(host), C(out);
  for (const char* kernel : {"sm80_fp64", "simt_fp64", "sm80_fp64_m8n8k4"}) {
    Options o;
    o.kernel = kernel;
    o.precision = Precision::Ieee;
    EXPECT_STREQ(selected_kernel(Fill::Upper, n, A.get(), n, A.get(), n, C.get(), n, o), kernel);
    trtrmm(Fill::Upper, n, A.get(), n, A.get(), n, C.get(), n, nullptr, o);
    const auto c = C.download();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        EXPECT_EQ(c[size_t(i * n + j)], j >= i ? 4.0 * double(j - i + 1) : 0.0)
            << kernel << " " << i << "," << j;
  }
  EXPECT_STREQ(selected_kernel(Fill::Upper, n, A.get(), n, A.get(), n, C.get(), n), "sm80_fp64");
}

}  // namespace
}  // namespace trimm
