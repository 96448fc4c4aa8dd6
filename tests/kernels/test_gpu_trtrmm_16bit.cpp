// The 16-bit API (half_t, bfloat16_t) on the GPU: every 16-bit kernel of the dispatch table forced
// by name, and dispatch's own choice, against the fp64 product of the same 16-bit inputs. Sizes on
// and off the tile grid, ld > n, misaligned views, batches, both triangles. The inputs' other
// triangle and padding hold NaN, C is poisoned with NaN before every call, and every element of C
// (padding included) is checked.
//
// Integer inputs (|x| <= 4) make every fp32 partial sum an exact integer (|sum| <= 16n < 2^24), in
// any order and with any fp32 accumulation, so C must equal the exact product rounded once to the
// type: bit-exact, at every n. Random inputs are judged against a bound that holds for every input
// (no flakes), derived in within_bound().
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
#include <utility>
#include <vector>

#include "common/test_util.hpp"
#include "config/tile_config.hpp"
#include "cuda/dispatch.hpp"
#include "kernels/gpu_util.hpp"
#include "kernels/launch.hpp"
#include "trimm/cpu.hpp"
#include "trimm/cuda.hpp"

namespace trimm {
namespace {

using test::DeviceBuffer;
using Bits = std::vector<uint16_t>;

// --- the two formats, on the host -----------------------------------------------------------
// Rounding from double to nearest even (one rounding of the exact value), and back (exact).
struct Fp16 {
  using T = half_t;
  static constexpr const char* kName = "fp16";
  static constexpr double kU = 0x1p-11;  // unit roundoff: half an ulp, relative
  static constexpr double kMinNormal = 0x1p-14;
  static constexpr uint16_t kNaN = 0x7E00;
  static uint16_t from(double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(x);
    if (std::isnan(x)) return kNaN;
    if (a >= 65520.0) return sign | 0x7C00;  // rounds to infinity
    int e = 0;
    std::frexp(a, &e);  // a = f·2^e, f in [0.5, 1): a in [2^(e-1), 2^e)
    int E = a == 0.0 ? -14 : std::max(e - 1, -14);
    double q = std::nearbyint(std::ldexp(a, 10 - E));  // ties to even (default rounding mode)
    if (q == 2048.0) q = 1024.0, ++E;
    if (q < 1024.0) return sign | uint16_t(q);  // subnormal (E = -14) or zero
    return sign | uint16_t(((E + 15) << 10) | (int(q) - 1024));
  }
  static double to(uint16_t b) {
    const int e = (b >> 10) & 31, m = b & 1023;
    const double s = b & 0x8000 ? -1.0 : 1.0;
    if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : s * INFINITY;
    return s * (e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
  }
};

struct Bf16 {
  using T = bfloat16_t;
  static constexpr const char* kName = "bf16";
  static constexpr double kU = 0x1p-8;
  static constexpr double kMinNormal = 0x1p-126;
  static constexpr uint16_t kNaN = 0x7FC0;
  static uint16_t from(double x) {
    if (std::isnan(x)) return kNaN;
    // Rounded from the double directly (through the nearest float it would round twice).
    const double a = std::fabs(x);
    if (a >= 0x1.ffp127) return (std::signbit(x) ? 0x8000 : 0) | 0x7F80;
    int e = 0;
    std::frexp(a, &e);
    const int E = a == 0.0 ? -126 : std::max(e - 1, -126);
    double q = std::nearbyint(std::ldexp(a, 7 - E));  // 8 significant bits
    const double v = std::copysign(std::ldexp(q, E - 7), x);
    uint32_t u;
    const float fv = static_cast<float>(v);  // exact: 8 significant bits
    std::memcpy(&u, &fv, 4);
    return uint16_t(u >> 16);
  }
  static double to(uint16_t b) {
    const uint32_t u = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

bool is_zero(uint16_t b) { return (b & 0x7FFF) == 0; }

// --- inputs ---------------------------------------------------------------------------------
enum class Inputs { Integers, Uniform01, Normal };

const char* name(Inputs i) {
  return i == Inputs::Integers ? "integers" : i == Inputs::Uniform01 ? "uniform" : "normal";
}

// An n×n matrix in n·ld elements: the `fill` triangle from gen() rounded to the type, the rest
// (other triangle, padding) NaN.
template <class F>
Bits make_triangular16(Fill fill, int64_t n, int64_t ld, const std::function<double()>& gen) {
  Bits x(static_cast<size_t>(n * ld), F::kNaN);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (test::in_triangle(fill, i, j)) x[size_t(i * ld + j)] = F::from(gen());
  return x;
}

std::function<double()> generator(Inputs inputs, std::mt19937_64& rng) {
  if (inputs == Inputs::Integers) return test::integers(rng);
  if (inputs == Inputs::Uniform01) return test::uniform01(rng);
  return test::normal(rng);
}

template <class F>
std::vector<float> to_float(const Bits& x) {
  std::vector<float> f(x.size());
  for (size_t e = 0; e < x.size(); ++e) f[e] = static_cast<float>(F::to(x[e]));
  return f;
}

// The fp64 product of the 16-bit values (exact in float), over the band: the CPU loops for small
// n, the naive fp64 GPU kernel beyond (they agree bit for bit: test_gpu_trtrmm). `absolute`: of
// |A| and |B| (the sum of |products|, for the accumulation bound).
std::vector<double> reference(Fill fill, int64_t n, const std::vector<float>& A, int64_t lda,
                              const std::vector<float>& B, int64_t ldb, bool absolute) {
  std::vector<float> a = A, b = B;
  if (absolute) {
    for (float& v : a) v = std::isnan(v) ? v : std::fabs(v);
    for (float& v : b) v = std::isnan(v) ? v : std::fabs(v);
  }
  std::vector<double> ref(static_cast<size_t>(n * n));
  if (n <= 1024) {
    cpu::reference_trtrmm(fill, n, a.data(), lda, b.data(), ldb, ref.data(), n);
  } else {
    DeviceBuffer<float> da(a), db(b);
    DeviceBuffer<double> d(ref.size());
    kernels::launch_naive_fp64_reference(fill, n, da.get(), lda, db.get(), ldb, d.get(), n,
                                         nullptr);
    ref = d.download();
  }
  return ref;
}

// |c - r| for c the kernel's output, r the exact product of the 16-bit inputs over a band of k
// terms, M the sum of |products|. The products are exact in fp32 (8×8 or 11×11 significant
// bits); each fp32 addition errs by at most one ulp of the running sum (2^-23 relative: the
// tensor cores' accumulation may truncate rather than round), so the fp32 sum s has
// |s - r| <= k·2^-23·M; we allow twice that. The store rounds s to nearest in the type:
// |c - s| <= u·|s| + (subnormal spacing) with u = 2^-8 (bf16) or 2^-11 (fp16). Together:
// |c - r| <= u·|r| + (1 + u)·k·2^-22·M + u·min_normal.
template <class F>
::testing::AssertionResult within_bound(Fill fill, int64_t n, const uint16_t* C, int64_t ldc,
                                        const std::vector<double>& ref,
                                        const std::vector<double>& mag) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (!test::in_triangle(fill, i, j)) continue;
      const int64_t k = std::abs(j - i) + 1;
      const double c = F::to(C[i * ldc + j]), r = ref[size_t(i * n + j)],
                   M = mag[size_t(i * n + j)];
      const double bound = F::kU * std::fabs(r) + (1 + F::kU) * double(k) * 0x1p-22 * M +
                           F::kU * F::kMinNormal;
      if (!(std::fabs(c - r) <= bound))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << c
                                             << ", fp64 product " << r << ", bound " << bound;
    }
  return ::testing::AssertionSuccess();
}

// Exactly the fp64 product rounded once to the type on the triangle, zero outside it.
template <class F>
::testing::AssertionResult equals_rounded(Fill fill, int64_t n, const uint16_t* C, int64_t ldc,
                                          const std::vector<double>& ref, int64_t ldr) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (!test::in_triangle(fill, i, j)) continue;
      const uint16_t want = F::from(ref[size_t(i * ldr + j)]);
      const uint16_t got = C[i * ldc + j];
      if (got != want && !(is_zero(got) && is_zero(want)))
        return ::testing::AssertionFailure()
               << "C[" << i << "][" << j << "] = " << F::to(got) << " (0x" << std::hex << got
               << std::dec << "), expected " << F::to(want) << " = round(" << ref[size_t(i * ldr + j)]
               << ")";
    }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult zero_outside(Fill fill, int64_t n, const uint16_t* C, int64_t ldc) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (!test::in_triangle(fill, i, j) && !is_zero(C[i * ldc + j]))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = 0x" << std::hex
                                             << C[i * ldc + j] << " outside the "
                                             << to_string(fill) << " triangle, expected 0";
  return ::testing::AssertionSuccess();
}

// --- the kernels ----------------------------------------------------------------------------
std::vector<std::string> every_kernel16() {
  std::vector<std::string> names;
  for (const dispatch::KernelEntry16* e = dispatch::table16_begin(); e != dispatch::table16_end();
       ++e)
    names.emplace_back(e->name);
  return names;
}

// Whether Structure::Detect's structured launch on `kernel` flags its own outputs that are not
// finite (then the scan before it reads the other triangles alone).
bool flags_outputs16(const std::string& kernel) {
  for (const dispatch::KernelEntry16* e = dispatch::table16_begin(); e != dispatch::table16_end();
       ++e)
    if (kernel == e->name) return e->flags_outputs;
  return false;
}

// Whether a Structure::Detect call (options o, the operands as given) is one dense launch alone
// (dispatch::dense_detect16: the small kernel's, sm90_16bit's or sm80_16bit's), which leaves the
// flag word as it was. The kernel selected_kernel names for the call stands for select16's choice
// (where the dense launch alone runs, its kernel's own name gives dispatch the same answer).
template <typename T>
bool dense_alone16(const Options& o, Fill fill, int64_t n, const T* A, int64_t lda,
                   int64_t stride_a, const T* B, int64_t ldb, int64_t stride_b, const T* C,
                   int64_t ldc, int64_t stride_c, int64_t batch) {
  const std::string ran = selected_kernel_strided_batched(fill, n, A, lda, stride_a, B, ldb,
                                                          stride_b, C, ldc, stride_c, batch, o);
  const kernels::Problem16<T> p{
      fill, n, A, lda, stride_a, B, ldb, stride_b, const_cast<T*>(C), ldc, stride_c, batch};
  return dispatch::dense_detect16(test::device_cc(), n, batch, o.kernel, ran,
                                  kernels::tma_compatible_16bit(p)) != nullptr;
}

bool needs_tma16(const std::string& kernel) {
  for (const dispatch::KernelEntry16* e = dispatch::table16_begin(); e != dispatch::table16_end();
       ++e)
    if (kernel == e->name) return e->needs_tma;
  return false;  // "" (dispatch's choice)
}

// Whether a forced kernel runs on this device by the table (if not, says so); where it does,
// dispatch must take it forced.
template <class F>
bool runs_here16(const std::string& kernel) {
  if (!test::table_kernel_runs_here(dispatch::table16_begin(), dispatch::table16_end(), kernel))
    return false;
  Options o;
  o.kernel = kernel;
  DeviceBuffer<uint16_t> probe(8);  // 16-byte aligned: any kernel's operands
  const auto* p = reinterpret_cast<const typename F::T*>(probe.get());
  EXPECT_NO_THROW(selected_kernel(Fill::Upper, 8, p, 8, p, 8, p, 8, o)) << kernel;
  return true;
}

struct Shape {
  int64_t n, lda, ldb, ldc;
  int64_t offset = 0;     // elements added to every base pointer (0: 16-byte aligned)
  int64_t c_offset = -1;  // elements added to C's alone, if >= 0
  int64_t co() const { return c_offset >= 0 ? c_offset : offset; }
};

template <class F>
void check_one(const std::string& kernel, Fill fill, const Shape& s, Inputs inputs,
               std::mt19937_64& rng) {
  using T = typename F::T;
  SCOPED_TRACE(std::string(F::kName) + ", " + name(inputs) + ", kernel '" + kernel + "'");
  const auto gen = generator(inputs, rng);
  auto with_offset = [&](Bits m) {
    m.insert(m.begin(), static_cast<size_t>(s.offset), F::kNaN);
    return m;
  };
  const Bits A = with_offset(make_triangular16<F>(fill, s.n, s.lda, gen));
  const Bits B = with_offset(make_triangular16<F>(fill, s.n, s.ldb, gen));
  const Bits C0(static_cast<size_t>(s.co() + s.n * s.ldc), F::kNaN);
  DeviceBuffer<uint16_t> dA(A), dB(B), dC(C0);
  ASSERT_NE(dA.get(), nullptr);
  ASSERT_NE(dC.get(), nullptr);
  const T* a = reinterpret_cast<const T*>(dA.get()) + s.offset;
  const T* b = reinterpret_cast<const T*>(dB.get()) + s.offset;
  T* c = reinterpret_cast<T*>(dC.get()) + s.co();

  Options o;
  o.kernel = kernel;
  auto call = [&] { trtrmm(fill, s.n, a, s.lda, b, s.ldb, c, s.ldc, nullptr, o); };
  const kernels::Problem16<T> p{fill, s.n, a, s.lda, 0, b, s.ldb, 0, c, s.ldc, 0, 1};
  if (needs_tma16(kernel) && !kernels::tma_compatible_16bit(p)) {
    // A TMA kernel forced on operands TMA cannot address is refused, before anything is written.
    EXPECT_THROW(call(), InvalidArgument);
    EXPECT_TRUE(test::same_bits(C0, dC.download())) << "C written by a refused call";
    return;
  }
  call();
  TEST_CUDA(cudaGetLastError());
  const Bits out = dC.download();
  const uint16_t* cv = out.data() + s.co();

  const auto Af = to_float<F>(A), Bf = to_float<F>(B);
  const auto ref = reference(fill, s.n, std::vector<float>(Af.begin() + s.offset, Af.end()), s.lda,
                             std::vector<float>(Bf.begin() + s.offset, Bf.end()), s.ldb, false);
  if (inputs == Inputs::Integers) {
    EXPECT_TRUE(equals_rounded<F>(fill, s.n, cv, s.ldc, ref, s.n));
  } else {
    const auto mag = reference(fill, s.n, std::vector<float>(Af.begin() + s.offset, Af.end()),
                               s.lda, std::vector<float>(Bf.begin() + s.offset, Bf.end()), s.ldb,
                               true);
    EXPECT_TRUE(within_bound<F>(fill, s.n, cv, s.ldc, ref, mag));
  }
  EXPECT_TRUE(zero_outside(fill, s.n, cv, s.ldc));
  // Nothing outside the n×n view is written.
  for (int64_t e = 0; e < s.co(); ++e)
    ASSERT_EQ(out[size_t(e)], F::kNaN) << "C[-" << s.co() - e << "] written";
  for (int64_t i = 0; i < s.n; ++i)
    for (int64_t j = s.n; j < s.ldc; ++j)
      ASSERT_EQ(cv[i * s.ldc + j], F::kNaN) << "padding C[" << i << "][" << j << "] written";
  EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
  EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
}

// --- suites ---------------------------------------------------------------------------------
enum class Type { Fp16, Bf16 };
const char* name(Type t) { return t == Type::Fp16 ? "fp16" : "bf16"; }

// Runs f.template operator()<F>() for the format of `t`.
template <class Fn>
void with_type(Type t, Fn&& f) {
  if (t == Type::Fp16) f(Fp16{});
  else f(Bf16{});
}

using Param = std::tuple<Type, std::string, Fill, int64_t>;  // type, kernel ("": auto), fill, n
class GpuTrtrmm16 : public ::testing::TestWithParam<Param>, public test::Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    const std::string kernel = std::get<1>(GetParam());
    SKIP_ABOVE_MAX_N(std::get<3>(GetParam()));
    bool ok = true;
    with_type(std::get<0>(GetParam()),
              [&](auto f) { ok = kernel.empty() || runs_here16<decltype(f)>(kernel); });
    if (!ok) GTEST_SKIP() << kernel << " does not run here";
  }
  void run(const Shape& s, Inputs inputs) {
    SCOPED_TRACE(test::seed_note(seed_));
    const std::string kernel = std::get<1>(GetParam());
    const Fill fill = std::get<2>(GetParam());
    with_type(std::get<0>(GetParam()),
              [&](auto f) { check_one<decltype(f)>(kernel, fill, s, inputs, rng_); });
  }
};

TEST_P(GpuTrtrmm16, IntegerInputsExact) {
  const int64_t n = std::get<3>(GetParam());
  run({n, n, n, n}, Inputs::Integers);
}

TEST_P(GpuTrtrmm16, UniformInputsWithinBound) {
  const int64_t n = std::get<3>(GetParam());
  run({n, n, n, n}, Inputs::Uniform01);
}

TEST_P(GpuTrtrmm16, NormalInputsWithinBound) {
  const int64_t n = std::get<3>(GetParam());
  run({n, n, n, n}, Inputs::Normal);
}

// ld > n, all multiples of 8 (16-byte rows: the TMA kernel takes them), all different. Past
// n = 1024, integers only, and only where n is not a multiple of 8 (4097, 5500, 5889, 8193): there
// the TMA kernel refuses the n × n views of the other bodies (they check only the refusal), so
// this is its only run at those n: its last tile column stored through registers. Also
// sm90_16bit's persistent blocks (2560), cluster pairs (3072) and tall units (4160: C's TMA store
// clips a last column block of 64) with ld > n.
TEST_P(GpuTrtrmm16, PaddedLeadingDimensions) {
  const int64_t n = std::get<3>(GetParam());
  const bool wide_layout =
      std::get<1>(GetParam()) == "sm90_16bit" && (n == 2560 || n == 3072 || n == 4160 || n == 6208);
  if (n > 1024 && n % 8 == 0 && !wide_layout)
    GTEST_SKIP() << "past n = 1024, checked where n % 8 != 0";
  const int64_t ld = (n + 7) / 8 * 8 + 8;
  run({n, ld, ld + 8, ld + 16}, Inputs::Integers);
  if (n <= 1024) run({n, ld, ld + 8, ld + 16}, Inputs::Normal);
}

// Odd leading dimensions and a base one element off 16 bytes: only the fallback takes them (the
// TMA kernel, forced, is refused; unforced, dispatch takes the fallback).
TEST_P(GpuTrtrmm16, MisalignedViews) {
  const int64_t n = std::get<3>(GetParam());
  if (n > 1024) GTEST_SKIP() << "checked up to n = 1024";
  run({n, n + 1, n + 3, n + 5, 1}, Inputs::Integers);
}

// A and B 16-byte aligned, C one element off with an odd leading dimension: the operands' loads
// may take vectors while C's stores may not (sm80_16bit_small decides on A and B alone).
TEST_P(GpuTrtrmm16, MisalignedOutputOnly) {
  const int64_t n = std::get<3>(GetParam());
  if (n > 1024) GTEST_SKIP() << "checked up to n = 1024";
  const int64_t ld = (n + 7) / 8 * 8;
  Shape s{n, ld, ld, n + 1};
  s.c_offset = 1;
  run(s, Inputs::Integers);
}

// Inf in the referenced triangle must not leak into C's zero triangle (diagonal masks, mirror
// zeroing: exact zeros, never a computed 0·Inf). Past n = 1024 for sm90_16bit alone, whose
// persistent blocks, pairs and bands exist only there.
TEST_P(GpuTrtrmm16, InfInputsLeaveTheZeroTriangleZero) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto& [type, kernel, fill, n] = GetParam();
  if (n > 1024 && kernel != "sm90_16bit") GTEST_SKIP() << "checked up to n = 1024";
  const int64_t ld = (n + 7) / 8 * 8;
  with_type(type, [&, fill = fill, n = n, kernel = kernel](auto f) {
    using F = decltype(f);
    using T = typename F::T;
    Bits A = make_triangular16<F>(fill, n, ld, test::integers(rng_));
    Bits B = make_triangular16<F>(fill, n, ld, test::integers(rng_));
    for (int64_t d = 0; d < n; d += 7) {
      A[size_t(d * ld + d)] = F::from(INFINITY);
      B[size_t(d * ld + d)] = F::from(-INFINITY);
    }
    DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(n * ld), F::kNaN));
    Options o;
    o.kernel = kernel;
    trtrmm(fill, n, reinterpret_cast<const T*>(dA.get()), ld, reinterpret_cast<const T*>(dB.get()),
           ld, reinterpret_cast<T*>(dC.get()), ld, nullptr, o);
    TEST_CUDA(cudaGetLastError());
    const Bits out = dC.download();
    EXPECT_TRUE(zero_outside(fill, n, out.data(), ld));
  });
}

// Off the tile grid and on it. On sm_90, sm80_16bit shares its units at 128…1025 (and in the
// batches of n = 300) over clusters of 2-8 ranks (cluster_split.cuh): 511 splits them 8 ways.
// sm90_16bit shares them over 2 ranks at 255-256 and 1025 (and in the batches of 300), 3 at
// 1000-1024, 4 at 511-640; where n is not a multiple of 8 (255, 511, 1025, the batches of 300)
// the tiles that hold column n − 1 store through registers, the others through TMA.
// 31 / 33: either side of dispatch's kTiny16N (sm80_16bit for tiny n in batches that fill a wave).
// 1025: the first where unaligned rows leave sm80_16bit's ring for the register-staged pipeline
// (kRingAnyN). sm80_16bit_small holds up to 640 k of a band at once: 640 in one turn, 1000 and up
// in turns; 65-96 give odd numbers of 32-k tiles a turn. 704: dispatch's choice past the small
// kernel (sm90_16bit from 641 on sm_90, 4 ranks). 2560: sm90_16bit's unpaired persistent blocks
// (1-2 units each), whose epilogues overlap the next unit's first stage, through TMA. 3072: the
// pair threshold of sm90_16bit (kSm90Bf16PairMinN), 24 tiles, none paired with itself. 4097: its
// pairs (Lower) and tall units (Upper), the last column through registers
// (PaddedLeadingDimensions: the n × n view is refused).
const std::vector<int64_t> kSizes = {1,   2,   3,    17,   31,   33,   64,   127,  128,  129,  255,
                                     256, 511, 512,  640,  704,  1000, 1024, 1025, 2560, 3072, 4097};

std::vector<std::string> kernels_and_auto() {
  std::vector<std::string> k = {""};
  for (const auto& name : every_kernel16()) k.push_back(name);
  return k;
}

// type_kernel_fill_nN; the kernel "auto" where dispatch chooses.
auto kernel_suite_name = [](const auto& info) {
  const std::string k = std::get<1>(info.param);
  return std::string(name(std::get<0>(info.param))) + "_" + (k.empty() ? "auto" : k) + "_" +
         to_string(std::get<2>(info.param)) + "_n" + std::to_string(std::get<3>(info.param));
};

INSTANTIATE_TEST_SUITE_P(
    AllKernels, GpuTrtrmm16,
    ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                       ::testing::ValuesIn(kernels_and_auto()),
                       ::testing::Values(Fill::Upper, Fill::Lower), ::testing::ValuesIn(kSizes)),
    kernel_suite_name);

// Past sched::DispatchOrder's table (more than 1024 units, n > 5632): sm80_16bit runs one block
// a unit in bands of diagonals (sched::TriangleSchedule::unit_banded). 5889 (47 tiles: a last,
// partial band of 11 diagonals; n × n rows not 16-byte aligned), 6144 (4 whole bands).
INSTANTIATE_TEST_SUITE_P(
    Banded, GpuTrtrmm16,
    ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                       ::testing::Values(std::string("sm80_16bit")),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values(int64_t(5889), int64_t(6144))),
    kernel_suite_name);

// sm90_16bit's bands: past its pairs (config::kSm90Bf16PairMaxN = 8192). 8193 (65 tiles: a
// last band of 5 diagonals, the last tile column through registers; only PaddedLeadingDimensions
// and the Inf body run the kernel there), fp16 and bf16; 8320 (65 whole tiles, every tile through
// TMA), bf16 alone: each test here takes ~8 s on the H200. Upper at 8193 and 8320 takes the wide
// units (config::kSm90Bf16WideMaxN), so the bands here are Lower's.
INSTANTIATE_TEST_SUITE_P(
    BandedSm90, GpuTrtrmm16,
    ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                       ::testing::Values(std::string("sm90_16bit")),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values(int64_t(8193))),
    kernel_suite_name);
INSTANTIATE_TEST_SUITE_P(
    BandedSm90Aligned, GpuTrtrmm16,
    ::testing::Combine(::testing::Values(Type::Bf16), ::testing::Values(std::string("sm90_16bit")),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values(int64_t(8320))),
    kernel_suite_name);

// sm90_16bit's pairs past the 1024-entry table they had up to session 38 (n > 5376 on 132 SMs):
// sched::PairLayout's 4096 entries, up to config::kSm90Bf16PairMaxN. 5500 (43 tiles) and 5889
// (47): n not a multiple of 8, the last tile column through registers (in
// PaddedLeadingDimensions: the other bodies' n × n views are refused); 6144 (48 tiles) and 8192
// (64, the last n with pairs): every tile through TMA. 4095 (32 tiles), the last Upper pairs below
// the tall units, its last tile column through registers. Upper takes the tall units past it
// (config::kSm90Bf16TallMinN to kSm90Bf16TallMaxN), with the same edges: 5500 and 5889 a last
// row block of 124 and 129 rows, 6144 of 0 (32 whole row blocks), 8192 of 128.
INSTANTIATE_TEST_SUITE_P(WidePairs, GpuTrtrmm16,
                         ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                                            ::testing::Values(std::string("sm90_16bit")),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values(int64_t(4095), int64_t(5500),
                                                              int64_t(5889), int64_t(6144),
                                                              int64_t(8192))),
                         kernel_suite_name);

// sm90_16bit's tall units (sched/tall_order.hpp: 192×128, one Upper problem from
// config::kSm90Bf16TallMinN). 4096: a last row block of 64 rows (TMA fills A's rows past n with
// zeros and clips C's), row blocks whose first unit holds whole boxes of B's columns below the
// diagonal (odd row blocks: their first 64 columns); 4160: a last row block of 128 rows and a last
// column block of 64.
INSTANTIATE_TEST_SUITE_P(Tall, GpuTrtrmm16,
                         ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                                            ::testing::Values(std::string("sm90_16bit")),
                                            ::testing::Values(Fill::Upper),
                                            ::testing::Values(int64_t(4096), int64_t(4160))),
                         kernel_suite_name);

// sm90_16bit's wide units (192×256, one Upper problem from config::kSm90Bf16WideMinN; WidePairs'
// 6144 and 8192 and BandedSm90Aligned's 8320 take them too). 6208: a last row block of 64 rows and
// a last column block of 64 (B's boxes past n zero-filled, C's stores clipped); 7000: 88 of each,
// so a box half past n; 6145 and 7001: n % 8 != 0, the last column block's halves from registers
// (and PaddedLeadingDimensions runs there); the first unit of most row blocks holds whole boxes of
// B's columns below the diagonal (row blocks start on multiples of 192).
INSTANTIATE_TEST_SUITE_P(Wide, GpuTrtrmm16,
                         ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                                            ::testing::Values(std::string("sm90_16bit")),
                                            ::testing::Values(Fill::Upper),
                                            ::testing::Values(int64_t(6145), int64_t(6208),
                                                              int64_t(7000), int64_t(7001))),
                         kernel_suite_name);

// --- batches --------------------------------------------------------------------------------
using BatchParam = std::tuple<Type, Fill, int64_t>;
class GpuTrtrmm16Batched : public ::testing::TestWithParam<BatchParam>, public test::Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
  }
};

// Every kernel forced (and dispatch's choice), three problems with lda, ldb, ldc and the batch
// strides all different, A or B shared (stride 0) or not; the strides multiples of 8 (TMA) or
// not (gap 13: the fallback). Each problem bit-exact against its own reference, the gaps
// between matrices and the ld padding untouched.
TEST_P(GpuTrtrmm16Batched, EveryKernelEveryLayout) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [type, fill, n] = GetParam();
  with_type(type, [&, fill = fill, n = n](auto f) {
    using F = decltype(f);
    using T = typename F::T;
    const int64_t batch = 3, ld = (n + 7) / 8 * 8 + 8;
    const int64_t lda = ld, ldb = ld + 8, ldc = ld + 16;
    for (const std::string& kernel : kernels_and_auto()) {
      if (!kernel.empty() && !runs_here16<F>(kernel)) continue;
      for (const int64_t gap : {8, 13})
        for (const int shared : {0, 1, 2}) {  // none, A, B
          const bool share_a = shared == 1, share_b = shared == 2;
          const int64_t sa = share_a ? 0 : n * lda + gap, sb = share_b ? 0 : n * ldb + gap,
                        sc = n * ldc + gap;
          const std::string what = std::string(F::kName) + ", kernel '" + kernel + "', gap " +
                                   std::to_string(gap) + ", shared " + std::to_string(shared);
          Bits A, B, C(static_cast<size_t>(batch * sc), F::kNaN);
          for (int64_t bi = 0; bi < batch; ++bi) {
            Bits a = make_triangular16<F>(fill, n, lda, test::integers(rng_));
            Bits bb = make_triangular16<F>(fill, n, ldb, test::integers(rng_));
            a.resize(static_cast<size_t>(n * lda + gap), F::kNaN);
            bb.resize(static_cast<size_t>(n * ldb + gap), F::kNaN);
            if (!share_a || bi == 0) A.insert(A.end(), a.begin(), a.end());
            if (!share_b || bi == 0) B.insert(B.end(), bb.begin(), bb.end());
          }
          DeviceBuffer<uint16_t> dA(A), dB(B), dC(C);
          Options o;
          o.kernel = kernel;
          const auto* pa = reinterpret_cast<const T*>(dA.get());
          const auto* pb = reinterpret_cast<const T*>(dB.get());
          auto* pc = reinterpret_cast<T*>(dC.get());
          const kernels::Problem16<T> p{fill, n, pa, lda, sa, pb, ldb, sb, pc, ldc, sc, batch};
          auto call = [&] {
            trtrmm_strided_batched(fill, n, pa, lda, sa, pb, ldb, sb, pc, ldc, sc, batch, nullptr,
                                   o);
          };
          if (needs_tma16(kernel) && !kernels::tma_compatible_16bit(p)) {
            EXPECT_THROW(call(), InvalidArgument) << what;
            EXPECT_TRUE(test::same_bits(C, dC.download())) << "C written by a refused call";
            continue;
          }
          call();
          TEST_CUDA(cudaGetLastError());
          const Bits out = dC.download();
          const auto Af = to_float<F>(A), Bf = to_float<F>(B);
          for (int64_t bi = 0; bi < batch; ++bi) {
            std::vector<double> ref(static_cast<size_t>(n * n));
            cpu::reference_trtrmm(fill, n, Af.data() + bi * sa, lda, Bf.data() + bi * sb, ldb,
                                  ref.data(), n);
            EXPECT_TRUE(equals_rounded<F>(fill, n, out.data() + bi * sc, ldc, ref, n))
                << "batch " << bi << ", " << what;
            EXPECT_TRUE(zero_outside(fill, n, out.data() + bi * sc, ldc))
                << "batch " << bi << ", " << what;
            for (int64_t e = 0; e < sc; ++e)
              if (e / ldc >= n || e % ldc >= n)
                ASSERT_EQ(out[size_t(bi * sc + e)], F::kNaN)
                    << "batch " << bi << " element " << e << " outside C written, " << what;
          }
          EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified, " << what;
          EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified, " << what;
        }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuTrtrmm16Batched,
                         ::testing::Combine(::testing::Values(Type::Fp16, Type::Bf16),
                                            ::testing::Values(Fill::Upper, Fill::Lower),
                                            ::testing::Values<int64_t>(1, 33, 300)),
                         [](const auto& info) {
                           return std::string(name(std::get<0>(info.param))) + "_" +
                                  to_string(std::get<1>(info.param)) + "_n" +
                                  std::to_string(std::get<2>(info.param));
                         });

// More problems than a grid's y (or z) dimension holds: the launchers loop over the batch.
TEST(GpuTrtrmm16BigBatch, BatchLargerThanOneGrid) {
  SKIP_WITHOUT_GPU();
  const uint64_t seed = test::seed();  // one draw: the seed the trace names is the one used
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  const int64_t n = 8, batch = 70000, stride = n * n;  // n = 8: 16-byte rows, for TMA
  for (const Fill fill : {Fill::Upper, Fill::Lower}) {
    Bits A, B;
    for (int64_t b = 0; b < batch; ++b) {
      const Bits a = make_triangular16<Bf16>(fill, n, n, test::integers(rng));
      const Bits bb = make_triangular16<Bf16>(fill, n, n, test::integers(rng));
      A.insert(A.end(), a.begin(), a.end());
      B.insert(B.end(), bb.begin(), bb.end());
    }
    const Bits C(static_cast<size_t>(batch * stride), Bf16::kNaN);
    DeviceBuffer<uint16_t> dA(A), dB(B), dC(C);
    const auto Af = to_float<Bf16>(A), Bf = to_float<Bf16>(B);
    for (const std::string& kernel : every_kernel16()) {
      if (!runs_here16<Bf16>(kernel)) continue;
      dC.upload(C);
      Options o;
      o.kernel = kernel;
      trtrmm_strided_batched(fill, n, reinterpret_cast<const bfloat16_t*>(dA.get()), n, stride,
                             reinterpret_cast<const bfloat16_t*>(dB.get()), n, stride,
                             reinterpret_cast<bfloat16_t*>(dC.get()), n, stride, batch, nullptr,
                             o);
      TEST_CUDA(cudaGetLastError());
      const Bits out = dC.download();
      for (const int64_t b : {int64_t(0), int64_t(65534), int64_t(65535), batch - 1}) {
        std::vector<double> ref(static_cast<size_t>(n * n));
        cpu::reference_trtrmm(fill, n, Af.data() + b * stride, n, Bf.data() + b * stride, n,
                              ref.data(), n);
        EXPECT_TRUE(equals_rounded<Bf16>(fill, n, out.data() + b * stride, n, ref, n))
            << kernel << ", " << to_string(fill) << ", batch " << b;
        EXPECT_TRUE(zero_outside(fill, n, out.data() + b * stride, n));
      }
    }
  }
}

// selected_kernel_strided_batched: for one problem the answer of selected_kernel; for a batch far
// past any device's wave of small-kernel blocks, not the small kernel (dispatch's rule depends on
// the batch); bad options name this API.
TEST(GpuTrtrmm16Selected, StridedBatchedNamesTheBatchsKernel) {
  SKIP_WITHOUT_GPU();
  const int64_t n = 64, nn = n * n, many = int64_t(1) << 20;
  DeviceBuffer<uint16_t> buf(static_cast<size_t>(nn));  // only the address is looked at
  const auto* p = reinterpret_cast<const bfloat16_t*>(buf.get());
  EXPECT_STREQ(selected_kernel_strided_batched(Fill::Upper, n, p, n, nn, p, n, nn, p, n, nn, 1),
               selected_kernel(Fill::Upper, n, p, n, p, n, p, n));
  EXPECT_STRNE(
      selected_kernel_strided_batched(Fill::Upper, n, p, n, 0, p, n, 0, p, n, nn, many),
      "sm80_16bit_small");
  Options tf32;
  tf32.precision = Precision::Tf32;
  try {
    selected_kernel_strided_batched(Fill::Upper, n, p, n, nn, p, n, nn, p, n, nn, 2, tf32);
    ADD_FAILURE() << "precision tf32 accepted for 16-bit data";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("trimm::selected_kernel_strided_batched"),
              std::string::npos)
        << e.what();
  }
}

// --- Structure::Detect ----------------------------------------------------------------------
// The dense product's semantics on any input (noise in the other triangle, NaN, Inf), against
// the dense fp64 product of the same 16-bit values (the naive GPU kernel over every k, which
// agrees with the CPU loops bit for bit: test_gpu_trtrmm): on the triangle NaN where it is NaN,
// the same infinity where it is infinite, else the rounded product exactly (integers) or within
// within_bound's bound over all n terms; +0 outside.
template <class F>
::testing::AssertionResult matches_dense16(Fill fill, int64_t n, const uint16_t* C, int64_t ldc,
                                           const std::vector<double>& ref,
                                           const std::vector<double>* mag) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const uint16_t got = C[i * ldc + j];
      const double c = F::to(got), r = ref[size_t(i * n + j)];
      bool ok;
      if (!test::in_triangle(fill, i, j)) {
        ok = got == 0;  // +0
      } else if (std::isnan(r)) {
        ok = std::isnan(c);
      } else if (std::isinf(r)) {
        ok = c == r;
      } else if (mag == nullptr) {
        const uint16_t want = F::from(r);
        ok = got == want || (is_zero(got) && is_zero(want));
      } else {
        const double M = (*mag)[size_t(i * n + j)];
        ok = std::fabs(c - r) <= F::kU * std::fabs(r) + (1 + F::kU) * double(n) * 0x1p-22 * M +
                                      F::kU * F::kMinNormal;
      }
      if (!ok)
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << c
                                             << ", dense fp64 product " << r;
    }
  return ::testing::AssertionSuccess();
}

// The dense fp64 product of float operands (of |A| and |B| where `absolute`), on the GPU.
std::vector<double> dense_reference(Fill fill, int64_t n, std::vector<float> a, int64_t lda,
                                    std::vector<float> b, int64_t ldb, bool absolute) {
  if (absolute) {
    for (float& v : a) v = std::fabs(v);
    for (float& v : b) v = std::fabs(v);
  }
  DeviceBuffer<float> da(a), db(b);
  DeviceBuffer<double> d(static_cast<size_t>(n * n));
  kernels::launch_naive_fp64_reference(fill, n, da.get(), lda, db.get(), ldb, d.get(), n, nullptr,
                                       /*dense=*/true);
  return d.download();
}

// A kernel launch's problem: `batch` n × n problems of A, B and C alike (rows of ld, entries
// `stride` apart), as the direct-launch tests below build it.
template <typename T>
kernels::Problem16<T> batch_problem16(Fill fill, int64_t n, const uint16_t* A, const uint16_t* B,
                                      uint16_t* C, int64_t ld, int64_t stride, int64_t batch) {
  kernels::Problem16<T> p{};
  p.fill = fill;
  p.n = n;
  p.A = reinterpret_cast<const T*>(A);
  p.B = reinterpret_cast<const T*>(B);
  p.C = reinterpret_cast<T*>(C);
  p.lda = p.ldb = p.ldc = ld;
  p.stride_a = p.stride_b = p.stride_c = stride;
  p.batch = batch;
  return p;
}

// One problem of a Detect call: its C (rows of ldc) against the dense product of its operands
// (floats, rows of lda and ldb), exactly on integer inputs (`exact`), else within the bound of the
// product of their magnitudes; C's padding past column n still `pad`. Returns the reference.
template <class F>
std::vector<double> check_dense_product(Fill fill, int64_t n, const std::vector<float>& A,
                                        int64_t lda, const std::vector<float>& B, int64_t ldb,
                                        const uint16_t* C, int64_t ldc, bool exact, uint16_t pad) {
  const auto ref = dense_reference(fill, n, A, lda, B, ldb, false);
  if (exact) {
    EXPECT_TRUE(matches_dense16<F>(fill, n, C, ldc, ref, nullptr));
  } else {
    const auto mag = dense_reference(fill, n, A, lda, B, ldb, true);
    EXPECT_TRUE(matches_dense16<F>(fill, n, C, ldc, ref, &mag));
  }
  int64_t written = 0, first_i = -1, first_j = -1;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = n; j < ldc; ++j)
      if (C[i * ldc + j] != pad && written++ == 0) first_i = i, first_j = j;
  EXPECT_EQ(written, 0) << "padding written, first at C[" << first_i << "][" << first_j << "]";
  return ref;
}

// A test::make operand (test_util.hpp: the other triangle zero, noisy or dense, NaN and Inf
// planted) rounded to the type.
template <class F>
Bits make16(test::Kind kind, Fill fill, int64_t n, int64_t ld, const std::function<double()>& gen,
            std::mt19937_64& rng) {
  const std::vector<float> x = test::make<float>(kind, fill, n, ld, gen, rng);
  Bits b(x.size());
  for (size_t e = 0; e < x.size(); ++e) b[e] = F::from(x[e]);
  return b;
}

// A batch of Detect operands: `batch` entries of make16's A and B (rows of ld, entries n · ld
// apart), integers unless the kind is noisy (every sum exact); A's first entry alone where
// shared_a (its stride 0).
template <class F>
std::pair<Bits, Bits> make_batch16(test::Kind kind, Fill fill, int64_t n, int64_t ld, int64_t batch,
                                   bool shared_a, std::mt19937_64& rng) {
  const auto gen = kind != test::Kind::Noisy ? std::function<double()>(test::integers(rng))
                                             : std::function<double()>(test::uniform(rng));
  Bits A, B;
  for (int64_t e = 0; e < batch; ++e) {
    const Bits a = make16<F>(kind, fill, n, ld, gen, rng);
    const Bits b = make16<F>(kind, fill, n, ld, gen, rng);
    if (e == 0 || !shared_a) A.insert(A.end(), a.begin(), a.end());
    B.insert(B.end(), b.begin(), b.end());
  }
  return {A, B};
}

// The flags of a Detect call in its word, which held `before`: the call tags it with its epoch
// (the small kernel beside its product, or the scan launch) and writes nothing where nothing is
// found.
uint32_t call_flags(uint32_t word, uint32_t before) {
  return word == before ? 0u : word & ((1u << kernels::kEpochShift) - 1u);
}

// Structure::Detect on `kernel` ("" for dispatch's choice) with the one-word workspace `work`.
Options detect_options16(const std::string& kernel, DeviceBuffer<uint32_t>& work) {
  Options o;
  o.kernel = kernel;
  o.structure = Structure::Detect;
  o.workspace = work.get();
  o.workspace_bytes = sizeof(uint32_t);
  return o;
}

// One Detect call on `kernel` ("" for dispatch's choice), checked: C, the flags, the padding, the
// inputs.
template <class F>
void check_detect(const std::string& kernel, test::Kind kind, Fill fill, int64_t n, int64_t lda,
                  int64_t ldb, int64_t ldc, std::mt19937_64& rng) {
  using T = typename F::T;
  SCOPED_TRACE(std::string(F::kName) + ", kernel '" + kernel + "', lda " + std::to_string(lda));
  const bool exact = kind != test::Kind::Noisy;  // integers elsewhere: every sum exact
  const auto gen = exact ? std::function<double()>(test::integers(rng))
                         : std::function<double()>(test::uniform(rng));
  const Bits A = make16<F>(kind, fill, n, lda, gen, rng);
  const Bits B = make16<F>(kind, fill, n, ldb, gen, rng);
  const Bits C0(static_cast<size_t>(n * ldc), F::kNaN);
  DeviceBuffer<uint16_t> dA(A), dB(B), dC(C0);
  const uint32_t garbage = 0xDEADBEEFu;  // cleared or tagged by the call
  DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, garbage));
  const Options o = detect_options16(kernel, work);
  const std::string ran = selected_kernel(fill, n, reinterpret_cast<const T*>(dA.get()), lda,
                                          reinterpret_cast<const T*>(dB.get()), ldb,
                                          reinterpret_cast<T*>(dC.get()), ldc, o);
  SCOPED_TRACE("structured launch " + ran);
  trtrmm(fill, n, reinterpret_cast<const T*>(dA.get()), lda, reinterpret_cast<const T*>(dB.get()),
         ldb, reinterpret_cast<T*>(dC.get()), ldc, nullptr, o);
  TEST_CUDA(cudaGetLastError());
  const Bits out = dC.download();

  check_dense_product<F>(fill, n, to_float<F>(A), lda, to_float<F>(B), ldb, out.data(), ldc, exact,
                         F::kNaN);
  EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
  EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
  if (dense_alone16(o, fill, n, reinterpret_cast<const T*>(dA.get()), lda, 0,
                    reinterpret_cast<const T*>(dB.get()), ldb, 0,
                    reinterpret_cast<const T*>(dC.get()), ldc, 0, 1)) {
    EXPECT_TRUE(ran == "sm80_16bit_small" || ran == "sm80_16bit" || ran == "sm90_16bit") << ran;
    EXPECT_EQ(work.download()[0], garbage) << "the dense launch alone wrote the flag word";
    return;
  }
  // The flags that picked the path (they pin the scan; GpuDetect16Gate pins each launch's gate).
  // The scan reads every element of the other triangles, so they are exact: both outside bits
  // wherever the other triangles hold anything (n > 1), a non-finite bit for where NaN or Inf was
  // planted, nothing for triangular finite inputs. NaN or Inf inside the triangles alone: the
  // scan's inside bit, or where the structured launch flags its outputs (the scan then reads
  // the other triangles alone) the output bit.
  const uint32_t flags = call_flags(work.download()[0], garbage);
  const bool other = kind != test::Kind::Triangular && kind != test::Kind::TriangularNonFinite;
  EXPECT_EQ(flags & (kernels::kOutsideA | kernels::kOutsideB),
            other && n > 1 ? kernels::kOutsideA | kernels::kOutsideB : 0u)
      << "flags " << flags;
  if (kind == test::Kind::TriangularNonFinite)
    EXPECT_EQ(flags, flags_outputs16(ran) ? kernels::kNonFiniteOut : kernels::kNonFiniteInside);
  // (NaN or Inf planted inside alone: the dense launch flags its output where the scan did not
  // read the triangles.)
  if (kind == test::Kind::NonFinite)
    EXPECT_NE(
        flags & (kernels::kNonFiniteInside | kernels::kNonFiniteOutside |
                 (flags_outputs16(ran) ? kernels::kNonFiniteOut | kernels::kNonFiniteDense : 0u)),
        0u);
  if (kind != test::Kind::NonFinite && kind != test::Kind::TriangularNonFinite)
    EXPECT_EQ(flags & (kernels::kNonFiniteInside | kernels::kNonFiniteOutside), 0u);
}

using Detect16Param = std::tuple<test::Kind, Fill, int64_t>;
class GpuDetect16 : public ::testing::TestWithParam<Detect16Param>, public test::Seeded {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    SKIP_ABOVE_MAX_N(std::get<2>(GetParam()));
  }
};

// Every 16-bit kernel as the structured launch (dispatch's choice, then each forced), on rows TMA
// can address; dispatch's choice also on rows of any alignment (odd leading dimensions: the
// register-staged general path of sm80_16bit beyond its ring's sizes).
TEST_P(GpuDetect16, EqualsTheDenseProductsTriangle) {
  SCOPED_TRACE(test::seed_note(seed_));
  const auto [kind, fill, n] = GetParam();
  const int64_t lda = (n + 7) / 8 * 8 + 8, ldb = lda + 8, ldc = lda + 16;
  for (const Type t : {Type::Fp16, Type::Bf16})
    with_type(t, [&](auto f) {
      using F = decltype(f);
      std::vector<std::string> kernels = {""};
      for (const std::string& k : every_kernel16())
        if (runs_here16<F>(k)) kernels.push_back(k);
      for (const std::string& k : kernels) check_detect<F>(k, kind, fill, n, lda, ldb, ldc, rng_);
      check_detect<F>("", kind, fill, n, n + 1, n + 3, n + 5, rng_);
    });
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, GpuDetect16,
    ::testing::Combine(::testing::Values(test::Kind::Triangular, test::Kind::Noisy,
                                         test::Kind::Dense, test::Kind::NonFinite,
                                         test::Kind::TriangularNonFinite),
                       ::testing::Values(Fill::Upper, Fill::Lower),
                       ::testing::Values<int64_t>(1, 4, 64, 129, 700, 896, 1000, 2048)),
    [](const auto& info) {
      return std::string(test::name(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param)) + "_n" + std::to_string(std::get<2>(info.param));
    });

// A batch whose shared A (stride 0) is triangular and whose B holds one nonzero in one entry's
// other triangle: the scan covers every entry, the general path runs, and every entry is its
// dense product. On sm80_16bit_small (dispatch's structured kernel for it), and as dispatch
// chooses (on sm_90 the dense launch alone: every entry its dense product, the word as it was).
class GpuDetect16Pinned : public ::testing::Test, public test::Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

// Dispatch's own choice just past its one-dense-launch rule (kDenseDetect16Sm90MaxN = 2048): on
// sm_90 one problem of 2304 takes the flags path unforced (GpuDetect16's sizes end at the rule),
// on noise and on NaN/Inf inside triangular inputs, both types.
TEST_F(GpuDetect16Pinned, UnforcedPastTheDenseRule) {
  SCOPED_TRACE(test::seed_note(seed_));
  constexpr int64_t n = 2304, ld = n + 8;
  static_assert(n > dispatch::kDenseDetect16Sm90MaxN, "past the one-dense-launch rule");
  SKIP_ABOVE_MAX_N(n);
  for (const Type t : {Type::Fp16, Type::Bf16})
    with_type(t, [&](auto f) {
      using F = decltype(f);
      for (const test::Kind kind : {test::Kind::Noisy, test::Kind::TriangularNonFinite})
        check_detect<F>("", kind, Fill::Upper, n, ld, ld + 8, ld + 16, rng_);
    });
}

TEST_F(GpuDetect16Pinned, OneValueInOneBatchEntryIsFound) {
  SCOPED_TRACE(test::seed_note(seed_));
  using F = Bf16;
  using T = F::T;
  constexpr int64_t n = 200, ld = 208, batch = 3, stride = n * ld;
  for (const std::string kernel : {"", "sm80_16bit_small"})
    for (const Fill fill : {Fill::Upper, Fill::Lower}) {
      SCOPED_TRACE(to_string(fill) + (" kernel '" + kernel + "'"));
      const auto gen = test::integers(rng_);
      const Bits A = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
      Bits B;
      for (int64_t e = 0; e < batch; ++e) {
        const Bits one = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
        B.insert(B.end(), one.begin(), one.end());
      }
      const int64_t i = fill == Fill::Upper ? 150 : 20, j = fill == Fill::Upper ? 20 : 150;
      B[size_t(stride + i * ld + j)] = F::from(3.0);  // entry 1's other triangle
      const Bits C0(static_cast<size_t>(batch * stride), F::kNaN);
      DeviceBuffer<uint16_t> dA(A), dB(B), dC(C0);
      DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
      const Options o = detect_options16(kernel, work);
      trtrmm_strided_batched(fill, n, reinterpret_cast<const T*>(dA.get()), ld, 0,
                             reinterpret_cast<const T*>(dB.get()), ld, stride,
                             reinterpret_cast<T*>(dC.get()), ld, stride, batch, nullptr, o);
      TEST_CUDA(cudaGetLastError());
      if (dense_alone16(o, fill, n, reinterpret_cast<const T*>(dA.get()), ld, 0,
                        reinterpret_cast<const T*>(dB.get()), ld, stride,
                        reinterpret_cast<const T*>(dC.get()), ld, stride, batch))
        EXPECT_EQ(work.download()[0], 0xDEADBEEFu);
      else
        EXPECT_EQ(call_flags(work.download()[0], 0xDEADBEEFu), kernels::kOutsideB);
      const Bits out = dC.download();
      const auto Af = to_float<F>(A), Bf = to_float<F>(B);
      for (int64_t e = 0; e < batch; ++e) {
        SCOPED_TRACE("entry " + std::to_string(e));
        const std::vector<float> Be(Bf.begin() + e * stride, Bf.begin() + (e + 1) * stride);
        const auto ref = dense_reference(fill, n, Af, ld, Be, ld, false);
        EXPECT_TRUE(matches_dense16<F>(fill, n, out.data() + e * stride, ld, ref, nullptr));
      }
    }
}

// Batches through dispatch on small work: one dense launch gives every entry its dense product,
// noise, NaN and Inf included, writes nothing past n in C's rows, and leaves the flag word as it
// was. Rows TMA cannot address: the small kernel's for 3 problems of 100, sm80_16bit's for 8 of
// 448 (the small kernel's blocks overflow a wave); rows it can: sm90_16bit's for 2 of 700 with a
// shared A (stride 0) and for 8 of 1024 (2048³ of work).
TEST_F(GpuDetect16Pinned, DenseAloneBatchesAreTheirDenseProducts) {
  SCOPED_TRACE(test::seed_note(seed_));
  using F = Bf16;
  using T = F::T;
  struct Case {
    int64_t n, batch;
    bool tma, shared_a;
    const char* want;  // the dense kernel, on sm_90
  };
  for (const Case& c :
       {Case{100, 3, false, false, "sm80_16bit_small"}, Case{448, 8, false, false, "sm80_16bit"},
        Case{700, 2, true, true, "sm90_16bit"}, Case{1024, 8, true, false, "sm90_16bit"}})
    for (const test::Kind kind : {test::Kind::Noisy, test::Kind::NonFinite})
      for (const Fill fill : {Fill::Upper, Fill::Lower}) {
        const int64_t n = c.n, batch = c.batch;
        if (n > test::max_n()) continue;
        SCOPED_TRACE(std::string(test::name(kind)) + " " + to_string(fill) + " n " +
                     std::to_string(n) + " batch " + std::to_string(batch));
        const int64_t ld = c.tma ? (n + 7) / 8 * 8 + 8 : n + 3, stride = n * ld;
        const int64_t stride_a = c.shared_a ? 0 : stride;
        const bool exact = kind != test::Kind::Noisy;
        const auto [A, B] = make_batch16<F>(kind, fill, n, ld, batch, c.shared_a, rng_);
        DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(batch * stride), F::kNaN));
        DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
        const Options o = detect_options16("", work);
        const T* a = reinterpret_cast<const T*>(dA.get());
        const T* b = reinterpret_cast<const T*>(dB.get());
        T* cc = reinterpret_cast<T*>(dC.get());
        const bool alone =
            dense_alone16(o, fill, n, a, ld, stride_a, b, ld, stride, cc, ld, stride, batch);
        if (runs_here16<F>("sm90_16bit")) {
          EXPECT_TRUE(alone);
          EXPECT_STREQ(selected_kernel_strided_batched(fill, n, a, ld, stride_a, b, ld, stride, cc,
                                                       ld, stride, batch, o),
                       c.want);
        }
        trtrmm_strided_batched(fill, n, a, ld, stride_a, b, ld, stride, cc, ld, stride, batch,
                               nullptr, o);
        TEST_CUDA(cudaGetLastError());
        if (alone) EXPECT_EQ(work.download()[0], 0xDEADBEEFu);
        const Bits out = dC.download();
        const auto Af = to_float<F>(A), Bf = to_float<F>(B);
        for (int64_t e = 0; e < batch; ++e) {
          SCOPED_TRACE("entry " + std::to_string(e));
          const std::vector<float> Ae(Af.begin() + e * stride_a,
                                      Af.begin() + e * stride_a + stride);
          const std::vector<float> Be(Bf.begin() + e * stride, Bf.begin() + (e + 1) * stride);
          check_dense_product<F>(fill, n, Ae, ld, Be, ld, out.data() + e * stride, ld, exact,
                                 F::kNaN);
        }
      }
}

// sm90_16bit's dense launch (Path::Dense) called directly, off the tile grid, batched, one wave
// of units and more (1920: 120 units, 2048: 136, 1024 x 2: 72 with splits, 1500: 78), both
// types: every entry is its dense product's triangle, noise, NaN and Inf included (every k of the
// operands as they are; TMA's zero fill past n), C's other triangle zero, nothing written past n
// in its rows.
// Ungated (Structure::Detect's one launch on small work), then gated on a word that says "not
// triangular": the same C, and the word gains kNonFiniteDense alone, where C holds a NaN or Inf.
TEST_F(GpuDetect16Pinned, Sm90DenseLaunchIsTheDenseProduct) {
  SCOPED_TRACE(test::seed_note(seed_));
  using namespace kernels;
  const DeviceInfo info = test::device_info();
  if (info.cc != 90) GTEST_SKIP() << "sm90_16bit runs on sm_90 only";
  for (const Type t : {Type::Bf16, Type::Fp16})
    with_type(t, [&](auto f) {
      using F = decltype(f);
      using T = typename F::T;
      for (const auto& [n, batch] : {std::pair<int64_t, int64_t>{1, 1},
                                     {17, 3},
                                     {129, 1},
                                     {300, 2},
                                     {1000, 1},
                                     {1024, 2},
                                     {1500, 1},
                                     {1920, 1},
                                     {2048, 1}}) {
        if (n > test::max_n()) continue;
        for (const test::Kind kind : {test::Kind::Noisy, test::Kind::NonFinite})
          for (const Fill fill : {Fill::Upper, Fill::Lower}) {
            SCOPED_TRACE(std::string(F::kName) + " " + test::name(kind) + " " + to_string(fill) +
                         " n " + std::to_string(n) + " batch " + std::to_string(batch));
            const int64_t ld = (n + 7) / 8 * 8 + 8, stride = n * ld;  // rows TMA can address
            const bool exact = kind != test::Kind::Noisy;
            const auto [A, B] = make_batch16<F>(kind, fill, n, ld, batch, false, rng_);
            DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(batch * stride), F::kNaN));
            DeviceBuffer<uint32_t> gate(std::vector<uint32_t>(1, kOutsideA));
            auto p = batch_problem16<T>(fill, n, dA.get(), dB.get(), dC.get(), ld, stride, batch);
            p.path = Path::Dense;
            ASSERT_TRUE(tma_compatible_16bit(p));
            const auto Af = to_float<F>(A), Bf = to_float<F>(B);
            bool nonfinite = false;  // anywhere in the reference's triangles
            for (const bool gated : {false, true}) {
              SCOPED_TRACE(gated ? "gated" : "ungated");
              if (gated) {
                TEST_CUDA(cudaMemset(dC.get(), 0xFF, size_t(batch * stride) * sizeof(uint16_t)));
                p.gate = gate.get();
              }
              launch_sm90_16bit(p, info, nullptr);
              TEST_CUDA(cudaGetLastError());
              const Bits out = dC.download();
              for (int64_t e = 0; e < batch; ++e) {
                SCOPED_TRACE("entry " + std::to_string(e));
                const std::vector<float> Ae(Af.begin() + e * stride, Af.begin() + (e + 1) * stride);
                const std::vector<float> Be(Bf.begin() + e * stride, Bf.begin() + (e + 1) * stride);
                const auto ref =
                    check_dense_product<F>(fill, n, Ae, ld, Be, ld, out.data() + e * stride, ld,
                                           exact, gated ? 0xFFFF : F::kNaN);
                for (int64_t i = 0; i < n; ++i)
                  for (int64_t j = 0; j < n; ++j)
                    nonfinite |=
                        test::in_triangle(fill, i, j) && !std::isfinite(ref[size_t(i * n + j)]);
              }
            }
            // (kNonFiniteDense may also come from sums never stored, past n or across a
            // diagonal tile: a needless exact launch, never a wrong C.)
            const uint32_t word = gate.download()[0];
            EXPECT_EQ(word & ~kNonFiniteDense, kOutsideA);
            if (nonfinite) EXPECT_EQ(word, kOutsideA | kNonFiniteDense);
            if (kind == test::Kind::Noisy) EXPECT_EQ(word, kOutsideA);
            EXPECT_TRUE(test::same_bits(A, dA.download())) << "A modified";
            EXPECT_TRUE(test::same_bits(B, dB.download())) << "B modified";
          }
      }
    });
}

// Each launch of 16-bit Detect's sequence, called directly with a preset flag word, computes
// exactly where its path applies and writes nothing otherwise (GpuDetect16 alone cannot tell: a
// launch that fails to switch off is overwritten by the right one after it). The word is never
// modified. The gated launches read it through the call's epoch too: flags tagged with another
// epoch are no flags. (A structured launch given an epoch is not gated: it flags beside its
// product, as the GpuDetect16 suites check.)
class GpuDetect16Gate : public ::testing::Test, public test::Seeded {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

TEST_F(GpuDetect16Gate, EachLaunchRunsOnlyOnItsFlags) {
  SCOPED_TRACE(test::seed_note(seed_));
  using namespace kernels;
  using T = bfloat16_t;
  const DeviceInfo info = test::device_info();
  struct Launch {
    const char* name;
    Path path;
    void (*launch)(const Problem16<T>&, const DeviceInfo&, Stream);
  };
  std::vector<Launch> launches = {{"sm80_16bit", Path::Structured, launch_sm80_16bit},
                                  {"sm80_16bit dense", Path::Dense, launch_sm80_16bit},
                                  {"sm80_16bit_small", Path::Structured, launch_sm80_16bit_small},
                                  {"simt_16bit", Path::Structured, launch_simt_16bit},
                                  {"simt_16bit exact", Path::Exact, launch_simt_16bit},
                                  {"simt_16bit any flag", Path::AnyFlag, launch_simt_16bit}};
  if (info.cc == 90) {
    launches.push_back({"sm90_16bit", Path::Structured, launch_sm90_16bit});
    launches.push_back({"sm90_16bit dense", Path::Dense, launch_sm90_16bit});
  }
  const uint32_t words[] = {0u,
                            kOutsideA,
                            kOutsideB,
                            kOutsideA | kOutsideB,
                            kOutsideA | kNonFiniteOutside,
                            kNonFiniteInside,
                            kOutsideB | kNonFiniteInside,
                            kNonFiniteOut,
                            kNonFiniteDense,
                            kOutsideA | kNonFiniteDense,
                            (1u << kEpochShift) - 1u};
  // (the call's epoch, the word's): untagged (a zeroed word), this call's, a stale call's.
  const std::pair<uint32_t, uint32_t> epochs[] = {{0u, 0u}, {5u, 5u}, {5u, 4u}};
  for (const int64_t n : {40, 700})
    for (const int64_t batch : {1, 3})
      for (const Fill fill : {Fill::Upper, Fill::Lower}) {
        const int64_t ld = (n + 7) / 8 * 8, stride = n * ld, total = batch * stride;
        Bits in(static_cast<size_t>(total));
        std::uniform_int_distribution<int> value(-4, 4);
        for (uint16_t& v : in) v = Bf16::from(value(rng_));
        DeviceBuffer<uint16_t> dA(in), dB(in), dC(static_cast<size_t>(total));
        DeviceBuffer<uint32_t> gate(1);
        for (const Launch& l : launches)
          for (const auto& [epoch, tag] : epochs)
            for (const uint32_t w : words) {
              if (epoch != 0u && l.path == Path::Structured) continue;
              SCOPED_TRACE(std::string(l.name) + " n " + std::to_string(n) + " batch " +
                           std::to_string(batch) + " " + to_string(fill) + " flags " +
                           std::to_string(w) + " epoch " + std::to_string(epoch) + " tag " +
                           std::to_string(tag));
              const uint32_t word = w | tag << kEpochShift, f = tag == epoch ? w : 0u;
              auto p = batch_problem16<T>(fill, n, dA.get(), dB.get(), dC.get(), ld, stride, batch);
              p.gate = gate.get();
              p.path = l.path;
              p.epoch = epoch;
              gate.upload(std::vector<uint32_t>(1, word));
              TEST_CUDA(cudaMemset(dC.get(), 0x77, size_t(total) * sizeof(uint16_t)));
              l.launch(p, info, nullptr);
              TEST_CUDA(cudaGetLastError());
              const Bits out = dC.download();
              int64_t written = 0;
              for (int64_t b = 0; b < batch; ++b)
                for (int64_t i = 0; i < n; ++i)
                  for (int64_t j = 0; j < n; ++j)
                    written += out[size_t(b * stride + i * ld + j)] != 0x7777;
              const bool outside = (f & (kOutsideA | kOutsideB)) != 0u;
              const bool nonfinite =
                  (f & (kNonFiniteOutside | kNonFiniteOut | kNonFiniteInside)) != 0u;
              // A launch's own output flag never gates it (the structured launch's kNonFiniteOut,
              // the dense launch's kNonFiniteDense): the word is the same for all its blocks.
              const bool runs = l.path == Path::Structured ? (f & ~kNonFiniteOut) == 0u
                                : l.path == Path::Dense    ? outside && !nonfinite
                                : l.path == Path::AnyFlag
                                    ? f != 0u
                                    : nonfinite || (f & kNonFiniteDense) != 0u;
              // Running, a launch writes every element of C (its triangle and the zeros).
              EXPECT_EQ(written, runs ? batch * n * n : 0);
              EXPECT_EQ(gate.download()[0], word) << "flag word modified";
            }
      }
}

// The scan, pinned: one value planted alone, in A's or B's other triangle or inside a triangle,
// at a range's first element, a middle one or its last (the head before a 16-byte boundary, the
// vectors, the tail), in rows that start 2 bytes past a 16-byte boundary with an odd leading
// dimension; a nonzero, -0 (not a nonzero: the structured path), or Inf. The flags name exactly
// what was planted, and C is the dense product's triangle: on sm80_16bit_small (dispatch's
// structured kernel here), and as dispatch chooses (on sm_90 the dense launch alone, whose C
// shows the tensor cores' NaN and Inf as the dense product's; the word as it was).
TEST_F(GpuDetect16Pinned, OneValueAnywhereIsFoundExactly) {
  SCOPED_TRACE(test::seed_note(seed_));
  using F = Fp16;
  using T = F::T;
  constexpr int64_t n = 37, ld = 41, offset = 1;
  const double inf = std::numeric_limits<double>::infinity();
  for (const std::string kernel : {"", "sm80_16bit_small"})
    for (const Fill fill : {Fill::Upper, Fill::Lower})
      for (const bool in_b : {false, true})
        for (const int64_t i : {0, 1, 18, 35, 36})
          for (const int64_t j : {0, 1, 9, 17, 18, 19, 27, 35, 36})
            for (const double v : {3.0, -0.0, inf}) {
              const bool outside = !test::in_triangle(fill, i, j);
              if (outside && v == -0.0 && (j % 9) != 0) continue;  // a few -0 cases suffice
              SCOPED_TRACE("kernel '" + kernel + "' " + to_string(fill) + (in_b ? " B(" : " A(") +
                           std::to_string(i) + ", " + std::to_string(j) +
                           ") = " + std::to_string(v));
              const auto gen = test::integers(rng_);
              Bits A = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
              Bits B = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
              (in_b ? B : A)[size_t(i * ld + j)] = F::from(v);
              A.insert(A.begin(), size_t(offset), F::kNaN);
              B.insert(B.begin(), size_t(offset), F::kNaN);
              DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(offset + n * ld), F::kNaN));
              DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
              const Options o = detect_options16(kernel, work);
              trtrmm(fill, n, reinterpret_cast<const T*>(dA.get()) + offset, ld,
                     reinterpret_cast<const T*>(dB.get()) + offset, ld,
                     reinterpret_cast<T*>(dC.get()) + offset, ld, nullptr, o);
              TEST_CUDA(cudaGetLastError());
              const uint32_t other = in_b ? kernels::kOutsideB : kernels::kOutsideA;
              uint32_t want = 0;
              if (std::isinf(v))
                want = outside ? kernels::kNonFiniteOutside | other : kernels::kNonFiniteInside;
              else if (outside && v != 0.0)
                want = other;
              if (dense_alone16(o, fill, n, reinterpret_cast<const T*>(dA.get()) + offset, ld, 0,
                                reinterpret_cast<const T*>(dB.get()) + offset, ld, 0,
                                reinterpret_cast<const T*>(dC.get()) + offset, ld, 0, 1))
                EXPECT_EQ(work.download()[0], 0xDEADBEEFu);
              else
                EXPECT_EQ(call_flags(work.download()[0], 0xDEADBEEFu), want);
              const auto Af = to_float<F>(Bits(A.begin() + offset, A.end()));
              const auto Bf = to_float<F>(Bits(B.begin() + offset, B.end()));
              const auto ref = dense_reference(fill, n, Af, ld, Bf, ld, false);
              const Bits out = dC.download();
              EXPECT_TRUE(matches_dense16<F>(fill, n, out.data() + offset, ld, ref, nullptr));
            }
}

// Before sm90_16bit the scan reads the other triangles alone; the structured launch flags its own
// outputs that are not finite, and the dense launch its own. Rows TMA can address (the head of a
// Lower row's other triangle, column i + 1, off a 16-byte boundary), sm90_16bit forced, both
// types: one value in A's or B's other triangle at a row's first or last such column (the scan's
// flag alone; +Inf, -Inf, NaN or a NaN with its sign bit set there: kNonFiniteOutside too, then
// the exact launch); an Inf on the diagonal (the structured launch's kNonFiniteOut, the exact
// launch's C); that Inf with a nonzero outside too (the dense launch's kNonFiniteDense, then the
// exact launch).
TEST_F(GpuDetect16Pinned, Sm90ScanReadsTheOtherTrianglesAlone) {
  SCOPED_TRACE(test::seed_note(seed_));
  const double inf = std::numeric_limits<double>::infinity();
  for (const Type t : {Type::Bf16, Type::Fp16})
    with_type(t, [&](auto f) {
      using F = decltype(f);
      using T = typename F::T;
      if (!runs_here16<F>("sm90_16bit")) GTEST_SKIP() << "sm90_16bit runs on sm_90 only";
      for (const int64_t n : {37, 300})
        for (const Fill fill : {Fill::Upper, Fill::Lower})
          for (const bool in_b : {false, true}) {
            const int64_t ld = (n + 7) / 8 * 8 + 8, r = n / 2;
            const int64_t first = fill == Fill::Upper ? 0 : r + 1,
                          last = fill == Fill::Upper ? r - 1 : n - 1;
            struct Plant {
              int64_t col;    // in row r of the planted operand (-1: none)
              uint16_t bits;  // the planted value
              bool inf_diag;  // also an Inf at (r, r) of the other operand
              uint32_t want;  // the flags, kOutsideA standing for the planted operand's bit
            };
            const uint32_t other = in_b ? kernels::kOutsideB : kernels::kOutsideA;
            const uint32_t bad = other | kernels::kNonFiniteOutside;
            const uint16_t neg_nan = uint16_t(F::kNaN | 0x8000u);
            for (const Plant& plant :
                 {Plant{first, F::from(3.0), false, other},
                  Plant{last, F::from(-2.0), false, other},
                  Plant{-1, 0, true, kernels::kNonFiniteOut},
                  Plant{last, F::from(5.0), true, other | kernels::kNonFiniteDense},
                  Plant{first, F::from(inf), false, bad}, Plant{last, F::from(-inf), false, bad},
                  Plant{first, F::kNaN, false, bad}, Plant{last, neg_nan, false, bad}}) {
              SCOPED_TRACE(std::string(F::kName) + " n " + std::to_string(n) + " " +
                           to_string(fill) + (in_b ? " B(" : " A(") + std::to_string(r) + ", " +
                           std::to_string(plant.col) + ") = bits " + std::to_string(plant.bits) +
                           (plant.inf_diag ? ", Inf on a diagonal" : ""));
              const auto gen = test::integers(rng_);
              Bits A = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
              Bits B = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
              if (plant.col >= 0) (in_b ? B : A)[size_t(r * ld + plant.col)] = plant.bits;
              if (plant.inf_diag) (in_b ? A : B)[size_t(r * ld + r)] = F::from(inf);
              DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(n * ld), F::kNaN));
              DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
              const Options o = detect_options16("sm90_16bit", work);
              trtrmm(fill, n, reinterpret_cast<const T*>(dA.get()), ld,
                     reinterpret_cast<const T*>(dB.get()), ld, reinterpret_cast<T*>(dC.get()), ld,
                     nullptr, o);
              TEST_CUDA(cudaGetLastError());
              EXPECT_EQ(call_flags(work.download()[0], 0xDEADBEEFu), plant.want);
              const auto ref =
                  dense_reference(fill, n, to_float<F>(A), ld, to_float<F>(B), ld, false);
              EXPECT_TRUE(matches_dense16<F>(fill, n, dC.download().data(), ld, ref, nullptr));
            }
          }
    });
}

// The same flags from sm90_16bit's cluster pairs (one problem, config::kSm90Bf16PairMinN to
// kSm90Bf16PairMaxN: two blocks share each level, and rank 1 stores and flags no tile both
// computed) and, Upper from config::kSm90Bf16TallMinN and kSm90Bf16WideMinN, its tall and wide
// units (the wide ones flag each half): triangular integers (no flag, the structured product
// exact), an Inf on A's diagonal (its output flag, then the exact launch), and with a nonzero in
// B's other triangle too (the dense launch's flag, then the exact launch).
TEST_F(GpuDetect16Pinned, Sm90PairsTallAndWideUnitsFlagTheirOutputs) {
  SCOPED_TRACE(test::seed_note(seed_));
  using F = Bf16;
  using T = F::T;
  SKIP_ABOVE_MAX_N(config::kSm90Bf16PairMinN);
  if (!runs_here16<F>("sm90_16bit")) GTEST_SKIP() << "sm90_16bit runs on sm_90 only";
  const double inf = std::numeric_limits<double>::infinity();
  for (const int64_t n :
       {config::kSm90Bf16PairMinN, config::kSm90Bf16TallMinN, config::kSm90Bf16WideMinN}) {
    if (n > test::max_n()) continue;  // (the tall and wide units' n, above TRIMM_TEST_MAX_N)
    const int64_t ld = n + 8;
    for (const Fill fill : {Fill::Upper, Fill::Lower})
      for (int plant = 0; plant < 3; ++plant) {
        SCOPED_TRACE(std::string(to_string(fill)) + " n " + std::to_string(n) + " case " +
                     std::to_string(plant));
        const auto gen = test::integers(rng_);
        Bits A = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
        Bits B = make16<F>(test::Kind::Triangular, fill, n, ld, gen, rng_);
        const int64_t r = n / 2 + 3;
        if (plant >= 1) A[size_t(r * ld + r)] = F::from(inf);
        const int64_t outside = fill == Fill::Upper ? (n - 1) * ld + 5 : 5 * ld + n - 1;
        if (plant == 2) B[size_t(outside)] = F::from(2.0);
        DeviceBuffer<uint16_t> dA(A), dB(B), dC(Bits(size_t(n * ld), F::kNaN));
        DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0xDEADBEEFu));
        const Options o = detect_options16("sm90_16bit", work);
        trtrmm(fill, n, reinterpret_cast<const T*>(dA.get()), ld,
               reinterpret_cast<const T*>(dB.get()), ld, reinterpret_cast<T*>(dC.get()), ld,
               nullptr, o);
        TEST_CUDA(cudaGetLastError());
        const uint32_t want[] = {0u, kernels::kNonFiniteOut,
                                 kernels::kOutsideB | kernels::kNonFiniteDense};
        EXPECT_EQ(call_flags(work.download()[0], 0xDEADBEEFu), want[plant]);
        const auto ref = dense_reference(fill, n, to_float<F>(A), ld, to_float<F>(B), ld, false);
        EXPECT_TRUE(matches_dense16<F>(fill, n, dC.download().data(), ld, ref, nullptr));
      }
  }
}

// --- errors ---------------------------------------------------------------------------------
class GpuTrtrmm16Errors : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_GPU(); }
};

TEST_F(GpuTrtrmm16Errors, BadArgumentsThrowNamingTheArgumentAndWriteNothing) {
  const int64_t n = 64;
  const Bits poisoned(static_cast<size_t>(n * n + 8), Bf16::kNaN);
  DeviceBuffer<uint16_t> dA(Bits(size_t(n * n + 8), 0x3F80)), dB(Bits(size_t(n * n + 8), 0x3F80)),
      dC(poisoned);
  auto* A = reinterpret_cast<const bfloat16_t*>(dA.get());
  auto* B = reinterpret_cast<const bfloat16_t*>(dB.get());
  auto* C = reinterpret_cast<bfloat16_t*>(dC.get());
  auto* Ah = reinterpret_cast<const half_t*>(dA.get());
  auto* Bh = reinterpret_cast<const half_t*>(dB.get());
  auto* Ch = reinterpret_cast<half_t*>(dC.get());
  auto expect_error = [&](const char* name, auto&& call) {
    test::expect_invalid_argument(name, call, poisoned, {&dC});
  };
  const bfloat16_t* none = nullptr;
  expect_error("n = -1", [&] { trtrmm(Fill::Upper, -1, A, n, B, n, C, n); });
  expect_error("lda", [&] { trtrmm(Fill::Upper, n, A, n - 1, B, n, C, n); });
  expect_error("ldb", [&] { trtrmm(Fill::Upper, n, Ah, n, Bh, 0, Ch, n); });
  expect_error("ldc", [&] { trtrmm(Fill::Upper, n, A, n, B, n, C, 3); });
  expect_error("A is null", [&] { trtrmm(Fill::Upper, n, none, n, B, n, C, n); });
  expect_error("C overlaps A", [&] {
    trtrmm(Fill::Upper, n, reinterpret_cast<const bfloat16_t*>(C), n, B, n, C, n);
  });
  expect_error("stride_c", [&] {
    trtrmm_strided_batched(Fill::Upper, n, A, n, 0, B, n, 0, C, n, 1, 2);
  });
  expect_error("fill = 2", [&] { trtrmm(static_cast<Fill>(2), n, Ah, n, Bh, n, Ch, n); });
  expect_error("kernel = 'no_such_kernel'", [&] {
    Options o;
    o.kernel = "no_such_kernel";
    trtrmm(Fill::Upper, n, A, n, B, n, C, n, nullptr, o);
  });
  expect_error("kernel = 'sm90_tf32x3' for 16-bit data", [&] {  // a float kernel
    Options o;
    o.kernel = "sm90_tf32x3";
    trtrmm(Fill::Upper, n, Ah, n, Bh, n, Ch, n, nullptr, o);
  });
  expect_error("precision = ieee", [&] {
    Options o;
    o.precision = Precision::Ieee;
    trtrmm(Fill::Upper, n, A, n, B, n, C, n, nullptr, o);
  });
  expect_error("precision = tf32", [&] {
    Options o;
    o.precision = Precision::Tf32;
    trtrmm(Fill::Upper, n, Ah, n, Bh, n, Ch, n, nullptr, o);
  });
  expect_error("structure = detect needs options.workspace", [&] {
    Options o;
    o.structure = Structure::Detect;
    trtrmm(Fill::Upper, n, A, n, B, n, C, n, nullptr, o);
  });
  // Forced onto operands TMA cannot address (ld not a multiple of 8), on sm_90.
  Options tma;
  tma.kernel = "sm90_16bit";
  bool sm90 = true;
  try {
    selected_kernel(Fill::Upper, n, A, n, B, n, C, n, tma);
  } catch (const InvalidArgument&) {
    sm90 = false;
  }
  if (sm90)
    expect_error("kernel = 'sm90_16bit' loads through TMA", [&] {
      trtrmm(Fill::Upper, n - 1, A, n - 1, B, n - 1, C, n - 1, nullptr, tma);
    });
}

TEST_F(GpuTrtrmm16Errors, EmptyProblemsAreNoOps) {
  const half_t* h = nullptr;
  const bfloat16_t* b = nullptr;
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, h, 1, h, 1, nullptr, 1));
  EXPECT_NO_THROW(trtrmm(Fill::Lower, 0, b, 1, b, 1, nullptr, 1));
  EXPECT_NO_THROW(
      trtrmm_strided_batched(Fill::Lower, 5, b, 5, 0, b, 5, 0, nullptr, 5, 25, 0));
}

// No device allocation, copy or synchronization in the 16-bit call path, kernel by kernel and
// through Detect's scan and gated launches (test::expect_captures_in_global_mode): sm90_16bit's
// cluster split (small n), persistent batches, cluster pairs (3072 and up) and tall units (4096
// and up) among them.
struct Capture16Case {
  const char* kernel;  // "": dispatch's choice
  bool bf16;
  Structure structure;
  Fill fill;
  int64_t warm_n, n, batch;
};

template <class F>
void expect_capture16(const Capture16Case& k, std::mt19937_64& rng) {
  using T = typename F::T;
  SCOPED_TRACE(std::string(F::kName) + " '" + k.kernel + "' " + to_string(k.structure) +
               " n = " + std::to_string(k.n) + " batch " + std::to_string(k.batch));
  const int64_t ld = (k.n + 7) / 8 * 8, stride = k.n * ld;
  Bits A, B;
  for (int64_t b = 0; b < k.batch; ++b) {
    const Bits a = make_triangular16<F>(k.fill, k.n, ld, generator(Inputs::Integers, rng));
    const Bits m = make_triangular16<F>(k.fill, k.n, ld, generator(Inputs::Integers, rng));
    A.insert(A.end(), a.begin(), a.end());
    B.insert(B.end(), m.begin(), m.end());
  }
  const Bits C0(A.size(), F::kNaN);
  DeviceBuffer<uint16_t> dA(A), dB(B), dC(C0);
  DeviceBuffer<uint32_t> work(std::vector<uint32_t>(1, 0u));
  Options o = k.structure == Structure::Detect ? detect_options16(k.kernel, work) : Options{};
  o.kernel = k.kernel;
  const T* a = reinterpret_cast<const T*>(dA.get());
  const T* b = reinterpret_cast<const T*>(dB.get());
  T* c = reinterpret_cast<T*>(dC.get());
  test::expect_captures_in_global_mode(
      [&](int64_t n, cudaStream_t s) {
        trtrmm_strided_batched(k.fill, n, a, ld, stride, b, ld, stride, c, ld, stride, k.batch, s,
                               o);
      },
      k.warm_n, k.n, dC, C0);
}

TEST(GpuTrtrmm16Dispatch, CallsCaptureInGlobalModeAtANewSize) {
  SKIP_WITHOUT_GPU();
  const Capture16Case cases[] = {
      {"sm80_16bit_small", false, Structure::Triangular, Fill::Upper, 200, 301, 1},
      {"sm90_16bit", true, Structure::Triangular, Fill::Lower, 600, 704, 1},
      {"sm90_16bit", false, Structure::Triangular, Fill::Upper, 1100, 1304, 2},
      {"sm90_16bit", true, Structure::Triangular, Fill::Upper, 3072, 3208, 1},
      {"sm90_16bit", false, Structure::Triangular, Fill::Upper, 4096, 4160, 1},  // tall units
      {"", true, Structure::Detect, Fill::Upper, 4160, 4224, 1},  // Detect's scan, then tall
      {"sm80_16bit", true, Structure::Triangular, Fill::Lower, 1000, 1104, 2},
      {"", true, Structure::Detect, Fill::Upper, 600, 712, 1},
      {"", false, Structure::Detect, Fill::Lower, 2304, 2408, 1},
  };
  const uint64_t seed = test::seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE(test::seed_note(seed));
  for (const Capture16Case& k : cases) {
    if (k.n > test::max_n()) continue;
    const bool forced = *k.kernel != '\0';
    if (forced && (k.bf16 ? !runs_here16<Bf16>(k.kernel) : !runs_here16<Fp16>(k.kernel))) continue;
    if (k.bf16)
      expect_capture16<Bf16>(k, rng);
    else
      expect_capture16<Fp16>(k, rng);
  }
}

// The host-side rounding the checks rely on, against known values.
TEST(Trtrmm16HostFormats, RoundingToNearestEven) {
  EXPECT_EQ(Fp16::from(1.0), 0x3C00);
  EXPECT_EQ(Fp16::from(65504.0), 0x7BFF);
  EXPECT_EQ(Fp16::from(65520.0), 0x7C00);
  EXPECT_EQ(Fp16::from(1.0 + 0x1p-11), 0x3C00);  // tie: to even
  EXPECT_EQ(Fp16::from(1.0 + 3 * 0x1p-11), 0x3C02);
  EXPECT_EQ(Fp16::from(0x1p-24), 0x0001);  // smallest subnormal
  EXPECT_EQ(Fp16::from(-2.0), 0xC000);
  EXPECT_EQ(Fp16::to(0x3555), 0x1.554p-2);
  EXPECT_EQ(Bf16::from(1.0), 0x3F80);
  EXPECT_EQ(Bf16::from(1.0 + 0x1p-8), 0x3F80);  // tie: to even
  EXPECT_EQ(Bf16::from(1.0 + 3 * 0x1p-8), 0x3F82);
  EXPECT_EQ(Bf16::from(-3.0), 0xC040);
  EXPECT_EQ(Bf16::from(1023.0), 0x4480);  // 1024: bf16 has 8 significant bits
  for (uint16_t b : {0x0000, 0x3C00, 0x7BFF, 0x0001, 0x03FF, 0x0400, 0xBC00})
    EXPECT_EQ(Fp16::from(Fp16::to(b)), b);
  for (uint16_t b : {0x0000, 0x3F80, 0x7F7F, 0xBF80, 0x0080})
    EXPECT_EQ(Bf16::from(Bf16::to(b)), b);
}

}  // namespace
}  // namespace trimm
