// The plain tiled product on the CUDA cores, for the products that need correctness more than
// speed records: trtrmm in fp64, the 16-bit fallback (fp32 sums) and the backward's two dense
// products (fp32 and fp64). FMA in the accumulator type (the element type, or fp32 for 16-bit
// elements, converted as they are loaded and C rounded to nearest once), in k order, one 64×64
// tile of C per block and work unit, 16 k per stage through shared memory, 4×4 elements per
// thread. A bounded grid strides over the work units (tiles × products) and the batch, so huge n
// or batch never launch huge grids.
//
// The operands are views: transposed or not, with one triangle kept and the rest read as zero
// (never loaded), so that one mainloop computes C = M(A·B) (the forward, band or every k),
// dA = M(G)·Bᵀ and dB = Aᵀ·M(G) (the backward, every k).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cuda/check.hpp"
#include "kernels/common/elem16.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"

namespace trimm::kernels::tiled {

constexpr int kTile = 64;                 // C tile: kTile × kTile elements
constexpr int kK = 16;                    // k per shared-memory stage
constexpr int kSide = 16;                 // threads per side of the block: kSide × kSide
constexpr int kThreads = kSide * kSide;   // 256
constexpr int kPer = kTile / kSide;       // each thread: kPer rows × kPer columns, kSide apart
constexpr int kPad = 1;                   // shared rows of kTile + 1: transposed stores spread
static_assert(kTile % kSide == 0 && (kTile * kK) % kThreads == 0, "whole loads per thread");

// Which elements of an operand are read: All, or only its upper (c >= r) or lower (c <= r)
// triangle, the rest taken as zero without being loaded (NaN there never enters).
enum class Keep : uint8_t { All, Upper, Lower };

__host__ __device__ __forceinline__ bool kept(Keep keep, int64_t r, int64_t c) {
  return keep == Keep::All || (keep == Keep::Upper ? c >= r : c <= r);
}

// Logical element (r, c) of batch entry b: p[b·stride + (trans ? c·ld + r : r·ld + c)] where
// kept(keep, r, c), zero elsewhere.
template <typename T>
struct View {
  const T* p;
  int64_t ld, stride;
  bool trans;
  Keep keep;
};

// One product of a launch: C = X·Y (n×n, row-major C with leading dimension ldc).
template <typename T>
struct Product {
  View<T> X, Y;
  T* C;
  int64_t ldc, stride_c;
};

template <typename T>
struct Params {
  int64_t n, batch;
  Product<T> prod[2];
  int products;  // 1 or 2: work units are products × tiles², product-major
  // triangle: C = M(X·Y), M keeping C's upper (upper) or lower triangle: tiles outside it are
  // written with zeros without loading anything, elements outside it in the diagonal tiles are
  // written with zeros (whatever the sum: triu's zeros, not 0·sum).
  bool triangle;
  bool upper;
  // band: C(i, j) sums only the k of the triangular product, i ≤ k ≤ j (upper) or j ≤ k ≤ i
  // (lower): BLAS's trmm semantics, the terms outside the band neither loaded nor multiplied.
  // Else every k of the dense product (noise, NaN and Inf count where they lie).
  bool band;
  // 16-bit Structure::Detect: the flags this launch is gated on (gated_off) and the
  // path it computes; nullptr: it always runs. dependent: launched as a programmatic dependent
  // of the previous launch (its gate waits for it).
  const uint32_t* gate;
  uint32_t epoch;  // the flag word's (GatedProblem::epoch)
  Path path;
  bool dependent;
};

__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }

// X(i0 + r, k0 + kk) into xs[kk][r] and Y(k0 + kk, j0 + c) into ys[kk][c], zero where not kept,
// past n or at k >= kend. Consecutive threads walk the view's contiguous dimension.
template <typename T, typename Acc>
__device__ __forceinline__ void load_stage(const View<T>& X, const T* x, const View<T>& Y,
                                           const T* y, int64_t n, int64_t i0, int64_t j0,
                                           int64_t k0, int64_t kend,
                                           Acc (&xs)[kK][kTile + kPad],
                                           Acc (&ys)[kK][kTile + kPad]) {
  constexpr int kLoads = kTile * kK / kThreads;  // elements per thread and operand
#pragma unroll
  for (int l = 0; l < kLoads; ++l) {
    const int e = int(threadIdx.x) + l * kThreads;
    const int r = X.trans ? e % kTile : e / kK, kk = X.trans ? e / kTile : e % kK;
    const int64_t gi = i0 + r, gk = k0 + kk;
    Acc v = Acc(0);
    if (gi < n && gk < kend && kept(X.keep, gi, gk))
      v = widen<Acc>(X.trans ? x[gk * X.ld + gi] : x[gi * X.ld + gk]);
    xs[kk][r] = v;
  }
#pragma unroll
  for (int l = 0; l < kLoads; ++l) {
    const int e = int(threadIdx.x) + l * kThreads;
    const int kk = Y.trans ? e % kK : e / kTile, c = Y.trans ? e / kK : e % kTile;
    const int64_t gk = k0 + kk, gj = j0 + c;
    Acc v = Acc(0);
    if (gj < n && gk < kend && kept(Y.keep, gk, gj))
      v = widen<Acc>(Y.trans ? y[gj * Y.ld + gk] : y[gk * Y.ld + gj]);
    ys[kk][c] = v;
  }
}

template <typename T, typename Acc>
__global__ void __launch_bounds__(kThreads) tiled_product_kernel(const Params<T> p) {
  __shared__ Acc xs[kK][kTile + kPad];  // (kK, kTile): X's stage, k-major
  __shared__ Acc ys[kK][kTile + kPad];  // (kK, kTile): Y's stage
  allow_dependent_launch();
  if (gated_off(p.gate, p.path, p.epoch)) return;
  const int tx = threadIdx.x % kSide, ty = threadIdx.x / kSide;
  const int64_t n = p.n, tiles = (n + kTile - 1) / kTile, per_product = tiles * tiles;
  const int64_t units = p.products * per_product;
  for (int64_t b = blockIdx.y; b < p.batch; b += gridDim.y)
    for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {  // block-uniform: barriers below
      const Product<T> q = u < per_product ? p.prod[0] : p.prod[1];
      const int64_t t = u % per_product, I = t / tiles, J = t % tiles;
      const int64_t i0 = I * kTile, j0 = J * kTile;
      T* C = q.C + b * q.stride_c;
      if (p.triangle && (p.upper ? I > J : I < J)) {  // wholly outside C's triangle
        for (int e = threadIdx.x; e < kTile * kTile; e += kThreads) {
          const int64_t i = i0 + e / kTile, j = j0 + e % kTile;
          if (i < n && j < n) C[i * q.ldc + j] = narrow<T>(Acc(0));
        }
        continue;
      }
      // The k this tile sums: the band's hull for the triangular product, else all.
      int64_t kbeg = 0, kend = n;
      if (p.band) {
        kbeg = p.upper ? i0 : j0;
        kend = std::min(n, (p.upper ? j0 : i0) + kTile);
      }
      const T* x = q.X.p + b * q.X.stride;
      const T* y = q.Y.p + b * q.Y.stride;
      Acc acc[kPer][kPer];  // (kPer, kPer): C(i0 + ty + kSide·r, j0 + tx + kSide·c)
#pragma unroll
      for (int r = 0; r < kPer; ++r)
#pragma unroll
        for (int c = 0; c < kPer; ++c) acc[r][c] = Acc(0);
      for (int64_t k0 = kbeg; k0 < kend; k0 += kK) {
        load_stage(q.X, x, q.Y, y, n, i0, j0, k0, kend, xs, ys);
        __syncthreads();
        // A stage needs the per-element band test unless every k of it lies in every element's
        // band: upper, k >= every i and k <= every j of the tile; lower, the mirror.
        const int64_t lo = p.upper ? i0 : j0, hi = p.upper ? j0 : i0;
        const bool masked = p.band && !(k0 >= lo + kTile - 1 && k0 + kK - 1 <= hi);
        if (masked) {
#pragma unroll 4
          for (int kk = 0; kk < kK; ++kk) {
            const int64_t k = k0 + kk;
#pragma unroll
            for (int r = 0; r < kPer; ++r)
#pragma unroll
              for (int c = 0; c < kPer; ++c) {
                const int64_t i = i0 + ty + kSide * r, j = j0 + tx + kSide * c;
                const bool in_band = p.upper ? (i <= k && k <= j) : (j <= k && k <= i);
                if (in_band) acc[r][c] = fma_rn(xs[kk][ty + kSide * r], ys[kk][tx + kSide * c], acc[r][c]);
              }
          }
        } else {
#pragma unroll
          for (int kk = 0; kk < kK; ++kk) {
            Acc xv[kPer], yv[kPer];
#pragma unroll
            for (int r = 0; r < kPer; ++r) xv[r] = xs[kk][ty + kSide * r];
#pragma unroll
            for (int c = 0; c < kPer; ++c) yv[c] = ys[kk][tx + kSide * c];
#pragma unroll
            for (int r = 0; r < kPer; ++r)
#pragma unroll
              for (int c = 0; c < kPer; ++c) acc[r][c] = fma_rn(xv[r], yv[c], acc[r][c]);
          }
        }
        __syncthreads();
      }
#pragma unroll
      for (int r = 0; r < kPer; ++r)
#pragma unroll
        for (int c = 0; c < kPer; ++c) {
          const int64_t i = i0 + ty + kSide * r, j = j0 + tx + kSide * c;
          if (i >= n || j >= n) continue;
          const bool outside = p.triangle && (p.upper ? i > j : i < j);
          C[i * q.ldc + j] = narrow<T>(outside ? Acc(0) : acc[r][c]);
        }
    }
}

// The launch: a grid of at most ~16 blocks per SM over the work units, the batch on grid y.
// A gated launch (Structure::Detect's, usually off) takes one wave of resident blocks, the batch
// included: its blocks that return at once cost ~5 µs more at 2112 than at 132 (bf16 Detect at
// 3072-4096, session 48); when it runs (the exact and any-flag paths: every k, units of one
// size) the grid's stride balances them.
// Acc: the accumulator type (T, or float for 16-bit T).
template <typename T, typename Acc = T>
void launch(const Params<T>& p, const DeviceInfo& dev, Stream stream) {
  if (p.n == 0 || p.batch == 0) return;
  constexpr int64_t kMaxGridY = 65535;
  const int64_t tiles = (p.n + kTile - 1) / kTile;
  const int64_t units = p.products * tiles * tiles;
  const bool gated = p.gate != nullptr;
  const int per_sm =
      gated ? blocks_per_sm<tiled_product_kernel<T, Acc>>(dev.ordinal, kThreads, 0) : 16;
  const int64_t target = per_sm * int64_t(std::max(1, dev.sms));  // blocks in flight, about
  const int64_t y = std::min({p.batch, kMaxGridY, gated ? target : kMaxGridY});
  const int64_t x = std::max<int64_t>(1, std::min(units, (target + y - 1) / y));
  launch_maybe_dependent(p.dependent, tiled_product_kernel<T, Acc>, dim3(unsigned(x), unsigned(y)),
                         dim3(kThreads), 0, stream, p);
}

}  // namespace trimm::kernels::tiled
