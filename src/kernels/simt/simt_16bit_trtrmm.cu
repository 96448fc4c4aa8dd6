// simt_16bit: the 16-bit (bf16, fp16) fallback on CUDA cores, for operands TMA cannot address
// (misaligned pointers, leading dimensions that are not multiples of 8) and GPUs without wgmma.
// One block per 64×64 tile of C, the whole grid of tiles: tiles in C's other triangle write
// zeros, the others sum their k band in fp32 FMA from 16×64 slices of A and B converted to fp32
// in shared memory (structural zeros and out-of-range elements replaced by 0 as they are
// loaded, so nothing from the inputs' other triangle reaches the arithmetic). C is rounded to the
// type once, to nearest even. Plain and obviously right, not fast.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/launch.hpp"

namespace trimm::kernels::simt16 {
namespace {

constexpr int kT = config::kSimt16Tile, kK = config::kSimt16Step;
constexpr int kThreads = 256, kPerThread = 4;  // 16×16 threads, 4×4 sums each
static_assert((kT / kPerThread) * (kT / kPerThread) == kThreads, "the tile is covered once");
static_assert(kT * kK % kThreads == 0, "whole loads per thread");

template <typename S>
using Elem = std::conditional_t<std::is_same_v<S, bfloat16_t>, __nv_bfloat16, __half>;

__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <typename E>
__device__ __forceinline__ E from_float(float x) {
  if constexpr (std::is_same_v<E, __nv_bfloat16>) return __float2bfloat16_rn(x);
  else return __float2half_rn(x);
}

// Block (J, I, z): columns J·64.., rows I·64.. of C, batch entry batch_offset + z.
template <bool kLower, typename E>
__global__ void __launch_bounds__(kThreads)
    simt_16bit_trtrmm_kernel(int64_t n, const E* A, int64_t lda, int64_t stride_a, const E* B,
                             int64_t ldb, int64_t stride_b, E* C, int64_t ldc, int64_t stride_c,
                             int64_t batch_offset) {
  const int64_t b = batch_offset + blockIdx.z;
  A += b * stride_a;
  B += b * stride_b;
  C += b * stride_c;
  const int64_t m0 = int64_t(blockIdx.y) * kT, n0 = int64_t(blockIdx.x) * kT;
  const int tid = threadIdx.x, tx = tid % (kT / kPerThread), ty = tid / (kT / kPerThread);
  const bool other_triangle = kLower ? blockIdx.y < blockIdx.x : blockIdx.y > blockIdx.x;
  if (other_triangle) {
    for (int idx = tid; idx < kT * kT; idx += kThreads) {
      const int64_t m = m0 + idx / kT, c = n0 + idx % kT;
      if (m < n && c < n) C[m * ldc + c] = from_float<E>(0.f);
    }
    return;
  }
  // The band: upper k in [m0, n0 + 64), lower k in [n0, m0 + 64).
  const int64_t k_lo = kLower ? n0 : m0, k_hi = std::min<int64_t>(n, (kLower ? m0 : n0) + kT);
  __shared__ float As[kK][kT + 4];  // As[k][m]
  __shared__ float Bs[kK][kT + 4];  // Bs[k][n]
  float acc[kPerThread][kPerThread] = {};
  for (int64_t k0 = k_lo; k0 < k_hi; k0 += kK) {
#pragma unroll
    for (int i = 0; i < kT * kK / kThreads; ++i) {
      const int e = tid + i * kThreads;
      {  // A(m, k): 16 consecutive k of a row per 16 threads
        const int r = e / kK, kk = e % kK;
        const int64_t m = m0 + r, k = k0 + kk;
        const bool live = m < n && k < n && (kLower ? k <= m : k >= m);
        As[kk][r] = live ? to_float(A[m * lda + k]) : 0.f;
      }
      {  // B(k, c): 64 consecutive columns of a row per 64 threads
        const int r = e / kT, cc = e % kT;
        const int64_t k = k0 + r, c = n0 + cc;
        const bool live = k < n && c < n && (kLower ? k >= c : k <= c);
        Bs[r][cc] = live ? to_float(B[k * ldb + c]) : 0.f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kK; ++kk) {
      float a[kPerThread], bb[kPerThread];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) a[i] = As[kk][ty * kPerThread + i];
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) bb[j] = Bs[kk][tx * kPerThread + j];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i)
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t m = m0 + ty * kPerThread + i, c = n0 + tx * kPerThread + j;
      if (m >= n || c >= n) continue;
      const bool zero = kLower ? m < c : m > c;  // C's other triangle, on the diagonal tiles
      C[m * ldc + c] = from_float<E>(zero ? 0.f : acc[i][j]);
    }
}

template <bool kLower, typename S>
void launch(const Problem16<S>& p, cudaStream_t stream) {
  using E = Elem<S>;
  const unsigned tiles = unsigned((p.n + kT - 1) / kT);
  constexpr int64_t kMaxGridZ = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridZ) {
    const dim3 grid(tiles, tiles, unsigned(std::min(kMaxGridZ, p.batch - b0)));
    simt_16bit_trtrmm_kernel<kLower, E><<<grid, kThreads, 0, stream>>>(
        p.n, reinterpret_cast<const E*>(p.A), p.lda, p.stride_a, reinterpret_cast<const E*>(p.B),
        p.ldb, p.stride_b, reinterpret_cast<E*>(p.C), p.ldc, p.stride_c, b0);
    TRIMM_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace
}  // namespace trimm::kernels::simt16

namespace trimm::kernels {

void launch_simt_16bit(const Problem16<half_t>& p, const DeviceInfo&, Stream stream) {
  p.fill == Fill::Lower ? simt16::launch<true>(p, stream) : simt16::launch<false>(p, stream);
}

void launch_simt_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo&, Stream stream) {
  p.fill == Fill::Lower ? simt16::launch<true>(p, stream) : simt16::launch<false>(p, stream);
}

}  // namespace trimm::kernels
