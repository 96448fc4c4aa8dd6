// The GPU entry points: validate, find the device, pick a kernel from the table (fp32; fp64 and
// the backward have one kernel each), launch. Nothing here allocates device memory or
// synchronizes.
#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "common/validate.hpp"
#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "cuda/dispatch.hpp"
#include "kernels/launch.hpp"
#include "trimm/cuda.hpp"

namespace trimm {
namespace {

// Properties of the current device, queried once per device.
const kernels::DeviceInfo& current_device() {
  using kernels::kMaxDevices;
  static std::array<kernels::DeviceInfo, kMaxDevices> info{};
  static std::array<std::once_flag, kMaxDevices> once;
  int dev = 0;
  TRIMM_CUDA_CHECK(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kMaxDevices)
    throw CudaError("trimm: device ordinal " + std::to_string(dev) + " is beyond the " +
                    std::to_string(kMaxDevices) + " devices trimm supports");
  std::call_once(once[dev], [dev] {
    int major = 0, minor = 0, sms = 0;
    TRIMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    TRIMM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    TRIMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    info[dev] = {dev, 10 * major + minor, sms};
  });
  return info[dev];
}

// Double operands: no kernel table, the tensor-core kernel by default, the plain one by name.
constexpr const char* kFp64Kernel = "sm80_fp64";
constexpr const char* kFp64Yardstick = "simt_fp64";
// sm80_fp64 with sm_80's instruction (m8n8k4) on any GPU: for testing that path on sm_90.
constexpr const char* kFp64M8n8k4 = "sm80_fp64_m8n8k4";
// Structure::Detect with a kernel that keeps data in the workspace: its flag word first, that
// kernel's share from this offset (trtrmm_workspace_bytes counts both).
constexpr size_t kDetectDataOffset = 256;
static_assert(kDetectDataOffset <= kernels::kGateReach,
              "zeroes_gate kernels clear the flag word with their workspace in one memset");

// Structure::Detect's epochs for flag words that no memset clears (kernels::kEpochShift): 1 is
// stream capture's (detect_epoch), so that an uncaptured call never takes a replayed graph's
// flags for its own; 2 ... kMaxEpoch for the others, then from 2 again.
constexpr uint32_t kCaptureEpoch = 1;
uint32_t next_epoch() {
  static std::atomic<uint32_t> calls{0};
  return calls.fetch_add(1, std::memory_order_relaxed) % (kernels::kMaxEpoch - kCaptureEpoch) +
         kCaptureEpoch + 1;
}

// The epoch of a Structure::Detect call whose structured launch flags beside its product: the
// next one, or under stream capture (a graph replays one epoch, and after one replay that flagged
// every later one would take the exact path) the word cleared by a memset and kCaptureEpoch.
uint32_t detect_epoch(uint32_t* flag, Stream stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  TRIMM_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
  if (capture == cudaStreamCaptureStatusNone) return next_epoch();
  TRIMM_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(uint32_t), stream));
  return kCaptureEpoch;
}

// Structure::Detect's flag word: options.workspace, checked (4 bytes, 4-byte aligned).
uint32_t* detect_flags(const char* api, const Options& options) {
  if (options.workspace == nullptr || options.workspace_bytes < sizeof(uint32_t) ||
      reinterpret_cast<uintptr_t>(options.workspace) % alignof(uint32_t) != 0)
    throw InvalidArgument(std::string(api) +
                          ": structure = detect needs options.workspace: 4 bytes of device "
                          "memory, 4-byte aligned (got " +
                          std::to_string(options.workspace_bytes) + " bytes)");
  return static_cast<uint32_t*>(options.workspace);
}

// Whether options.workspace may hold a kernel's own data: 256-byte aligned, as its prepass
// and TMA maps take it.
bool workspace_aligned(const Options& o) {
  return reinterpret_cast<uintptr_t>(o.workspace) % 256 == 0;
}

// The chosen kernel's own data (KernelEntry::workspace: sm90_fp16x3's planes), `offset` bytes into
// options.workspace (Structure::Detect: after its flag word), 256-byte aligned: checked here,
// before anything is launched, and handed to the launcher in p.
void attach_workspace(const char* api, const dispatch::KernelEntry& g, const Options& o,
                      size_t offset, kernels::Problem& p) {
  if (g.workspace == nullptr) return;
  const size_t data = g.workspace(p.n, p.batch);  // SIZE_MAX: past 2^62 bytes
  const size_t need = data > SIZE_MAX - offset ? SIZE_MAX : offset + data;
  const bool misaligned = !workspace_aligned(o);
  if (o.workspace == nullptr || o.workspace_bytes < need || misaligned)
    throw InvalidArgument(std::string(api) + ": kernel = '" + g.name + "'" +
                          (offset != 0 ? " with structure = detect" : "") +
                          " needs options.workspace: " + std::to_string(need) +
                          " bytes of device memory, 256-byte aligned, for n = " +
                          std::to_string(p.n) + " and batch = " + std::to_string(p.batch) +
                          " (trtrmm_workspace_bytes); got " + std::to_string(o.workspace_bytes) +
                          " bytes" + (o.workspace != nullptr && misaligned ? ", misaligned" : ""));
  p.workspace = static_cast<unsigned char*>(o.workspace) + offset;
}

// The bytes of options.workspace a kernel's own data may take (dispatch's view of it): under
// Structure::Detect, those after the flag word. `query` (selected_kernel): a null workspace with
// workspace_bytes set stands for an aligned one of that size, not yet allocated.
size_t usable_workspace(const Options& o, bool query = false) {
  if (o.workspace == nullptr ? !query : !workspace_aligned(o)) return 0;
  const size_t skip = o.structure == Structure::Detect ? kDetectDataOffset : 0;
  return o.workspace_bytes > skip ? o.workspace_bytes - skip : 0;
}

// The kernel a call on p runs (dispatch::choose), for these operands' alignment and workspace.
dispatch::Choice choose(const kernels::DeviceInfo& dev, const kernels::Problem& p,
                        const Options& o, bool query = false) {
  return dispatch::choose(dev.cc, o.precision, p.n, o.kernel, kernels::tma_compatible(p),
                          o.structure, usable_workspace(o, query), p.batch);
}

void run(const char* api, Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
         const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc, int64_t stride_c,
         int64_t batch, Stream stream, const Options& options) {
  const detail::BatchedArgs args{api, fill,     n, A,   lda,      stride_a, B,
                                 ldb, stride_b, C, ldc, stride_c, batch,    sizeof(float)};
  detail::validate(args);
  detail::validate_workspace(args, options.workspace, options.workspace_bytes);
  detail::validate_precision(api, options.precision);
  detail::validate_structure(api, options.structure);
  dispatch::check_kernel_name(api, options.kernel, /*b16=*/false);
  const bool detect = options.structure == Structure::Detect;
  uint32_t* flag = nullptr;
  if (detect) {
    flag = detect_flags(api, options);
    dispatch::check_detect_kernel_name(api, options.kernel);
  }
  if (n == 0 || batch == 0) return;  // as in BLAS: nothing to do touches no device
  const kernels::DeviceInfo& dev = current_device();
  kernels::Problem p{fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch};
  const dispatch::Choice c = choose(dev, p, options);
  const dispatch::KernelEntry& g = *c.kernel;
  if (!detect) {
    attach_workspace(api, g, options, 0, p);
    return g.launch(p, dev, stream);
  }
  dispatch::check_detect_runs(api, c);  // before anything is launched
  if (c.exact) {
    p.path = kernels::Path::Exact;
    return g.launch(p, dev, stream);
  }
  p.gate = flag;
  if (c.scan) {
    // The structured launch reads all of A and B beside its band and flags them in a word tagged
    // with this call's epoch (no memset but under capture: detect_epoch); the AnyFlag one
    // recomputes C over every k only where anything was flagged (its blocks return at once
    // otherwise).
    p.epoch = detect_epoch(flag, stream);
    g.launch(p, dev, stream);
    p.path = kernels::Path::AnyFlag;
    return g.launch(p, dev, stream);
  }

  // Structure::Detect, no host sync: the structured launch runs and flags what its spare warps
  // (sm90_fp16x3: its helper warps' bulk copies) find in A's and B's other triangles and any
  // output that is not finite; the general launch and then the exact one are gated on those flags
  // (every block of a launch that does not apply returns at once). Each rewrites all of C's
  // triangle, so the last that runs decides.
  attach_workspace(api, g, options, kDetectDataOffset, p);  // its data after the flag word
  if (!g.zeroes_gate) TRIMM_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(uint32_t), stream));
  g.launch(p, dev, stream);  // the triangular product; sets the flags
  p.path = kernels::Path::Dense;
  g.launch(p, dev, stream);  // not triangular, all finite: every k on the tensor cores
  p.path = kernels::Path::Exact;
  kernels::launch_naive_fp32(p, dev, stream);  // something is not finite: plain fp32, every k
}

// The kernel double operands run: sm80_fp64, or simt_fp64 where options.kernel names it; any
// other name is refused.
const char* fp64_kernel(const char* api, const Options& options) {
  if (options.kernel.empty() || options.kernel == kFp64Kernel) return kFp64Kernel;
  if (options.kernel == kFp64Yardstick) return kFp64Yardstick;
  if (options.kernel == kFp64M8n8k4) return kFp64M8n8k4;
  throw InvalidArgument(std::string(api) + ": kernel = '" + options.kernel +
                        "' with double operands, expected '', '" + kFp64Kernel + "', '" +
                        kFp64Yardstick + "' or '" + kFp64M8n8k4 + "'");
}

// fp64: sm80_fp64 (the fp64 tensor cores; every GPU trimm builds for has them), or simt_fp64
// (plain fp64 FMA, the yardstick) by name. Structure::Detect needs no workspace: without one, the
// kernel sums every k of the operands as they are, which is the dense product's semantics on any
// input (there is no error-compensated split in fp64 that Inf could break). With one (its flag
// word, as for float), sm80_fp64 runs the band alone where the inputs allow it, no host sync: a
// scan of A's and B's other triangles sets the flags; the band launch runs where they hold only
// zeros, and flags a stored sum that is not finite (every NaN or Inf of the triangles reaches
// one); the dense launch, over every k, runs where anything was flagged. Both gated launches'
// blocks return at once where they do not apply. Below config::kSm80Fp64GatedMinN the dense
// launch alone is faster (three launches' fixed costs against a small product).
void run_fp64(const char* api, Fill fill, int64_t n, const double* A, int64_t lda,
              int64_t stride_a, const double* B, int64_t ldb, int64_t stride_b, double* C,
              int64_t ldc, int64_t stride_c, int64_t batch, Stream stream,
              const Options& options) {
  const detail::BatchedArgs args{api, fill,     n, A,   lda,      stride_a, B,
                                 ldb, stride_b, C, ldc, stride_c, batch,    sizeof(double)};
  detail::validate(args);
  detail::validate_fp64_options(api, options);
  const char* const kernel = fp64_kernel(api, options);
  const bool dense = options.structure == Structure::Detect;
  kernels::ProblemFp64 p{fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch};
  if (dense && options.workspace != nullptr) {
    detail::validate_workspace(args, options.workspace, options.workspace_bytes);
    p.gate = detect_flags(api, options);
  }
  if (n == 0 || batch == 0) return;
  const kernels::DeviceInfo& dev = current_device();
  if (kernel == kFp64Yardstick) return kernels::launch_simt_fp64(p, dense, dev, stream);
  const bool m8n8k4 = kernel == kFp64M8n8k4;
  if (p.gate == nullptr || n < config::kSm80Fp64GatedMinN) {
    p.gate = nullptr;
    return kernels::launch_sm80_fp64(p, dense, m8n8k4, dev, stream);
  }
  p.epoch = detect_epoch(p.gate, stream);
  kernels::launch_scan_fp64(p, dev, stream);
  p.path = kernels::Path::Structured;
  kernels::launch_sm80_fp64(p, /*dense=*/false, m8n8k4, dev, stream);
  p.path = kernels::Path::AnyFlag;
  kernels::launch_sm80_fp64(p, /*dense=*/true, m8n8k4, dev, stream);
}

template <typename T>
void run_backward(const char* api, Fill fill, int64_t n, const T* G, int64_t ldg,
                  int64_t stride_g, const T* A, int64_t lda, int64_t stride_a, const T* B,
                  int64_t ldb, int64_t stride_b, T* dA, int64_t ldda, int64_t stride_da, T* dB,
                  int64_t lddb, int64_t stride_db, int64_t batch, Stream stream,
                  const Options& options) {
  constexpr int64_t e = sizeof(T);
  // The forward call's rules for each output against the inputs it must not overlap, and the two
  // outputs disjoint.
  detail::validate({api, fill, n, A, lda, stride_a, B, ldb, stride_b, dA, ldda, stride_da, batch,
                    e, 0, "A", "B", "dA"});
  detail::validate({api, fill, n, A, lda, stride_a, B, ldb, stride_b, dB, lddb, stride_db, batch,
                    e, 0, "A", "B", "dB"});
  detail::validate({api, fill, n, G, ldg, stride_g, G, ldg, stride_g, dA, ldda, stride_da, batch,
                    e, 0, "G", "G", "dA"});
  detail::validate({api, fill, n, G, ldg, stride_g, G, ldg, stride_g, dB, lddb, stride_db, batch,
                    e, 0, "G", "G", "dB"});
  detail::validate({api, fill, n, dA, ldda, stride_da, dA, ldda, stride_da, dB, lddb, stride_db,
                    batch, e, 0, "dA", "dA", "dB"});
  detail::validate_precision(api, options.precision);
  detail::validate_structure(api, options.structure);
  if (!options.kernel.empty())
    throw InvalidArgument(std::string(api) + ": kernel = '" + options.kernel +
                          "', expected '' (the backward has one kernel)");
  if (n == 0 || batch == 0) return;
  const kernels::BackwardProblem<T> p{fill, n,  G,  ldg,  stride_g,  A,  lda,  stride_a,
                                      B,    ldb, stride_b, dA, ldda, stride_da,
                                      dB,   lddb, stride_db, batch};
  kernels::launch_simt_backward(p, current_device(), stream);
}

// 16-bit data: the same checks (and Structure::Detect's flag word), then the 16-bit table.
template <typename T>
kernels::Problem16<T> prepare16(const char* api, Fill fill, int64_t n, const T* A, int64_t lda,
                                int64_t stride_a, const T* B, int64_t ldb, int64_t stride_b,
                                T* C, int64_t ldc, int64_t stride_c, int64_t batch,
                                const Options& options) {
  const detail::BatchedArgs args{api, fill,     n, A,   lda,      stride_a, B,
                                 ldb, stride_b, C, ldc, stride_c, batch,    int64_t(sizeof(T))};
  detail::validate(args);
  detail::validate_workspace(args, options.workspace, options.workspace_bytes);
  detail::validate_16bit_options(api, options);
  dispatch::check_kernel_name(api, options.kernel, /*b16=*/true);
  kernels::Problem16<T> p{fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, batch};
  if (options.structure == Structure::Detect) p.gate = detect_flags(api, options);
  return p;
}

template <typename T>
const dispatch::KernelEntry16& select16(const kernels::Problem16<T>& p,
                                        const kernels::DeviceInfo& dev, const Options& o) {
  // The small kernel's occupancy for p (cached: one query per device, form and turn length),
  // where dispatch chooses, the kernel can run and the wave rule reads it.
  const int small_per_sm = o.kernel.empty() && dev.cc >= 80 && p.n <= dispatch::kSmall16WaveN
                               ? kernels::sm80_16bit_small_blocks_per_sm(p, dev)
                               : 0;
  return dispatch::select16(dev.cc, p.n, o.kernel, kernels::tma_compatible_16bit(p), dev.sms,
                            p.batch, small_per_sm);
}

void launch16(const dispatch::KernelEntry16& k, const kernels::Problem16<half_t>& p,
              const kernels::DeviceInfo& dev, Stream stream) {
  k.launch_f16(p, dev, stream);
}
void launch16(const dispatch::KernelEntry16& k, const kernels::Problem16<bfloat16_t>& p,
              const kernels::DeviceInfo& dev, Stream stream) {
  k.launch_bf16(p, dev, stream);
}

// 16-bit Structure::Detect on small work: the kernel whose dense launch alone answers the call
// (dispatch::dense_detect16; `chosen`: select16's), or nullptr.
template <typename T>
const dispatch::KernelEntry16* dense_alone16(const kernels::Problem16<T>& p,
                                             const kernels::DeviceInfo& dev, const Options& o,
                                             const dispatch::KernelEntry16& chosen) {
  if (o.structure != Structure::Detect) return nullptr;
  return dispatch::dense_detect16(dev.cc, p.n, p.batch, o.kernel, chosen.name,
                                  kernels::tma_compatible_16bit(p));
}

template <typename T>
void run16(const char* api, Fill fill, int64_t n, const T* A, int64_t lda, int64_t stride_a,
           const T* B, int64_t ldb, int64_t stride_b, T* C, int64_t ldc, int64_t stride_c,
           int64_t batch, Stream stream, const Options& options) {
  kernels::Problem16<T> p = prepare16(api, fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
                                      stride_c, batch, options);
  if (n == 0 || batch == 0) return;  // as in BLAS: nothing to do touches no device
  const kernels::DeviceInfo& dev = current_device();
  const dispatch::KernelEntry16& k = select16(p, dev, options);
  if (p.gate == nullptr) return launch16(k, p, dev, stream);
  if (const dispatch::KernelEntry16* dense = dense_alone16(p, dev, options, k)) {
    // Structure::Detect on small work: the dense product's triangle in one launch, whatever the
    // inputs hold (the flag word is not touched).
    p.gate = nullptr;
    p.path = kernels::Path::Dense;
    return launch16(*dense, p, dev, stream);
  }

  // Structure::Detect past the small work above, no host sync: the chosen kernel where A and B
  // are triangular and finite; a dense launch over every k where they are finite but not
  // triangular (the chosen kernel's where it has one, KernelEntry16::gated_dense, else
  // sm80_16bit's); simt_16bit over every k in plain fp32 where anything is not finite (NaN and
  // Inf where the dense product puts them). The last two are gated on the flags (their blocks
  // return at once where they do not apply). A kernel that scans (the small one) runs first
  // whatever the inputs and flags A and B beside its product, in a word tagged with the call's
  // epoch, and one launch follows: simt_16bit over every k where anything at all was flagged (at
  // small n one gated launch fewer is worth more than the tensor cores on noisy inputs).
  // Otherwise a scan of all of A and B (of their other triangles alone where the chosen kernel
  // flags its own outputs) sets the flags first, in a word tagged with the call's epoch too (no
  // memset), and the chosen kernel is gated as well.
  p.epoch = detect_epoch(p.gate, stream);
  if (k.scans) {
    launch16(k, p, dev, stream);
    p.path = kernels::Path::AnyFlag;
    return kernels::launch_simt_16bit(p, dev, stream);
  }
  kernels::launch_scan_16bit(p, dev, stream, /*outside_only=*/k.flags_outputs);
  launch16(k, p, dev, stream);
  p.path = kernels::Path::Dense;
  if (k.gated_dense)
    launch16(k, p, dev, stream);
  else
    kernels::launch_sm80_16bit(p, dev, stream);
  p.path = kernels::Path::Exact;
  kernels::launch_simt_16bit(p, dev, stream);
}

template <typename T>
const char* selected16(const char* api, Fill fill, int64_t n, const T* A, int64_t lda,
                       int64_t stride_a, const T* B, int64_t ldb, int64_t stride_b, const T* C,
                       int64_t ldc, int64_t stride_c, int64_t batch, const Options& options) {
  detail::validate_16bit_options(api, options);
  dispatch::check_kernel_name(api, options.kernel, /*b16=*/true);
  // Only the addresses matter here: C is never written through this Problem.
  const kernels::Problem16<T> p{fill, n, A, lda, stride_a, B, ldb, stride_b,
                                const_cast<T*>(C), ldc, stride_c, batch};
  const kernels::DeviceInfo& dev = current_device();
  const dispatch::KernelEntry16& k = select16(p, dev, options);
  const dispatch::KernelEntry16* dense = dense_alone16(p, dev, options, k);
  return (dense != nullptr ? *dense : k).name;
}

}  // namespace

void trtrmm(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B, int64_t ldb,
            half_t* C, int64_t ldc, Stream stream, const Options& options) {
  run16("trimm::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, stream, options);
}

void trtrmm(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda, const bfloat16_t* B,
            int64_t ldb, bfloat16_t* C, int64_t ldc, Stream stream, const Options& options) {
  run16("trimm::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, stream, options);
}

void trtrmm_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda, int64_t stride_a,
                            const half_t* B, int64_t ldb, int64_t stride_b, half_t* C,
                            int64_t ldc, int64_t stride_c, int64_t batch, Stream stream,
                            const Options& options) {
  run16("trimm::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
        stride_c, batch, stream, options);
}

void trtrmm_strided_batched(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            int64_t stride_a, const bfloat16_t* B, int64_t ldb, int64_t stride_b,
                            bfloat16_t* C, int64_t ldc, int64_t stride_c, int64_t batch,
                            Stream stream, const Options& options) {
  run16("trimm::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
        stride_c, batch, stream, options);
}

const char* selected_kernel(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B,
                            int64_t ldb, const half_t* C, int64_t ldc, const Options& options) {
  return selected16("trimm::selected_kernel", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1,
                    options);
}

const char* selected_kernel(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            const bfloat16_t* B, int64_t ldb, const bfloat16_t* C, int64_t ldc,
                            const Options& options) {
  return selected16("trimm::selected_kernel", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1,
                    options);
}

const char* selected_kernel(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc, const Options& options) {
  detail::validate(
      {"trimm::selected_kernel", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, sizeof(double)});
  detail::validate_fp64_options("trimm::selected_kernel", options);
  return fp64_kernel("trimm::selected_kernel", options);
}

const char* selected_kernel_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda,
                                            int64_t stride_a, const half_t* B, int64_t ldb,
                                            int64_t stride_b, const half_t* C, int64_t ldc,
                                            int64_t stride_c, int64_t batch,
                                            const Options& options) {
  return selected16("trimm::selected_kernel_strided_batched", fill, n, A, lda, stride_a, B, ldb,
                    stride_b, C, ldc, stride_c, batch, options);
}

const char* selected_kernel_strided_batched(Fill fill, int64_t n, const bfloat16_t* A,
                                            int64_t lda, int64_t stride_a, const bfloat16_t* B,
                                            int64_t ldb, int64_t stride_b, const bfloat16_t* C,
                                            int64_t ldc, int64_t stride_c, int64_t batch,
                                            const Options& options) {
  return selected16("trimm::selected_kernel_strided_batched", fill, n, A, lda, stride_a, B, ldb,
                    stride_b, C, ldc, stride_c, batch, options);
}

bool cuda_available() {
  int count = 0, dev = 0, major = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
    cudaGetLastError();  // clear the (non-sticky) error so that later calls start clean
    return false;
  }
  return major >= 8;  // every kernel of the table needs sm_80 or later
}

size_t trtrmm_workspace_bytes(int64_t n, int64_t batch, const Options& options) {
  if (n < 0) throw InvalidArgument("trtrmm_workspace_bytes: n = " + std::to_string(n) +
                                   ", expected n >= 0");
  if (n > INT32_MAX)  // as the calls (detail::validate)
    throw InvalidArgument("trtrmm_workspace_bytes: n = " + std::to_string(n) +
                          ", expected n <= 2147483647");
  if (batch < 0)
    throw InvalidArgument("trtrmm_workspace_bytes: batch = " + std::to_string(batch) +
                          ", expected batch >= 0");
  // The fp64 kernels have no table entry and no data of their own: Detect's flag word at most.
  const bool fp64 = options.kernel == kFp64Kernel || options.kernel == kFp64Yardstick ||
                    options.kernel == kFp64M8n8k4;
  const dispatch::KernelEntry* e =
      options.kernel.empty() || fp64 ? nullptr : dispatch::find(options.kernel);
  if (!options.kernel.empty() && !fp64 && e == nullptr)
    throw InvalidArgument("trtrmm_workspace_bytes: kernel = '" + options.kernel +
                          "', expected '', a kernel of the table (trimm kernels) or an fp64 "
                          "kernel (" +
                          kFp64Kernel + ", " + kFp64Yardstick + ", " + kFp64M8n8k4 + ")");
  const size_t data = e == nullptr || e->workspace == nullptr ? 0 : e->workspace(n, batch);
  if (data == SIZE_MAX)
    throw InvalidArgument("trtrmm_workspace_bytes: n = " + std::to_string(n) + " and batch = " +
                          std::to_string(batch) + ", expected a workspace for kernel = '" +
                          options.kernel + "' below 2^62 bytes");
  if (options.structure != Structure::Detect) return data;
  return data == 0 ? sizeof(uint32_t) : kDetectDataOffset + data;
}

const char* selected_kernel(int64_t n, const Options& options) {
  dispatch::check_kernel_name("trimm::selected_kernel", options.kernel, /*b16=*/false);
  return dispatch::select(current_device().cc, options.precision, n, options.kernel,
                          /*tma_ok=*/true, usable_workspace(options, /*query=*/true))
      .name;
}

const char* selected_kernel(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                            int64_t ldb, const float* C, int64_t ldc, const Options& options) {
  dispatch::check_kernel_name("trimm::selected_kernel", options.kernel, /*b16=*/false);
  // Only the addresses matter here: C is never written through this Problem.
  const kernels::Problem p{fill, n, A, lda, 0, B, ldb, 0, const_cast<float*>(C), ldc, 0, 1};
  const bool detect = options.structure == Structure::Detect;
  if (detect) dispatch::check_detect_kernel_name("trimm::selected_kernel", options.kernel);
  const dispatch::Choice c = choose(current_device(), p, options, /*query=*/true);
  if (detect) dispatch::check_detect_runs("trimm::selected_kernel", c);  // as trtrmm refuses
  return c.kernel->name;
}

void trtrmm_strided_batched(Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                            const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, Stream stream,
                            const Options& options) {
  run("trimm::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
      stride_c, batch, stream, options);
}

void trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb,
            float* C, int64_t ldc, Stream stream, const Options& options) {
  run("trimm::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, stream, options);
}

void trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb,
            double* C, int64_t ldc, Stream stream, const Options& options) {
  run_fp64("trimm::trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, stream, options);
}

void trtrmm_strided_batched(Fill fill, int64_t n, const double* A, int64_t lda, int64_t stride_a,
                            const double* B, int64_t ldb, int64_t stride_b, double* C,
                            int64_t ldc, int64_t stride_c, int64_t batch, Stream stream,
                            const Options& options) {
  run_fp64("trimm::trtrmm_strided_batched", fill, n, A, lda, stride_a, B, ldb, stride_b, C, ldc,
           stride_c, batch, stream, options);
}

void trtrmm_backward(Fill fill, int64_t n, const float* G, int64_t ldg, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float* dA, int64_t ldda, float* dB,
                     int64_t lddb, Stream stream, const Options& options) {
  run_backward("trimm::trtrmm_backward", fill, n, G, ldg, 0, A, lda, 0, B, ldb, 0, dA, ldda, 0,
               dB, lddb, 0, 1, stream, options);
}

void trtrmm_backward(Fill fill, int64_t n, const double* G, int64_t ldg, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double* dA, int64_t ldda,
                     double* dB, int64_t lddb, Stream stream, const Options& options) {
  run_backward("trimm::trtrmm_backward", fill, n, G, ldg, 0, A, lda, 0, B, ldb, 0, dA, ldda, 0,
               dB, lddb, 0, 1, stream, options);
}

void trtrmm_backward_strided_batched(Fill fill, int64_t n, const float* G, int64_t ldg,
                                     int64_t stride_g, const float* A, int64_t lda,
                                     int64_t stride_a, const float* B, int64_t ldb,
                                     int64_t stride_b, float* dA, int64_t ldda, int64_t stride_da,
                                     float* dB, int64_t lddb, int64_t stride_db, int64_t batch,
                                     Stream stream, const Options& options) {
  run_backward("trimm::trtrmm_backward_strided_batched", fill, n, G, ldg, stride_g, A, lda,
               stride_a, B, ldb, stride_b, dA, ldda, stride_da, dB, lddb, stride_db, batch, stream,
               options);
}

void trtrmm_backward_strided_batched(Fill fill, int64_t n, const double* G, int64_t ldg,
                                     int64_t stride_g, const double* A, int64_t lda,
                                     int64_t stride_a, const double* B, int64_t ldb,
                                     int64_t stride_b, double* dA, int64_t ldda,
                                     int64_t stride_da, double* dB, int64_t lddb,
                                     int64_t stride_db, int64_t batch, Stream stream,
                                     const Options& options) {
  run_backward("trimm::trtrmm_backward_strided_batched", fill, n, G, ldg, stride_g, A, lda,
               stride_a, B, ldb, stride_b, dA, ldda, stride_da, dB, lddb, stride_db, batch, stream,
               options);
}

}  // namespace trimm
