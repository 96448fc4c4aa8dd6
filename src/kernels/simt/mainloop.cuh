// The FFMA multiply of one pipeline stage: an 8×8 block of accumulators per thread. The stages
// come from the shared slice loader (kernels/common/slice_loader.cuh).
#pragma once

#include "kernels/common/slice_loader.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::simt {

// The part of the 128×128 tile a stage can change. A' is upper triangular (A'(m, k) = 0 for
// k < m) and B' too (B'(k, j) = 0 for k > j), so a stage wholly left of the tile's row 64 meets
// only zeros in A' rows 64..127 (TopRows), and one wholly below column 63 only zeros in B'
// columns 0..63 (RightCols): half the FFMAs of the band's first and last k block
// (sched::HalfStages says which stages). Block-uniform, so the choice is a loop of its own, never
// a branch around the multiply.
enum class Part { All, TopRows, RightCols };

// acc[i][j] += A'[row(i)][k]·B'[k][col(j)] over BK consecutive k of one stage, starting at k_off.
// Thread (ty, tx) of a 16×16 group owns rows {ty·4 + i, 64 + ty·4 + i} and the same columns
// pattern in tx: two 4-wide vectors per operand per k, all of them 16-byte shared loads.
template <int BK, Part kPart, int KT, int W, int PAD>
__device__ __forceinline__ void multiply_stage(const Stage<KT, W, PAD>& As,
                                               const Stage<KT, W, PAD>& Bs,
                                               int k_off, int ty, int tx, float (&acc)[8][8]) {
  static_assert(W == 128, "the 16×16 thread layout with 8×8 accumulators covers 128×128");
  constexpr int kI1 = kPart == Part::TopRows ? 4 : 8;    // rows i < kI1 (i >= 4: rows 64..127)
  constexpr int kJ0 = kPart == Part::RightCols ? 4 : 0;  // columns j >= kJ0 (j < 4: 0..63)
#pragma unroll
  for (int kk = 0; kk < BK; ++kk) {
    float a[8], b[8];
    const float4 a0 = *reinterpret_cast<const float4*>(&As.v[k_off + kk][ty * 4]);
    a[0] = a0.x, a[1] = a0.y, a[2] = a0.z, a[3] = a0.w;
    if constexpr (kI1 == 8) {
      const float4 a1 = *reinterpret_cast<const float4*>(&As.v[k_off + kk][64 + ty * 4]);
      a[4] = a1.x, a[5] = a1.y, a[6] = a1.z, a[7] = a1.w;
    }
    if constexpr (kJ0 == 0) {
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs.v[k_off + kk][tx * 4]);
      b[0] = b0.x, b[1] = b0.y, b[2] = b0.z, b[3] = b0.w;
    }
    const float4 b1 = *reinterpret_cast<const float4*>(&Bs.v[k_off + kk][64 + tx * 4]);
    b[4] = b1.x, b[5] = b1.y, b[6] = b1.z, b[7] = b1.w;
#pragma unroll
    for (int i = 0; i < kI1; ++i)
#pragma unroll
      for (int j = kJ0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

}  // namespace trimm::kernels::simt
