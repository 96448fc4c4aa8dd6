// The FFMA multiply of one pipeline stage: an 8×8 block of accumulators per thread. The stages
// come from the shared slice loader (kernels/common/slice_loader.cuh).
#pragma once

#include "kernels/common/slice_loader.cuh"

namespace trimm::kernels::simt {

// acc[i][j] += A'[row(i)][k]·B'[k][col(j)] over BK consecutive k of one stage, starting at k_off.
// Thread (ty, tx) of a 16×16 group owns rows {ty·4 + i, 64 + ty·4 + i} and the same columns
// pattern in tx: two 4-wide vectors per operand per k, all of them 16-byte shared loads.
template <int BK, int KT, int W, int PAD>
__device__ __forceinline__ void multiply_stage(const Stage<KT, W, PAD>& As,
                                               const Stage<KT, W, PAD>& Bs,
                                               int k_off, int ty, int tx, float (&acc)[8][8]) {
  static_assert(W == 128, "the 16×16 thread layout with 8×8 accumulators covers 128×128");
#pragma unroll
  for (int kk = 0; kk < BK; ++kk) {
    const float4 a0 = *reinterpret_cast<const float4*>(&As.v[k_off + kk][ty * 4]);
    const float4 a1 = *reinterpret_cast<const float4*>(&As.v[k_off + kk][64 + ty * 4]);
    const float4 b0 = *reinterpret_cast<const float4*>(&Bs.v[k_off + kk][tx * 4]);
    const float4 b1 = *reinterpret_cast<const float4*>(&Bs.v[k_off + kk][64 + tx * 4]);
    const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

}  // namespace trimm::kernels::simt
