// What every kernel family does with C besides storing its tiles: the addressing of C' (the
// upper product, which is C or Cᵀ), zeroing C's other triangle a mirror tile at a time, and the
// fix-up pass that folds split tiles' mirror partials back and zeroes the mirrors.
#pragma once

#include <cstdint>

#include "kernels/common/dependent_launch.cuh"
#include "kernels/common/epoch_flags.cuh"
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
// first, before it writes anything. The structured launch runs where the scan before it flagged
// nothing (16-bit data; sm90_16bit then flags its own outputs, kNonFiniteOut, which its gate
// ignores: the blocks of one launch, a cluster's alike, must all see the same word; a
// structured launch that sets the flags beside its product, fp32's and the 16-bit small
// kernel's, is not gated through here); the general one reruns every tile where A or B is not
// triangular, unless something is not finite (its own outputs flag kNonFiniteDense, which only
// the exact launch reads); then the exact one reruns everything, last; AnyFlag (after a product
// that flags beside it) wherever anything at all was flagged. (Fallback, for sm90_fp16x3 outside
// Detect: the triangular product again, where its lists overflowed.) A gated launch may be a
// dependent of the launch before it (dependent_launch.cuh): the flags it reads are final once that
// one has completed. `epoch`: the call's (launch.hpp, kEpochShift), where its structured launch
// flags beside its product in a word tagged with it (zeroed first only under stream capture).
__device__ __forceinline__ bool gated_off(const uint32_t* gate, Path path, uint32_t epoch = 0) {
  if (gate == nullptr) return false;
  wait_for_previous_grid();
  const uint32_t f = epoch_flags(gate, epoch);  // (epoch 0: the word was zeroed, all flags)
  if (path == Path::Structured) return (f & ~kNonFiniteOut) != 0u;
  const bool nonfinite = (f & (kNonFiniteOutside | kNonFiniteOut | kNonFiniteInside)) != 0u;
  switch (path) {
    case Path::Structured: return true;  // (above)
    case Path::Dense: return (f & (kOutsideA | kOutsideB | kLostBits)) == 0u || nonfinite;
    case Path::Exact:
      return !nonfinite && (f & kNonFiniteDense) == 0u;
    case Path::Fallback: return (f & kLostBits) == 0u;
    case Path::AnyFlag: return f == 0u;
  }
  return true;
}

// Ors `bit` (kNonFiniteOut, or a dense launch's kNonFiniteDense) into *gate (when there is one)
// if any of the warp's values is not finite. One atomic: the word is zeroed, or already tagged
// with this call's epoch by a launch before (the 16-bit scan tags it whatever it finds). An
// epoch-aware compare-and-swap loop here spilled sm90_tf32x3's consumers and cost sm90_16bit
// ~1.5 µs at n = 4096 (session 46). Every lane of the warp calls it.
template <int N>
__device__ __forceinline__ void flag_nonfinite(uint32_t* gate, const float (&v)[N],
                                               uint32_t bit = kNonFiniteOut) {
  if (gate == nullptr) return;
  bool bad = false;
#pragma unroll
  for (int i = 0; i < N; ++i) bad |= !(fabsf(v[i]) <= 3.402823466e38f);  // NaN compares false
  if (__any_sync(0xffffffffu, bad) && threadIdx.x % 32 == 0) atomicOr(gate, bit);
}

// Fills rows [row0, row0+rows) × columns [col0, col0+cols) of row-major C with zeros. T: the
// element (float, or uint16_t for the bits of 16-bit data, whose +0 is all zero bits too); kVec:
// 16-byte stores, which need 16-byte aligned rows.
template <bool kVec, typename T = float>
__device__ void zero_region(T* C, int64_t ldc, int64_t n, int64_t row0, int64_t col0,
                            int rows, int cols, int tid, int threads) {
  if constexpr (!kVec && sizeof(T) == 2) {
    // Rows of any alignment: one warp a row, its lanes along it in 4-byte pairs (a 2-byte store
    // at an odd start and end), so that each store instruction covers consecutive bytes. (By
    // 8-element vectors, lanes 16 bytes apart and 2-byte stores, a 128×128 mirror took ~5.5 µs
    // of sm80_16bit's first stage at n = 255, session 10.) threads: a multiple of 32.
    const int lane = tid % 32, warps = threads / 32;
    const int64_t c_end = col0 + cols < n ? col0 + cols : n;
    for (int r = tid / 32; r < rows && row0 + r < n; r += warps) {
      T* row = C + (row0 + r) * ldc;
      int64_t c = col0;
      if (c < c_end && (reinterpret_cast<uintptr_t>(row + c) & 2)) {
        if (lane == 0) row[c] = T(0);
        ++c;
      }
      const int64_t pairs = c_end > c ? (c_end - c) / 2 : 0;
      uint32_t* w = reinterpret_cast<uint32_t*>(row + c);
      for (int64_t i = lane; i < pairs; i += 32) w[i] = 0u;
      if (lane == 0 && c + 2 * pairs < c_end) row[c_end - 1] = T(0);
    }
    return;
  }
  constexpr int kPer = 16 / int(sizeof(T));  // elements per 16-byte store
  const int vecs = cols / kPer;
  for (int idx = tid; idx < rows * vecs; idx += threads) {
    const int64_t r = row0 + idx / vecs, c = col0 + (idx % vecs) * kPer;
    if (r >= n) continue;
    T* q = C + r * ldc + c;
    if (kVec && c + kPer - 1 < n) {
      *reinterpret_cast<uint4*>(q) = make_uint4(0u, 0u, 0u, 0u);
    } else {
      for (int e = 0; e < kPer; ++e)
        if (c + e < n) q[e] = T(0);
    }
  }
}

// Zeroes the mirror of tile (bi, bj) of C' (TriangleSchedule::zeroes_mirror): rows bj, columns
// bi of C', which is C for the Upper product and Cᵀ (trans) for the Lower one.
template <bool kVec, typename T = float>
__device__ void zero_mirror(T* C, int64_t ldc, int64_t n, int bi, int bj, bool trans,
                            int tile, int tid, int threads) {
  const int64_t r0 = int64_t(trans ? bi : bj) * tile, c0 = int64_t(trans ? bj : bi) * tile;
  zero_region<kVec, T>(C, ldc, n, r0, c0, tile, tile, tid, threads);
}

// The fix-up pass for split tiles: C'(tile) += transpose(mirror), then the mirror becomes zero.
// In row-major C the pair is X = C[P rows, Q cols] and M = C[Q rows, P cols]. One block per
// 32×32 sub-tile, through shared memory so that both are read and written along rows: all
// sub-tiles at once, because the pass is two dependent global round trips long (one block per
// tile, looping over its 16 sub-tiles, took 43 µs at n = 256 on the H200). Grid: (fix-up tiles ·
// (TILE/32)², batch); block: 32×8.
template <int TILE>
__global__ void __launch_bounds__(256) fixup_split_tiles(float* C, int64_t ldc, int64_t stride_c,
                                                         sched::TriangleSchedule s, bool transposed,
                                                         int64_t batch_offset) {
  constexpr int kSubs = TILE / 32;
  static_assert(TILE % 32 == 0, "whole 32x32 sub-tiles");
  __shared__ float t[32][33];
  int bi, bj;
  s.fixup_tile(blockIdx.x / (kSubs * kSubs), &bi, &bj);
  const int sp = 32 * (blockIdx.x % (kSubs * kSubs) / kSubs), sq = 32 * (blockIdx.x % kSubs);
  C += (batch_offset + blockIdx.y) * stride_c;
  const int64_t n = s.n;
  const int64_t P0 = int64_t(transposed ? bj : bi) * TILE, Q0 = int64_t(transposed ? bi : bj) * TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
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
}

}  // namespace trimm::kernels
