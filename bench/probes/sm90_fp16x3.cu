// Probe (a prototype, not a library kernel): fp32-accurate C = triu(A·B) on fp16 wgmma, the plan
// of docs/sm90_fp16x3_plan.md, to measure its time and error before building it into trimm.
//
// Prepass: A's rows and B's columns scaled by powers of two (largest |x| into [8, 16)), each
// scaled x split into h0 = fp16(x) and h1 = fp16((x − h0)·2^11) planes (x ≈ h0 + 2^-11·h1), the
// other triangle written as zeros in the diagonal 128-blocks (the only blocks the main kernel
// reads across the diagonal). Main kernel: sm90_16bit's skeleton (TMA ring of 64-k stages,
// 128×128 tiles, two consumer warpgroups of m64n128k16), one block per unit, longest first; a
// stage issues the main products a0·b0 into fresh registers (its own commit group) and the
// cross products a0·b1 + a1·b0 into a cross accumulator (another group); waiting for all but the
// newest group retires the main group while the cross group still runs, and the main part is
// promoted into the fp32 sum with FADD (the tensor cores' accumulation truncates). C = (sum +
// 2^-11·cross) / (sa_i·sb_j). Upper, one problem.
//
// Usage: probe_sm90_fp16x3 [n ...] (default 4096). Prints, per n and input kind, the prepass's
// and the main kernel's times (CUDA events, L2 flushed, medians of 30), trimm's own fp32 call
// (sm90_tf32x3) in the same run, and each one's normwise error against the fp64 product.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/shared_address.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "sched/triangle_scheduler.hpp"
#include "trimm/cuda.hpp"

#define PROBE_CHECK(call)                                                                  \
  do {                                                                                     \
    const cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(e_),     \
                   __LINE__);                                                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace {

using namespace trimm;
using namespace trimm::kernels;

constexpr int kTile = 128, kStep = 64, kStages = 3, kBoxN = 64, kThreads = 384;
constexpr int kConsumerThreads = 256;
[[maybe_unused]] constexpr int kHelperThreads = 96;
[[maybe_unused]] constexpr int kProducerWarp = kConsumerThreads / 32;
constexpr int kLaunchRegs = 168, kProducerRegs = 56, kConsumerRegs = 224;
static_assert(kProducerRegs + 2 * kConsumerRegs <= 3 * kLaunchRegs, "setmaxnreg's budget");

// One stage: A's two planes (m 128, k 64) K-major and B's two (k 64, n 128: two boxes of 64
// columns) N-major, rows of 128 bytes in TMA's 128-byte swizzle.
struct alignas(1024) Stage {
  __half a0[kTile * kStep], a1[kTile * kStep];
  __half b0[kStep * kTile], b1[kStep * kTile];
};
struct Smem {
  Stage st[kStages];
  uint64_t full[kStages], empty[kStages];
};
[[maybe_unused]] constexpr uint32_t kStageBytes = sizeof(Stage);
[[maybe_unused]] constexpr uint32_t kBoxBytes = kBoxN * kStep * sizeof(__half);  // one B box: LBO

// --- prepass ----------------------------------------------------------------------------------
// 2^(3 - floor(log2 m)): m·scale in [8, 16). 1 for m = 0.
__device__ __forceinline__ float pow2_scale(float m) {
  if (!(m > 0.f)) return 1.f;
  int e = 0;
  frexpf(m, &e);  // m = f·2^e, f in [0.5, 1)
  return ldexpf(1.f, max(-126, min(127, 4 - e)));
}
__device__ __forceinline__ void split(float x, __half& h0, __half& h1) {
  h0 = __float2half_rn(x);
  h1 = __float2half_rn((x - __half2float(h0)) * 2048.f);
}

// One row of an operand, split from its diagonal block's first column c0 (a multiple of 128):
// zero before column `first` (the diagonal), x·scale(column) from there. A warp per row, 16-byte
// loads and 8-byte stores where the row allows (n % 4 == 0), else element by element.
template <class Scale>
__device__ __forceinline__ void split_row(const float* row, int c0, int first, int n, __half* p0,
                                          __half* p1, int lane, const Scale& scale) {
  if (n % 4 == 0) {
#pragma unroll 4
    for (int k = c0 + 4 * lane; k < n; k += 128) {
      const float4 v = *reinterpret_cast<const float4*>(row + k);
      const float x[4] = {v.x, v.y, v.z, v.w};
      __half h0[4], h1[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) split(k + e >= first ? x[e] * scale(k + e) : 0.f, h0[e], h1[e]);
      *reinterpret_cast<uint2*>(p0 + k) = *reinterpret_cast<const uint2*>(h0);
      *reinterpret_cast<uint2*>(p1 + k) = *reinterpret_cast<const uint2*>(h1);
    }
  } else {
    for (int k = c0 + lane; k < n; k += 32) {
      __half h0, h1;
      split(k >= first ? row[k] * scale(k) : 0.f, h0, h1);
      p0[k] = h0;
      p1[k] = h1;
    }
  }
}

// A (upper): one warp per row i, scaled by its own largest |x| (k >= i).
__global__ void split_rows(const float* A, int64_t lda, int n, __half* a0, __half* a1,
                           int64_t ldw, float* inv_sa) {
  const int i = int((int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
  if (i >= n) return;
  const float* row = A + int64_t(i) * lda;
  float m = 0.f;
  if (n % 4 == 0) {
#pragma unroll 4
    for (int k = i / kTile * kTile + 4 * lane; k < n; k += 128) {
      const float4 v = *reinterpret_cast<const float4*>(row + k);
      m = fmaxf(m, fmaxf(fmaxf(k >= i ? fabsf(v.x) : 0.f, k + 1 >= i ? fabsf(v.y) : 0.f),
                         fmaxf(k + 2 >= i ? fabsf(v.z) : 0.f, k + 3 >= i ? fabsf(v.w) : 0.f)));
    }
  } else {
    for (int k = i + lane; k < n; k += 32) m = fmaxf(m, fabsf(row[k]));
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  const float s = pow2_scale(m);
  split_row(row, i / kTile * kTile, i, n, a0 + int64_t(i) * ldw, a1 + int64_t(i) * ldw, lane,
            [s](int) { return s; });
  if (lane == 0) inv_sa[i] = 1.f / s;
}

// B's column maxima (upper: rows k <= j), 16 rows and 4 columns a thread, as unsigned bits
// (order-preserving for non-negative floats); colmax zeroed before.
__global__ void column_max(const float* B, int64_t ldb, int n, unsigned* colmax) {
  const int j = 4 * (blockIdx.x * blockDim.x + threadIdx.x), k0 = blockIdx.y * 16;
  if (j >= n || k0 > j + 3) return;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  const int k1 = min(k0 + 16, min(n, j + 4));
#pragma unroll 4
  for (int k = k0; k < k1; ++k)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (j + e < n && k <= j + e) m[e] = fmaxf(m[e], fabsf(B[int64_t(k) * ldb + j + e]));
#pragma unroll
  for (int e = 0; e < 4; ++e)
    if (j + e < n) atomicMax(colmax + j + e, __float_as_uint(m[e]));
}

// Each column's scale and its inverse, from its maximum.
__global__ void column_scales(const unsigned* colmax, int n, float* sb, float* inv_sb) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const float s = pow2_scale(__uint_as_float(colmax[j]));
  sb[j] = s;
  inv_sb[j] = 1.f / s;
}

// B (upper): one warp per row k, each column scaled by its own largest |x|.
__global__ void split_cols(const float* B, int64_t ldb, int n, const float* sb, __half* b0,
                           __half* b1, int64_t ldw) {
  const int k = int((int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
  if (k >= n) return;
  split_row(B + int64_t(k) * ldb, k / kTile * kTile, k, n, b0 + int64_t(k) * ldw,
            b1 + int64_t(k) * ldw, lane, [sb](int j) { return sb[j]; });
}

// The second form of the prepass: two balanced passes over 2-D tiles of both operands at once
// (32 rows × 256 columns a block, only tiles that reach the triangle or its diagonal blocks):
// the first finds A's row and B's column maxima (atomicMax on the bits), the second splits.
// Rows of 16-byte aligned floats (n % 4 == 0). Thread t: columns 4·(t % 64) … +3 of the tile,
// rows t / 64 + 4·r, r < 8.
constexpr int kTileRows = 32, kTileCols = 256;

// Whether tile (ti, tj) holds elements of the triangle or of its diagonal 128-blocks' zeros.
__device__ __forceinline__ bool tile_needed(int ti, int tj) {
  return tj * kTileCols + kTileCols - 1 >= (ti * kTileRows) / kTile * kTile;
}

__global__ void __launch_bounds__(256) maxima_2d(const float* A, const float* B, int n,
                                                  unsigned* rowmax, unsigned* colmax) {
  const int ti = blockIdx.y, tj = blockIdx.x;
  if (!tile_needed(ti, tj)) return;
  const int t = threadIdx.x, j0 = tj * kTileCols + 4 * (t % 64), lane = t % 32;
  float cm[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    float rm = 0.f;
    if (i < n && j0 < n) {
      const float4 a = *reinterpret_cast<const float4*>(A + int64_t(i) * n + j0);
      const float4 b = *reinterpret_cast<const float4*>(B + int64_t(i) * n + j0);
      const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (j0 + e >= i) {
          rm = fmaxf(rm, fabsf(av[e]));
          cm[e] = fmaxf(cm[e], fabsf(bv[e]));
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) rm = fmaxf(rm, __shfl_xor_sync(0xffffffffu, rm, o));
    if (lane == 0 && i < n && rm > 0.f) atomicMax(rowmax + i, __float_as_uint(rm));
  }
#pragma unroll
  for (int e = 0; e < 4; ++e)
    if (j0 + e < n && cm[e] > 0.f) atomicMax(colmax + j0 + e, __float_as_uint(cm[e]));
}

__global__ void scales_2d(const unsigned* rowmax, const unsigned* colmax, int n, float* inv_sa,
                          float* sb, float* inv_sb) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const float sa = pow2_scale(__uint_as_float(rowmax[j]));
  const float s = pow2_scale(__uint_as_float(colmax[j]));
  inv_sa[j] = 1.f / sa;
  sb[j] = s;
  inv_sb[j] = 1.f / s;
}

__global__ void __launch_bounds__(256) split_2d(const float* A, const float* B, int n,
                                                 const unsigned* rowmax, const float* sb,
                                                 __half* a0, __half* a1, __half* b0, __half* b1,
                                                 int64_t ldw) {
  const int ti = blockIdx.y, tj = blockIdx.x;
  if (!tile_needed(ti, tj)) return;
  const int t = threadIdx.x, j0 = tj * kTileCols + 4 * (t % 64);
  if (j0 >= n) return;
  const float4 s4 = *reinterpret_cast<const float4*>(sb + j0);
  const float sc[4] = {s4.x, s4.y, s4.z, s4.w};
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    if (i >= n || j0 + 3 < i / kTile * kTile) continue;
    const float sa = pow2_scale(__uint_as_float(rowmax[i]));
    const float4 a = *reinterpret_cast<const float4*>(A + int64_t(i) * n + j0);
    const float4 b = *reinterpret_cast<const float4*>(B + int64_t(i) * n + j0);
    const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
    __half ha0[4], ha1[4], hb0[4], hb1[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const bool in = j0 + e >= i;
      split(in ? av[e] * sa : 0.f, ha0[e], ha1[e]);
      split(in ? bv[e] * sc[e] : 0.f, hb0[e], hb1[e]);
    }
    const int64_t o = int64_t(i) * ldw + j0;
    *reinterpret_cast<uint2*>(a0 + o) = *reinterpret_cast<const uint2*>(ha0);
    *reinterpret_cast<uint2*>(a1 + o) = *reinterpret_cast<const uint2*>(ha1);
    *reinterpret_cast<uint2*>(b0 + o) = *reinterpret_cast<const uint2*>(hb0);
    *reinterpret_cast<uint2*>(b1 + o) = *reinterpret_cast<const uint2*>(hb1);
  }
}

// The third form: B's column maxima alone in tall tiles (256 rows × 128 columns a block, the
// block's column maxima reduced in shared memory first: 128 atomics a block where maxima_2d
// issues 1024 a 32-row tile), then A's rows split a warp a row (split_rows, which needs no
// maxima pass) and B's 2-D tiles split with scales taken from the maxima's bits.
constexpr int kTallRows = 256, kTallCols = 128;

__global__ void __launch_bounds__(256) column_max_tall(const float* B, int n, unsigned* colmax) {
  const int k0 = blockIdx.y * kTallRows, c0 = blockIdx.x * kTallCols;
  if (k0 > c0 + kTallCols - 1) return;  // wholly below the diagonal
  __shared__ float part[8][kTallCols];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, j0 = c0 + 4 * lane;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  if (j0 < n) {
#pragma unroll 8
    for (int r = 0; r < kTallRows / 8; ++r) {
      const int k = k0 + w + 8 * r;
      if (k >= n || k > j0 + 3) break;
      const float4 v = *reinterpret_cast<const float4*>(B + int64_t(k) * n + j0);
      const float x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (k <= j0 + e) m[e] = fmaxf(m[e], fabsf(x[e]));
    }
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) part[w][4 * lane + e] = m[e];
  __syncthreads();
  if (threadIdx.x < kTallCols && c0 + int(threadIdx.x) < n) {
    float v = part[0][threadIdx.x];
#pragma unroll
    for (int i = 1; i < 8; ++i) v = fmaxf(v, part[i][threadIdx.x]);
    if (v > 0.f) atomicMax(colmax + c0 + threadIdx.x, __float_as_uint(v));
  }
}

// A's rows as split_rows, and inv_sb[i] from B's column maximum i (final by now).
__global__ void split_rows_b_scales(const float* A, int64_t lda, int n, __half* a0, __half* a1,
                                    int64_t ldw, float* inv_sa, const unsigned* colmax,
                                    float* inv_sb) {
  const int i = int((int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
  if (i >= n) return;
  if (lane == 0) inv_sb[i] = 1.f / pow2_scale(__uint_as_float(colmax[i]));
  const float* row = A + int64_t(i) * lda;
  float m = 0.f;
#pragma unroll 4
  for (int k = i / kTile * kTile + 4 * lane; k < n; k += 128) {
    const float4 v = *reinterpret_cast<const float4*>(row + k);
    m = fmaxf(m, fmaxf(fmaxf(k >= i ? fabsf(v.x) : 0.f, k + 1 >= i ? fabsf(v.y) : 0.f),
                       fmaxf(k + 2 >= i ? fabsf(v.z) : 0.f, k + 3 >= i ? fabsf(v.w) : 0.f)));
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  const float s = pow2_scale(m);
  split_row(row, i / kTile * kTile, i, n, a0 + int64_t(i) * ldw, a1 + int64_t(i) * ldw, lane,
            [s](int) { return s; });
  if (lane == 0) inv_sa[i] = 1.f / s;
}

__global__ void __launch_bounds__(256) split_b_2d(const float* B, int n, const unsigned* colmax,
                                                   __half* b0, __half* b1, int64_t ldw) {
  const int ti = blockIdx.y, tj = blockIdx.x;
  if (!tile_needed(ti, tj)) return;
  const int t = threadIdx.x, j0 = tj * kTileCols + 4 * (t % 64);
  if (j0 >= n) return;
  const uint4 c4 = *reinterpret_cast<const uint4*>(colmax + j0);
  const float sc[4] = {pow2_scale(__uint_as_float(c4.x)), pow2_scale(__uint_as_float(c4.y)),
                       pow2_scale(__uint_as_float(c4.z)), pow2_scale(__uint_as_float(c4.w))};
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    if (i >= n || j0 + 3 < i / kTile * kTile) continue;
    const float4 b = *reinterpret_cast<const float4*>(B + int64_t(i) * n + j0);
    const float bv[4] = {b.x, b.y, b.z, b.w};
    __half hb0[4], hb1[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) split(j0 + e >= i ? bv[e] * sc[e] : 0.f, hb0[e], hb1[e]);
    const int64_t o = int64_t(i) * ldw + j0;
    *reinterpret_cast<uint2*>(b0 + o) = *reinterpret_cast<const uint2*>(hb0);
    *reinterpret_cast<uint2*>(b1 + o) = *reinterpret_cast<const uint2*>(hb1);
  }
}

// The fourth form: both operands' maxima in tall tiles with every load of an 8-row batch issued
// before any is used (the third form's column pass broke out of its row loop, one load in
// flight a thread), then split_2d's tiles in reverse order (the tiles the maxima read last are
// still in L2), scales from the maxima's bits, the last column of tiles writing the inverses.
__global__ void __launch_bounds__(256) maxima_tall(const float* A, const float* B, int n,
                                                    unsigned* rowmax, unsigned* colmax) {
  const int k0 = blockIdx.y * kTallRows, c0 = blockIdx.x * kTallCols;
  if (k0 > c0 + kTallCols - 1) return;
  __shared__ float part[8][kTallCols];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, j0 = c0 + 4 * lane;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  for (int rr = 0; rr < kTallRows / 8 && k0 + 8 * rr <= c0 + kTallCols - 1; rr += 8) {
    float4 a[8], b[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      const bool ok = j0 < n && k < n && k <= j0 + 3;
      a[q] = ok ? *reinterpret_cast<const float4*>(A + int64_t(k) * n + j0) : float4{};
      b[q] = ok ? *reinterpret_cast<const float4*>(B + int64_t(k) * n + j0) : float4{};
    }
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      const float av[4] = {a[q].x, a[q].y, a[q].z, a[q].w}, bv[4] = {b[q].x, b[q].y, b[q].z, b[q].w};
      float rm = 0.f;
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (k <= j0 + e) {
          rm = fmaxf(rm, fabsf(av[e]));
          m[e] = fmaxf(m[e], fabsf(bv[e]));
        }
#pragma unroll
      for (int o = 16; o > 0; o /= 2) rm = fmaxf(rm, __shfl_xor_sync(0xffffffffu, rm, o));
      if (lane == 0 && k < n && rm > 0.f) atomicMax(rowmax + k, __float_as_uint(rm));
    }
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) part[w][4 * lane + e] = m[e];
  __syncthreads();
  if (threadIdx.x < kTallCols && c0 + int(threadIdx.x) < n) {
    float v = part[0][threadIdx.x];
#pragma unroll
    for (int i = 1; i < 8; ++i) v = fmaxf(v, part[i][threadIdx.x]);
    if (v > 0.f) atomicMax(colmax + c0 + threadIdx.x, __float_as_uint(v));
  }
}

__global__ void __launch_bounds__(256) split_2d_rev(const float* A, const float* B, int n,
                                                     const unsigned* rowmax,
                                                     const unsigned* colmax, __half* a0,
                                                     __half* a1, __half* b0, __half* b1,
                                                     int64_t ldw, float* inv_sa, float* inv_sb) {
  const int id = int(gridDim.x * gridDim.y - 1 - (blockIdx.y * gridDim.x + blockIdx.x));
  const int ti = id / int(gridDim.x), tj = id % int(gridDim.x);
  const int t = threadIdx.x;
  if (tj == int(gridDim.x) - 1 && t < kTileRows) {
    const int i = ti * kTileRows + t;
    if (i < n) {
      inv_sa[i] = 1.f / pow2_scale(__uint_as_float(rowmax[i]));
      inv_sb[i] = 1.f / pow2_scale(__uint_as_float(colmax[i]));
    }
  }
  if (!tile_needed(ti, tj)) return;
  const int j0 = tj * kTileCols + 4 * (t % 64);
  if (j0 >= n) return;
  const uint4 c4 = *reinterpret_cast<const uint4*>(colmax + j0);
  const float sc[4] = {pow2_scale(__uint_as_float(c4.x)), pow2_scale(__uint_as_float(c4.y)),
                       pow2_scale(__uint_as_float(c4.z)), pow2_scale(__uint_as_float(c4.w))};
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    if (i >= n || j0 + 3 < i / kTile * kTile) continue;
    const float sa = pow2_scale(__uint_as_float(rowmax[i]));
    const float4 a = *reinterpret_cast<const float4*>(A + int64_t(i) * n + j0);
    const float4 b = *reinterpret_cast<const float4*>(B + int64_t(i) * n + j0);
    const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
    __half ha0[4], ha1[4], hb0[4], hb1[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const bool in = j0 + e >= i;
      split(in ? av[e] * sa : 0.f, ha0[e], ha1[e]);
      split(in ? bv[e] * sc[e] : 0.f, hb0[e], hb1[e]);
    }
    const int64_t o = int64_t(i) * ldw + j0;
    *reinterpret_cast<uint2*>(a0 + o) = *reinterpret_cast<const uint2*>(ha0);
    *reinterpret_cast<uint2*>(a1 + o) = *reinterpret_cast<const uint2*>(ha1);
    *reinterpret_cast<uint2*>(b0 + o) = *reinterpret_cast<const uint2*>(hb0);
    *reinterpret_cast<uint2*>(b1 + o) = *reinterpret_cast<const uint2*>(hb1);
  }
}

// The fifth form: A read once. One launch holds A's rows, a block a row kept in registers (the
// row's maximum reduced across the block, then split from the registers: n <= 256·4·kRowVecs),
// and B's column maxima in tall tiles (blocks past A's rows); then B's tiles are split.
constexpr int kRowVecs = 8;

__global__ void __launch_bounds__(256) rows_a_max_b(const float* A, const float* B, int n,
                                                     __half* a0, __half* a1, int64_t ldw,
                                                     float* inv_sa, unsigned* colmax) {
  __shared__ float part[8][kTallCols];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (int(blockIdx.x) < n) {
    const int i = int(blockIdx.x), c0 = i / kTile * kTile;
    const float* row = A + int64_t(i) * n;
    float4 v[kRowVecs];
    float m = 0.f;
#pragma unroll
    for (int q = 0; q < kRowVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + 256 * q);
      v[q] = k < n ? *reinterpret_cast<const float4*>(row + k) : float4{};
      v[q].x = k >= i ? v[q].x : 0.f;
      v[q].y = k + 1 >= i ? v[q].y : 0.f;
      v[q].z = k + 2 >= i ? v[q].z : 0.f;
      v[q].w = k + 3 >= i ? v[q].w : 0.f;
    }
#pragma unroll
    for (int q = 0; q < kRowVecs; ++q)
      m = fmaxf(m, fmaxf(fmaxf(fabsf(v[q].x), fabsf(v[q].y)), fmaxf(fabsf(v[q].z), fabsf(v[q].w))));
#pragma unroll
    for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) part[0][w] = m;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 8; ++q) m = fmaxf(m, part[0][q]);
    const float s = pow2_scale(m);
    if (threadIdx.x == 0) inv_sa[i] = 1.f / s;
#pragma unroll
    for (int q = 0; q < kRowVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + 256 * q);
      if (k >= n) break;
      const float x[4] = {v[q].x, v[q].y, v[q].z, v[q].w};
      __half h0[4], h1[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) split(x[e] * s, h0[e], h1[e]);
      *reinterpret_cast<uint2*>(a0 + int64_t(i) * ldw + k) = *reinterpret_cast<const uint2*>(h0);
      *reinterpret_cast<uint2*>(a1 + int64_t(i) * ldw + k) = *reinterpret_cast<const uint2*>(h1);
    }
    return;
  }
  const int tiles_x = (n + kTallCols - 1) / kTallCols, id = int(blockIdx.x) - n;
  const int k0 = id / tiles_x * kTallRows, c0 = id % tiles_x * kTallCols, j0 = c0 + 4 * lane;
  if (k0 > c0 + kTallCols - 1) return;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  for (int rr = 0; rr < kTallRows / 8 && k0 + 8 * rr <= c0 + kTallCols - 1; rr += 8) {
    float4 b[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      b[q] = j0 < n && k < n && k <= j0 + 3 ? *reinterpret_cast<const float4*>(B + int64_t(k) * n + j0)
                                            : float4{};
    }
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      const float bv[4] = {b[q].x, b[q].y, b[q].z, b[q].w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (k <= j0 + e) m[e] = fmaxf(m[e], fabsf(bv[e]));
    }
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) part[w][4 * lane + e] = m[e];
  __syncthreads();
  if (threadIdx.x < kTallCols && c0 + int(threadIdx.x) < n) {
    float v = part[0][threadIdx.x];
#pragma unroll
    for (int i = 1; i < 8; ++i) v = fmaxf(v, part[i][threadIdx.x]);
    if (v > 0.f) atomicMax(colmax + c0 + threadIdx.x, __float_as_uint(v));
  }
}

// B's tiles in reverse order, scales from the maxima's bits; the last column of tiles writes
// the inverse column scales.
__global__ void __launch_bounds__(256) split_b_rev(const float* B, int n, const unsigned* colmax,
                                                    __half* b0, __half* b1, int64_t ldw,
                                                    float* inv_sb) {
  const int id = int(gridDim.x * gridDim.y - 1 - (blockIdx.y * gridDim.x + blockIdx.x));
  const int ti = id / int(gridDim.x), tj = id % int(gridDim.x), t = threadIdx.x;
  if (tj == int(gridDim.x) - 1 && t < kTileRows && ti * kTileRows + t < n)
    inv_sb[ti * kTileRows + t] = 1.f / pow2_scale(__uint_as_float(colmax[ti * kTileRows + t]));
  if (!tile_needed(ti, tj)) return;
  const int j0 = tj * kTileCols + 4 * (t % 64);
  if (j0 >= n) return;
  const uint4 c4 = *reinterpret_cast<const uint4*>(colmax + j0);
  const float sc[4] = {pow2_scale(__uint_as_float(c4.x)), pow2_scale(__uint_as_float(c4.y)),
                       pow2_scale(__uint_as_float(c4.z)), pow2_scale(__uint_as_float(c4.w))};
  float4 b[8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    b[r] = i < n && j0 + 3 >= i / kTile * kTile
               ? *reinterpret_cast<const float4*>(B + int64_t(i) * n + j0) : float4{};
  }
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int i = ti * kTileRows + t / 64 + 4 * r;
    if (i >= n || j0 + 3 < i / kTile * kTile) continue;
    const float bv[4] = {b[r].x, b[r].y, b[r].z, b[r].w};
    __half hb0[4], hb1[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) split(j0 + e >= i ? bv[e] * sc[e] : 0.f, hb0[e], hb1[e]);
    const int64_t o = int64_t(i) * ldw + j0;
    *reinterpret_cast<uint2*>(b0 + o) = *reinterpret_cast<const uint2*>(hb0);
    *reinterpret_cast<uint2*>(b1 + o) = *reinterpret_cast<const uint2*>(hb1);
  }
}

// --- main kernel ------------------------------------------------------------------------------
// Persistent where the packed layouts apply (sched::BlockUnits over the dispatch order, as
// sm90_16bit): the ring and its phases continue from a block's unit to the next, so that the
// producer loads the next unit while the consumers store the last.
// kPromote: the main products of each stage in fresh registers, promoted with FADD (as above);
// false: straight into the sum, the tensor cores' own accumulation over the whole band (one
// group a stage, retired a stage later: sm90_16bit's pipeline), to measure what promotion costs.
template <bool kPromote>
__global__ void __launch_bounds__(kThreads, 1)
    fp16x3_kernel(const __grid_constant__ CUtensorMap map_a0,
                  const __grid_constant__ CUtensorMap map_a1,
                  const __grid_constant__ CUtensorMap map_b0,
                  const __grid_constant__ CUtensorMap map_b1, const float* inv_sa,
                  const float* inv_sb, float* C, int64_t ldc, int n, sched::TriangleSchedule s,
                  const __grid_constant__ sched::DispatchOrder order) {
#if TRIMM_SM90_DEVICE
  namespace ptx = trimm::kernels::sm90::ptx;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  Smem& sm = *reinterpret_cast<Smem*>(smem_raw +
                                      ((1024u - (shared_address(smem_raw) & 1023u)) & 1023u));
  const int tid = threadIdx.x;
  const int64_t units = s.num_units();
  auto steps_of = [](const sched::WorkUnit& u) {
    return int((u.k_end - u.k_begin + kStep - 1) / kStep);
  };
  if (tid == 0) {
    for (int i = 0; i < kStages; ++i) {
      ptx::mbar_init(&sm.full[i], 1);
      ptx::mbar_init(&sm.empty[i], 8);  // one arrival per consumer warp
    }
    ptx::mbar_init_fence();
  }
  __syncthreads();

  int64_t x;
  if (tid >= kConsumerThreads) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (tid == 32 * kProducerWarp) {
      int q = 0;  // the block's stages so far: ring slot q % kStages
      for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
        const sched::WorkUnit u = sched::ordered_unit<false>(s, order, x);
        const int m0 = u.bi * kTile, n0 = u.bj * kTile;
        for (int it = 0; it < steps_of(u); ++it, ++q) {
          const int slot = q % kStages;
          if (q >= kStages) ptx::mbar_wait(&sm.empty[slot], ((q / kStages) & 1) ^ 1);
          Stage& st = sm.st[slot];
          const int k0 = int(u.k_begin) + it * kStep;
          ptx::mbar_arrive_expect_tx(&sm.full[slot], kStageBytes);
          ptx::tma_load_3d(st.a0, &map_a0, &sm.full[slot], k0, m0, 0);
          ptx::tma_load_3d(st.a1, &map_a1, &sm.full[slot], k0, m0, 0);
#pragma unroll
          for (int j = 0; j < kTile / kBoxN; ++j) {
            ptx::tma_load_3d(st.b0 + j * kBoxN * kStep, &map_b0, &sm.full[slot],
                             n0 + j * kBoxN, k0, 0);
            ptx::tma_load_3d(st.b1 + j * kBoxN * kStep, &map_b1, &sm.full[slot],
                             n0 + j * kBoxN, k0, 0);
          }
        }
      }
    } else if (tid >= 32 * (kProducerWarp + 1)) {
      for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
        const sched::WorkUnit u = sched::ordered_unit<false>(s, order, x);
        if (sched::TriangleSchedule::zeroes_mirror(u))
          zero_mirror<false, float>(C, ldc, n, u.bi, u.bj, false, kTile,
                                    tid - 32 * (kProducerWarp + 1), kHelperThreads);
      }
    }
    return;
  }

  ptx::setmaxnreg_inc<kConsumerRegs>();
  const int wg = tid / 128;
  const bool lane0 = tid % 32 == 0;
  const uint32_t da = ptx::desc_kmajor_sw128_lo(sm.st[0].a0 + 64 * wg * kStep);
  const uint32_t db = uint32_t(ptx::desc_mnmajor_sw128(sm.st[0].b0, kBoxBytes));
  constexpr uint32_t kSlot = kStageBytes >> 4, kPlane = (kTile * kStep * sizeof(__half)) >> 4;
  constexpr uint32_t kStepA = (16 * sizeof(__half)) >> 4;          // k16: 32 bytes along a row
  constexpr uint32_t kStepB = (16 * kBoxN * sizeof(__half)) >> 4;  // k16: 16 rows of 128 bytes
  const int q4 = (tid % 128) / 32, g = (tid % 32) / 4, t = tid % 4;
  int q = 0;
  for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
    const sched::WorkUnit u = sched::ordered_unit<false>(s, order, x);
    const int m0 = u.bi * kTile, n0 = u.bj * kTile, steps = steps_of(u);
    float acc[64], cross[64], part[64];
#pragma unroll
    for (int r = 0; r < 64; ++r) acc[r] = cross[r] = part[r] = 0.f;
    for (int it = 0; it < steps; ++it, ++q) {
      const int slot = q % kStages;
      ptx::mbar_wait(&sm.full[slot], (q / kStages) & 1);
#pragma unroll
      for (int r = 0; r < 64; ++r) ptx::pin(part[r]);
      ptx::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < kStep / 16; ++kk) {
        const uint32_t a = da + slot * kSlot + kStepA * kk, b = db + slot * kSlot + kStepB * kk;
        if constexpr (kPromote)
          ptx::wgmma_m64n128k16_ss<false>(part, ptx::desc_kmajor_sw128_from_lo(a),
                                          ptx::desc_kmajor_sw128_from_lo(b), kk > 0);
        else
          ptx::wgmma_m64n128k16_ss<false>(acc, ptx::desc_kmajor_sw128_from_lo(a),
                                          ptx::desc_kmajor_sw128_from_lo(b), 1);
      }
      if constexpr (kPromote) ptx::wgmma_commit();
#pragma unroll
      for (int kk = 0; kk < kStep / 16; ++kk) {
        const uint32_t a = da + slot * kSlot + kStepA * kk, b = db + slot * kSlot + kStepB * kk;
        ptx::wgmma_m64n128k16_ss<false>(cross, ptx::desc_kmajor_sw128_from_lo(a),
                                        ptx::desc_kmajor_sw128_from_lo(b + kPlane), 1);
        ptx::wgmma_m64n128k16_ss<false>(cross, ptx::desc_kmajor_sw128_from_lo(a + kPlane),
                                        ptx::desc_kmajor_sw128_from_lo(b), 1);
      }
      ptx::wgmma_commit();
      ptx::wgmma_wait<1>();  // kPromote: this stage's main group and the last stage's cross group
      if (it > 0 && lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kStages]);
      if constexpr (kPromote) {
#pragma unroll
        for (int r = 0; r < 64; ++r) {
          ptx::pin(part[r]);
          acc[r] += part[r];
        }
      }
    }
    ptx::wgmma_wait<0>();
#pragma unroll
    for (int r = 0; r < 64; ++r) {
      ptx::pin(acc[r]);
      ptx::pin(cross[r]);
    }
    if (lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kStages]);

    // C(m, c) for accumulator 4j + 2h + e: m = m0 + 64·wg + 16q4 + g + 8h, c = n0 + 8j + 2t + e.
    // The column scales first, all loads in flight at once (one at each use stalled 31 % of the
    // first form's issue slots).
    float isb[32];
#pragma unroll
    for (int j = 0; j < 16; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int c = n0 + 8 * j + 2 * t + e;
        isb[2 * j + e] = c < n ? inv_sb[c] : 0.f;
      }
    const bool diag = u.bi == u.bj;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int m = m0 + 64 * wg + 16 * q4 + g + 8 * h;
      if (m >= n) continue;
      const float ia = inv_sa[m];
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int c = n0 + 8 * j + 2 * t;
        float v[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int r = 4 * j + 2 * h + e;
          const float sum = acc[r] + cross[r] * (1.f / 2048.f);
          v[e] = diag && m > c + e ? 0.f : sum * ia * isb[2 * j + e];
        }
        float* out = C + int64_t(m) * ldc + c;
        if (c + 1 < n && (reinterpret_cast<uintptr_t>(out) & 7) == 0) {
          *reinterpret_cast<float2*>(out) = make_float2(v[0], v[1]);
        } else {
          if (c < n) out[0] = v[0];
          if (c + 1 < n) out[1] = v[1];
        }
      }
    }
  }
#else
  __trap();
#endif
}

// One block a slot, each walking its packed list of units (sched's persistent layout where it has
// one for n, else one block a unit, longest first).
// A unit's time in stages plus its epilogue's (sm90_16bit's weight), for the packing.
double unit_cost(const sched::WorkUnit& u) {
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + 7.0;
}

template <bool kPromote>
void launch_main(const CUtensorMap& a0, const CUtensorMap& a1, const CUtensorMap& b0,
                 const CUtensorMap& b1, const float* inv_sa, const float* inv_sb, float* C, int n,
                 int sms, int smem) {
  launch_unsplit(n, 1, kTile, kStep, sms, unit_cost, /*persistent=*/true, /*dense=*/false,
                 [&](dim3 grid, const sched::TriangleSchedule& s, int64_t,
                     const sched::DispatchOrder& order) {
                   fp16x3_kernel<kPromote><<<grid, kThreads, smem>>>(a0, a1, b0, b1, inv_sa,
                                                                    inv_sb, C, n, n, s, order);
                 });
}

// --- host -------------------------------------------------------------------------------------
__global__ void flush_l2(float* p, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = float(i);
}

template <class F>
float median_ms(F&& f, float* flush, size_t flush_count) {
  cudaEvent_t a, b;
  PROBE_CHECK(cudaEventCreate(&a));
  PROBE_CHECK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < 33; ++i) {
    flush_l2<<<1024, 256>>>(flush, flush_count);
    PROBE_CHECK(cudaEventRecord(a));
    f();
    PROBE_CHECK(cudaEventRecord(b));
    PROBE_CHECK(cudaEventSynchronize(b));
    float ms = 0.f;
    PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// ||C − R|| / ||R|| over the triangle; NaN if any element of C's other triangle is not +0.
double normwise(int n, const std::vector<float>& C, const std::vector<double>& R) {
  double e2 = 0, r2 = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double c = C[size_t(i) * n + j], r = R[size_t(i) * n + j];
      if (j < i) {
        if (!(c == 0.0)) return NAN;
        continue;
      }
      e2 += (c - r) * (c - r);
      r2 += r * r;
    }
  return std::sqrt(e2 / r2);
}

}  // namespace

int main(int argc, char** argv) {
  int count = 0, dev = 0, major = 0, sms = 0, l2 = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("probe_sm90_fp16x3: no CUDA device; skipped\n");
    return 0;
  }
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  if (major != 9) {
    std::printf("probe_sm90_fp16x3: needs an sm_90 GPU; skipped\n");
    return 0;
  }
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {4096};
  const size_t flush_count = size_t(l2) / 2;  // 2x the L2 in bytes
  float* flush = nullptr;
  PROBE_CHECK(cudaMalloc(&flush, flush_count * sizeof(float)));
  constexpr int kSmem = int(sizeof(Smem)) + 1024;
  PROBE_CHECK(cudaFuncSetAttribute(fp16x3_kernel<true>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  PROBE_CHECK(cudaFuncSetAttribute(fp16x3_kernel<false>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  std::printf("%6s %-6s %9s %9s %9s %9s %10s %10s\n", "n", "inputs", "prepass", "main", "total",
              "tf32x3", "err fp16x3", "err tf32x3");
  for (const int n : sizes)
    for (const bool normal : {false, true}) {
      const int64_t ldw = (n + 63) / 64 * 64;
      std::mt19937_64 rng(n * 2 + normal);
      std::uniform_real_distribution<float> U(0.f, 1.f);
      std::normal_distribution<float> N(0.f, 1.f);
      std::vector<float> hA(size_t(n) * n, 0.f), hB(size_t(n) * n, 0.f);
      for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j) {
          hA[size_t(i) * n + j] = normal ? N(rng) : U(rng);
          hB[size_t(i) * n + j] = normal ? N(rng) : U(rng);
        }
      float *A, *B, *C, *C2, *inv_sa, *inv_sb, *sb;
      __half *a0, *a1, *b0, *b1;
      unsigned *colmax, *rowmax;
      double* R;
      const size_t nn = size_t(n) * n, plane = size_t(n) * ldw;
      PROBE_CHECK(cudaMalloc(&A, nn * 4));
      PROBE_CHECK(cudaMalloc(&B, nn * 4));
      PROBE_CHECK(cudaMalloc(&C, nn * 4));
      PROBE_CHECK(cudaMalloc(&C2, nn * 4));
      PROBE_CHECK(cudaMalloc(&R, nn * 8));
      PROBE_CHECK(cudaMalloc(&a0, plane * 2));
      PROBE_CHECK(cudaMalloc(&a1, plane * 2));
      PROBE_CHECK(cudaMalloc(&b0, plane * 2));
      PROBE_CHECK(cudaMalloc(&b1, plane * 2));
      PROBE_CHECK(cudaMalloc(&inv_sa, size_t(n) * 4));
      PROBE_CHECK(cudaMalloc(&inv_sb, size_t(n) * 4));
      PROBE_CHECK(cudaMalloc(&sb, size_t(n) * 4));
      PROBE_CHECK(cudaMalloc(&colmax, size_t(n) * 4));
      PROBE_CHECK(cudaMalloc(&rowmax, size_t(n) * 4));
      PROBE_CHECK(cudaMemcpy(A, hA.data(), nn * 4, cudaMemcpyHostToDevice));
      PROBE_CHECK(cudaMemcpy(B, hB.data(), nn * 4, cudaMemcpyHostToDevice));
      PROBE_CHECK(cudaMemset(C, 0xFF, nn * 4));  // NaN: every element must be written
      const CUtensorMap m_a0 = sm90::make_map(reinterpret_cast<const half_t*>(a0), n, ldw, 0, 1,
                                              kBoxN, kTile);
      const CUtensorMap m_a1 = sm90::make_map(reinterpret_cast<const half_t*>(a1), n, ldw, 0, 1,
                                              kBoxN, kTile);
      const CUtensorMap m_b0 = sm90::make_map(reinterpret_cast<const half_t*>(b0), n, ldw, 0, 1,
                                              kBoxN, kStep);
      const CUtensorMap m_b1 = sm90::make_map(reinterpret_cast<const half_t*>(b1), n, ldw, 0, 1,
                                              kBoxN, kStep);
      auto rows = [&] { split_rows<<<(n + 7) / 8, 256>>>(A, n, n, a0, a1, ldw, inv_sa); };
      auto maxima = [&] {
        PROBE_CHECK(cudaMemsetAsync(colmax, 0, size_t(n) * 4));
        column_max<<<dim3((n + 1023) / 1024, (n + 15) / 16), 256>>>(B, n, n, colmax);
        column_scales<<<(n + 255) / 256, 256>>>(colmax, n, sb, inv_sb);
      };
      auto cols = [&] { split_cols<<<(n + 7) / 8, 256>>>(B, n, n, sb, b0, b1, ldw); };
      auto prepass = [&] {
        rows();
        maxima();
        cols();
      };
      auto main_kernel = [&] {
        launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C, n, sms, kSmem);
      };
      prepass();
      main_kernel();
      PROBE_CHECK(cudaGetLastError());
      PROBE_CHECK(cudaDeviceSynchronize());
      std::vector<float> hC(nn), hC2(nn);
      PROBE_CHECK(cudaMemcpy(hC.data(), C, nn * 4, cudaMemcpyDeviceToHost));
      trtrmm(Fill::Upper, n, A, n, B, n, C2, n);
      PROBE_CHECK(cudaDeviceSynchronize());
      PROBE_CHECK(cudaMemcpy(hC2.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
      launch_naive_fp64_reference(Fill::Upper, n, A, n, B, n, R, n, nullptr);
      std::vector<double> hR(nn);
      PROBE_CHECK(cudaMemcpy(hR.data(), R, nn * 8, cudaMemcpyDeviceToHost));
      const float t_pre = median_ms(prepass, flush, flush_count);
      std::printf("%6d prepass pieces: split_rows %.4f, column maxima %.4f, split_cols %.4f ms\n",
                  n, median_ms(rows, flush, flush_count), median_ms(maxima, flush, flush_count),
                  median_ms(cols, flush, flush_count));
      // The second form: both operands' maxima in one tiled pass, then one tiled split. The same
      // planes (the same scales), so C must come out identical.
      if (n % 4 == 0) {
        const dim3 tiles((n + kTileCols - 1) / kTileCols, (n + kTileRows - 1) / kTileRows);
        auto maxima2 = [&] {
          PROBE_CHECK(cudaMemsetAsync(rowmax, 0, size_t(n) * 4));
          PROBE_CHECK(cudaMemsetAsync(colmax, 0, size_t(n) * 4));
          maxima_2d<<<tiles, 256>>>(A, B, n, rowmax, colmax);
          scales_2d<<<(n + 255) / 256, 256>>>(rowmax, colmax, n, inv_sa, sb, inv_sb);
        };
        auto split2 = [&] {
          split_2d<<<tiles, 256>>>(A, B, n, rowmax, sb, a0, a1, b0, b1, ldw);
        };
        auto prepass2 = [&] {
          maxima2();
          split2();
        };
        PROBE_CHECK(cudaMemset(C2, 0xFF, nn * 4));
        for (__half* p : {a0, a1, b0, b1})  // NaN: stale planes must not hide a gap
          PROBE_CHECK(cudaMemset(p, 0xFF, plane * 2));
        prepass2();
        launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
        PROBE_CHECK(cudaDeviceSynchronize());
        std::vector<float> hC4(nn);
        PROBE_CHECK(cudaMemcpy(hC4.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
        std::printf("%6d tiled prepass: %.4f ms (maxima %.4f, split %.4f), C %s\n", n,
                    median_ms(prepass2, flush, flush_count), median_ms(maxima2, flush, flush_count),
                    median_ms(split2, flush, flush_count),
                    std::memcmp(hC4.data(), hC.data(), nn * 4) == 0 ? "identical" : "DIFFERS");
        // The third form: B's maxima alone in tall tiles, A's rows a warp each, B's tiles.
        auto maxima3 = [&] {
          PROBE_CHECK(cudaMemsetAsync(colmax, 0, size_t(n) * 4));
          column_max_tall<<<dim3((n + kTallCols - 1) / kTallCols,
                                 (n + kTallRows - 1) / kTallRows), 256>>>(B, n, colmax);
        };
        auto rows3 = [&] {
          split_rows_b_scales<<<(n + 7) / 8, 256>>>(A, n, n, a0, a1, ldw, inv_sa, colmax, inv_sb);
        };
        auto cols3 = [&] { split_b_2d<<<tiles, 256>>>(B, n, colmax, b0, b1, ldw); };
        auto prepass3 = [&] {
          maxima3();
          rows3();
          cols3();
        };
        PROBE_CHECK(cudaMemset(C2, 0xFF, nn * 4));
        for (__half* p : {a0, a1, b0, b1}) PROBE_CHECK(cudaMemset(p, 0xFF, plane * 2));
        for (float* p : {inv_sa, inv_sb}) PROBE_CHECK(cudaMemset(p, 0xFF, size_t(n) * 4));
        prepass3();
        launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
        PROBE_CHECK(cudaDeviceSynchronize());
        PROBE_CHECK(cudaMemcpy(hC4.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
        std::printf("%6d third prepass: %.4f ms (B maxima %.4f, A rows %.4f, B tiles %.4f), C %s\n",
                    n, median_ms(prepass3, flush, flush_count),
                    median_ms(maxima3, flush, flush_count), median_ms(rows3, flush, flush_count),
                    median_ms(cols3, flush, flush_count),
                    std::memcmp(hC4.data(), hC.data(), nn * 4) == 0 ? "identical" : "DIFFERS");
        std::printf("%6d third prepass + main: %.4f ms\n", n, median_ms([&] {
                      prepass3();
                      launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
                    }, flush, flush_count));
        auto maxima4 = [&] {
          PROBE_CHECK(cudaMemsetAsync(rowmax, 0, size_t(n) * 4));
          PROBE_CHECK(cudaMemsetAsync(colmax, 0, size_t(n) * 4));
          maxima_tall<<<dim3((n + kTallCols - 1) / kTallCols, (n + kTallRows - 1) / kTallRows),
                        256>>>(A, B, n, rowmax, colmax);
        };
        auto split4 = [&] {
          split_2d_rev<<<tiles, 256>>>(A, B, n, rowmax, colmax, a0, a1, b0, b1, ldw, inv_sa,
                                       inv_sb);
        };
        auto prepass4 = [&] {
          maxima4();
          split4();
        };
        PROBE_CHECK(cudaMemset(C2, 0xFF, nn * 4));
        for (__half* p : {a0, a1, b0, b1}) PROBE_CHECK(cudaMemset(p, 0xFF, plane * 2));
        for (float* p : {inv_sa, inv_sb}) PROBE_CHECK(cudaMemset(p, 0xFF, size_t(n) * 4));
        prepass4();
        launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
        PROBE_CHECK(cudaDeviceSynchronize());
        PROBE_CHECK(cudaMemcpy(hC4.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
        std::printf("%6d fourth prepass: %.4f ms (maxima %.4f, split %.4f), C %s\n", n,
                    median_ms(prepass4, flush, flush_count), median_ms(maxima4, flush, flush_count),
                    median_ms(split4, flush, flush_count),
                    std::memcmp(hC4.data(), hC.data(), nn * 4) == 0 ? "identical" : "DIFFERS");
        std::printf("%6d fourth prepass + main: %.4f ms\n", n, median_ms([&] {
                      prepass4();
                      launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
                    }, flush, flush_count));
        if (n <= 256 * 4 * kRowVecs) {
          const int tall = (n + kTallCols - 1) / kTallCols * ((n + kTallRows - 1) / kTallRows);
          auto first5 = [&] {
            PROBE_CHECK(cudaMemsetAsync(colmax, 0, size_t(n) * 4));
            rows_a_max_b<<<n + tall, 256>>>(A, B, n, a0, a1, ldw, inv_sa, colmax);
          };
          auto split5 = [&] { split_b_rev<<<tiles, 256>>>(B, n, colmax, b0, b1, ldw, inv_sb); };
          auto prepass5 = [&] {
            first5();
            split5();
          };
          PROBE_CHECK(cudaMemset(C2, 0xFF, nn * 4));
          for (__half* p : {a0, a1, b0, b1}) PROBE_CHECK(cudaMemset(p, 0xFF, plane * 2));
          for (float* p : {inv_sa, inv_sb}) PROBE_CHECK(cudaMemset(p, 0xFF, size_t(n) * 4));
          prepass5();
          launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
          PROBE_CHECK(cudaDeviceSynchronize());
          PROBE_CHECK(cudaMemcpy(hC4.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
          std::printf("%6d fifth prepass: %.4f ms (A rows + B maxima %.4f, B split %.4f), C %s\n",
                      n, median_ms(prepass5, flush, flush_count),
                      median_ms(first5, flush, flush_count), median_ms(split5, flush, flush_count),
                      std::memcmp(hC4.data(), hC.data(), nn * 4) == 0 ? "identical" : "DIFFERS");
          std::printf("%6d fifth prepass + main: %.4f ms\n", n, median_ms([&] {
                        prepass5();
                        launch_main<true>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms,
                                          kSmem);
                      }, flush, flush_count));
        }
        // The bytes' time in this setup: a device copy of both operands (67 MB at 4096: what
        // the prepass reads and, in fp16 planes, writes).
        std::printf("%6d copy of A and B (D2D, %zu MB): %.4f ms\n", n, 2 * nn * 4 >> 20,
                    median_ms([&] {
                      PROBE_CHECK(cudaMemcpyAsync(R, A, nn * 4, cudaMemcpyDeviceToDevice));
                      PROBE_CHECK(cudaMemcpyAsync(reinterpret_cast<float*>(R) + nn, B, nn * 4,
                                                  cudaMemcpyDeviceToDevice));
                    }, flush, flush_count));
      }
      const float t_main = median_ms(main_kernel, flush, flush_count);
      auto no_promotion = [&] {
        launch_main<false>(m_a0, m_a1, m_b0, m_b1, inv_sa, inv_sb, C2, n, sms, kSmem);
      };
      no_promotion();
      PROBE_CHECK(cudaDeviceSynchronize());
      std::vector<float> hC3(nn);
      PROBE_CHECK(cudaMemcpy(hC3.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
      std::printf("%6d main kernel without promotion: %.4f ms, error %.2e\n", n,
                  median_ms(no_promotion, flush, flush_count), normwise(n, hC3, hR));
      const float t_all = median_ms([&] { prepass(); main_kernel(); }, flush, flush_count);
      const float t_tf = median_ms([&] { trtrmm(Fill::Upper, n, A, n, B, n, C2, n); }, flush,
                                   flush_count);
      std::printf("%6d %-6s %9.4f %9.4f %9.4f %9.4f %10.2e %10.2e\n", n, normal ? "randn" : "rand",
                  t_pre, t_main, t_all, t_tf, normwise(n, hC, hR), normwise(n, hC2, hR));
      for (void* p : {(void*)A, (void*)B, (void*)C, (void*)C2, (void*)R, (void*)a0, (void*)a1,
                      (void*)b0, (void*)b1, (void*)inv_sa, (void*)inv_sb, (void*)sb,
                      (void*)colmax, (void*)rowmax})
        PROBE_CHECK(cudaFree(p));
    }
  PROBE_CHECK(cudaFree(flush));
  return 0;
}
