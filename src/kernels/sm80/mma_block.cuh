// What the mma.sync kernels (sm80_tf32x3, sm80_16bit) share: a grid of warps over the tile
// (each holding whole m16n8 accumulator tiles) and the unit's operands as the upper product
// sees them.
#pragma once

#include <cstdint>

#include "kernels/launch.hpp"

namespace trimm::kernels::mma {

// Lane (g, t) = (lane / 4, lane % 4) of the PTX fragment layouts, and the warp's block of the
// tile: rows [wm, wm + warp_m), columns [wn, wn + warp_n); warps_n warps across a row of warps.
struct WarpCoords {
  int g, t, wm, wn;
  __device__ WarpCoords(int tid, int warps_n, int warp_m, int warp_n) {
    const int warp = tid / 32, lane = tid % 32;
    g = lane / 4;
    t = lane % 4;
    wm = (warp / warps_n) * warp_m;
    wn = (warp % warps_n) * warp_n;
  }
};

template <int M, int N>
__device__ __forceinline__ void zero(float (&acc)[M][N][4]) {
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < N; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
}

// Batch entry b's operands of the upper product C' = A'·B': A' = A and B' = B (Upper), or, for
// the Lower product run as C'ᵀ = Bᵀ·Aᵀ (kTrans), A' = Bᵀ and B' = Aᵀ, each with its ld.
template <bool kTrans, typename T>
struct UnitOperands {
  const T *a, *b;
  int64_t lda, ldb;
  __device__ UnitOperands(const MatrixProblem<T>& p, int64_t batch)
      : a(kTrans ? p.B + batch * p.stride_b : p.A + batch * p.stride_a),
        b(kTrans ? p.A + batch * p.stride_a : p.B + batch * p.stride_b),
        lda(kTrans ? p.ldb : p.lda),
        ldb(kTrans ? p.lda : p.ldb) {}
};

}  // namespace trimm::kernels::mma
