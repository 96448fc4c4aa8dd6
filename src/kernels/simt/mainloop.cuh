// The FFMA mainloop: stream the k band of one output tile through a two-stage shared-memory
// pipeline and accumulate an 8×8 block per thread. It knows the triangle only as the per-element
// mask that zeroes A' left of the diagonal and B' below it, which matters in diagonal tiles and
// keeps the unreferenced triangle of the inputs from ever reaching the arithmetic.
#pragma once

#include <cstdint>

namespace trimm::kernels::simt {

// One stage of one operand, k-major: [k][x] with x along m (for A') or n (for B'), so the inner
// product reads 16-byte vectors along x. +4 floats of row padding keep rows 16-byte aligned and
// turn the transposing stores' 4-way bank conflict into a 2-way one.
template <int KT, int W>
struct Stage {
  float v[KT][W + 4];
};

// Moves one KT×W slice of an operand from global memory to a Stage, through registers so that the
// loads of stage s+1 are in flight while stage s is multiplied. Element (x, k) of the operand is
// p[k·ld + x] when kContigX (x is the contiguous index) and p[x·ld + k] otherwise.
// kKAtLeastX selects the triangle: A' keeps k >= x (x = row m), B' keeps k <= x (x = column j).
template <int KT, int W, int THREADS, bool kContigX, bool kKAtLeastX, bool kVec>
struct SliceLoader {
  static_assert(KT * W == 4 * THREADS, "each thread moves exactly one 4-vector per stage");
  static_assert(W % 4 == 0 && KT % 4 == 0, "4-vectors must tile the slice");

  int x, k;  // this thread's first element, relative to the slice origin
  float v[4];

  __device__ explicit SliceLoader(int tid)
      : x(kContigX ? (tid % (W / 4)) * 4 : tid / (KT / 4)),
        k(kContigX ? tid / (W / 4) : (tid % (KT / 4)) * 4) {}

  // Loads the slice whose origin is (x0, k0); out-of-range and masked elements become 0.
  __device__ void load(const float* __restrict__ p, int64_t ld, int64_t n, int64_t x0,
                       int64_t k0) {
    const int64_t X = x0 + x, K = k0 + k;
    const int64_t c = kContigX ? X : K, o = kContigX ? K : X;  // contiguous / strided index
    const float* q = p + o * ld + c;
    if (o < n && kVec && c + 3 < n) {
      const float4 t = __ldg(reinterpret_cast<const float4*>(q));
      v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) v[e] = (o < n && c + e < n) ? __ldg(q + e) : 0.f;
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int64_t xe = X + (kContigX ? e : 0), ke = K + (kContigX ? 0 : e);
      const bool keep = kKAtLeastX ? ke >= xe : ke <= xe;
      v[e] = keep ? v[e] : 0.f;  // a select, not a multiply: NaN in the other triangle stays out
    }
  }

  __device__ void store(Stage<KT, W>& s) const {
    if (kContigX) {
      *reinterpret_cast<float4*>(&s.v[k][x]) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) s.v[k + e][x] = v[e];
    }
  }
};

// acc[i][j] += A'[row(i)][k]·B'[k][col(j)] over BK consecutive k of one stage, starting at k_off.
// Thread (ty, tx) of a 16×16 group owns rows {ty·4 + i, 64 + ty·4 + i} and the same columns
// pattern in tx: two 4-wide vectors per operand per k, all of them 16-byte shared loads, with
// the A' reads a broadcast within each warp.
template <int BK, int KT, int W>
__device__ __forceinline__ void multiply_stage(const Stage<KT, W>& As, const Stage<KT, W>& Bs,
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
