// Dispatch is a table: (arch, precision, size) -> kernel. Pure host code, tested without a GPU;
// the CLI can force any entry by name.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/launch.hpp"
#include "trimm/types.hpp"

namespace trimm::dispatch {

using LaunchFn = void (*)(const kernels::Problem&, const kernels::DeviceInfo&, Stream);

struct KernelEntry {
  const char* name;
  Precision precision;  // the arithmetic it implements (never Auto)
  int min_cc, max_cc;   // compute capabilities it runs on, 10·major + minor, inclusive
  int64_t min_n;        // smallest n it is chosen for automatically
  int64_t max_n;        // largest n it is chosen for automatically (see own_max_n)
  bool automatic;       // false: runs only when forced by name (e.g. the naive yardstick)
  bool needs_tma;       // loads through TMA: only for operands kernels::tma_compatible accepts
  // Launched with Path::Exact it computes the dense product's triangle over every k in plain
  // fp32, which is Structure::Detect's semantics on any input without flags: Structure::Detect
  // takes that path alone up to this n (0: the kernel has none; past it see `scans`).
  int64_t exact_max_n;
  // Structure::Detect's flagged path: the structured launch reads the other triangles and flags
  // NaN/Inf while it multiplies, and the kernel has a general (Path::Dense) launch.
  bool flags;
  LaunchFn launch;
  const char* what;     // one line for --help and the bench
  // The device memory it needs in options.workspace for `batch` problems of order n (nullptr:
  // none). Dispatch takes such an entry only for one problem whose call brings that much
  // (select's `workspace`): its own choices need none (trtrmm_workspace_bytes relies on it).
  size_t (*workspace)(int64_t n, int64_t batch);
  // Structure::Detect: its structured launch zeroes the flag word (p.gate) itself, in the memset
  // that clears the start of its own workspace, so the host API issues none (one memset a call,
  // not two: each cost ~4-6 µs of GPU idle before the first kernel, session 31).
  bool zeroes_gate = false;
  // Structure::Detect past exact_max_n (and at any n where forced): its structured launch reads
  // all of A and B beside its product and flags them (in a word tagged with the call's epoch,
  // no memset), then its Path::AnyFlag launch recomputes where anything was flagged.
  bool scans = false;
  // For a call of its own precision, chosen up to this n instead of max_n where larger (the
  // small kernel: plain fp32 serves every precision, but Ieee's next kernel is slower than
  // Fp32's).
  int64_t own_max_n = 0;
};

// All entries, in order of preference: dispatch takes the first that fits.
const KernelEntry* table_begin();
const KernelEntry* table_end();

// The kernel for this call. `forced` non-empty: that entry, which must exist, run on `cc`,
// implement `precision` (Auto accepts any) and accept the operands (`tma_ok`: see needs_tma).
// Otherwise the first automatic entry that fits; one that needs a workspace only where `batch`
// is 1 and the call's usable workspace (`workspace` bytes, 256-byte aligned) holds it.
// Throws InvalidArgument naming `kernel`/`precision`.
const KernelEntry& select(int cc, Precision precision, int64_t n, const std::string& forced,
                          bool tma_ok = true, size_t workspace = 0, int64_t batch = 1);

// What a call runs: dispatch's choice (select); under Structure::Detect, the small kernel's
// exact path alone (every k in plain fp32) up to its exact_max_n, its scan path past it or when
// forced by name; a chosen kernel with flags itself (sm90_tf32x3, sm90_tf32; sm90_fp16x3 where
// `workspace`, the bytes after Detect's flag word, holds its planes); for a chosen kernel with
// none of these, the first automatic kernel with flags, no workspace, that runs here and
// implements the precision (sm90_tf32x3 for Auto and Fp32, sm90_tf32 for Tf32, none for Ieee),
// else the exact path where the chosen kernel has one. A Detect choice with none of them (a
// kernel without flags, exact and scan false) is refused by check_detect_runs.
struct Choice {
  const KernelEntry* kernel;
  bool exact;  // Path::Exact alone, no flags
  bool scan;   // the structured launch that scans, then Path::AnyFlag (KernelEntry::scans)
};
Choice choose(int cc, Precision precision, int64_t n, const std::string& forced, bool tma_ok,
              Structure structure, size_t workspace = 0, int64_t batch = 1);
// Throws InvalidArgument (`api`: structure = detect runs up to ...; here dispatch chose '...')
// for a Detect choice with no path: a kernel without flags, exact and scan false. trtrmm refuses
// such a call with it and selected_kernel answers with it, so the two never disagree.
void check_detect_runs(const char* api, const Choice& c);
// Whether the entry named `name` has a Structure::Detect path (flags or exact), and the names of
// those that do, for the error that refuses the others.
bool has_detect_path(const std::string& name);
// Throws InvalidArgument (`api`: kernel = '...' with structure = detect, expected '' or one of
// ...) where `forced` names a kernel without a Detect path; trtrmm and selected_kernel alike.
void check_detect_kernel_name(const char* api, const std::string& forced);
// The entry named `name`, or nullptr.
const KernelEntry* find(const std::string& name);
std::string detect_kernel_names();
// Throws InvalidArgument (`api`: kernel = '...', expected one of ...) where `forced` is neither
// empty nor a name of the float table (b16 = false) or the 16-bit one: an argument error that
// needs no device, so the calls check it before they query one.
void check_kernel_name(const char* api, const std::string& forced, bool b16);

// 16-bit data (half_t, bfloat16_t): a table of its own, with the same rules (first entry that
// fits; any entry forced by name). Every entry accumulates in fp32: precision Auto or Fp32.
using Launch16Fn = void (*)(const kernels::Problem16<half_t>&, const kernels::DeviceInfo&, Stream);
using LaunchB16Fn = void (*)(const kernels::Problem16<bfloat16_t>&, const kernels::DeviceInfo&,
                             Stream);

struct KernelEntry16 {
  const char* name;
  int min_cc, max_cc;  // compute capabilities it runs on, inclusive
  bool automatic;      // false: runs only when forced by name
  bool needs_tma;      // only for operands kernels::tma_compatible_16bit accepts
  int64_t min_n;       // smallest n it is chosen for automatically
  Launch16Fn launch_f16;
  LaunchB16Fn launch_bf16;
  const char* what;
  // Structure::Detect: its structured launch reads all of A and B beside its product and flags
  // them (p.epoch nonzero), so no scan launch runs first, and one launch follows (simt_16bit,
  // Path::AnyFlag) instead of two.
  bool scans = false;
  // Structure::Detect: its structured launch flags its outputs that are not finite
  // (kNonFiniteOut), so the scan before it reads only A's and B's other triangles.
  bool flags_outputs = false;
  // Structure::Detect: its launch also takes Path::Dense gated on the flags (every k, its own
  // non-finite outputs flagged kNonFiniteDense), the general launch after its structured one;
  // after a kernel without it, sm80_16bit's.
  bool gated_dense = false;
};

const KernelEntry16* table16_begin();
const KernelEntry16* table16_end();

// The 16-bit kernel for this call; `forced` as in select. Throws InvalidArgument naming
// `kernel`. The options' precision and structure are the caller's to validate
// (detail::validate_16bit_options): every 16-bit entry implements the one precision allowed.
// sms (0: unknown), batch and small_blocks_per_sm (how many of sm80_16bit_small's blocks a SM
// holds for this problem; 0: unknown, taken as the two measured on the H200): for the size rule
// that depends on how many blocks fit a wave, which applies up to n = kSmall16WaveN only (past
// it small_blocks_per_sm is never read: callers need not ask the occupancy).
inline constexpr int64_t kSmall16WaveN = 512;
const KernelEntry16& select16(int cc, int64_t n, const std::string& forced, bool tma_ok = true,
                              int sms = 0, int64_t batch = 1, int small_blocks_per_sm = 0);

// 16-bit Structure::Detect, dispatch's choice on sm_90: the kernel whose one dense launch (every
// k of the operands as they are, Path::Dense ungated) answers the call instead of the structured
// kernel with its flags, scan and gated launches, or nullptr. `chosen`: select16's kernel for the
// call (a dense kernel's own name gives the same answer); tma_ok: TMA can address the operands.
// - sm90_16bit's, where TMA can address the operands and n > kDenseDetect16SmallN or dispatch
//   chose sm90_16bit: for one problem to n = kDenseDetect16Sm90MaxN and work (batch · n³) to
//   kDenseDetect16Sm90N³ (bf16 on the H200, session 48: 1.08–2.05× GemmEx + triu at 640–1920,
//   1920 0.0192–0.0199 ms against the flags path's 0.0288–0.0291; 8 problems of 1024 0.034
//   against 0.051; 512 0.0098 against the small kernel's 0.0095). 2048 is its last size: its 136
//   units pass one wave of 132 SMs, so triangular inputs lose (session 51: 0.0315–0.0316 ms
//   against the flags path's 0.0291) but noisy ones gain more (0.0317–0.0318 against 0.0450,
//   which was 0.88× GemmEx + triu; now 1.25×); at 2304–2560 the flags path is ≥ 1.11× on noise
//   and wins on triangles.
// - Else, for work to kDenseDetect16N³: the small kernel's where dispatch chose it and one turn
//   of its band holds all of k (n ≤ 640; its second turn is not hidden: 768 0.0198 ms), else
//   sm80_16bit's (session 47: it lost to the flags path from 1024, 0.0228 against 0.0203).
// On sm_90 only, where the tensor cores' handling of NaN and Inf was checked against the dense
// product's (GpuDetect16's non-finite inputs; session 21's scratch cases); never for a forced
// kernel.
inline constexpr int64_t kDenseDetect16N = 896, kDenseDetect16SmallN = 512;
inline constexpr int64_t kDenseDetect16Sm90N = 2048, kDenseDetect16Sm90MaxN = 2048;
const KernelEntry16* dense_detect16(int cc, int64_t n, int64_t batch, const std::string& forced,
                                    const std::string& chosen, bool tma_ok);

}  // namespace trimm::dispatch
