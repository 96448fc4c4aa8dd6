// GPU rows of `trimm bench`. Protocol: inputs triu(uniform[0,1)) made on the device; every method
// warmed up, then timed with CUDA events around the call alone, L2 flushed before each run
// (a memset over twice the L2 size, queried from the device), median of `runs`. Correctness of
// every method is checked on its own output: the allclose violation against the
// reference-equivalent (cuBLAS SGEMM + triu), and the normwise error against an fp64 product.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "common/tolerance.hpp"
#include "cuda/dispatch.hpp"
#include "kernels/launch.hpp"
#include "trimm/cuda.hpp"

namespace trimm::cli {
namespace {

#define BENCH_CUDA(call)                                                                     \
  do {                                                                                       \
    const cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess)                                                                   \
      throw std::runtime_error(std::string(#call) + ": " + cudaGetErrorString(e_));          \
  } while (0)
#define BENCH_CUBLAS(call)                                                                   \
  do {                                                                                       \
    const cublasStatus_t s_ = (call);                                                        \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                                         \
      throw std::runtime_error(std::string(#call) + ": cuBLAS status " + std::to_string(s_)); \
  } while (0)

template <typename T>
struct Buf {
  T* p = nullptr;
  explicit Buf(size_t count) { BENCH_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
  ~Buf() { cudaFree(p); }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
};

// triu(uniform[0,1)) (or N(0, 1)) from a counter-based hash: reproducible for a seed, no cuRAND
// state;
// below the diagonal `noise` times uniform [0, 1) (0: exactly triangular).
__global__ void fill_triu_uniform(float* x, int64_t n, uint64_t seed, float noise, bool normal) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n * n) return;
  const int64_t i = idx / n, j = idx % n;
  uint64_t h = (uint64_t(idx) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  const float u = float(h >> 40) * (1.0f / 16777216.0f);
  // normal: N(0, 1) by Box-Muller from the hash's two halves (signs: sums cancel).
  const float u1 = (float((h >> 8) & 0xFFFFFFu) + 1.0f) * (1.0f / 16777217.0f);
  const float z = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u);
  const float v = normal ? z : u;
  x[idx] = j >= i ? v : noise * u;
}

// The triu half of torch.triu(A @ B): a fresh output with the lower part zeroed.
template <typename T>
__global__ void triu_copy(const T* src, T* dst, int64_t n) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n * n) return;
  const int64_t i = idx / n, j = idx % n;
  dst[idx] = j >= i ? src[idx] : T(0);
}

// Per-block partials: max allclose violation against ref32, and squared error / squared norm
// against ref64. NaN counts as an infinite violation.
template <typename T>
__global__ void compare(const T* c, const T* ref32, const double* ref64, int64_t count,
                        double* partial, double atol, double rtol) {
  __shared__ double s_viol[256], s_err[256], s_ref[256];
  double viol = 0, err = 0, ref = 0;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x) {
    const double x = c[e], r64 = ref64[e];
    viol = fmax(viol, allclose_violation(x, ref32[e], atol, rtol));
    const double d = x - r64;
    err += d != d ? INFINITY : d * d;
    ref += r64 * r64;
  }
  s_viol[threadIdx.x] = viol, s_err[threadIdx.x] = err, s_ref[threadIdx.x] = ref;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      s_viol[threadIdx.x] = fmax(s_viol[threadIdx.x], s_viol[threadIdx.x + w]);
      s_err[threadIdx.x] += s_err[threadIdx.x + w];
      s_ref[threadIdx.x] += s_ref[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[3 * blockIdx.x + 0] = s_viol[0];
    partial[3 * blockIdx.x + 1] = s_err[0];
    partial[3 * blockIdx.x + 2] = s_ref[0];
  }
}

unsigned blocks_for(int64_t count, int threads) { return unsigned((count + threads - 1) / threads); }

// One thread that keeps the GPU busy for `ns` nanoseconds and touches no memory: under --warm-l2
// the head start the flush's memset gives the protocol's runs, so that neither mode times the
// host's launch latency (without it, the start event fires on an idle GPU and the host's work
// to issue the call lands inside the timing: sm90_16bit bf16 4096 0.0543-0.0551 ms "warm"
// against 0.0480 flushed; with it 0.0473, session 52).
__global__ void idle_for(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  while (t - t0 < ns);
}

struct Harness {
  int64_t n;
  const BenchConfig& cfg;
  cublasHandle_t handle = nullptr;
  cudaEvent_t start, stop;
  size_t flush_bytes;
  Buf<char> flush;
  static constexpr int kCompareBlocks = 1024;
  // --warm-l2's head start: about what the flush's memset takes (2 × L2 at ~3 TB/s).
  static constexpr unsigned long long kHeadStartNs = 50000;
  Buf<double> partial{3 * kCompareBlocks};

  static size_t l2_flush_bytes() {
    int dev = 0, l2 = 0;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    return std::max<size_t>(2 * size_t(l2), 1 << 20);
  }

  Harness(int64_t n_, const BenchConfig& c)
      : n(n_), cfg(c), flush_bytes(l2_flush_bytes()), flush(flush_bytes) {
    BENCH_CUBLAS(cublasCreate(&handle));
    // PyTorch's default: fp32 GEMMs stay fp32 (no TF32).
    BENCH_CUBLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
    BENCH_CUDA(cudaEventCreate(&start));
    BENCH_CUDA(cudaEventCreate(&stop));
  }
  ~Harness() {
    cublasDestroy(handle);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }

  // Median ms of `fn` over cfg.runs runs, each after an L2 flush (unless cfg.flush_l2 is off),
  // after cfg.warmup warm-ups.
  double time(const std::function<void()>& fn) {
    for (int w = 0; w < cfg.warmup; ++w) fn();
    BENCH_CUDA(cudaGetLastError());
    std::vector<double> ms;
    for (int r = 0; r < cfg.runs; ++r) {
      if (cfg.flush_l2) {
        BENCH_CUDA(cudaMemsetAsync(flush.p, r & 0xff, flush_bytes));
      } else {
        idle_for<<<1, 1>>>(kHeadStartNs);
        BENCH_CUDA(cudaGetLastError());
      }
      BENCH_CUDA(cudaEventRecord(start));
      fn();
      BENCH_CUDA(cudaEventRecord(stop));
      BENCH_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      BENCH_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    BENCH_CUDA(cudaGetLastError());
    return median(ms);
  }

  // ref32: the reference-equivalent's output in the data's type (T = double for fp64 data).
  template <typename T>
  void check(const T* c, const T* ref32, const double* ref64, Row& row, double atol = 1e-4,
             double rtol = 1e-4) {
    compare<<<kCompareBlocks, 256>>>(c, ref32, ref64, n * n, partial.p, atol, rtol);
    BENCH_CUDA(cudaGetLastError());
    std::vector<double> h(3 * kCompareBlocks);
    BENCH_CUDA(cudaMemcpy(h.data(), partial.p, h.size() * sizeof(double), cudaMemcpyDeviceToHost));
    double viol = 0, err = 0, ref = 0;
    for (int b = 0; b < kCompareBlocks; ++b) {
      viol = std::max(viol, h[3 * b]);
      err += h[3 * b + 1];
      ref += h[3 * b + 2];
    }
    row.max_violation = viol;
    row.rel_err = ref > 0 ? std::sqrt(err / ref) : std::sqrt(err);
  }
};

// C = A·B on one strided-batched SGEMM per block diagonal of nb×nb blocks (row-major operands
// passed to column-major cuBLAS as Cᵀ = Bᵀ·Aᵀ). Exact; writes only blocks on or above the
// diagonal, so C's lower blocks must already be zero.
void diag_batched_sgemm(cublasHandle_t h, int64_t n, int64_t nb, const float* A, const float* B,
                        float* C) {
  const float one = 1.f, zero = 0.f;
  const int64_t t = n / nb, step = nb * n + nb;
  for (int64_t d = 0; d < t; ++d) {
    const int k = int((d + 1) * nb);
    BENCH_CUBLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, int(nb), int(nb), k, &one,
                                           B + d * nb, int(n), step, A, int(n), step, &zero,
                                           C + d * nb, int(n), step, int(t - d)));
  }
}

// The options of a trimm row; `flags`: Structure::Detect's workspace.
Options trimm_options(Precision p, const std::string& kernel, Structure st, uint32_t* flags) {
  Options o;
  o.precision = p;
  o.kernel = kernel;
  o.structure = st;
  o.workspace = flags;
  o.workspace_bytes = sizeof(uint32_t);
  return o;
}

// --- 16-bit data ----------------------------------------------------------------------------
// x rounded to bf16 or fp16 (to nearest even), as raw bits, and back (exact).
__global__ void to_16bit(const float* x, uint16_t* y, int64_t count, bool bf16) {
  const int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  y[e] = bf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(x[e]))
              : __half_as_ushort(__float2half_rn(x[e]));
}
__global__ void from_16bit(const uint16_t* y, float* x, int64_t count, bool bf16) {
  const int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  x[e] = bf16 ? __bfloat162float(__ushort_as_bfloat16(y[e])) : __half2float(__ushort_as_half(y[e]));
}
// Upper triangles of `batch` contiguous n×n matrices (zeros below their diagonals).
__global__ void triu_copy16(const uint16_t* src, uint16_t* dst, int64_t n, int64_t batch) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n * n) return;
  const bool keep = idx % n >= idx / n;
  for (int64_t e = blockIdx.y; e < batch; e += gridDim.y) {
    const int64_t k = e * n * n + idx;
    dst[k] = keep ? src[k] : uint16_t(0);
  }
}

// Rows for --dtype bf16|fp16: torch.triu(torch.matmul(A, B)) in that type (cuBLAS GemmEx, fp32
// compute, + triu) against trimm, both judged against the fp64 product of the same 16-bit inputs
// (A, B: the float inputs, overwritten here with their 16-bit values) and against each other
// with torch.testing's default tolerances for the type. cfg.batch > 1: that many copies of the
// inputs in one strided batch (GemmStridedBatchedEx + triu against trtrmm_strided_batched);
// trimm's entries 0 and batch − 1 are checked, the rows' time and TFLOP/s are the whole batch's.
void bench_16bit(const BenchConfig& cfg, int64_t n, Harness& H, float* A, float* B,
                 std::vector<Row>& rows) {
  const bool bf16 = cfg.dtype == "bf16";
  const cudaDataType_t type = bf16 ? CUDA_R_16BF : CUDA_R_16F;
  const double atol = 1e-5, rtol = bf16 ? 1.6e-2 : 1e-3;
  const int64_t batch = cfg.batch;
  const size_t nn = size_t(n) * size_t(n);
  if (nn > SIZE_MAX / sizeof(uint16_t) / size_t(batch))
    throw std::runtime_error("--batch " + std::to_string(batch) + " at n = " + std::to_string(n) +
                             ": more elements than memory can address");
  const size_t all = nn * size_t(batch);
  const unsigned blocks = blocks_for(n * n, 256);
  Buf<uint16_t> A16(all), B16(all), tmp16(all), ref16(all), C16(all);
  Buf<float> ref32(nn), C(nn);
  Buf<double> ref64(nn);
  to_16bit<<<blocks, 256>>>(A, A16.p, n * n, bf16);
  to_16bit<<<blocks, 256>>>(B, B16.p, n * n, bf16);
  // The same problem in every entry: the entries made so far copied after themselves.
  for (int64_t have = 1; have < batch; have *= 2) {
    const size_t bytes = size_t(std::min(have, batch - have)) * nn * sizeof(uint16_t);
    BENCH_CUDA(cudaMemcpy(A16.p + have * nn, A16.p, bytes, cudaMemcpyDeviceToDevice));
    BENCH_CUDA(cudaMemcpy(B16.p + have * nn, B16.p, bytes, cudaMemcpyDeviceToDevice));
  }
  from_16bit<<<blocks, 256>>>(A16.p, A, n * n, bf16);
  from_16bit<<<blocks, 256>>>(B16.p, B, n * n, bf16);
  BENCH_CUDA(cudaGetLastError());
  // Noisy inputs: the dense product's triangle (every k), as GemmEx + triu computes it.
  kernels::launch_naive_fp64_reference(Fill::Upper, n, A, n, B, n, ref64.p, n, nullptr,
                                       /*dense=*/cfg.noisy);
  BENCH_CUDA(cudaDeviceSynchronize());

  const float one = 1.f, zero = 0.f;
  const int in = int(n);
  const std::string of_batch = batch > 1 ? " x" + std::to_string(batch) : "";
  Row ref_row{"cuda",
              std::string("reference-equivalent (cuBLAS ") +
                  (batch > 1 ? "GemmStridedBatchedEx " : "GemmEx ") + cfg.dtype + " + triu)" +
                  of_batch,
              "fp32", n};
  ref_row.dtype = cfg.dtype;
  ref_row.ms = H.time([&] {
    if (batch == 1)
      BENCH_CUBLAS(cublasGemmEx(H.handle, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, B16.p, type,
                                in, A16.p, type, in, &zero, tmp16.p, type, in, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
    else
      BENCH_CUBLAS(cublasGemmStridedBatchedEx(
          H.handle, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, B16.p, type, in,
          static_cast<long long>(nn), A16.p, type, in, static_cast<long long>(nn), &zero,
          tmp16.p, type, in, static_cast<long long>(nn), int(batch), CUBLAS_COMPUTE_32F,
          CUBLAS_GEMM_DEFAULT));
    triu_copy16<<<dim3(blocks, unsigned(std::min<int64_t>(batch, 65535))), 256>>>(tmp16.p, ref16.p,
                                                                                 n, batch);
  });
  from_16bit<<<blocks, 256>>>(ref16.p, ref32.p, n * n, bf16);
  BENCH_CUDA(cudaGetLastError());
  const double ref_ms = ref_row.ms;
  auto finish = [&](Row row, const float* out, const Row& also) {
    H.check(out, ref32.p, ref64.p, row, atol, rtol);
    // NaN-propagating max: a NaN in either check stays NaN.
    if (!(row.max_violation >= also.max_violation)) row.max_violation = also.max_violation;
    if (!(row.rel_err >= also.rel_err)) row.rel_err = also.rel_err;
    row.tflops = useful_flops(n) * double(batch) / (row.ms * 1e-3) / 1e12;
    row.speedup = ref_ms / row.ms;
    rows.push_back(row);
  };
  finish(ref_row, ref32.p, ref_row);

  Buf<uint32_t> flags(1);  // Structure::Detect's workspace
  for (const Precision p : cfg.precisions)
    for (const Structure st : cfg.structures) {
      const Options o = trimm_options(p, cfg.kernel, st, flags.p);
      Row row{"cuda", "", to_string(p), n};
      row.dtype = cfg.dtype;
      BENCH_CUDA(cudaMemset(C16.p, 0xff, all * sizeof(uint16_t)));  // poison: NaN everywhere
      auto run = [&](auto* a, auto* b, auto* c) {
        row.method = std::string("trimm ") +
                     selected_kernel_strided_batched(Fill::Upper, n, a, n, int64_t(nn), b, n,
                                                     int64_t(nn), c, n, int64_t(nn), batch, o) +
                     (st == Structure::Detect ? " (detect)" : "") + of_batch;
        row.ms = batch == 1 ? H.time([&] { trtrmm(Fill::Upper, n, a, n, b, n, c, n, nullptr, o); })
                            : H.time([&] {
                                trtrmm_strided_batched(Fill::Upper, n, a, n, int64_t(nn), b, n,
                                                       int64_t(nn), c, n, int64_t(nn), batch,
                                                       nullptr, o);
                              });
      };
      if (bf16)
        run(reinterpret_cast<const bfloat16_t*>(A16.p), reinterpret_cast<const bfloat16_t*>(B16.p),
            reinterpret_cast<bfloat16_t*>(C16.p));
      else
        run(reinterpret_cast<const half_t*>(A16.p), reinterpret_cast<const half_t*>(B16.p),
            reinterpret_cast<half_t*>(C16.p));
      // Entry 0 and the last entry (a batch-indexing bug leaves the last one NaN): the worse.
      Row last = row;
      if (batch > 1) {
        from_16bit<<<blocks, 256>>>(C16.p + (batch - 1) * nn, C.p, n * n, bf16);
        BENCH_CUDA(cudaGetLastError());
        H.check(C.p, ref32.p, ref64.p, last, atol, rtol);
      }
      from_16bit<<<blocks, 256>>>(C16.p, C.p, n * n, bf16);
      BENCH_CUDA(cudaGetLastError());
      finish(row, C.p, last);
    }
}

// --- fp64 data ------------------------------------------------------------------------------
__global__ void to_fp64(const float* x, double* y, int64_t count) {
  const int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < count) y[e] = x[e];
}

// Rows for --dtype fp64: torch.triu(torch.matmul(A, B)) on double (cuBLAS DGEMM + triu) against
// trimm's fp64 kernel, Triangular and Detect (the PyTorch operator's mode), on the float inputs
// widened exactly; judged against the DGEMM's output with torch.testing's float64 tolerances
// (atol = rtol = 1e-7) and normwise against the fp64 product.
void bench_fp64(const BenchConfig& cfg, int64_t n, Harness& H, const float* A, const float* B,
                const double* ref64, std::vector<Row>& rows) {
  const size_t nn = size_t(n) * size_t(n);
  const unsigned blocks = blocks_for(n * n, 256);
  const double atol = 1e-7, rtol = 1e-7;
  Buf<double> A64(nn), B64(nn), tmp(nn), ref(nn), C(nn);
  to_fp64<<<blocks, 256>>>(A, A64.p, n * n);
  to_fp64<<<blocks, 256>>>(B, B64.p, n * n);
  BENCH_CUDA(cudaGetLastError());
  const double one = 1.0, zero = 0.0;
  const int in = int(n);
  Row ref_row{"cuda", "reference-equivalent (cuBLAS DGEMM + triu)", "fp64", n};
  ref_row.dtype = "fp64";
  ref_row.ms = H.time([&] {
    BENCH_CUBLAS(cublasDgemm(H.handle, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, B64.p, in, A64.p,
                             in, &zero, tmp.p, in));
    triu_copy<<<blocks, 256>>>(tmp.p, ref.p, n);
  });
  const double ref_ms = ref_row.ms;
  auto finish = [&](Row row, const double* out) {
    H.check(out, ref.p, ref64, row, atol, rtol);
    row.tflops = useful_flops(n) / (row.ms * 1e-3) / 1e12;
    row.speedup = ref_ms / row.ms;
    rows.push_back(row);
  };
  finish(ref_row, ref.p);
  Buf<uint32_t> flags(1);
  for (const Structure st : cfg.structures) {
    const Options o = trimm_options(Precision::Auto, cfg.kernel, st, flags.p);
    Row row{"cuda",
            std::string("trimm ") + selected_kernel(Fill::Upper, n, A64.p, n, B64.p, n, C.p, n, o) +
                (st == Structure::Detect ? " (detect)" : ""),
            "fp64", n};
    row.dtype = "fp64";
    BENCH_CUDA(cudaMemset(C.p, 0xff, nn * sizeof(double)));  // poison: NaN everywhere
    row.ms = H.time([&] { trtrmm(Fill::Upper, n, A64.p, n, B64.p, n, C.p, n, nullptr, o); });
    finish(row, C.p);
  }
}

}  // namespace

void bench_cuda(const BenchConfig& cfg, int64_t n, std::vector<Row>& rows, std::string& device) {
  int dev = 0;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDevice(&dev));
  BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
  device = prop.name;

  Harness H(n, cfg);
  const size_t nn = size_t(n) * size_t(n);
  Buf<float> A(nn), B(nn), tmp(nn), ref32(nn), C(nn);
  Buf<double> ref64(nn);
  const float noise = cfg.noisy ? 0.01f : 0.f;
  fill_triu_uniform<<<blocks_for(n * n, 256), 256>>>(A.p, n, cfg.seed * 2 + 1, noise, cfg.normal);
  fill_triu_uniform<<<blocks_for(n * n, 256), 256>>>(B.p, n, cfg.seed * 2 + 2, noise, cfg.normal);
  BENCH_CUDA(cudaGetLastError());
  if (cfg.dtype == "bf16" || cfg.dtype == "fp16") return bench_16bit(cfg, n, H, A.p, B.p, rows);
  // Noisy inputs: the dense product's triangle (every k), as torch computes it.
  kernels::launch_naive_fp64_reference(Fill::Upper, n, A.p, n, B.p, n, ref64.p, n, nullptr,
                                       /*dense=*/cfg.noisy);
  BENCH_CUDA(cudaDeviceSynchronize());
  if (cfg.dtype == "fp64") return bench_fp64(cfg, n, H, A.p, B.p, ref64.p, rows);

  const float one = 1.f, zero = 0.f;
  const int in = int(n);
  // The reference-equivalent: what torch.triu(torch.matmul(A, B)) runs.
  auto reference_equivalent = [&] {
    BENCH_CUBLAS(cublasSgemm(H.handle, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, B.p, in, A.p,
                             in, &zero, tmp.p, in));
    triu_copy<<<blocks_for(n * n, 256), 256>>>(tmp.p, ref32.p, n);
  };
  Row ref_row{"cuda", "reference-equivalent (cuBLAS SGEMM + triu)", "fp32", n};
  ref_row.ms = H.time(reference_equivalent);
  H.check(ref32.p, ref32.p, ref64.p, ref_row);
  const double ref_ms = ref_row.ms;
  auto finish = [&](Row row, const float* out) {
    H.check(out, ref32.p, ref64.p, row);
    row.tflops = useful_flops(n) / (row.ms * 1e-3) / 1e12;
    row.speedup = ref_ms / row.ms;
    rows.push_back(row);
  };
  finish(ref_row, ref32.p);

  // The anchors assume triangular inputs (their other triangle is zero).
  if (cfg.anchors && !cfg.noisy) {
    // cuBLAS TRMM: uses A's triangle, treats B as dense.
    Row strmm{"cuda", "cuBLAS STRMM", "fp32", n};
    strmm.ms = H.time([&] {
      BENCH_CUBLAS(cublasStrmm(H.handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, in, in, &one, A.p, in, B.p, in, C.p, in));
    });
    finish(strmm, C.p);

    // The best exact composition: one strided-batched SGEMM per block diagonal. Its lower
    // blocks are zeroed once, outside the timing (in its favour).
    Row best{"cuda", "", "fp32", n};
    int64_t best_nb = 0;
    for (int64_t nb : {256, 512, 1024}) {
      if (n % nb != 0 || n / nb < 2) continue;
      BENCH_CUDA(cudaMemset(C.p, 0, nn * sizeof(float)));
      const double ms = H.time([&] { diag_batched_sgemm(H.handle, n, nb, A.p, B.p, C.p); });
      if (best_nb == 0 || ms < best.ms) best.ms = ms, best_nb = nb;
    }
    if (best_nb != 0) {
      // Run the winner once more so that C holds its output for the check.
      best.method = "cuBLAS diag-batched SGEMM nb=" + std::to_string(best_nb);
      BENCH_CUDA(cudaMemset(C.p, 0, nn * sizeof(float)));
      diag_batched_sgemm(H.handle, n, best_nb, A.p, B.p, C.p);
      finish(best, C.p);
      // The same composition in cuBLAS's TF32 mode: the yardstick for precision tf32 (fast,
      // fails fp32's allclose).
      if (std::find(cfg.precisions.begin(), cfg.precisions.end(), Precision::Tf32) !=
          cfg.precisions.end()) {
        Row tf{"cuda", best.method + " (TF32)", "tf32", n};
        BENCH_CUBLAS(cublasSetMathMode(H.handle, CUBLAS_TF32_TENSOR_OP_MATH));
        BENCH_CUDA(cudaMemset(C.p, 0, nn * sizeof(float)));
        tf.ms = H.time([&] { diag_batched_sgemm(H.handle, n, best_nb, A.p, B.p, C.p); });
        finish(tf, C.p);
        BENCH_CUBLAS(cublasSetMathMode(H.handle, CUBLAS_DEFAULT_MATH));
      }
    }
  }

  Buf<uint32_t> flags(1);  // Structure::Detect's workspace
  for (const Precision p : cfg.precisions)
    for (const Structure st : cfg.structures) {
      // Structure::Detect is not timed for ieee (its small kernel alone, then refused: README).
      if (st == Structure::Detect && p == Precision::Ieee) continue;
      Options o = trimm_options(p, cfg.kernel, st, flags.p);
      // A forced kernel's own workspace (sm90_fp16x3's planes; with Detect, after the flag
      // word), allocated before the timing; Detect's flag word alone otherwise. --workspace: an
      // unforced triangular row's is that of the automatic kernel of its precision (Auto: fp32)
      // that needs one, for dispatch to take.
      Options sized = o;
      if (cfg.workspace && o.kernel.empty() && st == Structure::Triangular)
        for (const dispatch::KernelEntry* e = dispatch::table_begin(); e != dispatch::table_end();
             ++e)
          if (e->automatic && e->workspace != nullptr &&
              e->precision == (p == Precision::Auto ? Precision::Fp32 : p))
            sized.kernel = e->name;
      const size_t work_bytes = trtrmm_workspace_bytes(n, 1, sized);
      Buf<unsigned char> work(work_bytes > sizeof(uint32_t) ? work_bytes : 0);
      if (work_bytes > sizeof(uint32_t)) {
        o.workspace = work.p;
        o.workspace_bytes = work_bytes;
      }
      // Detect refuses what has no general-input path here (past the small kernel off sm_90, or
      // operands TMA cannot take): selected_kernel refuses exactly what trtrmm would (the same
      // checks, dispatch::check_detect_*); said, not timed.
      std::string method;
      try {
        method = std::string("trimm ") + selected_kernel(Fill::Upper, n, A.p, n, B.p, n, C.p, n, o);
      } catch (const InvalidArgument& e) {
        if (st != Structure::Detect) throw;
        std::fprintf(stderr, "trimm bench: %s (detect), n = %lld, not timed: %s\n", to_string(p),
                     static_cast<long long>(n), e.what());
        continue;
      }
      if (st == Structure::Detect) method += " (detect)";
      Row row{"cuda", method, to_string(p), n};
      BENCH_CUDA(cudaMemset(C.p, 0xff, nn * sizeof(float)));  // poison: NaN everywhere
      row.ms = H.time([&] { trtrmm(Fill::Upper, n, A.p, n, B.p, n, C.p, n, nullptr, o); });
      finish(row, C.p);
    }
}

}  // namespace trimm::cli
