// The FFMA epilogue: sums the k groups, masks the diagonal tiles and writes each tile where the
// scheduler says (the tile itself, or its mirror for a chunk-1 partial). C's zero triangle is
// kernels/common/tile_store.cuh's.
#pragma once

#include <cstdint>

#include "kernels/common/tile_store.cuh"

namespace trimm::kernels::simt {

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

}  // namespace trimm::kernels::simt
