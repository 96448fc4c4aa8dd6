#include "cuda/dispatch.hpp"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include "config/tile_config.hpp"
#include "sched/small_tiles.hpp"

namespace trimm::dispatch {
namespace {

constexpr int kAnyCc = 1000;

// Small n first: below kSmallN the 128-tile kernels leave the GPU idle. Measured on the H200
// (bench/RESULTS.md, session 44, forced, one run): simt_small_fp32 0.0323 ms at n = 1088,
// 0.0369 at 1152, 0.0411 at 1216, 0.0476 at 1280, 0.0594 at 1408 against sm90_tf32x3's 0.0414,
// 0.0446, 0.0456, 0.0481, 0.0503. For precision Ieee, against simt_fp32: 0.0477 against 0.0878
// at 1280, 0.0747 against 0.1008 at 1536, 0.1123 against 0.1136 at 1792, 0.161 against 0.130
// at 2048 (kSmallIeeeN). Structure::Detect sums every k in the small kernel alone (three times
// the triangle's work, one launch) up to kSmallExactN; past it the band, its blocks reading A and
// B beside it, then the every-k launch gated off (session 44, forced, two rounds: 0.0151 ms at
// 448, 0.0148 at 512, 0.0174 at 576; every k alone 0.0118 at 448, 0.0185 at 512; sm90_tf32x3's
// Detect had taken 0.053-0.056 ms at any n to 1024, where the reference takes 0.019-0.069).
constexpr int64_t kSmallN = 1216, kSmallIeeeN = 1792, kSmallExactN = 448, kAnyN = INT64_MAX;

// The kernels that need a workspace (a prepass into it) are taken only for one problem whose call
// brings it (select), from the sizes where they were measured to win on the H200 (sessions
// 24-25, forced, one problem): sm90_fp16x3 0.105 ms at 3072 against sm90_tf32x3's 0.132, 0.190
// against 0.209 at 4096, 1.10 against 1.46 at 8192 (2048: 0.067 against 0.065, a loss);
// sm90_fp16x1 0.124 against sm90_tf32's 0.171 at 4096, 0.58 against 1.19 at 8192 (below 4096
// not compared). Batches: not measured.
constexpr int64_t kFp16x3MinN = 3072, kFp16x1MinN = 4096;

const KernelEntry kTable[] = {
    {"simt_small_fp32", Precision::Ieee, 80, kAnyCc, 0, kSmallN, true, false, kSmallExactN, false,
     kernels::launch_simt_small_fp32,
     "fp32 FFMA, one block per 32x32 tile, no fix-up pass: the small-n kernel for every precision",
     nullptr, /*zeroes_gate=*/false, /*scans=*/true, /*own_max_n=*/kSmallIeeeN},
    // Precision tf32 as one scaled fp16 plane an operand (a prepass into options.workspace), one
    // product a k16: error like TF32's (an 11-bit significand either way).
    {"sm90_fp16x1", Precision::Tf32, 90, 90, kFp16x1MinN, kAnyN, true, true, 0, false,
     kernels::launch_sm90_fp16x1,
     "tf32-class: one scaled fp16 plane an operand, 1 product on wgmma m64n128k16 (a prepass "
     "into options.workspace), 128x128 tiles",
     kernels::fp16x1_workspace_bytes},
    // Structure::Detect: flags as sm90_tf32x3's, its dense mode (one product a k8) the general
    // launch; also sm90_fp16x1's under Detect (which has no flags).
    {"sm90_tf32", Precision::Tf32, 90, 90, 0, kAnyN, true, true, 0, true,
     kernels::launch_sm90_tf32,
     "1xTF32 on wgmma m64n128k8 (the sm90_tf32x3 skeleton, one product per k8), 128x128 tiles",
     nullptr},
    // Structure::Detect: flags as sm90_tf32x3's, whose dense mode is its general launch; taken
    // where the call brings the workspace, as under Triangular (session 30: its Detect, the
    // scan in the prepass, 0.2061-0.2068 ms against sm90_tf32x3's 0.2260-0.2295 at 4096).
    {"sm90_fp16x3", Precision::Fp32, 90, 90, kFp16x3MinN, kAnyN, true, true, 0, true,
     kernels::launch_sm90_fp16x3,
     "fp32 as two scaled fp16 planes an operand, 3 products on wgmma m64n128k16 (a prepass into "
     "options.workspace), 128x128 tiles",
     kernels::fp16x3_workspace_bytes, /*zeroes_gate=*/true},
    {"sm90_tf32x3", Precision::Fp32, 90, 90, 0, kAnyN, true, true, 0, true,
     kernels::launch_sm90_tf32x3,
     "3xTF32 on wgmma m64n128k8, TMA ring + 2 consumer warpgroups (which also split X), 128x128 tiles",
     nullptr},
    {"sm80_tf32x3", Precision::Fp32, 80, kAnyCc, 0, kAnyN, true, false, 0, false,
     kernels::launch_sm80_tf32x3,
     "3xTF32 on mma.sync m16n8k8, 128x128 tiles, sums promoted to FADD every 16 k", nullptr},
    {"simt_fp32", Precision::Ieee, 80, kAnyCc, 0, kAnyN, true, false, 0, false,
     kernels::launch_simt_fp32,
     "fp32 FFMA, 128x128 tiles, 1 block/SM of two k groups, balanced triangle schedule",
     nullptr},
    {"naive_fp32", Precision::Ieee, 80, kAnyCc, 0, kAnyN, false, false, kAnyN, false,
     kernels::launch_naive_fp32,
     "one thread per element, plain fp32 loop over the band (the yardstick)", nullptr},
};

// 16-bit data: wgmma where TMA can address the operands, mma.sync elsewhere (any alignment, any
// GPU from sm_80). Where the small-n rule below does not apply (batches that fill a wave, or
// several problems with the SM count unknown), n <= kTiny16N takes sm80_16bit: there both
// 128-tile kernels run at the launch floor and sm80_16bit's is lower, 6.0-6.4 µs against 6.6-6.9
// at n = 8-24, a tie at 32, 0.5-1 µs behind from 40 (H200, session 11, three runs each). The
// CUDA-core kernel runs only when forced: the plain yardstick.
constexpr int64_t kTiny16N = 32;

// Small n: sm80_16bit_small (a block per 32×32 tile, its whole band loaded at once). H200, one
// problem, bf16 and fp16: 1.00-2.01× GemmEx + triu at n = 2-511 and 0.96-1.04× at 512 (session
// 14, three rounds), where sm80_16bit and sm90_16bit ran at 0.72-1.47×; with turns of 640 k and
// the aligned rows' own load loop (session 15, two rounds each), 512 8.7-8.9 µs against 9.2-9.4,
// 576 9.4-9.6 against GemmEx + triu's 9.6-10.3, 640 9.7-10.0 against 10.4-10.5. Past 640, forced
// against dispatch's choice then: 704 11.0-11.3 against sm80_16bit's 13.0-13.2, 768 11.8-12.0
// against 12.3-12.5, 832 13.5-13.7 against 13.9-14.3 (its blocks in two waves of two a SM from
// 768), but 896 14.6-14.7 against 13.1-13.2 and 960-1024 15.7-17.6 against sm90_16bit's 15.1-15.6:
// one problem on sm_90 took it up to 832. Since sm90_16bit shares its units' bands over clusters
// (session 16, forced, two rounds), it beats the small kernel from 768 where TMA can address the
// operands: 704 11.5 against 11.1, 768 11.2 against 11.9, 832 12.1-12.4 against 13.5; and with
// its cheaper structural zeros and split epilogue (session 17, forced, two rounds) from 704:
// 640 9.8 against 9.8, 704 10.4-10.5 against 11.2, 736 10.5 against 11.5; and past 640 the
// small kernel's band takes a second turn of 640 k (672: 10.9 µs, 0.95× GemmEx + triu), where
// sm90_16bit ran 656-688 at 10.0-10.5 µs (1.01-1.06×, anchored, two rounds). One such problem
// takes the small kernel up to 640, others up to 832. Batches, and other GPUs (not
// measured; their shared memory holds fewer turns of 640 k a SM) up to 512 only, take it while
// its blocks fit one wave of two a SM (what unaligned rows' registers allow; aligned ones fit
// three up to n = 480 on sm_90), or of fewer where a SM holds fewer (the launch's occupancy:
// sm_86/89's 100 KB of shared memory hold one turn of 512 k, not two): n = 64-256 in 4 or 16
// problems 1.19-1.34× GemmStridedBatchedEx + triu where taken, and the 128-tile kernels faster
// where not.
constexpr int64_t kSmall16N = 832, kSmall16TmaN = 640, kSmall16BlocksPerSm = 2;

// The ranks a kernel's k split over clusters takes for `batch` problems of order n (its tile and
// k step; the launchers' sched::split_ranks under `policy` on one block a SM, every cluster taken
// to fit); 1 where the tiles outnumber the SMs (sms > 0).
int split_ranks_at(int64_t n, int64_t batch, int sms, int64_t tile, int64_t step,
                   sched::SplitPolicy policy, int max_ranks) {
  const int64_t tiles = (n + tile - 1) / tile;
  if (tiles > sms) return 1;  // (and no overflow below)
  return sched::split_ranks(tiles * (tiles + 1) / 2 * batch, sms, (n + step - 1) / step, policy,
                            max_ranks, [](int) { return true; });
}

// Whether sm90_16bit shares one problem's units over clusters, which the measurements above had:
// on 132 SMs, 2-4 ranks wherever it is taken (n = 641-1400). With an unknown SM count, assumed.
bool sm90_16bit_splits(int64_t n, int sms) {
  return sms <= 0 || split_ranks_at(n, 1, sms, config::kSm90Bf16.tile, config::kSm90Bf16.bk,
                                    config::kSm90Bf16Split, config::kSm90Bf16SplitRanks) > 1;
}

bool small16_wins(int cc, int64_t n, int sms, int64_t batch, bool tma_ok,
                  int small_blocks_per_sm) {
  constexpr int64_t kTile = config::kSm80_16bitSmall.tile;
  if (cc < 80 || batch <= 0) return false;
  if (cc == 90 && batch == 1 &&
      (n <= kSmall16TmaN || (n <= kSmall16N && !(tma_ok && sm90_16bit_splits(n, sms)))))
    return true;
  if (n > kSmall16WaveN) return false;
  const int64_t blocks = sched::small_tiles((n + kTile - 1) / kTile);
  const int64_t per_sm = small_blocks_per_sm > 0
                             ? std::min<int64_t>(small_blocks_per_sm, kSmall16BlocksPerSm)
                             : kSmall16BlocksPerSm;
  const int64_t slots = per_sm * sms;
  return sms <= 0 ? batch == 1 : batch <= slots && blocks * batch <= slots;
}

// Aligned 16-bit data on sm_90 where sm80_16bit's k split over clusters takes one wave of at
// least 4 ranks (config::kSm80_16bitSplitAligned; the slots taken as one block per SM): n =
// 225-896 on 132 SMs. At 256-896 it beat or tied sm90_16bit, 704 aside (13.0 against
// 12.5-12.7 µs; 225-255 not compared), and at 128 (2 ranks) and 1024 (2 in one wave) it lost
// (session 13, both forced in one call), before sm90_16bit had a split of its own (session 16:
// batches not compared since). The slots are taken as one block per SM, as the
// launcher finds them at sm80_16bit's registers. Checked after small16_wins, and not for one
// problem TMA can address (sm90_16bit's own split beats it: 896 11.7-11.8 against 13.2, session
// 16): one other problem reaches it past n = 832 (833-896 on 132 SMs), batches from smaller n.
bool cluster_split_wins(int cc, int64_t n, int sms, int64_t batch, bool tma_ok) {
  constexpr sched::SplitPolicy kPolicy = config::kSm80_16bitSplitAligned;
  if (cc != 90 || sms <= 0 || batch <= 0 || batch > sms) return false;
  if (tma_ok && batch == 1 && sm90_16bit_splits(n, sms)) return false;
  return split_ranks_at(n, batch, sms, config::kSm80_16bit.bm, config::kSm80_16bit.bk,
                        {kPolicy.min_share, 1}, sched::kMaxClusterRanks) >=
         kPolicy.one_wave_ranks;
}

const KernelEntry16 kTable16[] = {
    {"sm90_16bit", 90, 90, true, true, kTiny16N + 1, kernels::launch_sm90_16bit,
     kernels::launch_sm90_16bit,
     "bf16/fp16 data on wgmma m64n128k16 (both operands from shared memory), fp32 sums, TMA ring "
     "+ 2 consumer warpgroups, 128x128 tiles",
     /*scans=*/false, /*flags_outputs=*/true, /*gated_dense=*/true},
    {"sm80_16bit", 80, kAnyCc, true, false, 0, kernels::launch_sm80_16bit,
     kernels::launch_sm80_16bit,
     "bf16/fp16 data on mma.sync m16n8k16, fp32 sums, any alignment: 128x128 tiles, a cp.async "
     "ring for 16-byte rows and n <= 1024, register-staged otherwise",
     /*scans=*/false, /*flags_outputs=*/false, /*gated_dense=*/true},
    // Chosen by the small-n rule (small16_wins) before the walk, which sm80_16bit ends first.
    {"sm80_16bit_small", 80, kAnyCc, true, false, 0, kernels::launch_sm80_16bit_small,
     kernels::launch_sm80_16bit_small,
     "bf16/fp16 data on mma.sync m16n8k16, fp32 sums, any alignment: one block per 32x32 tile, "
     "its whole band (up to 640 k) loaded at once",
     /*scans=*/true},
    {"simt_16bit", 80, kAnyCc, false, false, 0, kernels::launch_simt_16bit,
     kernels::launch_simt_16bit, "bf16/fp16 data, fp32 FFMA on 64x64 tiles (the plain yardstick)"},
};

template <class Entry>
bool runs_on(const Entry& e, int cc) { return cc >= e.min_cc && cc <= e.max_cc; }

// The largest n dispatch takes e at for a call of `precision`.
int64_t max_n_for(const KernelEntry& e, Precision precision) {
  return precision == e.precision && e.own_max_n > e.max_n ? e.own_max_n : e.max_n;
}

// A forced kernel implements Auto whatever its arithmetic; dispatch's own choice for Auto is
// fp32-accurate, never Tf32, and for Tf32 falls back to an fp32-accurate kernel (slower, never
// less exact) where no Tf32 kernel runs.
// Plain fp32 (Ieee) is at least as exact as any other precision, so dispatch may choose an Ieee
// kernel for any request (the small-n kernel); forced, a kernel implements only its own.
bool implements(const KernelEntry& e, Precision p, bool forced) {
  if (p == Precision::Auto) return forced || e.precision != Precision::Tf32;
  if (!forced && e.precision == Precision::Ieee) return true;
  if (p == Precision::Tf32 && !forced) return e.precision == p || e.precision == Precision::Fp32;
  return e.precision == p;
}

template <class Table>
std::string names(const Table& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

// The entry of `table` named `name`, or nullptr.
template <class Entry, size_t N>
const Entry* named(const Entry (&table)[N], const std::string& name) {
  for (const Entry& e : table)
    if (name == e.name) return &e;
  return nullptr;
}

// What is wrong with a kernel name that is not in `table` (`data`: the table's data).
template <class Table>
std::string unknown_kernel(const Table& table, const std::string& forced, const char* data) {
  return "kernel = '" + forced + "'" + data + ", expected one of: " + names(table);
}

// The entry of `table` named `forced`, if it runs on sm_cc and can address these operands
// (tma_ok); `multiple`: what TMA needs of leading dimensions and batch strides, in elements;
// `data`: the table's data, for the error that names the choices.
template <class Entry, size_t N>
const Entry& forced_entry(const Entry (&table)[N], const std::string& forced, int cc, bool tma_ok,
                          int multiple, const char* data) {
  if (const Entry* found = named(table, forced)) {
    const Entry& e = *found;
    if (!runs_on(e, cc))
      throw InvalidArgument("kernel = '" + forced + "' does not run on sm_" + std::to_string(cc));
    if (e.needs_tma && !tma_ok)
      throw InvalidArgument("kernel = '" + forced +
                            "' loads through TMA: it needs 16-byte aligned A, B and C, leading "
                            "dimensions and batch strides that are multiples of " +
                            std::to_string(multiple) + ", and batch entries that do not overlap");
    return e;
  }
  throw InvalidArgument(unknown_kernel(table, forced, data));
}

}  // namespace

const KernelEntry* table_begin() { return std::begin(kTable); }
const KernelEntry* table_end() { return std::end(kTable); }

const KernelEntry& select(int cc, Precision precision, int64_t n, const std::string& forced,
                          bool tma_ok, size_t workspace, int64_t batch) {
  if (!forced.empty()) {
    const KernelEntry& e = forced_entry(kTable, forced, cc, tma_ok, 4, "");
    if (!implements(e, precision, true))
      throw InvalidArgument("kernel = '" + forced + "' implements precision " +
                            to_string(e.precision) + ", not the requested " +
                            to_string(precision));
    return e;
  }
  for (const KernelEntry& e : kTable)
    if (e.automatic && runs_on(e, cc) && implements(e, precision, false) && n >= e.min_n &&
        n <= max_n_for(e, precision) && (tma_ok || !e.needs_tma) &&
        (e.workspace == nullptr || (batch == 1 && workspace >= e.workspace(n, batch))))
      return e;
  throw InvalidArgument(std::string("precision = ") + to_string(precision) +
                        ": no trimm kernel implements it on sm_" + std::to_string(cc));
}

const KernelEntry16* table16_begin() { return std::begin(kTable16); }
const KernelEntry16* table16_end() { return std::end(kTable16); }

const KernelEntry16& select16(int cc, int64_t n, const std::string& forced, bool tma_ok, int sms,
                              int64_t batch, int small_blocks_per_sm) {
  if (!forced.empty()) return forced_entry(kTable16, forced, cc, tma_ok, 8, " for 16-bit data");
  if (small16_wins(cc, n, sms, batch, tma_ok, small_blocks_per_sm))
    return forced_entry(kTable16, "sm80_16bit_small", cc, tma_ok, 8, " for 16-bit data");
  if (cluster_split_wins(cc, n, sms, batch, tma_ok))
    return forced_entry(kTable16, "sm80_16bit", cc, tma_ok, 8, " for 16-bit data");
  for (const KernelEntry16& e : kTable16)
    if (e.automatic && runs_on(e, cc) && n >= e.min_n && (tma_ok || !e.needs_tma)) return e;
  throw InvalidArgument("no trimm kernel for 16-bit data runs on sm_" + std::to_string(cc));
}

const KernelEntry16* dense_detect16(int cc, int64_t n, int64_t batch, const std::string& forced,
                                    const std::string& chosen, bool tma_ok) {
  if (!forced.empty() || cc != 90 || n <= 0 || batch <= 0) return nullptr;
  auto within = [&](int64_t m) {  // batch · n³ <= m³, in doubles: no overflow
    return double(n) * double(n) * double(n) * double(batch) <= double(m) * double(m) * double(m);
  };
  if (tma_ok && (chosen == "sm90_16bit" || n > kDenseDetect16SmallN))
    return n <= kDenseDetect16Sm90MaxN && within(kDenseDetect16Sm90N)
               ? &forced_entry(kTable16, "sm90_16bit", cc, true, 8, " for 16-bit data")
               : nullptr;
  if (!within(kDenseDetect16N)) return nullptr;
  const bool small = chosen == "sm80_16bit_small" && n <= config::kSm80_16bitSmall.band;
  return &forced_entry(kTable16, small ? "sm80_16bit_small" : "sm80_16bit", cc, tma_ok, 8,
                       " for 16-bit data");
}

Choice choose(int cc, Precision precision, int64_t n, const std::string& forced, bool tma_ok,
              Structure structure, size_t workspace, int64_t batch) {
  const bool detect = structure == Structure::Detect;
  const KernelEntry& k = select(cc, precision, n, forced, tma_ok, workspace, batch);
  if (!detect || k.flags) return {&k, false, false};
  if (k.scans && (n > k.exact_max_n || !forced.empty())) return {&k, false, true};
  if (n <= k.exact_max_n || (!forced.empty() && k.exact_max_n > 0)) return {&k, true, false};
  // Unforced, the first kernel with flags that implements the precision (sm90_tf32x3 for auto
  // and fp32, sm90_tf32 for tf32; none for ieee): the workspace kernels have no flags.
  if (forced.empty())
    for (const KernelEntry& e : kTable)
      if (e.flags && e.automatic && e.workspace == nullptr && runs_on(e, cc) &&
          implements(e, precision, false) && (tma_ok || !e.needs_tma))
        return {&e, false, false};
  return {&k, k.exact_max_n > 0, false};
}

const KernelEntry* find(const std::string& name) { return named(kTable, name); }

bool has_detect_path(const std::string& name) {
  const KernelEntry* e = find(name);
  return e != nullptr && (e->flags || e->exact_max_n > 0 || e->scans);
}

void check_kernel_name(const char* api, const std::string& forced, bool b16) {
  if (forced.empty() || (b16 ? named(kTable16, forced) != nullptr : named(kTable, forced) != nullptr))
    return;
  throw InvalidArgument(std::string(api) + ": " +
                        (b16 ? unknown_kernel(kTable16, forced, " for 16-bit data")
                             : unknown_kernel(kTable, forced, "")));
}

void check_detect_kernel_name(const char* api, const std::string& forced) {
  if (forced.empty() || has_detect_path(forced)) return;
  throw InvalidArgument(std::string(api) + ": kernel = '" + forced +
                        "' with structure = detect, expected '' or one of " +
                        detect_kernel_names() + " (the kernels with a general-input path so far)");
}

void check_detect_runs(const char* api, const Choice& c) {
  if (c.exact || c.scan || c.kernel->flags) return;
  throw InvalidArgument(std::string(api) +
                        ": structure = detect runs up to n = 1216 (1792 with precision ieee) on "
                        "any GPU, and beyond on sm_90 with precision auto, fp32 or tf32 and "
                        "operands TMA can address (16-byte aligned rows); here dispatch chose '" +
                        c.kernel->name + "'");
}

std::string detect_kernel_names() {
  std::string s;
  for (const KernelEntry& e : kTable)
    if (e.flags || e.exact_max_n > 0 || e.scans)
      s += (s.empty() ? "'" : ", '") + std::string(e.name) + "'";
  return s;
}

}  // namespace trimm::dispatch
