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

// Moves KT×W slices of an operand from global memory to a Stage, through registers so that the
// loads of stage s+1 are in flight while stage s is multiplied: load() then commit() per slice,
// k advancing by KT each time. Element (x, k) of the operand is p[k·ld + x] when kContigX (x is the
// contiguous index) and p[x·ld + k] otherwise. kKAtLeastX selects the triangle: A' keeps k >= x
// (x = row m), B' keeps k <= x (x = column j). Coordinates are 32-bit (n < 2^31 is checked by the
// host); only pointers are 64-bit, which keeps the loader's registers few.
template <int KT, int W, int THREADS, bool kContigX, bool kKAtLeastX, bool kVec>
struct SliceLoader {
  static constexpr int kVecs = KT * W / (4 * THREADS);  // 4-vectors per thread per stage
  static_assert(kVecs >= 1 && kVecs * 4 * THREADS == KT * W,
                "the threads must move the slice in whole 4-vectors");
  static_assert(W % 4 == 0 && KT % 4 == 0, "4-vectors must tile the slice");

  const float* src[kVecs];  // each vector's first element in the next slice
  int soff[kVecs];           // its offset in a Stage, in floats
  int X[kVecs], K[kVecs];    // its global coordinates
  int64_t advance;           // pointer step per slice
  float v[kVecs][4];

  // The first slice starts at global (x0, k0).
  __device__ SliceLoader(int tid, const float* p, int64_t ld, int x0, int k0)
      : advance(kContigX ? KT * ld : KT) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int idx = tid + q * THREADS;
      const int xs = kContigX ? (idx % (W / 4)) * 4 : idx / (KT / 4);
      const int ks = kContigX ? idx / (W / 4) : (idx % (KT / 4)) * 4;
      soff[q] = ks * (W + 4) + xs;
      X[q] = x0 + xs;
      K[q] = k0 + ks;
      src[q] = kContigX ? p + int64_t(K[q]) * ld + X[q] : p + int64_t(X[q]) * ld + K[q];
    }
  }

  // Issues the loads of the slice at k0 (the x origin is x0); out-of-range elements become 0.
  // Nothing here uses the loaded values, so the loads stay in flight while the previous stage is
  // multiplied. Slices wholly inside the matrix, all but the last row and column of tiles, skip
  // the bounds tests.
  __device__ void load(int n, int x0, int k0) {
    const bool inside = x0 + W <= n && k0 + KT <= n;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int c = kContigX ? X[q] : K[q], o = kContigX ? K[q] : X[q];  // contiguous / strided
      if (kVec && (inside || (o < n && c + 3 < n))) {
        const float4 t = __ldg(reinterpret_cast<const float4*>(src[q]));
        v[q][0] = t.x, v[q][1] = t.y, v[q][2] = t.z, v[q][3] = t.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) v[q][e] = (o < n && c + e < n) ? __ldg(src[q] + e) : 0.f;
      }
    }
  }

  // Masks the triangle, writes the slice to shared memory and moves on to the next slice. Only
  // slices that reach across the diagonal (the first k block of A', the last of B') need the
  // mask; it is a select, not a multiply, so NaN in the unreferenced triangle never reaches C.
  __device__ void commit(Stage<KT, W>& s, int x0, int k0) {
    const bool crosses = kKAtLeastX ? k0 < x0 + W - 1 : k0 + KT - 1 > x0;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      if (crosses) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int xe = X[q] + (kContigX ? e : 0), ke = K[q] + (kContigX ? 0 : e);
          const bool keep = kKAtLeastX ? ke >= xe : ke <= xe;
          v[q][e] = keep ? v[q][e] : 0.f;
        }
      }
      float* dst = &s.v[0][0] + soff[q];
      if (kContigX) {
        *reinterpret_cast<float4*>(dst) = make_float4(v[q][0], v[q][1], v[q][2], v[q][3]);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) dst[e * (W + 4)] = v[q][e];
      }
      src[q] += advance;
      K[q] += KT;
    }
  }
};

// acc[i][j] += A'[row(i)][k]·B'[k][col(j)] over BK consecutive k of one stage, starting at k_off.
// Thread (ty, tx) of a 16×16 group owns rows {ty·4 + i, 64 + ty·4 + i} and the same columns
// pattern in tx: two 4-wide vectors per operand per k, all of them 16-byte shared loads.
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
