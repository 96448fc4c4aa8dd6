// Global → registers → shared memory for one operand of a triangular product: the part of every
// kernel family's mainloop that knows the triangle, as a per-element mask that zeroes A' left of
// the diagonal and B' below it. That matters in diagonal-crossing slices, and it keeps the
// unreferenced triangle of the inputs (NaN in the tests) from ever reaching the arithmetic.
#pragma once

#include <cstdint>

namespace trimm::kernels {

// One stage of one operand, k-major: [k][x] with x along m (for A') or n (for B'), so that the
// multiply reads along x. PAD floats of row padding, a multiple of 4, keep rows 16-byte aligned
// and choose the bank pattern (each kernel family says why its PAD).
template <int KT, int W, int PAD>
struct Stage {
  static_assert(PAD % 4 == 0, "rows must stay 16-byte aligned");
  static constexpr int kRow = W + PAD;  // floats from one k row to the next
  float v[KT][kRow];
};

// Moves KT×W slices of an operand from global memory to a Stage, through registers so that the
// loads of stage s+1 are in flight while stage s is multiplied: load() then commit() per slice,
// k advancing by KT each time. Element (x, k) of the operand is p[k·ld + x] when kContigX (x is the
// contiguous index) and p[x·ld + k] otherwise. kKAtLeastX selects the triangle: A' keeps k >= x
// (x = row m), B' keeps k <= x (x = column j). Coordinates are 32-bit (n < 2^31 is checked by the
// host); only pointers are 64-bit, which keeps the loader's registers few.
template <int KT, int W, int PAD, int THREADS, bool kContigX, bool kKAtLeastX, bool kVec>
struct SliceLoader {
  using StageT = Stage<KT, W, PAD>;
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
      soff[q] = ks * StageT::kRow + xs;
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

  // Masks the triangle, hands each 4-vector to `store` and moves on to the next slice. Only slices
  // that reach across the diagonal (the first k block of A', the last of B') need the mask; it is
  // a select, not a multiply, so NaN in the unreferenced triangle never reaches C.
  // store(x, k, v): the vector's first element sits at (x, k) of the slice; its 4 elements run
  // along x when kContigX, along k otherwise.
  template <class Store>
  __device__ void commit_to(int x0, int k0, Store&& store) {
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
      store(q, X[q] - x0, K[q] - k0, v[q]);
      src[q] += advance;
      K[q] += KT;
    }
  }

  // commit_to a Stage ([k][x], rows padded).
  __device__ void commit(StageT& s, int x0, int k0) {
    commit_to(x0, k0, [&](int q, int, int, const float (&v4)[4]) {
      float* dst = &s.v[0][0] + soff[q];
      if (kContigX) {
        *reinterpret_cast<float4*>(dst) = make_float4(v4[0], v4[1], v4[2], v4[3]);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) dst[e * StageT::kRow] = v4[e];
      }
    });
  }
};

}  // namespace trimm::kernels
