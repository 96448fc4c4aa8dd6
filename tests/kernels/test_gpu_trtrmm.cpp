// Every GPU kernel of the dispatch table, forced by name, against the fp64 reference: sizes on
// and off the tile grid, ld > n, misaligned views, batches, both triangles. Inputs are fresh each
// run, their unreferenced triangle and padding NaN, and C poisoned with NaN before every call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/test_util.hpp"
#include "cuda/dispatch.hpp"
#include "kernels/gpu_util.hpp"
#include "kernels/launch.hpp"
#include "trimm/cpu.hpp"
#include "trimm/cuda.hpp"

namespace trimm {
namespace {

using test::DeviceBuffer;

enum class Inputs { Integers, Uniform01, Signed };

struct Shape {
  int64_t n, lda, ldb, ldc;
  int64_t offset = 0;  // elements added to every base pointer (0: 16-byte aligned)
};

// The fp64 reference: the CPU loops for small n, the naive fp64 GPU kernel beyond (the two agree
// bit for bit: see NaiveFp64ReferenceMatchesTheCpuReference).
std::vector<double> reference(Fill fill, const Shape& s, const float* dA, const float* dB,
                              const std::vector<float>& A, const std::vector<float>& B) {
  std::vector<double> ref(static_cast<size_t>(s.n * s.n));
  if (s.n <= 1024) {
    cpu::reference_trtrmm(fill, s.n, A.data() + s.offset, s.lda, B.data() + s.offset, s.ldb,
                          ref.data(), s.n);
  } else {
    DeviceBuffer<double> d(ref.size());
    kernels::launch_naive_fp64_reference(fill, s.n, dA, s.lda, dB, s.ldb, d.get(), s.n, nullptr);
    ref = d.download();
  }
  return ref;
}

// Every kernel of the dispatch table, by name: the suites below force each in turn.
std::vector<std::string> every_kernel() {
  std::vector<std::string> names;
  for (const dispatch::KernelEntry* e = dispatch::table_begin(); e != dispatch::table_end(); ++e)
    names.emplace_back(e->name);
  return names;
}

// Whether a forced kernel runs on this device by the table (if not, an sm_90a kernel elsewhere,
// says so); where it does, dispatch must take it forced at n.
bool runs_here(const std::string& kernel, int64_t n) {
  if (!test::table_kernel_runs_here(dispatch::table_begin(), dispatch::table_end(), kernel))
    return false;
  Options o;
  o.kernel = kernel;
  EXPECT_NO_THROW(selected_kernel(n, o)) << kernel << " at n = " << n;
  return true;
}

bool needs_tma(const std::string& kernel) {
  for (const dispatch::KernelEntry* e = dispatch::table_begin(); e != dispatch::table_end(); ++e)
    if (kernel == e->name) return e->needs_tma;
  return false;  // "" (dispatch's choice)
}

Precision precision_of(const std::string& kernel) {
  for (const dispatch::KernelEntry* e = dispatch::table_begin(); e != dispatch::table_end(); ++e)
    if (kernel == e->name) return e->precision;
  return Precision::Auto;  // "" (dispatch's choice: fp32-accurate)
}

// `workspace_of`: a call that brings that kernel's workspace (dispatch may take it unforced).
// `precision`: the call's options.precision (Tf32, forced or chosen, is judged by TF32's bound).
void check_one(const std::string& kernel, Fill fill, const Shape& s, Inputs inputs,
               std::mt19937_64& rng, const std::string& workspace_of = "",
               Precision precision = Precision::Auto) {
  std::function<double()> gen = test::normal(rng);
  if (inputs == Inputs::Integers) gen = test::integers(rng);
  if (inputs == Inputs::Uniform01) gen = test::uniform01(rng);
  // Views at `offset` into larger NaN-filled allocations.
  auto with_offset = [&](std::vector<float> m) {
    m.insert(m.begin(), static_cast<size_t>(s.offset), test::kNaN<float>);
    return m;
  };
  const auto A = with_offset(test::make_triangular<float>(fill, s.n, s.lda, gen));
  const auto B = with_offset(test::make_triangular<float>(fill, s.n, s.ldb, gen));
  std::vector<float> C0(static_cast<size_t>(s.offset + s.n * s.ldc));
  test::poison(C0);
  DeviceBuffer<float> dA(A), dB(B), dC(C0);
  ASSERT_NE(dA.get(), nullptr);
  ASSERT_NE(dC.get(), nullptr);

  Options o;
  o.kernel = workspace_of.empty() ? kernel : workspace_of;
  const test::Workspace ws(o, s.n);
  o.kernel = kernel;
  o.precision = precision;
  auto call = [&] {
    trtrmm(fill, s.n, dA.get() + s.offset, s.lda, dB.get() + s.offset, s.ldb,
           dC.get() + s.offset, s.ldc, nullptr, o);
  };
  if (needs_tma(kernel) && !kernels::tma_compatible({fill, s.n, dA.get() + s.offset, s.lda, 0,
                                                     dB.get() + s.offset, s.ldb, 0,
                                                     dC.get() + s.offset, s.ldc, 0, 1})) {
    // A TMA kernel forced on operands TMA cannot address is refused, before anything is written
    // (unforced, dispatch picks another kernel: AutoDispatchTakesMisalignedViews).
    EXPECT_THROW(call(), InvalidArgument);
    EXPECT_TRUE(test::same_bits(C0, dC.download())) << "C written by a refused call";
    return;
  }
  call();
  TEST_CUDA(cudaGetLastError());
  const auto C = dC.download();
  const auto ref = reference(fill, s, dA.get() + s.offset, dB.get() + s.offset, A, B);

  const float* c = C.data() + s.offset;
  if (inputs == Inputs::Integers) {
    EXPECT_TRUE(test::equals_exactly(fill, s.n, c, s.ldc, ref.data(), s.n));
  } else if (precision_of(kernel) == Precision::Tf32 || precision == Precision::Tf32) {
    // One TF32 product per term (both factors rounded to nearest: relative error <= 2^-10), fp32
    // sums: |c - r| <= 1.1·(2^-10 + 2n·2^-23)·(|A|·|B|)(i, j), a bound that holds for every input
    // (no flakes from cancellation) and that a dropped or doubled k8 step still exceeds.
    auto absolute = [](std::vector<float> x) {
      for (float& v : x) v = std::isnan(v) ? v : std::fabs(v);
      return x;
    };
    const auto Aabs = absolute(A), Babs = absolute(B);
    DeviceBuffer<float> dAabs(Aabs), dBabs(Babs);
    const auto M = reference(fill, s, dAabs.get() + s.offset, dBabs.get() + s.offset, Aabs, Babs);
    const double f = 1.1 * (std::ldexp(1.0, -10) + 2.0 * double(s.n) * std::ldexp(1.0, -23));
    for (int64_t i = 0; i < s.n; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        if (!test::in_triangle(fill, i, j)) continue;
        const double err = std::fabs(double(c[i * s.ldc + j]) - ref[size_t(i * s.n + j)]);
        ASSERT_TRUE(err <= f * M[size_t(i * s.n + j)])
            << "C[" << i << "][" << j << "] = " << c[i * s.ldc + j] << ", reference "
            << ref[size_t(i * s.n + j)] << ", TF32 bound " << f * M[size_t(i * s.n + j)];
      }
    EXPECT_TRUE(test::zero_outside(fill, s.n, c, s.ldc));
  } else if (inputs == Inputs::Uniform01) {
    EXPECT_TRUE(test::is_close(fill, s.n, c, s.ldc, ref.data(), s.n));
  } else {  // signed sums cancel: elementwise bars are relative to the sum's size, normwise 1e-6
    EXPECT_TRUE(test::is_close(fill, s.n, c, s.ldc, ref.data(), s.n, {1e-6, 1e-3, 1e-4}));
  }
  // Nothing outside the n×n view is written.
  for (int64_t e = 0; e < s.offset; ++e) ASSERT_TRUE(std::isnan(C[e])) << "C[-" << s.offset - e << "] written";
  for (int64_t i = 0; i < s.n; ++i)
    for (int64_t j = s.n; j < s.ldc; ++j)
      ASSERT_TRUE(std::isnan(c[i * s.ldc + j])) << "padding C[" << i << "][" << j << "] written";
  EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
  EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
}

using test::Seeded;

using Param = std::tuple<std::string, Fill, int64_t>;  // kernel, fill, n
class GpuTrtrmm : public ::testing::TestWithParam<Param>, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
    if (std::get<0>(GetParam()) == "naive_fp32" && std::get<2>(GetParam()) > 1024)
      GTEST_SKIP() << "the naive yardstick is checked up to n = 1024";
    const std::string& kernel = std::get<0>(GetParam());
    if (!kernel.empty() && !runs_here(kernel, std::get<2>(GetParam())))
      GTEST_SKIP() << kernel << " does not run on this GPU";  // e.g. an sm_90a kernel elsewhere
  }
};

TEST_P(GpuTrtrmm, IntegerInputsExact) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  check_one(kernel, fill, {n, n, n, n}, Inputs::Integers, rng_);
}

TEST_P(GpuTrtrmm, UniformInputsClose) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  check_one(kernel, fill, {n, n, n, n}, Inputs::Uniform01, rng_);
}

TEST_P(GpuTrtrmm, SignedInputsClose) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  check_one(kernel, fill, {n, n, n, n}, Inputs::Signed, rng_);
}

TEST_P(GpuTrtrmm, PaddedLeadingDimensionsVectorPath) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  const int64_t ld = (n + 4) / 4 * 4 + 8;  // > n, multiple of 4: 16-byte rows
  check_one(kernel, fill, {n, ld, ld + 4, ld + 8}, Inputs::Integers, rng_);
  // Signed random inputs too: for the TMA kernels, which refuse n×n views of odd n, this is
  // where odd n meets inexact arithmetic.
  check_one(kernel, fill, {n, ld, ld + 4, ld + 8}, Inputs::Signed, rng_);
}

TEST_P(GpuTrtrmm, MisalignedViewsScalarPath) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  check_one(kernel, fill, {n, n + 1, n + 3, n + 5, 1}, Inputs::Integers, rng_);
}

const std::vector<int64_t> kSizes = {1, 2, 3, 17, 31, 64, 127, 128, 129, 255, 1000, 1024, 2048, 4097};

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const std::string& kernel = std::get<0>(info.param);
  return (kernel.empty() ? "auto" : kernel) + "_" + to_string(std::get<1>(info.param)) + "_n" +
         std::to_string(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    AllKernels, GpuTrtrmm,
    ::testing::Combine(::testing::ValuesIn(every_kernel()),
                       ::testing::Values(Fill::Upper, Fill::Lower), ::testing::ValuesIn(kSizes)),
    param_name);

// Dispatch's own choice (no kernel forced), at every size: the kernel the library runs for a
// caller who names none.
INSTANTIATE_TEST_SUITE_P(Dispatch, GpuTrtrmm,
                         ::testing::Combine(::testing::Values(std::string()),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::ValuesIn(kSizes)),
                         param_name);

// Each precision unforced, across dispatch's thresholds (the small kernel to 1216, or 1792 with
// Ieee; past them sm90_tf32x3 or sm80_tf32x3, sm90_tf32, simt_fp32): integers bit-exact and
// signed inputs within the precision's bound, on the kernel dispatch takes.
using PrecisionParam = std::tuple<Precision, Fill, int64_t>;
class GpuTrtrmmPrecision : public ::testing::TestWithParam<PrecisionParam>, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
  }
};

TEST_P(GpuTrtrmmPrecision, UnforcedIntegerAndSignedInputs) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [precision, fill, n] = GetParam();
  Options o;
  o.precision = precision;
  SCOPED_TRACE(std::string("dispatch's kernel: ") + selected_kernel(n, o));
  check_one("", fill, {n, n, n, n}, Inputs::Integers, rng_, "", precision);
  check_one("", fill, {n, n, n, n}, Inputs::Signed, rng_, "", precision);
}

INSTANTIATE_TEST_SUITE_P(Unforced, GpuTrtrmmPrecision,
                         ::testing::Combine(::testing::Values(Precision::Auto, Precision::Fp32,
                                                              Precision::Tf32, Precision::Ieee),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(int64_t(1000), int64_t(1217),
                                                              int64_t(1793), int64_t(2048),
                                                              int64_t(4097))),
                         [](const ::testing::TestParamInfo<PrecisionParam>& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_" +
                                  to_string(std::get<1>(info.param)) + "_n" +
                                  std::to_string(std::get<2>(info.param));
                         });

// Past the packed layouts' table (n > 5632), the sm90 kernels take a single problem's units in
// bands of 12 diagonals: 5896 (47 tile diagonals: a partial band of 11, the last tile column
// partial) and 6144 (4 whole bands).
INSTANTIATE_TEST_SUITE_P(
    Banded, GpuTrtrmm,
    ::testing::Combine(::testing::Values(std::string("sm90_tf32x3"), std::string("sm90_tf32")),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values(int64_t(5896), int64_t(6144))),
    param_name);

// sm90_fp16x3 and sm90_fp16x1: past the packed layouts (5896) and with rows longer than their
// prepass holds in registers (8200 > 8192: the streaming path of A's rows).
INSTANTIATE_TEST_SUITE_P(
    LongRows, GpuTrtrmm,
    ::testing::Combine(::testing::Values(std::string("sm90_fp16x3"), std::string("sm90_fp16x1")),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values(int64_t(5896), int64_t(8200))),
    param_name);

// Unforced, misaligned views go to a kernel that takes them (never a refused TMA kernel).
TEST(GpuTrtrmmDispatch, AutoDispatchTakesMisalignedViews) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = test::seed();  // one draw: the seed the trace names is the one used
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  DeviceBuffer<float> probe(std::vector<float>(8, 0.f));
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const int64_t n : {129, 1000}) {
      if (n > test::max_n()) continue;
      // What the bench labels its rows with must be what runs: no TMA kernel for these views.
      const char* name = selected_kernel(fill, n, probe.get() + 1, n + 1, probe.get() + 1, n + 3,
                                         probe.get() + 1, n + 5);
      EXPECT_FALSE(needs_tma(name)) << name;
      check_one("", fill, {n, n + 1, n + 3, n + 5, 1}, Inputs::Integers, rng);
      check_one("", fill, {n, n + 1, n + 3, n + 5, 1}, Inputs::Uniform01, rng);
    }
}

// A Detect call with no path (precision ieee past the small kernel: simt_fp32, without flags) is
// refused by trtrmm before anything is written, and selected_kernel answers with the same error
// (session 53: it used to name the kernel the call refuses).
TEST(GpuTrtrmmDispatch, DetectRefusedAlikeByTrtrmmAndSelectedKernel) {
  SKIP_WITHOUT_GPU();
  constexpr int64_t n = 2048;
  SKIP_ABOVE_MAX_N(n);
  std::vector<float> C0(size_t(n * n));
  test::poison(C0);
  DeviceBuffer<float> dA(std::vector<float>(size_t(n * n), 1.f)), dB(dA.download()), dC(C0);
  DeviceBuffer<uint32_t> flag(std::vector<uint32_t>{0u});
  Options o;
  o.precision = Precision::Ieee;
  o.structure = Structure::Detect;
  o.workspace = flag.get();
  o.workspace_bytes = sizeof(uint32_t);
  // What each call throws (InvalidArgument's text), or "ran".
  auto refusal_of = [&](bool trtrmm_call) -> std::string {
    try {
      if (trtrmm_call)
        trtrmm(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
      else
        selected_kernel(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, o);
      return "ran";
    } catch (const InvalidArgument& e) {
      return e.what();
    }
  };
  // Both calls, each refused with `what` after its own name.
  auto expect_refused_alike = [&](const std::string& what) {
    const std::string by_trtrmm = refusal_of(true), by_selected = refusal_of(false);
    EXPECT_EQ(by_trtrmm.rfind("trimm::trtrmm" + what, 0), 0u) << by_trtrmm;
    EXPECT_EQ(by_selected.rfind("trimm::selected_kernel" + what, 0), 0u) << by_selected;
  };
  expect_refused_alike(": structure = detect runs up to n = 1216");
  // A forced kernel without a Detect path: the same refusal from both.
  o.precision = Precision::Auto;
  o.kernel = "simt_fp32";
  expect_refused_alike(": kernel = 'simt_fp32' with structure = detect");
  EXPECT_TRUE(test::same_bits(C0, dC.download())) << "C written by a refused call";
  o.kernel.clear();  // the same call with flags to run on sm_90: named, not refused
  if (test::device_cc() == 90)
    EXPECT_STREQ(selected_kernel(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, o),
                 "sm90_tf32x3");
}

// No device allocation, copy or synchronization in the call path, kernel by kernel
// (test::expect_captures_in_global_mode): forced, each with its precision, structure and
// workspace, batched where the kernel takes batches.
TEST(GpuTrtrmmDispatch, CallsCaptureInGlobalModeAtANewSize) {
  SKIP_WITHOUT_GPU();
  struct Case {
    const char* kernel;
    Precision precision;
    Structure structure;
    Fill fill;
    int64_t warm_n, n, batch;
  };
  const Case cases[] = {
      {"simt_small_fp32", Precision::Auto, Structure::Triangular, Fill::Upper, 200, 301, 1},
      {"simt_small_fp32", Precision::Auto, Structure::Detect, Fill::Lower, 200, 303, 1},
      {"simt_fp32", Precision::Ieee, Structure::Triangular, Fill::Upper, 1900, 1999, 1},
      {"sm80_tf32x3", Precision::Fp32, Structure::Triangular, Fill::Lower, 500, 601, 2},
      {"sm90_tf32x3", Precision::Fp32, Structure::Triangular, Fill::Upper, 1300, 1412, 1},
      {"sm90_tf32x3", Precision::Fp32, Structure::Detect, Fill::Upper, 1300, 1416, 1},
      {"sm90_tf32", Precision::Tf32, Structure::Triangular, Fill::Lower, 1300, 1420, 2},
      {"sm90_fp16x3", Precision::Fp32, Structure::Triangular, Fill::Upper, 3072, 3204, 1},
      {"sm90_fp16x1", Precision::Tf32, Structure::Triangular, Fill::Upper, 4096, 4228, 1},
  };
  const uint64_t seed = test::seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  for (const Case& k : cases) {
    if (k.n > test::max_n() || !runs_here(k.kernel, k.n)) continue;
    SCOPED_TRACE(std::string(k.kernel) + " " + to_string(k.structure) + " n = " +
                 std::to_string(k.n));
    Options o;
    o.kernel = k.kernel;
    o.precision = k.precision;
    o.structure = k.structure;
    const test::Workspace ws(o, k.n, k.batch);  // sized for the larger n: serves both calls
    const int64_t ld = (k.n + 7) / 8 * 8, stride = k.n * ld;
    std::vector<float> A, B;
    for (int64_t b = 0; b < k.batch; ++b) {
      const auto a = test::make(test::Kind::Triangular, k.fill, k.n, ld, test::integers(rng), rng);
      const auto m = test::make(test::Kind::Triangular, k.fill, k.n, ld, test::integers(rng), rng);
      A.insert(A.end(), a.begin(), a.end());
      B.insert(B.end(), m.begin(), m.end());
    }
    std::vector<float> C0(A.size());
    test::poison(C0);
    DeviceBuffer<float> dA(A), dB(B), dC(C0);
    test::expect_captures_in_global_mode(
        [&](int64_t n, cudaStream_t s) {
          trtrmm_strided_batched(k.fill, n, dA.get(), ld, stride, dB.get(), ld, stride, dC.get(),
                                 ld, stride, k.batch, s, o);
        },
        k.warm_n, k.n, dC, C0);
  }
}

// Unforced, a call that brings sm90_fp16x3's workspace runs it where dispatch takes it (one
// problem, sm_90, n >= 3072; what the bench labels its rows with says so), exact on integers
// and fp32-accurate on signed inputs; below 3072 the same call runs sm90_tf32x3.
TEST(GpuTrtrmmDispatch, AutoTakesSm90Fp16x3GivenItsWorkspace) {
  SKIP_WITHOUT_GPU();
  constexpr int64_t n = 3072;
  SKIP_ABOVE_MAX_N(n);
  if (!runs_here("sm90_fp16x3", n)) GTEST_SKIP() << "sm90_fp16x3 needs sm_90";
  const uint64_t seed = test::seed();  // one draw: the seed the trace names is the one used
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  Options o;
  o.kernel = "sm90_fp16x3";
  const test::Workspace ws(o, n);
  o.kernel.clear();
  EXPECT_STREQ(selected_kernel(n, o), "sm90_fp16x3");
  EXPECT_STREQ(selected_kernel(n - 1, o), "sm90_tf32x3");
  o.workspace_bytes -= 1;
  EXPECT_STREQ(selected_kernel(n, o), "sm90_tf32x3");
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    check_one("", fill, {n, n, n, n}, Inputs::Integers, rng, "sm90_fp16x3");
    check_one("", fill, {n, n, n, n}, Inputs::Signed, rng, "sm90_fp16x3");
  }
}

class GpuTrtrmmBatched : public ::testing::TestWithParam<std::tuple<Fill, int64_t>>,
                         public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<1>(GetParam()));
  }
};

// Three problems with A or B shared (stride 0) or not, and a batch stride that is or is not a
// multiple of 4 (the 16-byte and scalar paths); each checked against its own reference, and the
// gaps between matrices and the ld padding left untouched.
TEST_P(GpuTrtrmmBatched, StridedBatchMatchesEachProblem) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  const int64_t batch = 3, ld = n + 4;
  for (const int64_t gap : {12, 13})
    for (const int shared : {0, 1, 2}) {  // none, A, B
      const int64_t stride = n * ld + gap;
      const bool share_a = shared == 1, share_b = shared == 2;
      std::vector<float> A, B, C(static_cast<size_t>(batch * stride));
      test::poison(C);
      for (int64_t b = 0; b < batch; ++b) {
        auto a = test::make_triangular<float>(fill, n, ld, test::integers(rng_));
        auto bb = test::make_triangular<float>(fill, n, ld, test::integers(rng_));
        a.resize(static_cast<size_t>(stride), test::kNaN<float>);
        bb.resize(static_cast<size_t>(stride), test::kNaN<float>);
        if (!share_a || b == 0) A.insert(A.end(), a.begin(), a.end());
        if (!share_b || b == 0) B.insert(B.end(), bb.begin(), bb.end());
      }
      DeviceBuffer<float> dA(A), dB(B), dC(C);
      trtrmm_strided_batched(fill, n, dA.get(), ld, share_a ? 0 : stride, dB.get(), ld,
                             share_b ? 0 : stride, dC.get(), ld, stride, batch);
      TEST_CUDA(cudaGetLastError());
      const auto out = dC.download();
      const std::string what = "gap " + std::to_string(gap) + ", shared " + std::to_string(shared);
      for (int64_t b = 0; b < batch; ++b) {
        std::vector<double> ref(static_cast<size_t>(n * n));
        cpu::reference_trtrmm(fill, n, A.data() + (share_a ? 0 : b * stride), ld,
                              B.data() + (share_b ? 0 : b * stride), ld, ref.data(), n);
        EXPECT_TRUE(test::equals_exactly(fill, n, out.data() + b * stride, ld, ref.data(), n))
            << "batch " << b << ", " << what;
        for (int64_t e = 0; e < stride; ++e) {
          const int64_t i = e / ld, j = e % ld;
          if (i >= n || j >= n)
            ASSERT_TRUE(std::isnan(out[b * stride + e]))
                << "batch " << b << " element " << e << " outside the matrix written, " << what;
        }
      }
    }
}

class GpuTrtrmmBigBatch : public ::testing::TestWithParam<Fill>, public Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

// More problems than a grid's y dimension holds (65535): the launchers loop over the batch.
TEST_P(GpuTrtrmmBigBatch, BatchLargerThanOneGrid) {
  SCOPED_TRACE(test::seed_note(seed_));
  const Fill fill = GetParam();
  const int64_t n = 4, batch = 70000, stride = n * n;  // n = 4: 16-byte rows, for TMA
  std::vector<float> A, B;
  for (int64_t b = 0; b < batch; ++b) {
    const auto a = test::make_triangular<float>(fill, n, n, test::integers(rng_));
    const auto bb = test::make_triangular<float>(fill, n, n, test::integers(rng_));
    A.insert(A.end(), a.begin(), a.end());
    B.insert(B.end(), bb.begin(), bb.end());
  }
  std::vector<float> C(static_cast<size_t>(batch * stride));
  test::poison(C);
  DeviceBuffer<float> dA(A), dB(B), dC(C);
  for (const std::string& kernel : every_kernel()) {
    if (!runs_here(kernel, n)) continue;
    dC.upload(C);
    Options o;
    o.kernel = kernel;
    const test::Workspace ws(o, n, batch);
    trtrmm_strided_batched(fill, n, dA.get(), n, stride, dB.get(), n, stride, dC.get(), n, stride,
                           batch, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto out = dC.download();
    for (const int64_t b : {int64_t(0), int64_t(65534), int64_t(65535), batch - 1}) {
      std::vector<double> ref(static_cast<size_t>(n * n));
      cpu::reference_trtrmm(fill, n, A.data() + b * stride, n, B.data() + b * stride, n,
                            ref.data(), n);
      EXPECT_TRUE(test::equals_exactly(fill, n, out.data() + b * stride, n, ref.data(), n))
          << kernel << ", batch " << b;
    }
  }
}

// Every kernel forced, with lda, ldb, ldc and the three batch strides all different (a mix-up of
// any two shows) and 16-byte aligned (so the TMA kernel takes them), A or B shared or neither.
TEST_P(GpuTrtrmmBatched, EveryKernelWithDistinctLayouts) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n] = GetParam();
  const int64_t batch = 3, ld = (n + 3) / 4 * 4 + 4;
  const int64_t lda = ld, ldb = ld + 4, ldc = ld + 8;
  const int64_t sc = n * ldc + 12;
  for (const std::string& kernel : every_kernel()) {
    if (!runs_here(kernel, n)) continue;
    Options o;
    o.kernel = kernel;
    const test::Workspace ws(o, n, batch);
    for (const int shared : {0, 1, 2}) {  // none, A, B
      const bool share_a = shared == 1, share_b = shared == 2;
      const int64_t sa = share_a ? 0 : n * lda + 4, sb = share_b ? 0 : n * ldb + 8;
      std::vector<float> A, B, C(static_cast<size_t>(batch * sc));
      test::poison(C);
      for (int64_t b = 0; b < batch; ++b) {
        auto a = test::make_triangular<float>(fill, n, lda, test::integers(rng_));
        auto bb = test::make_triangular<float>(fill, n, ldb, test::integers(rng_));
        a.resize(static_cast<size_t>(n * lda + 4), test::kNaN<float>);
        bb.resize(static_cast<size_t>(n * ldb + 8), test::kNaN<float>);
        if (!share_a || b == 0) A.insert(A.end(), a.begin(), a.end());
        if (!share_b || b == 0) B.insert(B.end(), bb.begin(), bb.end());
      }
      DeviceBuffer<float> dA(A), dB(B), dC(C);
      trtrmm_strided_batched(fill, n, dA.get(), lda, sa, dB.get(), ldb, sb, dC.get(), ldc, sc,
                             batch, nullptr, o);
      TEST_CUDA(cudaGetLastError());
      const auto out = dC.download();
      for (int64_t b = 0; b < batch; ++b) {
        std::vector<double> ref(static_cast<size_t>(n * n));
        cpu::reference_trtrmm(fill, n, A.data() + b * sa, lda, B.data() + b * sb, ldb, ref.data(),
                              n);
        EXPECT_TRUE(test::equals_exactly(fill, n, out.data() + b * sc, ldc, ref.data(), n))
            << kernel << ", batch " << b << (share_a ? ", A shared" : share_b ? ", B shared" : "");
        for (int64_t e = 0; e < sc; ++e)
          if (e / ldc >= n || e % ldc >= n)
            ASSERT_TRUE(std::isnan(out[b * sc + e]))
                << kernel << ": batch " << b << " element " << e << " outside C written";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuTrtrmmBatched,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(1, 33, 300, 1000)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param));
                         });

// Inf in the referenced triangle must not leak into C's zero triangle: the diagonal tiles' masks,
// the whole tiles' mirror zeroing and the fix-up pass write exact zeros there (a computed 0·Inf
// would be NaN).
TEST_P(GpuTrtrmm, InfInputsLeaveTheZeroTriangleZero) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kernel, fill, n] = GetParam();
  auto A = test::make_triangular<float>(fill, n, n, test::integers(rng_));
  auto B = test::make_triangular<float>(fill, n, n, test::integers(rng_));
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t d = 0; d < n; d += 7) {  // on the diagonal and just inside the triangle
    A[d * n + d] = inf;
    B[d * n + d] = -inf;
    const int64_t j = fill == Fill::Upper ? std::min(n - 1, d + 1) : std::max<int64_t>(0, d - 1);
    A[d * n + j] = inf;
  }
  std::vector<float> C(static_cast<size_t>(n * n));
  test::poison(C);
  DeviceBuffer<float> dA(A), dB(B), dC(C);
  Options o;
  o.kernel = kernel;
  const test::Workspace ws(o, n);
  if (needs_tma(kernel) &&
      !kernels::tma_compatible({fill, n, dA.get(), n, 0, dB.get(), n, 0, dC.get(), n, 0, 1})) {
    EXPECT_THROW(trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o),
                 InvalidArgument);  // refused, and covered unforced by the misaligned tests
    return;
  }
  trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  const auto out = dC.download();
  EXPECT_TRUE(test::zero_outside(fill, n, out.data(), n));
}

INSTANTIATE_TEST_SUITE_P(Fills, GpuTrtrmmBigBatch, ::testing::Values(Fill::Upper, Fill::Lower),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(GpuTrtrmmReference, NaiveFp64ReferenceMatchesTheCpuReference) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = test::seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    const int64_t n = 301, ld = 305;
    const auto A = test::make_triangular<float>(fill, n, ld, test::uniform(rng));
    const auto B = test::make_triangular<float>(fill, n, ld, test::uniform(rng));
    DeviceBuffer<float> dA(A), dB(B);
    DeviceBuffer<double> d(static_cast<size_t>(n * n));
    kernels::launch_naive_fp64_reference(fill, n, dA.get(), ld, dB.get(), ld, d.get(), n, nullptr);
    std::vector<double> cpu_ref(static_cast<size_t>(n * n));
    cpu::reference_trtrmm(fill, n, A.data(), ld, B.data(), ld, cpu_ref.data(), n);
    // Products of floats are exact in double, so FMA or not, the k-ordered sums agree exactly.
    EXPECT_TRUE(test::same_bits(cpu_ref, d.download())) << to_string(fill);
  }
}

// Options for Structure::Detect on `kernel`, with `work` as the workspace (the flag word first).
Options detect_options(const std::string& kernel, DeviceBuffer<uint32_t>& work) {
  Options o;
  o.kernel = kernel;
  o.structure = Structure::Detect;
  o.workspace = work.get();
  o.workspace_bytes = work.size() * sizeof(uint32_t);
  return o;
}

// A Structure::Detect workspace for `kernel` at n (`batch` problems), as trtrmm_workspace_bytes
// sizes it, every word `fill` (the flag word must be cleared by the call).
std::vector<uint32_t> detect_workspace(const std::string& kernel, int64_t n, uint32_t fill,
                                       int64_t batch = 1) {
  Options o;
  o.kernel = kernel;
  o.structure = Structure::Detect;
  return std::vector<uint32_t>((trtrmm_workspace_bytes(n, batch, o) + 3) / 4, fill);
}

// Whether Structure::Detect's kernels past the small one run here (sm_90).
bool detect_kernels_run_here() {
  return test::table_kernel_runs_here(dispatch::table_begin(), dispatch::table_end(),
                                      "sm90_tf32x3");
}

// Structure::Detect on the GPU: the dense product's semantics on any input, against the dense fp64
// reference (NaN and Inf exactly where it has them). Sizes whose rows TMA can address; at 2048
// the units outnumber an H200's SMs, so its blocks are persistent (several units each); 4097 is
// off the tile grid past dispatch's 3072 rule for sm90_fp16x3's planes (forced here) and at the
// KernelBench size's scale.
using DetectParam = std::tuple<test::Kind, Fill, int64_t>;
class GpuDetect : public ::testing::TestWithParam<DetectParam>, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
    if (!detect_kernels_run_here())
      GTEST_SKIP() << "structure = detect past the small kernel runs on sm_90 only";
  }
};

// The flags a call on the small kernel's scan path left in its word, which carries the call's
// epoch above kEpochShift (no memset clears it): none where the word is as the test left it.
uint32_t epoch_tagged_flags(uint32_t word, uint32_t before) {
  if (word == before) return 0u;
  EXPECT_NE(word >> kernels::kEpochShift, 0u) << "a written word carries a nonzero epoch";
  return word & ((1u << kernels::kEpochShift) - 1u);
}

// Whether C (ld ldc) is the dense product's triangle within one TF32 product a term (precision
// tf32): |c - r| <= 1.1·(2^-10 + 2n·2^-23)·(|A|·|B|)(i, j), `mag` the dense product of |A| and
// |B|; NaN and Inf where the reference has them, exact zeros outside.
::testing::AssertionResult matches_dense_tf32(Fill fill, int64_t n, const float* C, int64_t ldc,
                                              const std::vector<double>& ref,
                                              const std::vector<double>& mag) {
  const double f = 1.1 * (std::ldexp(1.0, -10) + 2.0 * double(n) * std::ldexp(1.0, -23));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double c = C[i * ldc + j], r = ref[size_t(i * n + j)];
      const bool ok = !test::in_triangle(fill, i, j) ? c == 0.0
                      : std::isnan(r)                ? std::isnan(c)
                      : std::isinf(r)                ? c == r
                                       : std::fabs(c - r) <= f * mag[size_t(i * n + j)];
      if (!ok)
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << c
                                             << ", dense reference " << r << ", TF32 bound "
                                             << f * mag[size_t(i * n + j)];
    }
  return ::testing::AssertionSuccess();
}

// The kernels with a general-input path: sm90_tf32x3 and sm90_fp16x3 (detection under the
// product, gated launches), sm90_tf32 (precision tf32: the same flags beside TF32 products),
// simt_small_fp32 forced (its band, reading A and B beside it, then every k where anything was
// flagged) and dispatch's choice (at small n the small kernel's every k in plain fp32 alone, no
// pass; past that its scan path; then sm90_tf32x3), also for precision tf32 (past the small
// kernel, sm90_tf32).
TEST_P(GpuDetect, EqualsTheDenseProductsTriangle) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kind, fill, n] = GetParam();
  // Distinct leading dimensions, multiples of 4 (16-byte rows: the TMA kernel takes them).
  const int64_t lda = (n + 3) / 4 * 4 + 4, ldb = lda + 4, ldc = lda + 8;
  const bool exact = kind != test::Kind::Noisy;  // integers elsewhere: every sum exact
  auto gen = exact ? std::function<double()>(test::integers(rng_))
                   : std::function<double()>(test::uniform(rng_));
  const auto A = test::make(kind, fill, n, lda, gen, rng_);
  const auto B = test::make(kind, fill, n, ldb, gen, rng_);
  std::vector<double> ref(static_cast<size_t>(n * n));
  cpu::reference_dense(fill, n, A.data(), lda, B.data(), ldb, ref.data(), n);
  // The tf32 bound's scale, where the sums are not exact: the dense product of |A| and |B|.
  std::vector<double> mag;
  if (!exact) {
    auto absolute = [](std::vector<float> x) {
      for (float& v : x) v = std::fabs(v);
      return x;
    };
    const auto Aabs = absolute(A), Babs = absolute(B);
    mag.resize(static_cast<size_t>(n * n));
    cpu::reference_dense(fill, n, Aabs.data(), lda, Babs.data(), ldb, mag.data(), n);
  }
  // What the other triangles hold, from the data (at n = 1 there is none; at small n integer
  // draws may leave it all zero): a nonzero there (NaN included; -0 is zero) is what the scans
  // flag.
  auto other_nonzero = [&](const std::vector<float>& X, int64_t ld) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (!test::in_triangle(fill, i, j) && X[size_t(i * ld + j)] != 0.0f) return true;
    return false;
  };
  const bool outside_a = other_nonzero(A, lda), outside_b = other_nonzero(B, ldb);
  const bool triangular = !outside_a && !outside_b;
  const int cc = test::device_cc();
  const std::pair<std::string, Precision> runs[] = {{"", Precision::Auto},
                                                    {"sm90_tf32x3", Precision::Auto},
                                                    {"sm90_fp16x3", Precision::Auto},
                                                    {"sm90_tf32", Precision::Auto},
                                                    {"", Precision::Tf32},
                                                    {"simt_small_fp32", Precision::Auto}};
  for (const auto& [kernel, precision] : runs) {
    SCOPED_TRACE((kernel.empty() ? std::string("dispatch's choice") : kernel) + ", precision " +
                 to_string(precision));
    // How Structure::Detect runs it here.
    const dispatch::Choice how =
        dispatch::choose(cc, precision, n, kernel, true, Structure::Detect);
    std::vector<float> C(static_cast<size_t>(n * ldc));
    test::poison(C);
    DeviceBuffer<float> dA(A), dB(B), dC(C);
    const uint32_t garbage = 0xDEADBEEFu;  // the detection pass clears it first
    DeviceBuffer<uint32_t> work(detect_workspace(kernel, n, garbage));
    Options o = detect_options(kernel, work);
    o.precision = precision;
    trtrmm(fill, n, dA.get(), lda, dB.get(), ldb, dC.get(), ldc, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto out = dC.download();
    // (Integers: exact in TF32 too.)
    if (!exact && (precision == Precision::Tf32 || precision_of(kernel) == Precision::Tf32))
      EXPECT_TRUE(matches_dense_tf32(fill, n, out.data(), ldc, ref, mag));
    else
      EXPECT_TRUE(test::matches_dense(fill, n, out.data(), ldc, ref, exact));
    // The flags that picked the path (the dense launches alone would pass the check above: this
    // pins the gate): kOutsideA | kOutsideB where the other triangles hold anything, and a
    // non-finite flag exactly where something is not finite (inside the triangles the structured
    // product's output finds it: every element reaches C's diagonal block; the small kernel's
    // scan reads them). The small kernel's exact path alone needs no flags and leaves the
    // workspace alone.
    const uint32_t word = work.download()[0];
    const uint32_t flags = how.scan ? epoch_tagged_flags(word, garbage) : word;
    const bool nonfinite = kind == test::Kind::NonFinite || kind == test::Kind::TriangularNonFinite;
    if (how.exact) {
      EXPECT_EQ(word, garbage) << "workspace written";
    } else if (how.scan) {
      // The structured launch reads every row of both: both outside flags where the other
      // triangles hold anything, the inside flag alone where only the triangles hold NaN or Inf.
      EXPECT_EQ(flags & 3u,
                (outside_a ? kernels::kOutsideA : 0u) | (outside_b ? kernels::kOutsideB : 0u))
          << "flags " << flags;
      EXPECT_EQ((flags & (kernels::kNonFiniteOutside | kernels::kNonFiniteInside)) != 0u, nonfinite)
          << "flags " << flags;
      EXPECT_EQ(flags & kernels::kNonFiniteOut, 0u) << "flags " << flags;
      if (kind == test::Kind::TriangularNonFinite) EXPECT_EQ(flags, kernels::kNonFiniteInside);
    } else {
      // Not triangular: at least one of the two (the scan stops at the first flag it sees, so
      // which of A's and B's rows it reached first is a race).
      EXPECT_EQ((flags & 3u) != 0u, !triangular) << "flags " << flags;
      EXPECT_EQ((flags & 12u) != 0u, nonfinite) << "flags " << flags;
      if (kind == test::Kind::TriangularNonFinite) EXPECT_EQ(flags, 8u);
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = n; j < ldc; ++j)
        ASSERT_TRUE(std::isnan(out[i * ldc + j])) << "padding C[" << i << "][" << j << "] written";
    EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
    EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, GpuDetect,
    ::testing::Combine(::testing::Values(test::Kind::Triangular, test::Kind::Noisy,
                                         test::Kind::Dense, test::Kind::NonFinite,
                                         test::Kind::TriangularNonFinite),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values<int64_t>(1, 2, 3, 4, 17, 64, 127, 129, 1000, 2048, 4097)),
    [](const auto& info) {
      return std::string(test::name(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param)) + "_n" + std::to_string(std::get<2>(info.param));
    });

// Under Structure::Detect too, an unforced call whose workspace holds sm90_fp16x3's planes after
// the flag word runs it from 3072 on (selected_kernel says so, also asked before allocating):
// its data is written there (a word past the flag word's 256 bytes no longer holds the poison;
// its prepass's vectors, if not its planes) and C is the triangular product, exact on integers.
TEST(GpuTrtrmmDispatch, AutoTakesSm90Fp16x3UnderDetectGivenItsWorkspace) {
  SKIP_WITHOUT_GPU();
  constexpr int64_t n = 3072;
  SKIP_ABOVE_MAX_N(n);
  if (!runs_here("sm90_fp16x3", n)) GTEST_SKIP() << "sm90_fp16x3 needs sm_90";
  const uint64_t seed = test::seed();  // one draw: the seed the trace names is the one used
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  // Triangular inputs (zeros in the other triangles, as Detect's fast path needs), integers.
  const std::function<double()> gen = test::integers(rng);
  const auto A = test::make(test::Kind::Triangular, Fill::Upper, n, n, gen, rng);
  const auto B = test::make(test::Kind::Triangular, Fill::Upper, n, n, gen, rng);
  std::vector<double> ref(static_cast<size_t>(n * n));
  cpu::reference_dense(Fill::Upper, n, A.data(), n, B.data(), n, ref.data(), n);
  std::vector<float> C(static_cast<size_t>(n * n));
  test::poison(C);
  DeviceBuffer<float> dA(A), dB(B), dC(C);
  const uint32_t poison = 0xDEADBEEFu;
  DeviceBuffer<uint32_t> work(detect_workspace("sm90_fp16x3", n, poison));
  const Options o = detect_options("", work);
  // Asked before allocating (a null workspace of those bytes), selected_kernel gives the same
  // answer, and sm90_tf32x3 a byte short.
  Options query = o;
  query.workspace = nullptr;
  EXPECT_STREQ(selected_kernel(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, query),
               "sm90_fp16x3");
  query.workspace_bytes -= 1;
  EXPECT_STREQ(selected_kernel(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, query),
               "sm90_tf32x3");
  EXPECT_STREQ(selected_kernel(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, o),
               "sm90_fp16x3");
  trtrmm(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  const auto out = dC.download();
  EXPECT_TRUE(test::matches_dense(Fill::Upper, n, out.data(), n, ref, /*exact=*/true));
  const auto w = work.download();
  EXPECT_EQ(w[0], 0u) << "flags on triangular integers";
  EXPECT_TRUE(std::any_of(w.begin() + 64, w.end(), [&](uint32_t x) { return x != poison; }))
      << "sm90_fp16x3's workspace share not written";
}

// The scan of the other triangles, pinned: one value in A's or B's other triangle, at the first,
// a middle or the last column that triangle has in a row (the 16-byte chunk edges, the scalar
// tail of odd n), or in the triangle's last row; a tiny nonzero, NaN or Inf. Each must send the
// call to the right path (flags) and give the dense product's triangle. And batches: the value
// in one entry of a batch, with A shared by the batch (stride 0). Both ways of finding it:
// sm90_tf32x3's spare warps under its product, and the small kernel's blocks beside their band
// (forced, it scans at any n).
// The kernels that read A's and B's other triangles beside their product: sm90_tf32x3's spare
// warps, sm90_fp16x3's helper warps (bulk copies) and the small kernel's blocks.
const char* const kScanningKernels[] = {"sm90_tf32x3", "sm90_fp16x3", "simt_small_fp32"};
// Not parameterized: its SetUp must not ask GetParam() (gtest aborts the whole binary if it does).
class GpuDetectPinned : public ::testing::Test, public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    if (!detect_kernels_run_here())
      GTEST_SKIP() << "structure = detect past the small kernel runs on sm_90 only";
  }

  // One Detect call on `kernel` (rows ld apart, C poisoned, the workspace dirty): its flags and
  // C, beside the dense product's triangle in fp64.
  void run(const std::string& kernel, Fill fill, int64_t n, int64_t ld, const std::vector<float>& A,
           const std::vector<float>& B, uint32_t& flags, std::vector<float>& C,
           std::vector<double>& ref) {
    ref.assign(static_cast<size_t>(n * n), 0.0);
    cpu::reference_dense(fill, n, A.data(), ld, B.data(), ld, ref.data(), n);
    C.assign(static_cast<size_t>(n * ld), 0.f);
    test::poison(C);
    DeviceBuffer<float> dA(A), dB(B), dC(C);
    constexpr uint32_t kDirty = 0xDEADBEEFu;
    DeviceBuffer<uint32_t> work(detect_workspace(kernel, n, kDirty));
    const Options o = detect_options(kernel, work);
    trtrmm(fill, n, dA.get(), ld, dB.get(), ld, dC.get(), ld, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    flags = work.download()[0];
    if (kernel == "simt_small_fp32") flags = epoch_tagged_flags(flags, kDirty);
    C = dC.download();
  }
};

TEST_F(GpuDetectPinned, OneValueInTheOtherTriangleIsFound) {
  SCOPED_TRACE(test::seed_note(seed_));
  const float inf = std::numeric_limits<float>::infinity();
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const int64_t n : {5, 7, 130, 257}) {
      if (n > test::max_n()) continue;
      const int64_t ld = (n + 3) / 4 * 4 + 4;
      const auto A0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      const auto B0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      // (row, column) outside the triangle: the other triangle's row r spans [0, r) (upper) or
      // (r, n) (lower); r is a middle row or the row with the most of it.
      const int64_t mid = n / 2, full = fill == Fill::Upper ? n - 1 : 0;
      auto span = [&](int64_t r) {
        return fill == Fill::Upper ? std::pair<int64_t, int64_t>{0, r}
                                   : std::pair<int64_t, int64_t>{r + 1, n};
      };
      std::vector<std::pair<int64_t, int64_t>> where;
      for (const int64_t r : {mid, full}) {
        const auto [lo, hi] = span(r);
        for (const int64_t c : {lo, (lo + hi) / 2, hi - 1}) where.push_back({r, c});
      }
      for (const auto& [r, c] : where)
        for (const bool in_a : {true, false})
          for (const float v : {1e-30f, test::kNaN<float>, inf})
            for (const char* kernel : kScanningKernels) {
              SCOPED_TRACE(std::string(kernel) + " " + to_string(fill) + " n=" + std::to_string(n) +
                           " " + (in_a ? "A" : "B") + "(" + std::to_string(r) + ", " +
                           std::to_string(c) + ") = " + std::to_string(v));
              auto A = A0, B = B0;
              (in_a ? A : B)[size_t(r * ld + c)] = v;
              uint32_t flags = 0;
              std::vector<float> C;
              std::vector<double> ref;
              ASSERT_NO_FATAL_FAILURE(run(kernel, fill, n, ld, A, B, flags, C, ref));
              EXPECT_EQ(flags & 3u, in_a ? 1u : 2u) << "flags " << flags;
              EXPECT_EQ((flags & 4u) != 0u, !std::isfinite(v)) << "flags " << flags;
              // allclose: 1e-30 times an integer on the tensor cores is not exact in fp32.
              EXPECT_TRUE(test::matches_dense(fill, n, C.data(), ld, ref, false));
            }
    }
}

// sm90_fp16x3's helper warps read a row's other triangle in pieces of up to 2 KB by bulk copies,
// the elements before and after its whole 16-byte chunks directly: at n = 1100 the longest row
// (Upper's last, Lower's first) is three pieces and three lone elements. One tiny value (1e-30:
// C stays within tolerance of the unplanted reference) at the row's first column, in its second
// piece, or at its last column, in A or in B: that operand's flag alone.
TEST_F(GpuDetectPinned, Fp16x3ScansLongRowsWhole) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = 1100, ld = n + 4;
  SKIP_ABOVE_MAX_N(n);
  if (!runs_here("sm90_fp16x3", n)) GTEST_SKIP() << "sm90_fp16x3 needs sm_90";
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    const auto A0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
    const auto B0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
    std::vector<double> ref(static_cast<size_t>(n * n));
    cpu::reference_dense(fill, n, A0.data(), ld, B0.data(), ld, ref.data(), n);
    const int64_t r = fill == Fill::Upper ? n - 1 : 0;
    const int64_t lo = fill == Fill::Upper ? 0 : 1, hi = fill == Fill::Upper ? n - 2 : n - 1;
    for (const int64_t c : {lo, (lo + hi) / 2 + 40, hi})
      for (const bool in_a : {true, false}) {
        SCOPED_TRACE(std::string(to_string(fill)) + (in_a ? " A(" : " B(") + std::to_string(r) +
                     ", " + std::to_string(c) + ") = 1e-30");
        auto A = A0, B = B0;
        (in_a ? A : B)[size_t(r * ld + c)] = 1e-30f;
        std::vector<float> C(static_cast<size_t>(n * ld));
        test::poison(C);
        DeviceBuffer<float> dA(A), dB(B), dC(C);
        DeviceBuffer<uint32_t> work(detect_workspace("sm90_fp16x3", n, 0xDEADBEEFu));
        trtrmm(fill, n, dA.get(), ld, dB.get(), ld, dC.get(), ld, nullptr,
               detect_options("sm90_fp16x3", work));
        TEST_CUDA(cudaGetLastError());
        EXPECT_EQ(work.download()[0], in_a ? kernels::kOutsideA : kernels::kOutsideB);
        EXPECT_TRUE(test::matches_dense(fill, n, dC.download().data(), ld, ref, false));
      }
  }
}

// NaN payloads and Inf inside the triangles. sm90_tf32x3 rounds its split on the bits (ptx.cuh):
// the GPU's own NaN (0x7fffffff, also with the sign) rounds to a zero big part and survives in
// the small part; a NaN whose payload lies in its low bits reads as ±Inf to the tensor cores;
// A's small part of any of them is zero. Whatever the structured launch makes of them, its
// output must come out non-finite, so that Detect takes its exact path and C is the dense
// product's (NaN and Inf exactly where it has them). The small kernel's scan must flag each as
// not finite inside the triangles.
TEST_F(GpuDetectPinned, NaNPayloadsInsideTheTrianglesReachTheExactPath) {
  SCOPED_TRACE(test::seed_note(seed_));
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const int64_t n : {130, 257}) {
      if (n > test::max_n()) continue;
      const int64_t ld = (n + 3) / 4 * 4;
      const auto A0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      const auto B0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      // Inside the triangle: a diagonal element, one a few columns off it (both in a tile that
      // straddles the diagonal) and one in the triangle's far corner column (a tile off it).
      const int64_t r = n / 3, c = fill == Fill::Upper ? std::min(n - 1, r + 5) : r - 5;
      const int64_t far = fill == Fill::Upper ? n - 1 : 0;
      for (const auto& [i, j] : {std::pair<int64_t, int64_t>{r, r}, {r, c}, {r, far}})
        for (const bool in_a : {true, false})
          for (const uint32_t bits :
               {0x7fffffffu, 0xffffffffu, 0x7f800001u, 0x7fc00000u, 0x7f800000u, 0xff800000u})
            for (const char* kernel : kScanningKernels) {
              char hex[16];
              std::snprintf(hex, sizeof hex, "0x%08x", bits);
              SCOPED_TRACE(std::string(kernel) + " " + to_string(fill) + " n=" + std::to_string(n) +
                           " " + (in_a ? "A" : "B") + "(" + std::to_string(i) + ", " +
                           std::to_string(j) + ") = " + hex);
              auto A = A0, B = B0;
              std::memcpy(&(in_a ? A : B)[size_t(i * ld + j)], &bits, sizeof bits);
              uint32_t flags = 0;
              std::vector<float> C;
              std::vector<double> ref;
              ASSERT_NO_FATAL_FAILURE(run(kernel, fill, n, ld, A, B, flags, C, ref));
              const bool scanned = std::string(kernel) == "simt_small_fp32";
              EXPECT_EQ(flags, scanned ? kernels::kNonFiniteInside : kernels::kNonFiniteOut)
                  << "only the non-finite flag";
              EXPECT_TRUE(test::matches_dense(fill, n, C.data(), ld, ref, true));
            }
    }
}

// The small kernel's blocks read rows of any alignment: A and B one element past a 16-byte
// boundary with ld = n + 1 (at n = 130 four consecutive rows start 3, 0, 1 and 2 elements before
// a 16-byte boundary; n = 5 and 257 alternate 3 and 1; n = 7 keeps 3), one value at the first or
// the last column of a row's other triangle, or an Inf on its diagonal, in each of four rows
// around the middle; the element before each operand and the padding hold NaN, which the scan
// must not count.
TEST_F(GpuDetectPinned, TheSmallKernelsScanTakesRowsOfAnyAlignment) {
  SCOPED_TRACE(test::seed_note(seed_));
  const float inf = std::numeric_limits<float>::infinity();
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const int64_t n : {5, 7, 130, 257}) {
      if (n > test::max_n()) continue;
      const int64_t ld = n + 1;
      const auto A0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      const auto B0 = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
      for (int64_t dr = 0; dr < 4; ++dr) {
        // Row r's other triangle: [0, r) (upper) or (r, n) (lower); 1 <= r <= n - 2 has one.
        const int64_t r = std::min(n - 2, n / 2 - 1 + dr);
        const int64_t first = fill == Fill::Upper ? 0 : r + 1,
                      last = fill == Fill::Upper ? r - 1 : n - 1;
        struct Plant {
          int64_t col;
          float value;
          uint32_t flag;  // for A; B's outside flag is kOutsideB
        };
        for (const Plant& plant :
             {Plant{first, 3.f, kernels::kOutsideA}, Plant{last, -2.f, kernels::kOutsideA},
              Plant{r, inf, kernels::kNonFiniteInside}, Plant{-1, 0.f, 0u}})
          for (const bool in_a : {true, false}) {
            SCOPED_TRACE(std::string(to_string(fill)) + " n=" + std::to_string(n) + " " +
                         (in_a ? "A" : "B") + "(" + std::to_string(r) + ", " +
                         std::to_string(plant.col) + ") = " + std::to_string(plant.value));
            auto A = A0, B = B0;
            if (plant.col >= 0) (in_a ? A : B)[size_t(r * ld + plant.col)] = plant.value;
            std::vector<double> ref(static_cast<size_t>(n * n));
            cpu::reference_dense(fill, n, A.data(), ld, B.data(), ld, ref.data(), n);
            // One NaN before each operand: the device pointers are 4 bytes past cudaMalloc's
            // alignment.
            A.insert(A.begin(), test::kNaN<float>);
            B.insert(B.begin(), test::kNaN<float>);
            std::vector<float> C(static_cast<size_t>(n * ld));
            test::poison(C);
            DeviceBuffer<float> dA(A), dB(B), dC(C);
            DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
            trtrmm(fill, n, dA.get() + 1, ld, dB.get() + 1, ld, dC.get(), ld, nullptr,
                   detect_options("simt_small_fp32", work));
            TEST_CUDA(cudaGetLastError());
            const uint32_t want =
                plant.flag == kernels::kOutsideA && !in_a ? kernels::kOutsideB : plant.flag;
            EXPECT_EQ(epoch_tagged_flags(work.download()[0], 0xDEADBEEFu), want);
            EXPECT_TRUE(test::matches_dense(fill, n, dC.download().data(), ld, ref, true));
          }
      }
    }
}

// One workspace for a sequence of calls on the small kernel's scan path, as a caller reuses it:
// noisy, triangular, noisy inputs. No memset clears the word between them: a triangular call
// must read the noisy call's flags as another epoch's (its C the band's, exact on integers), and
// the next noisy call must flag again. Under stream capture the word is cleared by a memset and
// a graph replays the call: a triangular replay after a noisy one leaves it zero.
TEST_F(GpuDetectPinned, TheSmallKernelsFlagWordIsReusedWithoutAMemset) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::min<int64_t>(600, test::max_n()), ld = n;
  const auto tri_a =
      test::make(test::Kind::Triangular, Fill::Upper, n, ld, test::integers(rng_), rng_);
  const auto tri_b =
      test::make(test::Kind::Triangular, Fill::Upper, n, ld, test::integers(rng_), rng_);
  auto noisy_b = tri_b;
  noisy_b[size_t((n - 1) * ld + 1)] = 3.f;  // B(n - 1, 1), in the other triangle
  std::vector<double> ref_tri(static_cast<size_t>(n * n)), ref_noisy(ref_tri.size());
  cpu::reference_dense(Fill::Upper, n, tri_a.data(), ld, tri_b.data(), ld, ref_tri.data(), n);
  cpu::reference_dense(Fill::Upper, n, tri_a.data(), ld, noisy_b.data(), ld, ref_noisy.data(), n);
  std::vector<float> C(static_cast<size_t>(n * ld));
  test::poison(C);
  DeviceBuffer<float> dA(tri_a), dB(noisy_b), dC(C);
  DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
  const Options o = detect_options("simt_small_fp32", work);
  auto call = [&](cudaStream_t stream) {
    trtrmm(Fill::Upper, n, dA.get(), ld, dB.get(), ld, dC.get(), ld, stream, o);
  };
  for (const bool noisy : {true, false, true}) {
    SCOPED_TRACE(noisy ? "noisy" : "triangular");
    dB.upload(noisy ? noisy_b : tri_b);
    dC.upload(C);
    const uint32_t before = work.download()[0];
    call(nullptr);
    TEST_CUDA(cudaGetLastError());
    EXPECT_EQ(epoch_tagged_flags(work.download()[0], before), noisy ? kernels::kOutsideB : 0u);
    EXPECT_TRUE(test::matches_dense(Fill::Upper, n, dC.download().data(), ld,
                                    noisy ? ref_noisy : ref_tri, true));
  }
  // The same call captured into a graph, replayed noisy, then triangular.
  cudaStream_t stream = nullptr;
  TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  call(stream);
  TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (const bool noisy : {true, false}) {
    SCOPED_TRACE(noisy ? "graph, noisy" : "graph, triangular");
    dB.upload(noisy ? noisy_b : tri_b);
    dC.upload(C);
    TEST_CUDA(cudaGraphLaunch(exec, stream));
    TEST_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(epoch_tagged_flags(work.download()[0], 0u), noisy ? kernels::kOutsideB : 0u)
        << "a word a memset cleared";
    EXPECT_TRUE(test::matches_dense(Fill::Upper, n, dC.download().data(), ld,
                                    noisy ? ref_noisy : ref_tri, true));
  }
  TEST_CUDA(cudaGraphExecDestroy(exec));
  TEST_CUDA(cudaGraphDestroy(graph));
  TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_F(GpuDetectPinned, BatchesAreScannedWhole) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::min<int64_t>(200, test::max_n()), ld = (n + 3) / 4 * 4, batch = 3;
  const int64_t stride = n * ld;
  for (const Fill fill : {Fill::Upper, Fill::Lower})
    for (const bool in_a : {true, false})
      for (const char* kernel : kScanningKernels) {
        SCOPED_TRACE(std::string(kernel) + " " + to_string(fill) +
                     (in_a ? " noise in shared A" : " noise in B[2]"));
        // A shared by the batch (stride 0); B and C: `batch` matrices. One value outside the
        // triangle: in A, or in the last batch entry of B.
        auto A = test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
        std::vector<float> B;
        for (int64_t b = 0; b < batch; ++b) {
          const auto m =
              test::make(test::Kind::Triangular, fill, n, ld, test::integers(rng_), rng_);
          B.insert(B.end(), m.begin(), m.end());
        }
        const int64_t r = fill == Fill::Upper ? n - 1 : 0, c = fill == Fill::Upper ? 1 : n - 2;
        if (in_a)
          A[size_t(r * ld + c)] = 3.f;
        else
          B[size_t((batch - 1) * stride + r * ld + c)] = 3.f;
        std::vector<float> C(static_cast<size_t>(batch * stride));
        test::poison(C);
        DeviceBuffer<float> dA(A), dB(B), dC(C);
        DeviceBuffer<uint32_t> work(detect_workspace(kernel, n, 0xDEADBEEFu, batch));
        const Options o = detect_options(kernel, work);
        trtrmm_strided_batched(fill, n, dA.get(), ld, 0, dB.get(), ld, stride, dC.get(), ld, stride,
                               batch, nullptr, o);
        TEST_CUDA(cudaGetLastError());
        const uint32_t word = work.download()[0];
        const bool tagged = std::string(kernel) == "simt_small_fp32";
        EXPECT_EQ(tagged ? epoch_tagged_flags(word, 0xDEADBEEFu) : word, in_a ? 1u : 2u);
        const auto out = dC.download();
        for (int64_t b = 0; b < batch; ++b) {
          std::vector<double> ref(static_cast<size_t>(n * n));
          cpu::reference_dense(fill, n, A.data(), ld, B.data() + b * stride, ld, ref.data(), n);
          EXPECT_TRUE(test::matches_dense(fill, n, out.data() + b * stride, ld, ref, true))
              << "batch entry " << b;
        }
      }
}

// Past the orders' table (n > 5632) Structure::Detect's structured launch takes its units in
// bands too: triangular integer inputs (zeros in the other triangles), bit-exact against the fp64
// reference, and no flag raised (the structured result stands).
TEST_F(GpuDetectPinned, BandedTriangularIntegersExact) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = 5896, lda = n + 4, ldb = lda + 4, ldc = lda + 8;
  SKIP_ABOVE_MAX_N(n);
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    SCOPED_TRACE(to_string(fill));
    const auto A = test::make(test::Kind::Triangular, fill, n, lda, test::integers(rng_), rng_);
    const auto B = test::make(test::Kind::Triangular, fill, n, ldb, test::integers(rng_), rng_);
    std::vector<float> C(static_cast<size_t>(n * ldc));
    test::poison(C);
    DeviceBuffer<float> dA(A), dB(B), dC(C);
    DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
    trtrmm(fill, n, dA.get(), lda, dB.get(), ldb, dC.get(), ldc, nullptr,
           detect_options("sm90_tf32x3", work));
    TEST_CUDA(cudaGetLastError());
    const auto out = dC.download();
    const auto ref = reference(fill, Shape{n, lda, ldb, ldc}, dA.get(), dB.get(), A, B);
    EXPECT_TRUE(test::equals_exactly(fill, n, out.data(), ldc, ref.data(), n));
    EXPECT_EQ(work.download()[0], 0u) << "flags";
  }
}

// The general launch is persistent: at n = 2048 there are 136 tiles on or above the diagonal,
// more than the H200's 132 slots, so some of its blocks compute two (the ring and its mbarrier
// phases carry over). Noise below the diagonal sends every call there; against the dense
// product's triangle in fp64 (on the GPU: 2048³ on the CPU would take long).
TEST_F(GpuDetectPinned, GeneralLaunchBlocksTakeSeveralTiles) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = std::min<int64_t>(2048, test::max_n());
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    SCOPED_TRACE(to_string(fill));
    const auto A = test::make(test::Kind::Noisy, fill, n, n, test::uniform01(rng_), rng_);
    const auto B = test::make(test::Kind::Noisy, fill, n, n, test::uniform01(rng_), rng_);
    std::vector<float> C(static_cast<size_t>(n * n));
    test::poison(C);
    DeviceBuffer<float> dA(A), dB(B), dC(C);
    DeviceBuffer<double> ref(static_cast<size_t>(n * n));
    kernels::launch_naive_fp64_reference(fill, n, dA.get(), n, dB.get(), n, ref.get(), n, nullptr,
                                         /*dense=*/true);
    DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
    const Options o = detect_options("sm90_tf32x3", work);
    trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    EXPECT_EQ(work.download()[0], 3u) << "flags";
    EXPECT_TRUE(test::matches_dense(fill, n, dC.download().data(), n, ref.download(), false));
  }
}

// A batch that fills the slots by itself keeps one block per tile in the general launch; the
// noise is in one entry of B only, A is shared by the batch.
TEST_F(GpuDetectPinned, GeneralLaunchOverALargeBatch) {
  SCOPED_TRACE(test::seed_note(seed_));
  const int64_t n = 130, ld = 132, batch = 160, stride = n * ld;
  const auto A = test::make(test::Kind::Triangular, Fill::Upper, n, ld, test::integers(rng_), rng_);
  std::vector<float> B;
  for (int64_t b = 0; b < batch; ++b) {
    const auto kind = b == batch / 2 ? test::Kind::Noisy : test::Kind::Triangular;
    const auto m = test::make(kind, Fill::Upper, n, ld, test::integers(rng_), rng_);
    B.insert(B.end(), m.begin(), m.end());
  }
  std::vector<float> C(static_cast<size_t>(batch * stride));
  test::poison(C);
  DeviceBuffer<float> dA(A), dB(B), dC(C);
  DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
  const Options o = detect_options("sm90_tf32x3", work);
  trtrmm_strided_batched(Fill::Upper, n, dA.get(), ld, 0, dB.get(), ld, stride, dC.get(), ld,
                         stride, batch, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  EXPECT_EQ(work.download()[0], 2u) << "flags";
  const auto out = dC.download();
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> ref(static_cast<size_t>(n * n));
    cpu::reference_dense(Fill::Upper, n, A.data(), ld, B.data() + b * stride, ld, ref.data(), n);
    ASSERT_TRUE(test::matches_dense(Fill::Upper, n, out.data() + b * stride, ld, ref, false))
        << "batch entry " << b;
  }
}

// The fp32 gated launches, each alone on a preset flag word: it computes C (every element: its
// triangle and the zeros) exactly where its path applies, and returns without writing anything
// otherwise; none changes the word (integer inputs: every sum finite). A gated launch that failed
// to switch off would rewrite C with the same values in a call, so only a direct launch shows it.
// The sm_90 launches and naive_fp32 read a zeroed word (epoch 0, as the flags path leaves it);
// simt_small_fp32's AnyFlag launch reads the call's epoch: a word tagged with another holds none.
class GpuDetectGate : public ::testing::Test, public test::Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

TEST_F(GpuDetectGate, EachLaunchRunsOnlyOnItsFlags) {
  SCOPED_TRACE(test::seed_note(seed_));
  using namespace kernels;
  const DeviceInfo info = test::device_info();
  struct Launch {
    const char* name;
    Path path;
    void (*launch)(const Problem&, const DeviceInfo&, Stream);
    bool epochs;  // reads the call's epoch
  };
  std::vector<Launch> launches = {
      {"naive_fp32 exact", Path::Exact, launch_naive_fp32, false},
      {"simt_small_fp32 any flag", Path::AnyFlag, launch_simt_small_fp32, true}};
  if (info.cc == 90) {
    launches.push_back({"sm90_tf32x3 dense", Path::Dense, launch_sm90_tf32x3, false});
    launches.push_back({"sm90_tf32 dense", Path::Dense, launch_sm90_tf32, false});
    launches.push_back({"sm90_tf32x3 fallback", Path::Fallback, launch_sm90_tf32x3, false});
  }
  const uint32_t words[] = {0u,
                            kOutsideA,
                            kOutsideB,
                            kOutsideA | kOutsideB,
                            kOutsideA | kNonFiniteOutside,
                            kNonFiniteOut,
                            kOutsideB | kNonFiniteOut,
                            kLostBits,
                            kOutsideA | kLostBits,
                            kNonFiniteDense,
                            (1u << kEpochShift) - 1u};
  // (the call's epoch, the word's): untagged (a zeroed word), this call's, a stale call's.
  const std::pair<uint32_t, uint32_t> epochs[] = {{0u, 0u}, {5u, 5u}, {5u, 4u}};
  for (const int64_t n : {40, 700})
    for (const int64_t batch : {1, 3})
      for (const Fill fill : {Fill::Upper, Fill::Lower}) {
        const int64_t ld = (n + 3) / 4 * 4, stride = n * ld, total = batch * stride;
        std::vector<float> in(static_cast<size_t>(total));
        std::uniform_int_distribution<int> value(-4, 4);
        for (float& v : in) v = float(value(rng_));
        DeviceBuffer<float> dA(in), dB(in), dC(static_cast<size_t>(total));
        DeviceBuffer<uint32_t> gate(1);
        for (const Launch& l : launches)
          for (const auto& [epoch, tag] : epochs)
            for (const uint32_t w : words) {
              if (!l.epochs && epoch != 0u) continue;
              SCOPED_TRACE(std::string(l.name) + " n " + std::to_string(n) + " batch " +
                           std::to_string(batch) + " " + to_string(fill) + " flags " +
                           std::to_string(w) + " epoch " + std::to_string(epoch) + " tag " +
                           std::to_string(tag));
              const uint32_t word = w | tag << kEpochShift, f = tag == epoch ? w : 0u;
              Problem p;
              static_cast<MatrixProblem<float>&>(p) = {fill, n,      dA.get(), ld, stride, dB.get(),
                                                       ld,   stride, dC.get(), ld, stride, batch};
              p.gate = gate.get();
              p.path = l.path;
              p.epoch = epoch;
              gate.upload(std::vector<uint32_t>(1, word));
              TEST_CUDA(cudaMemset(dC.get(), 0x77, size_t(total) * sizeof(float)));
              l.launch(p, info, nullptr);
              TEST_CUDA(cudaGetLastError());
              const auto out = dC.download();
              uint32_t poison = 0;
              std::memset(&poison, 0x77, sizeof poison);
              int64_t written = 0;
              for (int64_t b = 0; b < batch; ++b)
                for (int64_t i = 0; i < n; ++i)
                  for (int64_t j = 0; j < n; ++j) {
                    uint32_t bits = 0;
                    std::memcpy(&bits, &out[size_t(b * stride + i * ld + j)], sizeof bits);
                    written += bits != poison;
                  }
              const bool nonfinite =
                  (f & (kNonFiniteOutside | kNonFiniteOut | kNonFiniteInside)) != 0u;
              const bool runs = l.path == Path::Dense
                                    ? (f & (kOutsideA | kOutsideB | kLostBits)) != 0u && !nonfinite
                                : l.path == Path::Exact ? nonfinite || (f & kNonFiniteDense) != 0u
                                : l.path == Path::Fallback ? (f & kLostBits) != 0u
                                                           : f != 0u;  // AnyFlag
              EXPECT_EQ(written, runs ? batch * n * n : 0);
              EXPECT_EQ(gate.download()[0], word) << "flag word modified";
            }
      }
}

// Rows of A and columns of B of very different magnitudes, each scaled by its own 2^e: e in
// [-40, 40] both (beyond fp16's range either way, which sm90_fp16x3's per-row and per-column
// scales must absorb), or A's rows at 2^(80…110) and B's columns at 2^-(80…110) and the
// reverse (C in range, the scales' product near fp32's ends). The scales factor out of the
// product exactly, so C(i, j) / (ra_i·cb_j) must meet the signed inputs' bars against the
// reference of the inputs with their scales divided out (exact: what fp32 kept of them). Every
// fp32-accurate kernel, at n with 16-byte rows (the TMA kernels').
class GpuWideRanges : public ::testing::TestWithParam<std::tuple<Fill, int64_t, int>>,
                      public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<1>(GetParam()));
  }
};

TEST_P(GpuWideRanges, RowAndColumnScalesFactorOut) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n, mode] = GetParam();
  const auto A0 = test::make_triangular<float>(fill, n, n, test::normal(rng_));
  const auto B0 = test::make_triangular<float>(fill, n, n, test::normal(rng_));
  // mode 0: both in [-40, 40]; 1: A's rows high, B's columns low; 2: the reverse.
  std::uniform_int_distribution<int> wide(-40, 40), far(80, 110);
  const int sign = mode == 1 ? 1 : -1;
  std::vector<double> ra(static_cast<size_t>(n)), cb(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    ra[size_t(i)] = std::ldexp(1.0, mode == 0 ? wide(rng_) : sign * far(rng_));
    cb[size_t(i)] = std::ldexp(1.0, mode == 0 ? wide(rng_) : -sign * far(rng_));
  }
  std::vector<float> A(A0), B(B0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      A[size_t(i * n + j)] = float(A0[size_t(i * n + j)] * ra[size_t(i)]);
      B[size_t(i * n + j)] = float(B0[size_t(i * n + j)] * cb[size_t(j)]);
    }
  std::vector<float> A1(A), B1(B);  // the scaled inputs, scales divided out again (exact)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      A1[size_t(i * n + j)] = float(A[size_t(i * n + j)] / ra[size_t(i)]);
      B1[size_t(i * n + j)] = float(B[size_t(i * n + j)] / cb[size_t(j)]);
    }
  std::vector<double> ref(static_cast<size_t>(n * n));
  cpu::reference_trtrmm(fill, n, A1.data(), n, B1.data(), n, ref.data(), n);
  std::vector<float> C0(static_cast<size_t>(n * n));
  test::poison(C0);
  DeviceBuffer<float> dA(A), dB(B), dC(C0);
  for (const std::string& kernel : every_kernel()) {
    if (precision_of(kernel) == Precision::Tf32 || !runs_here(kernel, n)) continue;
    if (kernel == "naive_fp32" && n > 1024) continue;
    Options o;
    o.kernel = kernel;
    const test::Workspace ws(o, n);
    dC.upload(C0);
    trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    std::vector<double> c(C.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        c[size_t(i * n + j)] = double(C[size_t(i * n + j)]) / (ra[size_t(i)] * cb[size_t(j)]);
    EXPECT_TRUE(test::is_close(fill, n, c.data(), n, ref.data(), n, {1e-6, 1e-3, 1e-4})) << kernel;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuWideRanges,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(132, 1000),
                                            ::testing::Values(0, 1, 2)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param)) + "_scales" +
                                  std::to_string(std::get<2>(info.param));
                         });

// Elements far below their row's (A) or column's (B) largest magnitude, whose products still
// count: sm90_fp16x3's planes cannot hold them (docs/sm90_fp16x3_plan.md, "The accuracy limit");
// its prepass lists them and adds their products back in fp32, or, past its lists' capacity
// (n / 4), has sm90_tf32x3 recompute. Rows `huge` of A get a diagonal element 2^40 (the rest of
// each such row falls below 2^-17 of its maximum) and the same rows of B are scaled by 2^-40 (so
// those products are O(1), and B's elements there are lost in their columns too). few: two
// short rows (within the lists), many: every eighth row (past them). Besides, one element of C
// whose every term is a product of two lost elements (A's row and B's column each have a 2^40
// diagonal, and are zero outside a 16-wide window): counted twice, or not at all, it fails.
// Structure::Triangular (the other triangles NaN: never read) and Detect (zeros there; the gate
// shows whether the lists overflowed). Every kernel; the fp64 reference (the tf32 kernels,
// sm90_fp16x1's lists and fallback among them, against GpuTrtrmm's tf32 bound). n = 2600: the
// persistent kernels' blocks take two tiles or more (sm90_fp16x3's on the H200).
class GpuLostElements
    : public ::testing::TestWithParam<std::tuple<Fill, int64_t, bool, Structure>>,
      public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<1>(GetParam()));
  }
};

// GpuLostElements' operands (n × n, ld n): the huge rows (every eighth, `many`, or two short ones)
// and the all-lost element C(r, c). Detect: zeros in the other triangles, else NaN there.
struct LostInputs {
  std::vector<float> A, B;
  int64_t r, c;
};
LostInputs lost_inputs(Fill fill, int64_t n, bool many, bool detect, std::mt19937_64& rng) {
  auto operand = [&] {
    return detect ? test::make<float>(test::Kind::Triangular, fill, n, n, test::normal(rng), rng)
                  : test::make_triangular<float>(fill, n, n, test::normal(rng));
  };
  LostInputs in{operand(), operand(), 0, 0};
  auto at = [n](std::vector<float>& x, int64_t i, int64_t j) -> float& {
    return x[size_t(i * n + j)];
  };
  // C(r, c) below: Σ over the window lo < k < hi of A(r, k)·B(k, c), all lost × lost.
  const int64_t lo = n / 4 + 1, hi = lo + 17;
  const int64_t r = fill == Fill::Upper ? lo : hi, c = fill == Fill::Upper ? hi : lo;
  in.r = r;
  in.c = c;
  std::vector<int64_t> huge;
  if (many) {  // (clear of the window: a 2^40 there would dwarf the rest of C's norm)
    for (int64_t i = 0; i < n; i += 8)
      if (i < lo - 8 || i > hi + 8) huge.push_back(i);
  } else {  // rows of n / 16 elements (Upper's last ones, Lower's first), 8 apart
    const int64_t i = fill == Fill::Upper ? n - n / 16 : n / 16;
    huge = {i, fill == Fill::Upper ? i - 8 : i + 8};
  }
  for (const int64_t i : huge) {
    at(in.A, i, i) = 0x1p40f;
    for (int64_t j = 0; j < n; ++j) at(in.B, i, j) *= 0x1p-40f;
  }
  std::normal_distribution<float> z(0.f, 1.f);
  for (int64_t k = 0; k < n; ++k) {
    const bool window = lo < k && k < hi;
    if (test::in_triangle(fill, r, k)) {
      at(in.A, r, k) = window ? z(rng) : 0.f;
      at(in.B, r, k) = 0.f;  // nothing for A(r, r) = 2^40 to magnify into C
    }
    if (test::in_triangle(fill, k, c)) {
      at(in.B, k, c) = window ? z(rng) : 0.f;
      at(in.A, k, c) = 0.f;  // nor for B(c, c)
    }
  }
  at(in.A, r, r) = 0x1p40f;
  at(in.B, c, c) = 0x1p40f;
  return in;
}

// The fp64 reference of LostInputs, and |A|·|B| (the tf32 bound's scale).
struct LostReference {
  std::vector<double> ref, mag;
};
LostReference lost_reference(Fill fill, int64_t n, const LostInputs& in) {
  LostReference r{std::vector<double>(static_cast<size_t>(n * n)),
                  std::vector<double>(static_cast<size_t>(n * n))};
  cpu::reference_trtrmm(fill, n, in.A.data(), n, in.B.data(), n, r.ref.data(), n);
  auto absolute = [](std::vector<float> x) {
    for (float& v : x) v = std::isnan(v) ? v : std::fabs(v);
    return x;
  };
  const auto Aabs = absolute(in.A), Babs = absolute(in.B);
  cpu::reference_trtrmm(fill, n, Aabs.data(), n, Babs.data(), n, r.mag.data(), n);
  return r;
}

// Whether `got` (n × n, ld ldc) is within GpuLostElements' bounds of the reference for the
// kernel's precision: fp32's allclose, or (tf32) the tf32 bound on |A|·|B| with exact zeros
// outside the triangle.
::testing::AssertionResult lost_close(const std::string& kernel, Fill fill, int64_t n,
                                      const float* got, int64_t ldc, const LostReference& r) {
  std::vector<double> out(r.ref.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) out[size_t(i * n + j)] = got[i * ldc + j];
  if (precision_of(kernel) != Precision::Tf32) {
    if (test::is_close(fill, n, out.data(), n, r.ref.data(), n, {1e-6, 1e-3, 1e-4}))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << kernel << ": not close to the fp64 reference";
  }
  const double tf32_bound = 1.1 * (std::ldexp(1.0, -10) + 2.0 * double(n) * std::ldexp(1.0, -23));
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const size_t e = size_t(i * n + j);
      const bool ok = test::in_triangle(fill, i, j)
                          ? std::abs(out[e] - r.ref[e]) <= tf32_bound * r.mag[e]
                          : out[e] == 0.0;
      bad += ok ? 0 : 1;
    }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << kernel << ": " << bad << " elements past the tf32 bound (or nonzero outside)";
}

TEST_P(GpuLostElements, SmallElementsBesideHugeOnesCount) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n, many, structure] = GetParam();
  const bool detect = structure == Structure::Detect;
  const LostInputs in = lost_inputs(fill, n, many, detect, rng_);
  const LostReference r = lost_reference(fill, n, in);
  ASSERT_GT(std::abs(r.ref[size_t(in.r * n + in.c)]), 1e-3)
      << "the all-lost element is a sum of N(0, 1)";
  std::vector<float> C0(static_cast<size_t>(n * n));
  test::poison(C0);
  DeviceBuffer<float> dA(in.A), dB(in.B), dC(C0);
  for (const std::string& kernel : every_kernel()) {
    if (!runs_here(kernel, n)) continue;
    if (kernel == "naive_fp32" && n > 1024) continue;
    if (detect && !dispatch::has_detect_path(kernel)) continue;
    Options o;
    o.kernel = kernel;
    o.structure = structure;
    const test::Workspace ws(o, n);
    dC.upload(C0);
    trtrmm(fill, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    EXPECT_TRUE(lost_close(kernel, fill, n, C.data(), n, r));
    // The corrections, not the fallback, where the lists hold the lost elements.
    if (detect && kernel == "sm90_fp16x3")
      EXPECT_EQ((ws.first_word() & kernels::kLostBits) != 0u, many) << "flags " << ws.first_word();
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuLostElements,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(256, 1000, 2600),
                                            ::testing::Bool(),
                                            ::testing::Values(Structure::Triangular,
                                                              Structure::Detect)),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param)) +
                                  (std::get<2>(info.param) ? "_many" : "_few") + "_" +
                                  to_string(std::get<3>(info.param));
                         });

// Three problems in one call, each with its own lost elements (the same places, other values):
// each entry's lists, corrections and flag. `overflow`: the middle entry's lists overflow, so the
// gated fallback recomputes the whole batch; without it, a correction added to the wrong entry
// shows (the values differ between entries).
class GpuLostElementsBatched
    : public ::testing::TestWithParam<std::tuple<Fill, int64_t, bool>>,
      public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<1>(GetParam()));
  }
};

TEST_P(GpuLostElementsBatched, EachEntryItsOwnLists) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [fill, n, overflow] = GetParam();
  constexpr int64_t batch = 3;
  const int64_t stride = n * n;
  std::vector<LostInputs> in;
  std::vector<LostReference> refs;
  std::vector<float> A, B;
  for (int64_t b = 0; b < batch; ++b) {
    in.push_back(lost_inputs(fill, n, overflow && b == 1, /*detect=*/false, rng_));
    refs.push_back(lost_reference(fill, n, in.back()));
    A.insert(A.end(), in.back().A.begin(), in.back().A.end());
    B.insert(B.end(), in.back().B.begin(), in.back().B.end());
  }
  std::vector<float> C0(static_cast<size_t>(batch * stride));
  test::poison(C0);
  DeviceBuffer<float> dA(A), dB(B), dC(C0);
  for (const std::string& kernel : every_kernel()) {
    if (!runs_here(kernel, n)) continue;
    if (kernel == "naive_fp32" && n > 1024) continue;
    Options o;
    o.kernel = kernel;
    const test::Workspace ws(o, n, batch);
    dC.upload(C0);
    trtrmm_strided_batched(fill, n, dA.get(), n, stride, dB.get(), n, stride, dC.get(), n, stride,
                           batch, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    for (int64_t b = 0; b < batch; ++b)
      EXPECT_TRUE(lost_close(kernel, fill, n, C.data() + b * stride, n, refs[size_t(b)]))
          << "batch entry " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuLostElementsBatched,
                         ::testing::Combine(::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(256, 1000), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) + "_n" +
                                  std::to_string(std::get<1>(info.param)) +
                                  (std::get<2>(info.param) ? "_overflow" : "_within");
                         });

// One row of B between the rows whose elements sm90_fp16x3 samples for B's column scales (every
// 16th above the diagonal 128-blocks, sampled_maxima), scaled up by 2^e past its columns'
// sampled maxima: e = 8 stays within what the planes hold (|x·s| < 2^15: the scale is only
// smaller than exact, the results as accurate, and no fallback: with exact maxima n = 1000's
// lists would overflow here); e = 20 does not, and the call must still be right (the fallback)
// and, under Detect, say so (the lists' flag). Every kernel against the fp64 reference
// (lost_close: fp32's bars, or the tf32 bound for the tf32 kernels, sm90_fp16x1 with the same
// sampling among them); Upper (Lower's maxima are exact).
class GpuSampledMaxima : public ::testing::TestWithParam<std::tuple<int64_t, int, Structure>>,
                         public Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<0>(GetParam()));
  }
};

TEST_P(GpuSampledMaxima, AnUnsampledRowFarAboveItsColumnsIsExact) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [n, e, structure] = GetParam();
  const bool detect = structure == Structure::Detect;
  auto operand = [&] {
    return detect ? test::make<float>(test::Kind::Triangular, Fill::Upper, n, n,
                                      test::normal(rng_), rng_)
                  : test::make_triangular<float>(Fill::Upper, n, n, test::normal(rng_));
  };
  const std::vector<float> A = operand();
  std::vector<float> B = operand();
  const int64_t k = 5;  // not a multiple of 16; columns from 128 on: above its diagonal block
  for (int64_t j = 128; j < n; ++j) B[size_t(k * n + j)] *= std::ldexp(1.f, e);
  const LostReference r = lost_reference(Fill::Upper, n, LostInputs{A, B, 0, 0});
  std::vector<float> C0(static_cast<size_t>(n * n));
  test::poison(C0);
  DeviceBuffer<float> dA(A), dB(B), dC(C0);
  for (const std::string& kernel : every_kernel()) {
    if (!runs_here(kernel, n)) continue;
    if (kernel == "naive_fp32" && n > 1024) continue;
    if (detect && !dispatch::has_detect_path(kernel)) continue;
    Options o;
    o.kernel = kernel;
    o.structure = structure;
    const test::Workspace ws(o, n);
    dC.upload(C0);
    trtrmm(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const auto C = dC.download();
    EXPECT_TRUE(lost_close(kernel, Fill::Upper, n, C.data(), n, r));
    if (detect && kernel == "sm90_fp16x3") {
      EXPECT_EQ((ws.first_word() & kernels::kLostBits) != 0u, e > 10) << "flags " << ws.first_word();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuSampledMaxima,
                         ::testing::Combine(::testing::Values(256, 1000), ::testing::Values(8, 20),
                                            ::testing::Values(Structure::Triangular,
                                                              Structure::Detect)),
                         [](const auto& info) {
                           return "n" + std::to_string(std::get<0>(info.param)) + "_e" +
                                  std::to_string(std::get<1>(info.param)) + "_" +
                                  to_string(std::get<2>(info.param));
                         });

// sm90_fp16x3 under Structure::Detect, Upper, on n × n operands (ld = n; C poisoned first): C
// and the flag word.
void detect_fp16x3(const std::vector<float>& A, const std::vector<float>& B, int64_t n,
                   std::vector<float>& C, uint32_t& flags) {
  std::vector<float> C0(static_cast<size_t>(n * n));
  test::poison(C0);
  DeviceBuffer<float> dA(A), dB(B), dC(C0);
  Options o;
  o.kernel = "sm90_fp16x3";
  o.structure = Structure::Detect;
  const test::Workspace ws(o, n);
  trtrmm(Fill::Upper, n, dA.get(), n, dB.get(), n, dC.get(), n, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  C = dC.download();
  flags = ws.first_word();
}

// The elements of C other than C[e] that are not 0.
int64_t nonzero_except(const std::vector<float>& C, size_t e) {
  int64_t count = 0;
  for (size_t i = 0; i < C.size(); ++i) count += i != e && C[i] != 0.f;
  return count;
}

// Under Structure::Detect a correction that takes an output past fp32's range must set
// kNonFiniteOut, so that the exact launch recomputes C with the reference's Inf (a correction
// at or past kSafeCorrection, 2^103, is flagged). sm90_fp16x3, Upper, C(0, 3) = A(0, 1)·B(1, 3) +
// A(0, 2)·B(2, 3) + A(0, 3)·B(3, 3) = 2^127 + (2^127 − 2^104) + 2^107: the planes' product is
// FLT_MAX exactly (A(0, 3), 2^-20 of its row's largest, is lost), and its correction overflows.
// The exact launch's fp32 sum is +Inf there; every other output is 0.
TEST(GpuLostElementsDetect, ACorrectionPastFp32RangeIsFlagged) {
  SKIP_WITHOUT_GPU();
  const int64_t n = 256;
  if (!runs_here("sm90_fp16x3", n)) GTEST_SKIP() << "sm90_fp16x3 runs on sm_90 only";
  std::vector<float> A(static_cast<size_t>(n * n), 0.f), B(A);
  A[1] = 0x1p64f;                         // A(0, 1): row 0's largest
  A[2] = 0x1p64f;                         // A(0, 2)
  A[3] = 0x1p44f;                         // A(0, 3): lost
  B[size_t(1 * n + 3)] = 0x1p63f;         // B(1, 3): column 3's largest
  B[size_t(2 * n + 3)] = 0x1.fffffcp62f;  // B(2, 3) = 2^63 − 2^40
  B[size_t(3 * n + 3)] = 0x1p63f;         // B(3, 3)
  std::vector<float> C;
  uint32_t flags = 0;
  ASSERT_NO_FATAL_FAILURE(detect_fp16x3(A, B, n, C, flags));
  EXPECT_NE(flags & kernels::kNonFiniteOut, 0u) << "flags " << flags;
  EXPECT_EQ(C[3], std::numeric_limits<float>::infinity());
  EXPECT_EQ(nonzero_except(C, 3), 0) << "outputs other than C(0, 3) that are not 0";
}

// A large correction that keeps its output finite: C(0, 3) = A(0, 3)·B(3, 3) = 2^44 · 2^63 =
// 2^107, all of it from a lost element (A(0, 3) is 2^-20 of its row's largest, A(0, 1), whose
// product meets B(1, 3) = 0). Whether the call corrects it in place or flags it for the exact
// launch, C is the dense product: 2^107 there, 0 elsewhere.
TEST(GpuLostElementsDetect, ALargeFiniteCorrectionIsExact) {
  SKIP_WITHOUT_GPU();
  const int64_t n = 256;
  if (!runs_here("sm90_fp16x3", n)) GTEST_SKIP() << "sm90_fp16x3 runs on sm_90 only";
  std::vector<float> A(static_cast<size_t>(n * n), 0.f), B(A);
  A[1] = 0x1p64f;                  // A(0, 1): row 0's largest
  A[3] = 0x1p44f;                  // A(0, 3): lost
  B[size_t(3 * n + 3)] = 0x1p63f;  // B(3, 3)
  std::vector<float> C;
  uint32_t flags = 0;
  ASSERT_NO_FATAL_FAILURE(detect_fp16x3(A, B, n, C, flags));
  EXPECT_EQ(C[3], 0x1p107f);
  EXPECT_EQ(nonzero_except(C, 3), 0) << "outputs other than C(0, 3) that are not 0";
}

// Errors: named, thrown before anything is written.
class GpuTrtrmmErrors : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

TEST_F(GpuTrtrmmErrors, BadArgumentsThrowNamingTheArgumentAndWriteNothing) {
  const int64_t n = 64;
  std::vector<float> host(static_cast<size_t>(n * n), 1.f);
  std::vector<float> poisoned(static_cast<size_t>(n * n));
  test::poison(poisoned);
  DeviceBuffer<float> A(host), B(host), C(poisoned);
  auto expect_error = [&](const char* name, auto&& call) {
    test::expect_invalid_argument(name, call, poisoned, {&C});
  };
  expect_error("n = -1", [&] { trtrmm(Fill::Upper, -1, A.get(), n, B.get(), n, C.get(), n); });
  expect_error("lda", [&] { trtrmm(Fill::Upper, n, A.get(), n - 1, B.get(), n, C.get(), n); });
  expect_error("ldb", [&] { trtrmm(Fill::Upper, n, A.get(), n, B.get(), 0, C.get(), n); });
  expect_error("ldc", [&] { trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), 3); });
  expect_error("A is null", [&] { trtrmm(Fill::Upper, n, static_cast<const float*>(nullptr), n, B.get(), n, C.get(), n); });
  expect_error("C overlaps A", [&] { trtrmm(Fill::Upper, n, C.get(), n, B.get(), n, C.get(), n); });
  expect_error("kernel", [&] {
    Options o;
    o.kernel = "no_such_kernel";
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error("stride_c", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, 0, B.get(), n, 0, C.get(), n, 1, 2);
  });
  expect_error("B is null", [&] { trtrmm(Fill::Upper, n, A.get(), n, static_cast<const float*>(nullptr), n, C.get(), n); });
  expect_error("C is null", [&] { trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, static_cast<float*>(nullptr), n); });
  expect_error("C overlaps B", [&] { trtrmm(Fill::Upper, n, A.get(), n, C.get(), n, C.get(), n); });
  expect_error("fill = 2", [&] {
    trtrmm(static_cast<Fill>(2), n, A.get(), n, B.get(), n, C.get(), n);
  });
  expect_error("precision = 9", [&] {
    Options o;
    o.precision = static_cast<Precision>(9);
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error("batch = -1", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, 0, B.get(), n, 0, C.get(), n, 0, -1);
  });
  expect_error("stride_a = -1", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A.get(), n, -1, B.get(), n, 0, C.get(), n, n * n, 1);
  });
  expect_error("structure = detect needs options.workspace", [&] {
    Options o;
    o.structure = Structure::Detect;
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  // A workspace of its own (one that overlaps C is refused as such, first), left unwritten.
  DeviceBuffer<float> work(poisoned);
  test::expect_invalid_argument("kernel = 'simt_fp32' with structure = detect",
                                [&] {
                                  Options o;
                                  o.structure = Structure::Detect;
                                  o.kernel = "simt_fp32";
                                  o.workspace = work.get();
                                  o.workspace_bytes = 4;
                                  trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n,
                                         nullptr, o);
                                },
                                poisoned, {&C, &work});
  expect_error("structure = 5", [&] {
    Options o;
    o.structure = static_cast<Structure>(5);
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
  expect_error("kernel = 'sm80_tf32x3' implements precision fp32", [&] {
    Options o;
    o.precision = Precision::Ieee;
    o.kernel = "sm80_tf32x3";
    trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, o);
  });
}

// sm90_fp16x3 keeps its split operands in options.workspace: without enough of it, or misaligned,
// the call is refused naming it, before anything (the prepass included) runs.
TEST_F(GpuTrtrmmErrors, Fp16x3WorkspaceIsCheckedFirst) {
  const int64_t n = 64;
  Options o;
  o.kernel = "sm90_fp16x3";
  if (!runs_here(o.kernel, n)) GTEST_SKIP() << "sm90_fp16x3 needs sm_90";
  std::vector<float> host(static_cast<size_t>(n * n), 1.f);
  std::vector<float> poisoned(static_cast<size_t>(n * n));
  test::poison(poisoned);
  DeviceBuffer<float> A(host), B(host), C(poisoned);
  const size_t need = trtrmm_workspace_bytes(n, 1, o);
  DeviceBuffer<unsigned char> work(need + 256);
  auto expect_error = [&](const char* name, void* ws, size_t bytes) {
    test::expect_invalid_argument(name, [&] {
      Options p = o;
      p.workspace = ws;
      p.workspace_bytes = bytes;
      trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, p);
    }, poisoned, {&C});
  };
  expect_error("kernel = 'sm90_fp16x3' needs options.workspace", nullptr, 0);
  expect_error("options.workspace", work.get(), need - 1);
  expect_error("misaligned", work.get() + 16, need);
  // Structure::Detect: the flag word, then the planes 256 bytes in; one byte short is refused
  // before the flag word is written.
  {
    Options d = o;
    d.structure = Structure::Detect;
    const size_t need_detect = trtrmm_workspace_bytes(n, 1, d);
    DeviceBuffer<unsigned char> detect_work(need_detect);
    d.workspace = detect_work.get();
    d.workspace_bytes = need_detect - 1;
    test::expect_invalid_argument("with structure = detect needs options.workspace", [&] {
      trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, d);
    }, poisoned, {&C});
  }
  // Enough, aligned: it runs.
  Options p = o;
  p.workspace = work.get();
  p.workspace_bytes = need;
  trtrmm(Fill::Upper, n, A.get(), n, B.get(), n, C.get(), n, nullptr, p);
  TEST_CUDA(cudaGetLastError());
  const auto out = C.download();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      ASSERT_EQ(out[size_t(i * n + j)], j >= i ? float(j - i + 1) : 0.f) << i << ", " << j;
}

TEST_F(GpuTrtrmmErrors, EmptyProblemsAreNoOps) {
  const float* none = nullptr;  // typed: the 16-bit overloads take a bare nullptr too
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, none, 1, none, 1, nullptr, 1));
  EXPECT_NO_THROW(trtrmm_strided_batched(Fill::Lower, 5, none, 5, 0, none, 5, 0, nullptr, 5,
                                         25, 0));
}

}  // namespace
}  // namespace trimm
