// The dispatch table, on the CPU: what runs where, and the errors for impossible requests.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/dispatch.hpp"
#include "kernels/launch.hpp"
#include "trimm/trimm.hpp"

namespace trimm::dispatch {
namespace {

TEST(Dispatch, IeeePicksTheFfmaKernelEverywhere) {
  for (int cc : {80, 86, 89, 90}) {
    EXPECT_STREQ(select(cc, Precision::Ieee, 1, "").name, "simt_small_fp32") << "sm_" << cc;
    EXPECT_STREQ(select(cc, Precision::Ieee, 4096, "", false).name, "simt_fp32") << "sm_" << cc;
  }
}

TEST(Dispatch, SmallNTakesTheSmallKernelForEveryPrecision) {
  for (int cc : {80, 89, 90})
    for (const Precision p : {Precision::Auto, Precision::Fp32, Precision::Tf32, Precision::Ieee}) {
      EXPECT_STREQ(select(cc, p, 1, "").name, "simt_small_fp32") << "sm_" << cc;
      EXPECT_STREQ(select(cc, p, 1216, "").name, "simt_small_fp32") << "sm_" << cc;
      // Ieee's next kernel (simt_fp32) is slower: the small kernel goes further there.
      const int64_t last = p == Precision::Ieee ? 1792 : 1216;
      EXPECT_STREQ(select(cc, p, last, "").name, "simt_small_fp32") << "sm_" << cc;
      EXPECT_STRNE(select(cc, p, last + 1, "").name, "simt_small_fp32") << "sm_" << cc;
    }
  EXPECT_STREQ(select(90, Precision::Ieee, 1793, "").name, "simt_fp32");
  EXPECT_STREQ(select(90, Precision::Auto, 1217, "").name, "sm90_tf32x3");
  // Forced, a kernel implements its own precision only.
  EXPECT_THROW(select(90, Precision::Fp32, 64, "simt_small_fp32"), InvalidArgument);
  EXPECT_STREQ(select(90, Precision::Ieee, 4096, "simt_small_fp32").name, "simt_small_fp32");
}

TEST(Dispatch, DetectTakesTheExactPathTheScanOrTheKernelWithFlags) {
  const auto pick = [](int cc, int64_t n, const std::string& forced = "", bool tma_ok = true,
                       Precision p = Precision::Auto) {
    const Choice c = choose(cc, p, n, forced, tma_ok, Structure::Detect);
    EXPECT_FALSE(c.exact && c.scan) << c.kernel->name << " n=" << n;
    return std::string(c.kernel->name) + (c.exact ? " exact" : "") + (c.scan ? " scan" : "");
  };
  // Small n: every k in the small kernel, on any GPU; past that a scan, then its band or every k.
  EXPECT_EQ(pick(90, 1), "simt_small_fp32 exact");
  EXPECT_EQ(pick(90, 448), "simt_small_fp32 exact");
  EXPECT_EQ(pick(80, 448), "simt_small_fp32 exact");
  EXPECT_EQ(pick(90, 449), "simt_small_fp32 scan");
  EXPECT_EQ(pick(90, 1216), "simt_small_fp32 scan");
  EXPECT_EQ(pick(80, 1216), "simt_small_fp32 scan");
  EXPECT_EQ(pick(90, 1216, "", false), "simt_small_fp32 scan");
  EXPECT_EQ(pick(90, 1792, "", true, Precision::Ieee), "simt_small_fp32 scan");
  // Past the small kernel's n, the kernel with flags on sm_90.
  EXPECT_EQ(pick(90, 1217), "sm90_tf32x3");
  EXPECT_EQ(pick(90, 4096), "sm90_tf32x3");
  EXPECT_EQ(pick(90, 4096, "", true, Precision::Fp32), "sm90_tf32x3");
  EXPECT_EQ(pick(90, 1217, "", true, Precision::Tf32), "sm90_tf32");
  EXPECT_EQ(pick(90, 1216, "", true, Precision::Tf32), "simt_small_fp32 scan");
  // sm90_fp16x1 (tf32, given its workspace) has no flags: sm90_tf32 takes Detect.
  EXPECT_STREQ(
      choose(90, Precision::Tf32, 4096, "", true, Structure::Detect, SIZE_MAX).kernel->name,
      "sm90_tf32");
  EXPECT_STREQ(choose(90, Precision::Tf32, 4096, "", true, Structure::Triangular, SIZE_MAX)
                   .kernel->name,
               "sm90_fp16x1");
  // No kernel with flags: the exact path where the chosen kernel has one, else nothing:
  // check_detect_runs refuses it (trtrmm and selected_kernel alike), naming the kernel.
  EXPECT_EQ(pick(80, 4096), "sm80_tf32x3");
  EXPECT_EQ(pick(90, 4096, "", true, Precision::Ieee), "simt_fp32");
  const auto refusal = [](int cc, int64_t n, Precision p, bool tma_ok) -> std::string {
    try {
      check_detect_runs("api", choose(cc, p, n, "", tma_ok, Structure::Detect));
      return "runs";
    } catch (const InvalidArgument& e) {
      return e.what();
    }
  };
  const std::string runs_to = "api: structure = detect runs up to n = 1216";
  EXPECT_EQ(refusal(80, 4096, Precision::Auto, true).rfind(runs_to, 0), 0u);
  EXPECT_NE(refusal(80, 4096, Precision::Auto, true).find("dispatch chose 'sm80_tf32x3'"),
            std::string::npos);
  EXPECT_NE(refusal(90, 2048, Precision::Ieee, true).find("dispatch chose 'simt_fp32'"),
            std::string::npos);
  // Operands TMA cannot take (an ld that is not a multiple of 4) past the small kernel.
  EXPECT_NE(refusal(90, 2000, Precision::Auto, false).find("dispatch chose 'sm80_tf32x3'"),
            std::string::npos);
  // Every choice with a path runs: exact, scan, flags.
  EXPECT_EQ(refusal(90, 448, Precision::Auto, true), "runs");
  EXPECT_EQ(refusal(80, 1216, Precision::Auto, true), "runs");
  EXPECT_EQ(refusal(90, 4096, Precision::Auto, true), "runs");
  EXPECT_EQ(refusal(90, 4096, Precision::Tf32, true), "runs");
  EXPECT_EQ(refusal(90, 1792, Precision::Ieee, true), "runs");
  // Forced by name: the small kernel's scan path at any n.
  EXPECT_EQ(pick(90, 4096, "simt_small_fp32", true, Precision::Ieee), "simt_small_fp32 scan");
  EXPECT_EQ(pick(90, 64, "simt_small_fp32", true, Precision::Ieee), "simt_small_fp32 scan");
  EXPECT_EQ(pick(90, 256, "sm90_tf32x3"), "sm90_tf32x3");
  EXPECT_EQ(pick(90, 64, "naive_fp32", true, Precision::Ieee), "naive_fp32 exact");
  // Forced kernels without either path are refused (check_detect_kernel_name: trtrmm and
  // selected_kernel alike).
  EXPECT_NO_THROW(check_detect_kernel_name("api", ""));
  EXPECT_NO_THROW(check_detect_kernel_name("api", "sm90_tf32x3"));
  try {
    check_detect_kernel_name("api", "sm90_fp16x1");
    ADD_FAILURE() << "sm90_fp16x1 forced under Detect was not refused";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("api: kernel = 'sm90_fp16x1' with structure = detect, expected '' or "
                         "one of 'simt_small_fp32'",
                         0),
              0u)
        << what;
    EXPECT_NE(what.find("'sm90_tf32x3'"), std::string::npos) << what;
  }
  EXPECT_TRUE(has_detect_path("sm90_tf32x3"));
  EXPECT_TRUE(has_detect_path("sm90_fp16x3"));
  EXPECT_TRUE(has_detect_path("simt_small_fp32"));
  EXPECT_TRUE(has_detect_path("sm90_tf32"));
  EXPECT_FALSE(has_detect_path("sm90_fp16x1"));
  EXPECT_FALSE(has_detect_path("simt_fp32"));
  EXPECT_FALSE(has_detect_path("no_such_kernel"));
}

TEST(Dispatch, AutoAndFp32PickWgmmaOnHopperAndMmaSyncElsewhere) {
  for (const Precision p : {Precision::Auto, Precision::Fp32}) {
    EXPECT_STREQ(select(90, p, 4096, "").name, "sm90_tf32x3");
    for (int cc : {80, 86, 89, 100})
      EXPECT_STREQ(select(cc, p, 4096, "").name, "sm80_tf32x3") << "sm_" << cc;
  }
  try {
    select(90, Precision::Ieee, 64, "sm80_tf32x3");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("precision"), std::string::npos) << e.what();
  }
}

TEST(Dispatch, OperandsTmaCannotAddressSkipTheWgmmaKernel) {
  EXPECT_STREQ(select(90, Precision::Fp32, 4096, "", false).name, "sm80_tf32x3");
  try {
    select(90, Precision::Fp32, 4096, "sm90_tf32x3", false);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("kernel = 'sm90_tf32x3'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("16-byte"), std::string::npos) << e.what();
  }
}

TEST(Dispatch, Tf32IsOptInAndHopperOnly) {
  EXPECT_STREQ(select(90, Precision::Tf32, 4096, "").name, "sm90_tf32");
  // Where it cannot run, an fp32-accurate kernel does (never less exact).
  EXPECT_STREQ(select(80, Precision::Tf32, 4096, "").name, "sm80_tf32x3");
  EXPECT_STREQ(select(90, Precision::Tf32, 4096, "", false).name, "sm80_tf32x3");
  for (int cc : {80, 90})  // Auto is fp32-accurate: never the one-product kernel
    EXPECT_STRNE(select(cc, Precision::Auto, 4096, "").name, "sm90_tf32") << "sm_" << cc;
  EXPECT_STREQ(select(90, Precision::Auto, 4096, "sm90_tf32").name, "sm90_tf32");  // forced
  EXPECT_THROW(select(90, Precision::Fp32, 4096, "sm90_tf32"), InvalidArgument);
}

TEST(Dispatch, TheWgmmaKernelRunsOnHopperOnly) {
  EXPECT_STREQ(select(90, Precision::Fp32, 4096, "sm90_tf32x3").name, "sm90_tf32x3");
  EXPECT_THROW(select(80, Precision::Fp32, 4096, "sm90_tf32x3"), InvalidArgument);
  EXPECT_THROW(select(100, Precision::Fp32, 4096, "sm90_tf32x3"), InvalidArgument);
}

TEST(Dispatch, TheNaiveYardstickRunsOnlyWhenForced) {
  for (const KernelEntry* e = table_begin(); e != table_end(); ++e)
    if (std::string(e->name) == "naive_fp32") EXPECT_FALSE(e->automatic);
  EXPECT_STREQ(select(90, Precision::Auto, 64, "naive_fp32").name, "naive_fp32");
}

TEST(Dispatch, EveryEntryHasANameALauncherAndAConcretePrecision) {
  for (const KernelEntry* e = table_begin(); e != table_end(); ++e) {
    EXPECT_NE(e->name, nullptr);
    EXPECT_NE(e->launch, nullptr) << e->name;
    EXPECT_NE(e->precision, Precision::Auto) << e->name;
    EXPECT_LE(e->min_cc, e->max_cc) << e->name;
  }
}

// trtrmm_workspace_bytes answers for dispatch's choices without asking which: an automatic
// entry that needs a workspace is taken only where the call brings it, and never needs one
// under Detect.
TEST(Dispatch, KernelsThatNeedAWorkspaceRunOnlyWhereTheCallBringsIt) {
  const size_t x3 = kernels::fp16x3_workspace_bytes(4096, 1);
  const size_t x1 = kernels::fp16x1_workspace_bytes(4096, 1);
  ASSERT_GT(x3, x1);
  for (const Precision p : {Precision::Auto, Precision::Fp32}) {
    EXPECT_STREQ(select(90, p, 4096, "").name, "sm90_tf32x3");
    EXPECT_STREQ(select(90, p, 4096, "", true, x3 - 1).name, "sm90_tf32x3");
    EXPECT_STREQ(select(90, p, 4096, "", true, x3).name, "sm90_fp16x3");
    EXPECT_STREQ(select(90, p, 4096, "", true, x3 + 4096).name, "sm90_fp16x3");
    // Where it was measured to win: from 3072 on (2048 lost).
    EXPECT_STREQ(select(90, p, 3071, "", true, SIZE_MAX).name, "sm90_tf32x3");
    EXPECT_STREQ(select(90, p, 3072, "", true, SIZE_MAX).name, "sm90_fp16x3");
    EXPECT_STREQ(select(90, p, 16384, "", true, SIZE_MAX).name, "sm90_fp16x3");
    // One problem only (batches not measured), TMA-addressable operands, sm_90.
    EXPECT_STREQ(select(90, p, 4096, "", true, SIZE_MAX, 2).name, "sm90_tf32x3");
    EXPECT_STREQ(select(90, p, 4096, "", false, SIZE_MAX).name, "sm80_tf32x3");
    EXPECT_STREQ(select(80, p, 4096, "", true, SIZE_MAX).name, "sm80_tf32x3");
  }
  // Precision tf32: sm90_fp16x1 from 4096 on, given its planes.
  EXPECT_STREQ(select(90, Precision::Tf32, 4096, "").name, "sm90_tf32");
  EXPECT_STREQ(select(90, Precision::Tf32, 4096, "", true, x1 - 1).name, "sm90_tf32");
  EXPECT_STREQ(select(90, Precision::Tf32, 4096, "", true, x1).name, "sm90_fp16x1");
  EXPECT_STREQ(select(90, Precision::Tf32, 4095, "", true, SIZE_MAX).name, "sm90_tf32");
  // Auto is fp32-accurate: never sm90_fp16x1, whatever the workspace.
  EXPECT_STREQ(select(90, Precision::Auto, 4096, "", true, x1).name, "sm90_tf32x3");
  // Detect: sm90_fp16x3 where the call brings its planes (the host API offers the bytes after
  // the flag word), as under Triangular; else sm90_tf32x3, and below 3072 as before.
  EXPECT_STREQ(choose(90, Precision::Auto, 4096, "", true, Structure::Detect, x3).kernel->name,
               "sm90_fp16x3");
  EXPECT_STREQ(choose(90, Precision::Auto, 4096, "", true, Structure::Detect, x3 - 1).kernel->name,
               "sm90_tf32x3");
  EXPECT_STREQ(choose(90, Precision::Auto, 4096, "", true, Structure::Detect, 0).kernel->name,
               "sm90_tf32x3");
  EXPECT_STREQ(
      choose(90, Precision::Auto, 1000, "", true, Structure::Detect, SIZE_MAX).kernel->name,
      "simt_small_fp32");
  EXPECT_STREQ(
      choose(90, Precision::Auto, 4096, "", true, Structure::Triangular, x3).kernel->name,
      "sm90_fp16x3");
  // Forced, as before: any n, any workspace (the API checks it).
  EXPECT_STREQ(select(90, Precision::Fp32, 256, "sm90_fp16x3").name, "sm90_fp16x3");
}

// The TMA kernels' batch-stride rule as README and cuda.hpp state it: 0 (a shared A or B) or at
// least ld·n, whole padded matrices apart; a smaller stride, even one whose matrices do not
// overlap, goes to the mma.sync kernels.
TEST(Dispatch, TmaTakesBatchStridesOfWholeMatrices) {
  alignas(16) static float a[16], b[16], c[16];
  const int64_t n = 1000, ld = 1024;
  auto fp32 = [&](int64_t stride_a, int64_t stride_b) {
    kernels::Problem p{};
    static_cast<kernels::MatrixProblem<float>&>(p) = {Fill::Upper, n,        a, ld, stride_a, b,
                                                      ld,          stride_b, c, ld, ld * n,   2};
    return kernels::tma_compatible(p);
  };
  EXPECT_TRUE(fp32(ld * n, ld * n));
  EXPECT_TRUE(fp32(0, ld * n + 4));
  EXPECT_FALSE(fp32((n - 1) * ld + n, ld * n));  // apart, a multiple of 4, yet below ld·n
  EXPECT_FALSE(fp32(ld * n, ld * n - 4));
  alignas(16) static bfloat16_t x[16], y[16], z[16];
  auto b16 = [&](int64_t stride_a, int64_t stride_c) {
    kernels::Problem16<bfloat16_t> p{};
    static_cast<kernels::MatrixProblem<bfloat16_t>&>(p) = {Fill::Upper, n, x, ld, stride_a, y,
                                                           ld,          0, z, ld, stride_c, 2};
    return kernels::tma_compatible_16bit(p);
  };
  EXPECT_TRUE(b16(ld * n, ld * n));
  EXPECT_TRUE(b16(0, ld * n + 8));
  EXPECT_FALSE(b16(ld * n - 8, ld * n));
  EXPECT_FALSE(b16(ld * n, (n - 1) * ld + n));  // C's matrices apart, a multiple of 8
}

TEST(Dispatch, WorkspaceBytes) {
  Options o;
  EXPECT_EQ(trtrmm_workspace_bytes(4096, 1, o), 0u);
  o.structure = Structure::Detect;
  EXPECT_EQ(trtrmm_workspace_bytes(4096, 7, o), 4u);
  o = {};
  o.kernel = "sm90_tf32x3";
  EXPECT_EQ(trtrmm_workspace_bytes(4096, 1, o), 0u);
  // The fp64 kernels: Detect's flag word alone.
  for (const char* fp64 : {"sm80_fp64", "simt_fp64", "sm80_fp64_m8n8k4"}) {
    Options d;
    d.kernel = fp64;
    EXPECT_EQ(trtrmm_workspace_bytes(4096, 3, d), 0u) << fp64;
    d.structure = Structure::Detect;
    EXPECT_EQ(trtrmm_workspace_bytes(4096, 3, d), 4u) << fp64;
  }
  o.kernel = "sm90_fp16x3";
  // Four vectors of n, a flag word and two counts a problem, two lists of max(32, n / 4) lost
  // elements (16 bytes each) a problem (256-byte aligned in all), then four fp16 planes of
  // n × round_up(n, 8) a problem, each problem's 256-byte aligned.
  // 4096: 2·16384 + 4 + 8 -> 32784, + 2·16384 -> 65552, + 2·1024·16 = 98320 -> 98560.
  EXPECT_EQ(trtrmm_workspace_bytes(4096, 1, o), 98560u + 4u * 4096u * 4096u * 2u);
  // 5 × 3: 2·60 + 4 + 24 -> 160, + 120 -> 288, + 2·3·32·16 = 3360 -> 3584; planes 4·5·8·2 = 320
  // -> 512 a problem.
  EXPECT_EQ(trtrmm_workspace_bytes(5, 3, o), 3584u + 3u * 512u);
  EXPECT_EQ(trtrmm_workspace_bytes(0, 1, o), 0u);
  o.structure = Structure::Detect;  // the flag word, then the planes 256 bytes in
  EXPECT_EQ(trtrmm_workspace_bytes(5, 3, o), 256u + 3584u + 3u * 512u);
  o = {};
  o.kernel = "sm90_fp16x1";  // two planes a problem: 5·8·2·2 = 160 -> 256
  EXPECT_EQ(trtrmm_workspace_bytes(4096, 1, o), 98560u + 2u * 4096u * 4096u * 2u);
  EXPECT_EQ(trtrmm_workspace_bytes(5, 3, o), 3584u + 3u * 256u);
  // The largest size still counted: 2^56 elements in all (2^28 × 2^28, one problem).
  EXPECT_GT(trtrmm_workspace_bytes(int64_t(1) << 28, 1, o), (size_t(1) << 58));
  o.structure = Structure::Triangular;
  EXPECT_EQ(trtrmm_workspace_bytes(64, 0, o), 0u);
  for (const auto& [n, batch, name] :
       {std::tuple<int64_t, int64_t, const char*>{-1, 1, "n = -1"},
        {4, -2, "batch = -2"},
        // Past the calls' n, and sizes past what size_t counts (they wrapped to a small number).
        {int64_t(INT32_MAX) + 1, 1, "n = 2147483648, expected n <= 2147483647"},
        {INT32_MAX, 1,
         "n = 2147483647 and batch = 1, expected a workspace for kernel = "
         "'sm90_fp16x1' below 2^62 bytes"},
        {1518500250, 1, "n = 1518500250 and batch = 1"},
        {65536, int64_t(1) << 30, "n = 65536 and batch = 1073741824"},
        // A small n with a huge batch: each problem's lists (1 KB at least) wrapped the sum.
        {1, 14146276130145362, "n = 1 and batch = 14146276130145362"}}) {
    try {
      trtrmm_workspace_bytes(n, batch, o);
      ADD_FAILURE() << "no error for " << name;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  o.kernel = "nope";
  try {
    trtrmm_workspace_bytes(64, 1, o);
    ADD_FAILURE() << "no error for an unknown kernel";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("kernel = 'nope'"), std::string::npos) << e.what();
  }
}

TEST(Dispatch, UnknownKernelNamesTheArgumentAndTheChoices) {
  try {
    select(90, Precision::Auto, 64, "nope");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel = 'nope'"), std::string::npos) << what;
    EXPECT_NE(what.find("simt_fp32"), std::string::npos) << what;
  }
}

// A forced kernel that cannot run says which kernel and why (both tables share that code).
TEST(Dispatch, ForcedKernelErrorsNameTheKernelAndTheReason) {
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto npos = std::string::npos;
  std::string m = message([] { select(80, Precision::Fp32, 4096, "sm90_tf32x3"); });
  EXPECT_NE(m.find("kernel = 'sm90_tf32x3' does not run on sm_80"), npos) << m;
  m = message([] { select(90, Precision::Fp32, 4096, "sm90_tf32x3", false); });
  EXPECT_NE(m.find("kernel = 'sm90_tf32x3' loads through TMA"), npos) << m;
  EXPECT_NE(m.find("multiples of 4"), npos) << m;
  m = message([] { select(90, Precision::Fp32, 4096, "sm90_tf32"); });
  EXPECT_NE(m.find("implements precision tf32, not the requested fp32"), npos) << m;
  m = message([] { select16(80, 4096, "sm90_16bit"); });
  EXPECT_NE(m.find("kernel = 'sm90_16bit' does not run on sm_80"), npos) << m;
  m = message([] { select16(90, 4096, "sm90_16bit", false); });
  EXPECT_NE(m.find("multiples of 8"), npos) << m;
  m = message([] { select16(90, 4096, "nope"); });
  EXPECT_NE(m.find("kernel = 'nope' for 16-bit data, expected one of: sm90_16bit"), npos) << m;
}

// An unknown kernel name needs no device to be refused: the public calls name it before they
// query one (also on a machine without a GPU), and write nothing.
TEST(Dispatch, UnknownKernelIsRefusedBeforeAnyDeviceQuery) {
  std::vector<float> a(16, 1.f), c(16, -7.f);
  std::vector<half_t> h(16, half_t{0x3C00}), hc(16, half_t{0x7E00});
  Options o;
  o.kernel = "nope";
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    } catch (const std::exception& e) {
      return std::string("not InvalidArgument: ") + e.what();
    }
    return std::string("no error");
  };
  const auto npos = std::string::npos;
  std::string m =
      message([&] { trtrmm(Fill::Upper, 4, a.data(), 4, a.data(), 4, c.data(), 4, nullptr, o); });
  EXPECT_NE(m.find("trimm::trtrmm: kernel = 'nope', expected one of: simt_small_fp32"), npos) << m;
  m = message([&] { trtrmm(Fill::Upper, 4, h.data(), 4, h.data(), 4, hc.data(), 4, nullptr, o); });
  EXPECT_NE(m.find("trimm::trtrmm: kernel = 'nope' for 16-bit data, expected one of:"), npos) << m;
  m = message([&] { selected_kernel(4096, o); });
  EXPECT_NE(m.find("trimm::selected_kernel: kernel = 'nope'"), npos) << m;
  for (float x : c) EXPECT_EQ(x, -7.f);
  for (half_t x : hc) EXPECT_EQ(x.bits, 0x7E00);
}

// n = 0 or batch = 0 launches nothing (no device is needed, so this runs on the CPU machine), but
// only after the same checks as any call: Detect without its workspace, or a bad leading
// dimension, is refused even there.
TEST(Dispatch, EmptyProblemsLaunchNothingAfterTheChecks) {
  const float* none = nullptr;
  const half_t* none16 = nullptr;
  alignas(4) uint32_t word = 0x5A5A5A5Au;  // stands in for device memory: never touched
  Options detect;
  detect.structure = Structure::Detect;
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, none, 1, none, 1, nullptr, 1));
  EXPECT_NO_THROW(trtrmm(Fill::Lower, 0, none16, 1, none16, 1, nullptr, 1));
  auto workspace_refused = [](auto&& call) {
    try {
      call();
    } catch (const InvalidArgument& e) {
      return std::string(e.what()).find("structure = detect needs options.workspace") !=
             std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(workspace_refused(
      [&] { trtrmm(Fill::Upper, 0, none, 1, none, 1, nullptr, 1, nullptr, detect); }));
  EXPECT_TRUE(workspace_refused([&] {
    trtrmm_strided_batched(Fill::Upper, 5, none16, 5, 25, none16, 5, 25, nullptr, 5, 25, 0, nullptr,
                           detect);
  }));
  detect.workspace = &word;
  detect.workspace_bytes = sizeof word;
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, none, 1, none, 1, nullptr, 1, nullptr, detect));
  EXPECT_NO_THROW(trtrmm_strided_batched(Fill::Lower, 5, none, 5, 25, none, 5, 25, nullptr, 5, 25,
                                         0, nullptr, detect));
  EXPECT_NO_THROW(trtrmm(Fill::Upper, 0, none16, 1, none16, 1, nullptr, 1, nullptr, detect));
  EXPECT_EQ(word, 0x5A5A5A5Au);
  try {
    trtrmm(Fill::Upper, 0, none, 0, none, 1, nullptr, 1, nullptr, detect);
    ADD_FAILURE() << "lda = 0 at n = 0 was taken";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("lda = 0, expected >= max(1, n) = 1"), std::string::npos)
        << e.what();
  }
}

TEST(Dispatch, OldArchitecturesAreRefusedWithTheArchNamed) {
  try {
    select(70, Precision::Auto, 64, "");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("sm_70"), std::string::npos) << e.what();
  }
  EXPECT_THROW(select(70, Precision::Auto, 64, "simt_fp32"), InvalidArgument);
}

}  // namespace
}  // namespace trimm::dispatch

namespace trimm::dispatch {
namespace {

// 16-bit data: its own table. wgmma where TMA takes the operands on sm_90, mma.sync everywhere
// else; the CUDA-core kernel only when forced; fp32 accumulation only.
TEST(Dispatch16, WgmmaOnHopperMmaSyncElsewhere) {
  EXPECT_STREQ(select16(90, 4096, "").name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 4096, "", false).name, "sm80_16bit");
  for (int cc : {80, 86, 89, 100})
    EXPECT_STREQ(select16(cc, 4096, "").name, "sm80_16bit");
  for (bool tma_ok : {true, false}) {
    EXPECT_STREQ(select16(90, 4096, "simt_16bit", tma_ok).name, "simt_16bit");
    EXPECT_STREQ(select16(90, 4096, "sm80_16bit", tma_ok).name, "sm80_16bit");
  }
  EXPECT_THROW(select16(80, 4096, "sm90_16bit"), InvalidArgument);
  EXPECT_THROW(select16(90, 4096, "sm90_16bit", false), InvalidArgument);
}

// Small n: sm80_16bit_small wherever the 128-tile kernels' units do not fill a wave (one
// problem on sm_90 whatever its waves), up to n = 640 on sm_90 where TMA can address the operands
// (sm90_16bit's cluster split from 641, session 17), 832 where it cannot, and 512 elsewhere
// (sessions 14-15).
TEST(Dispatch16, SmallNTakesTheSmallKernel) {
  for (int64_t n : {1, 8, 32, 33, 64, 128, 255, 256, 449, 512, 513, 600, 640, 641, 672, 704,
                    736, 768, 832}) {
    const char* want = n <= 640 ? "sm80_16bit_small" : "sm90_16bit";
    EXPECT_STREQ(select16(90, n, "").name, want) << n;
    EXPECT_STREQ(select16(90, n, "", true, 132, 1).name, want) << n;
    EXPECT_STREQ(select16(90, n, "", false, 132, 1).name, "sm80_16bit_small") << n;
    for (int cc : {80, 86, 89, 100})
      EXPECT_STREQ(select16(cc, n, "").name, n <= 512 ? "sm80_16bit_small" : "sm80_16bit")
          << n << ", sm_" << cc;
  }
  // Elsewhere one problem also needs its blocks in one wave of two a SM: 512 is 136 blocks.
  EXPECT_STREQ(select16(80, 512, "", true, 108, 1).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(86, 512, "", true, 46, 1).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 832, "", false).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 833, "", false).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 833, "").name, "sm90_16bit");
  // Batches (the rule; not measured): while the small kernel's blocks fit a wave of two a SM.
  // 256 is 36 of them: 7 problems 252 (of 264), 8 do not fit; 512 is 136: 2 problems do not.
  EXPECT_STREQ(select16(90, 256, "", true, 132, 7).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 256, "", true, 132, 8).name, "sm80_16bit");  // the cluster split
  EXPECT_STREQ(select16(90, 512, "", true, 132, 2).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 32, "", true, 132, 264).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 512, "", true).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 512, "", true, 0, 2).name, "sm90_16bit");  // SM count unknown
  EXPECT_STREQ(select16(90, 512, "", true, 132, 0).name, "sm90_16bit");  // no problem: no rule
  EXPECT_STREQ(select16(90, 64, "", true, 132, int64_t(1) << 40).name, "sm90_16bit");
  // The blocks a SM holds, where the launch's occupancy says fewer than two (sm_86/89 hold one
  // turn of 512 k): 512's 136 blocks do not fit 128 SMs. More than two count as two (the rule's
  // measured wave): 8 problems of 256 still do not fit.
  EXPECT_STREQ(select16(89, 512, "", true, 128, 1).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(89, 512, "", true, 128, 1, 1).name, "sm80_16bit");
  EXPECT_STRNE(select16(90, 256, "", true, 132, 7, 1).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 256, "", true, 132, 7, 2).name, "sm80_16bit_small");
  EXPECT_STRNE(select16(90, 256, "", true, 132, 8, 3).name, "sm80_16bit_small");
  // Past the small rule, tiny n: sm80_16bit at the launch floor (session 11). Below sm_80 no
  // 16-bit kernel runs, and the error says so rather than naming the small kernel.
  try {
    select16(75, 64, "");
    ADD_FAILURE() << "a 16-bit kernel chosen for sm_75";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("no trimm kernel"), std::string::npos) << e.what();
  }
  for (int64_t n : {1, 8, 16, 32})
    EXPECT_STREQ(select16(90, n, "", true, 132, 300).name, "sm80_16bit") << n;
  EXPECT_STREQ(select16(90, 33, "", true, 132, 300).name, "sm90_16bit");
  // Forced: the named kernel, at any n.
  EXPECT_STREQ(select16(90, 8, "sm90_16bit").name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 4096, "sm80_16bit_small").name, "sm80_16bit_small");
}

// Structure::Detect on small work, dispatch's choice, on sm_90: one dense launch alone.
// sm90_16bit's where TMA can address the operands and n > kDenseDetect16SmallN or dispatch chose
// sm90_16bit (one problem to kDenseDetect16Sm90MaxN, work to kDenseDetect16Sm90N³); otherwise,
// for work to kDenseDetect16N³, the small kernel's within one turn of its band, sm80_16bit's
// beyond. Forced kernels keep their own Detect path, and so do other GPUs (their tensor cores'
// NaN and Inf not checked against the dense product's).
TEST(Dispatch16, DetectOnSmallWorkIsOneDenseLaunch) {
  constexpr int64_t small = kDenseDetect16SmallN, top = kDenseDetect16Sm90MaxN;
  constexpr int64_t m90 = kDenseDetect16Sm90N, m = kDenseDetect16N;
  static_assert(small < top && top <= m90 && m <= m90, "the rules' limits nest");
  // The dense kernel for one problem as dispatch chooses it (null: the flags path).
  auto dense = [](int64_t n, bool tma_ok, int64_t batch = 1) -> std::string {
    const KernelEntry16* e =
        dense_detect16(90, n, batch, "", select16(90, n, "", tma_ok, 132, batch).name, tma_ok);
    return e == nullptr ? "" : e->name;
  };
  for (int64_t n : {int64_t(1), int64_t(64), small})
    EXPECT_EQ(dense(n, true), "sm80_16bit_small") << n;
  for (int64_t n : {small + 1, int64_t(640), int64_t(700), int64_t(1000), int64_t(1500), top})
    EXPECT_EQ(dense(n, true), "sm90_16bit") << n;
  EXPECT_EQ(dense(top + 1, true), "");
  EXPECT_EQ(dense(4096, true), "");
  // Rows TMA cannot address: sm80_16bit's dense launch, which lost from 1024, only to m.
  for (int64_t n : {int64_t(1), int64_t(640)}) EXPECT_EQ(dense(n, false), "sm80_16bit_small") << n;
  for (int64_t n : {int64_t(641), int64_t(700), m}) EXPECT_EQ(dense(n, false), "sm80_16bit") << n;
  EXPECT_EQ(dense(m + 1, false), "");
  EXPECT_EQ(dense(1500, false), "");
  // Batches: the work rule of the kernel that runs.
  EXPECT_EQ(dense(m90 / 2, true, 8), "sm90_16bit");  // 8 · (m90/2)³ = m90³
  EXPECT_EQ(dense(m90 / 2, true, 9), "");
  EXPECT_EQ(dense(m / 2, false, 8), "sm80_16bit");
  EXPECT_EQ(dense(m / 2, false, 9), "");
  // A dense kernel's own name as `chosen` gives the same answer (the GPU tests rely on it).
  for (const char* k : {"sm80_16bit_small", "sm80_16bit", "sm90_16bit"})
    for (int64_t n : {int64_t(64), int64_t(700), int64_t(1500)})
      for (const bool tma_ok : {true, false}) {
        const KernelEntry16* e = dense_detect16(90, n, 1, "", k, tma_ok);
        if (e != nullptr) {
          const KernelEntry16* again = dense_detect16(90, n, 1, "", e->name, tma_ok);
          ASSERT_NE(again, nullptr) << k << " " << n;
          EXPECT_STREQ(again->name, e->name) << k << " " << n;
        }
      }
  // No overflow in the work test; never forced, never off sm_90, nothing to do is no launch.
  EXPECT_EQ(dense_detect16(90, top, INT64_MAX, "", "sm90_16bit", true), nullptr);
  EXPECT_EQ(dense_detect16(90, 1, INT64_MAX, "", "sm80_16bit_small", false), nullptr);
  for (const char* k : {"sm80_16bit", "sm80_16bit_small", "sm90_16bit", "simt_16bit"})
    EXPECT_EQ(dense_detect16(90, 64, 1, k, "sm80_16bit_small", true), nullptr) << k;
  for (int cc : {80, 86, 89, 100})
    EXPECT_EQ(dense_detect16(cc, 64, 1, "", "sm80_16bit_small", true), nullptr) << cc;
  EXPECT_EQ(dense_detect16(90, 0, 1, "", "sm80_16bit_small", true), nullptr);
  EXPECT_EQ(dense_detect16(90, 64, 0, "", "sm80_16bit_small", true), nullptr);
}

// The flags path's general launch after the structured one: the kernel's own dense launch where it
// takes one gated (sm90_16bit, sm80_16bit), else sm80_16bit's. The small kernel's dense mode is
// ungated only (it scans beside its product instead), and simt_16bit has none.
TEST(Dispatch16, GatedDenseLaunchesAreTheTensorCoreKernels) {
  for (const KernelEntry16* e = table16_begin(); e != table16_end(); ++e) {
    const std::string name = e->name;
    EXPECT_EQ(e->gated_dense, name == "sm90_16bit" || name == "sm80_16bit") << name;
  }
}

// Data on sm_90 where sm80_16bit's cluster split takes one wave of at least 4 ranks (n = 225…896
// on 132 SMs, one problem) and the small kernel does not (833…896): sm80_16bit where TMA cannot
// address the operands, sm90_16bit (its own split) where it can (sessions 13, 16); elsewhere
// sm90_16bit.
TEST(Dispatch16, ClusterSplitTakesTheBandWhereItFitsOneWave) {
  for (int64_t n : {833, 864, 896}) {
    EXPECT_STREQ(select16(90, n, "", false, 132, 1).name, "sm80_16bit") << n;
    EXPECT_STREQ(select16(90, n, "", true, 132, 1).name, "sm90_16bit") << n;
  }
  // 897: 36 units (2 ranks in one wave).
  for (int64_t n : {897, 1024, 4096})
    EXPECT_STREQ(select16(90, n, "", true, 132, 1).name, "sm90_16bit") << n;
  // Other SM counts: sm90_16bit's own split decides for one problem TMA can address. 114 SMs:
  // 896's 28 units split (2 ranks), sm80_16bit's rule (112 blocks of 4 ranks) still holds for
  // other operands. 16 SMs: 768's 21 units do not split, so the small kernel keeps it; 40 SMs:
  // 896 splits neither way.
  EXPECT_STREQ(select16(90, 896, "", true, 114, 1).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 896, "", false, 114, 1).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 768, "", true, 16, 1).name, "sm80_16bit_small");
  EXPECT_STREQ(select16(90, 768, "", true, 132, 1).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 896, "", true, 40, 1).name, "sm90_16bit");
  // Batches: 512 in 2 problems is 20 units (past the small kernel's wave; 80 blocks of 4 ranks),
  // in 14 140 (2 ranks), 640 in 2 is 30 units (120 blocks of 4 ranks), 768 in 2 is 42 (168).
  EXPECT_STREQ(select16(90, 512, "", true, 132, 2).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 512, "", true, 132, 14).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 640, "", true, 132, 2).name, "sm80_16bit");
  EXPECT_STREQ(select16(90, 768, "", true, 132, 2).name, "sm90_16bit");
  // Unknown SM count: no rule. Forced: the named kernel. A huge batch: no overflow.
  EXPECT_STREQ(select16(90, 896, "", true).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 768, "sm90_16bit", true, 132, 1).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 640, "", true, 132, int64_t(1) << 40).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, int64_t(1) << 30, "", true, 132, 1).name, "sm90_16bit");
  EXPECT_STREQ(select16(90, 640, "", true, 132, 0).name, "sm90_16bit");  // no problem: no rule
}

// (Other precisions are refused before dispatch, by detail::validate_16bit_options: the API's
// tests, CPU and GPU.)
TEST(Dispatch16, RefusesFloatKernelsNamingTheChoices) {
  try {
    select16(90, 4096, "sm90_tf32x3");
    ADD_FAILURE() << "a float kernel accepted for 16-bit data";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("sm90_16bit"), std::string::npos) << e.what();
  }
}

TEST(Dispatch16, EveryEntryHasANameAndBothLaunchers) {
  for (const KernelEntry16* e = table16_begin(); e != table16_end(); ++e) {
    EXPECT_NE(e->name, nullptr);
    EXPECT_NE(e->launch_f16, nullptr) << e->name;
    EXPECT_NE(e->launch_bf16, nullptr) << e->name;
    for (const KernelEntry* f = table_begin(); f != table_end(); ++f)
      EXPECT_STRNE(e->name, f->name) << "one name, one kernel";
  }
}

}  // namespace
}  // namespace trimm::dispatch
