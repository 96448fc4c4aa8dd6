// What every kernel family does with C besides storing its tiles: the addressing of C' (the
// upper product, which is C or Cᵀ), the Zero units of C's other triangle, and the fix-up pass
// that folds split tiles' mirror partials back and zeroes the mirrors.
#pragma once

#include <cstdint>

#include "kernels/launch.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels {

// Element (r, c) of C', the upper product, lives at C[r·ldc + c] when C is row-major in C'
// coordinates (the Upper product) and at C[c·ldc + r] when C' is C transposed (the Lower
// product, computed as Cᵀ = Bᵀ·Aᵀ).
struct OutView {
  float* C;
  int64_t ldc, n;
};

// Whether a launch gated by Structure::Detect (Problem::gate) must do nothing: every block asks
// first, before it writes anything. Exactly one path runs for any flag value.
__device__ __forceinline__ bool gated_off(const uint32_t* gate, Path path) {
  if (gate == nullptr) return false;
  const uint32_t f = *gate;
  switch (path) {
    case Path::Structured: return f != 0u;
    case Path::Dense: return f == 0u || (f & 4u) != 0u;
    case Path::Exact: return (f & 4u) == 0u;
  }
  return true;
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
                                                         int64_t batch_offset,
                                                         const uint32_t* gate) {
  if (gated_off(gate, Path::Structured)) return;  // split tiles exist only there
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

}  // namespace trimm::kernels
