// simt_small_fp32: the small-n kernel. For n up to a few hundred the 128×128-tile kernels leave
// most of the GPU idle and wait on a few long k loops; this one gives every 32×32 tile of C's
// triangle its own block (a diagonal of tiles per wave, longest bands first), computes it in
// plain fp32 FFMA (exact fp32 semantics: at least as accurate as 3xTF32) and zeroes the mirror
// tile in the same block. No fix-up pass, no tensor map: one launch.
//
// A block's time is its band's global round trips: with one 32-k stage in flight, ~1.3 µs per
// stage on the H200 (bench/NOTES.md). So kAhead stages are in flight, in a ring of registers,
// and shared memory is double-buffered (one barrier a stage). The multiply then bounds it by
// its shared-memory loads: four k of A per 16-byte load (a warp's row, broadcast), one of B per
// 4-byte load (one row across the warp): 8 loads per 16 FFMA.
//
// C is computed as it lies: the Upper product tile (I ≤ J) sums k over [32·I, 32·J + 32), the
// Lower one (I ≥ J) over [32·J, 32·I + 32); the triangle's structural zeros are never loaded.
// Path::Exact (Structure::Detect at small n) sums every k of the operands as they are, so noise,
// NaN and Inf land where the dense product puts them.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/check.hpp"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "sched/small_tiles.hpp"

namespace trimm::kernels {
namespace simt_small {
namespace {

constexpr int kT = 32;                   // output tile (kT × kT) and k per stage
constexpr int kThreads = 256;            // 32 columns × 8 row groups
constexpr int kRows = kT * kT / kThreads;  // rows of the tile per thread
constexpr int kAhead = 4;                // stages in flight
static_assert(kThreads % kT == 0 && kT % (kThreads / kT) == 0, "whole rows per thread group");

// One k stage of operands in registers: A(m0 + r, k0 + c) and B(k0 + r, n0 + c) for this
// thread's rows r = ty + 8·q and column c = tx, zero where a structural zero (unless dense) or
// past n. Loads are predicated: nothing outside the band or the triangle is read.
struct Stage {
  float a[kRows], b[kRows];
};
template <bool kDense>
__device__ void load_stage(const float* A, int64_t lda, const float* B, int64_t ldb, int64_t n,
                           bool upper, int64_t m0, int64_t n0, int64_t k0, int tx, int ty,
                           Stage& s) {
#pragma unroll
  for (int q = 0; q < kRows; ++q) {
    const int64_t r = ty + (kThreads / kT) * q;
    const int64_t am = m0 + r, ak = k0 + tx, bk = k0 + r, bn = n0 + tx;
    const bool a_in = am < n && ak < n && (kDense || (upper ? ak >= am : ak <= am));
    const bool b_in = bk < n && bn < n && (kDense || (upper ? bk <= bn : bk >= bn));
    s.a[q] = a_in ? A[am * lda + ak] : 0.f;
    s.b[q] = b_in ? B[bk * ldb + bn] : 0.f;
  }
}

template <bool kDense>
__global__ void __launch_bounds__(kThreads) simt_small_fp32_kernel(Problem p, int64_t batch_offset) {
  // A warp writes one row of each (its lanes are k of A, n of B) and reads one row of each: no
  // bank conflicts, no padding, and A's rows stay 16-byte aligned for the vector loads.
  __shared__ __align__(16) float As[2][kT][kT];  // (m, k)
  __shared__ float Bs[2][kT][kT];                // (k, n)
  const bool upper = p.fill == Fill::Upper;
  const int t = int((p.n + kT - 1) / kT);
  int I, J;
  sched::small_tile_of(blockIdx.x, t, upper, &I, &J);
  const int64_t b = batch_offset + blockIdx.y;
  const float* A = p.A + b * p.stride_a;
  const float* B = p.B + b * p.stride_b;
  float* C = p.C + b * p.stride_c;
  const int tx = threadIdx.x % kT, ty = threadIdx.x / kT;
  const int64_t m0 = int64_t(I) * kT, n0 = int64_t(J) * kT;

  // The mirror tile (J, I), in C's other triangle, is this block's to zero.
  if (I != J) zero_region<false>(C, p.ldc, p.n, n0, m0, kT, kT, threadIdx.x, kThreads);

  // k band: between the tile's diagonal ends (every k when dense).
  const int64_t k_begin = kDense ? 0 : int64_t(std::min(I, J)) * kT;
  const int64_t k_end = kDense ? p.n : std::min<int64_t>(p.n, int64_t(std::max(I, J) + 1) * kT);
  auto load = [&](int64_t k0, Stage& st) {
    if (k0 < k_end) load_stage<kDense>(A, p.lda, B, p.ldb, p.n, upper, m0, n0, k0, tx, ty, st);
  };
  float acc[kRows] = {};
  Stage ring[kAhead];
#pragma unroll
  for (int s = 0; s < kAhead; ++s) load(k_begin + s * kT, ring[s]);
  // Stage number i = (k0 - k_begin) / kT sits in ring[i % kAhead] and shared buffer i % 2: the
  // loop is unrolled by kAhead (even) so that both are static.
  static_assert(kAhead % 2 == 0, "ring slot and shared buffer both follow from s");
  for (int64_t k0 = k_begin; k0 < k_end; k0 += kAhead * kT) {
#pragma unroll
    for (int s = 0; s < kAhead; ++s) {
      const int64_t ks = k0 + s * kT;
      if (ks >= k_end) break;  // block-uniform
      const int buf = s % 2;
#pragma unroll
      for (int q = 0; q < kRows; ++q) {
        As[buf][ty + (kThreads / kT) * q][tx] = ring[s].a[q];
        Bs[buf][ty + (kThreads / kT) * q][tx] = ring[s].b[q];
      }
      // One barrier a stage: a warp writes buffer `buf` again only two stages later, after the
      // next stage's barrier, which every warp reaches after it multiplied this one.
      __syncthreads();
      load(ks + kAhead * kT, ring[s]);
#pragma unroll 2
      for (int kk = 0; kk < kT; kk += 4) {
        float4 a[kRows];
#pragma unroll
        for (int q = 0; q < kRows; ++q)
          a[q] = *reinterpret_cast<const float4*>(&As[buf][ty + (kThreads / kT) * q][kk]);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float bv = Bs[buf][kk + e][tx];
#pragma unroll
          for (int q = 0; q < kRows; ++q) {
            const float av = e == 0 ? a[q].x : e == 1 ? a[q].y : e == 2 ? a[q].z : a[q].w;
            acc[q] = fmaf(av, bv, acc[q]);
          }
        }
      }
    }
  }

  // Epilogue: the tile, with the other triangle's part of a diagonal tile written as zero.
#pragma unroll
  for (int q = 0; q < kRows; ++q) {
    const int64_t m = m0 + ty + (kThreads / kT) * q, col = n0 + tx;
    if (m >= p.n || col >= p.n) continue;
    const bool outside = upper ? m > col : m < col;
    C[m * p.ldc + col] = outside ? 0.f : acc[q];
  }
}

void launch(const Problem& p, Stream stream) {
  const int64_t t = (p.n + kT - 1) / kT;
  const int64_t tiles = sched::small_tiles(t);
  if (tiles > INT32_MAX) throw InvalidArgument("simt_small_fp32: n = " + std::to_string(p.n) +
                                               " has more tiles than one grid holds");
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const dim3 grid(unsigned(tiles), unsigned(std::min(kMaxGridY, p.batch - b0)));
    if (p.path == Path::Exact)
      simt_small_fp32_kernel<true><<<grid, kThreads, 0, stream>>>(p, b0);
    else
      simt_small_fp32_kernel<false><<<grid, kThreads, 0, stream>>>(p, b0);
    TRIMM_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace
}  // namespace simt_small

void launch_simt_small_fp32(const Problem& p, const DeviceInfo&, Stream stream) {
  simt_small::launch(p, stream);
}

}  // namespace trimm::kernels
