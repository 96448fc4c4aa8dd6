// The epilogue owns C: it sums the k groups, masks the diagonal tiles, writes each tile where the
// scheduler says (the tile itself, or its mirror for a chunk-1 partial), and owns C's zero
// triangle: Zero units, and the fix-up pass that folds mirrors back and zeroes them.
#pragma once

#include <cstdint>

#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::simt {

// Element (r, c) of C', the upper product, lives at C[r·ldc + c] when C is row-major in C'
// coordinates (the Upper product) and at C[c·ldc + r] when C' is C transposed (the Lower
// product, computed as Cᵀ = Bᵀ·Aᵀ).
struct OutView {
  float* C;
  int64_t ldc, n;
};

// Writes rows {half·64 + ty·4 + i} × columns {jh·64 + tx·4 + e} of a 128×128 tile at (row0, col0)
// of C', from acc[half·4 + i][jh·4 + e]. kColwise: C' is stored column-major (see OutView); a
// template argument, because choosing at run time inside the stores costs registers (spills).
// diag: the tile straddles the diagonal, so r > c is written as zero (its sum could be 0·Inf).
template <bool kVec, bool kColwise>
__device__ void store_half(const OutView& o, bool diag, int64_t row0, int64_t col0, int half,
                           int ty, int tx, const float (&acc)[8][8]) {
  const int64_t r0 = row0 + half * 64 + ty * 4;
#pragma unroll
  for (int jh = 0; jh < 2; ++jh) {
    const int64_t c0 = col0 + jh * 64 + tx * 4;
    float v[4][4];  // [i][e], masked
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) v[i][e] = (diag && r0 + i > c0 + e) ? 0.f : acc[half * 4 + i][jh * 4 + e];
    if constexpr (!kColwise) {
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int64_t r = r0 + i;
        if (r >= o.n) continue;
        float* q = o.C + r * o.ldc + c0;
        if (kVec && c0 + 3 < o.n) {
          *reinterpret_cast<float4*>(q) = make_float4(v[i][0], v[i][1], v[i][2], v[i][3]);
        } else {
#pragma unroll
          for (int e = 0; e < 4; ++e)
            if (c0 + e < o.n) q[e] = v[i][e];
        }
      }
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int64_t c = c0 + e;
        if (c >= o.n) continue;
        float* q = o.C + c * o.ldc + r0;
        if (kVec && r0 + 3 < o.n) {
          *reinterpret_cast<float4*>(q) = make_float4(v[0][e], v[1][e], v[2][e], v[3][e]);
        } else {
#pragma unroll
          for (int i = 0; i < 4; ++i)
            if (r0 + i < o.n) q[i] = v[i][e];
        }
      }
    }
  }
}

// Sums the two k groups' accumulators and stores the tile. Group g finishes rows half g: in
// round r, group 1-r hands half r to group r through shared memory (`red`, 8·GT float4s = 32 KB
// for GT = 256), then group r adds and stores it. IEEE addition commutes, so the sum is the same
// whichever group adds.
template <int GT, bool kVec, bool kColwise>
__device__ void reduce_and_store(float4* red, const OutView& o, bool diag,
                                 int64_t row0, int64_t col0, int group, int lt, int ty, int tx,
                                 float (&acc)[8][8]) {
#pragma unroll
  for (int round = 0; round < 2; ++round) {
    if (group != round) {
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int jh = 0; jh < 2; ++jh) {
          const float* a = &acc[round * 4 + i][jh * 4];
          red[(i * 2 + jh) * GT + lt] = make_float4(a[0], a[1], a[2], a[3]);
        }
    }
    __syncthreads();
    if (group == round) {
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int jh = 0; jh < 2; ++jh) {
          const float4 t = red[(i * 2 + jh) * GT + lt];
          float* a = &acc[round * 4 + i][jh * 4];
          a[0] += t.x, a[1] += t.y, a[2] += t.z, a[3] += t.w;
        }
      store_half<kVec, kColwise>(o, diag, row0, col0, round, ty, tx, acc);
    }
    if (round == 0) __syncthreads();  // red is refilled in round 1
  }
}

// Fills rows [row0, row0+rows) × columns [col0, col0+cols) of row-major C with zeros.
template <bool kVec>
__device__ void zero_region(float* C, int64_t ldc, int64_t n, int64_t row0, int64_t col0,
                            int rows, int cols, int tid, int threads) {
  const int vecs = cols / 4;
  for (int idx = tid; idx < rows * vecs; idx += threads) {
    const int64_t r = row0 + idx / vecs, c = col0 + (idx % vecs) * 4;
    if (r >= n) continue;
    float* q = C + r * ldc + c;
    if (kVec && c + 3 < n) {
      *reinterpret_cast<float4*>(q) = make_float4(0.f, 0.f, 0.f, 0.f);
    } else {
      for (int e = 0; e < 4; ++e)
        if (c + e < n) q[e] = 0.f;
    }
  }
}

// The fix-up pass for split tiles: C'(tile) += transpose(mirror), then the mirror becomes zero.
// In row-major C the pair is X = C[P rows, Q cols] and M = C[Q rows, P cols]; 32×32 sub-tiles go
// through shared memory so that both are read and written along rows. Grid: (fix-up tiles,
// batch); block: 32×8.
template <int TILE>
__global__ void __launch_bounds__(256) fixup_split_tiles(float* C, int64_t ldc, int64_t stride_c,
                                                         sched::TriangleSchedule s, bool transposed,
                                                         int64_t batch_offset) {
  __shared__ float t[32][33];
  int bi, bj;
  s.fixup_tile(blockIdx.x, &bi, &bj);
  C += (batch_offset + blockIdx.y) * stride_c;
  const int64_t n = s.n;
  const int64_t P0 = int64_t(transposed ? bj : bi) * TILE, Q0 = int64_t(transposed ? bi : bj) * TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int sp = 0; sp < TILE; sp += 32)
    for (int sq = 0; sq < TILE; sq += 32) {
      for (int y = ty; y < 32; y += 8) {  // M[q][p], q = Q0+sq+y, p = P0+sp+tx
        const int64_t q = Q0 + sq + y, p = P0 + sp + tx;
        if (q < n && p < n) {
          t[y][tx] = C[q * ldc + p];
          C[q * ldc + p] = 0.f;
        }
      }
      __syncthreads();
      for (int y = ty; y < 32; y += 8) {  // X[p][q] += M[q][p], p = P0+sp+y, q = Q0+sq+tx
        const int64_t p = P0 + sp + y, q = Q0 + sq + tx;
        if (p < n && q < n) C[p * ldc + q] += t[tx][y];
      }
      __syncthreads();
    }
}

}  // namespace trimm::kernels::simt
