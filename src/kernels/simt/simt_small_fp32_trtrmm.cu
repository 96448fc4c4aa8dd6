// simt_small_fp32: the small-n kernel. For n up to a few hundred the 128×128-tile kernels leave
// most of the GPU idle and wait on a few long k loops; this one gives every 32×32 tile of C's
// triangle its own block (a diagonal of tiles per wave, longest bands first), computes it in
// plain fp32 FFMA (exact fp32 semantics: at least as accurate as 3xTF32) and zeroes the mirror
// tile in the same block. No fix-up pass, no tensor map: one launch.
//
// A block's time is its band's global round trips: with one 32-k stage in flight, ~1.3 µs per
// stage on the H200 (bench/NOTES.md), and a band of 16 stages (n = 512) still ran ~0.9 µs a
// stage with four in flight in one chain. So the block's four groups of 64 threads each sum
// every fourth stage of the band (stage i in group i % 4: balanced to one stage for any band),
// the next stage in flight in registers while they multiply one from shared memory, each
// group at its own pace (its own barrier); their partial tiles meet in shared memory, added in
// group order (deterministic). n = 512: 17.2 → 13.0 µs, 1024: 37.6 → 28.2 (session 43). A
// group's multiply is bound by its shared-memory loads: four k of A per 16-byte load (one row,
// broadcast), one of B per 4-byte load: 20 loads per 64 FFMA.
//
// C is computed as it lies: the Upper product tile (I ≤ J) sums k over [32·I, 32·J + 32), the
// Lower one (I ≥ J) over [32·J, 32·I + 32); the triangle's structural zeros are never loaded.
// Path::Exact (Structure::Detect at small n) sums every k of the operands as they are, so noise,
// NaN and Inf land where the dense product puts them. Past the n where that costs more than the
// band and a read of A and B, Detect launches this kernel twice: the band, each block also
// reading a share of A's and B's rows and flagging what they hold (scan::share_flags), then every
// k, only where anything was flagged (its blocks return at once otherwise).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/check.hpp"
#include "kernels/common/dependent_launch.cuh"
#include "kernels/common/scan_rows.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "sched/small_tiles.hpp"

namespace trimm::kernels {
namespace simt_small {
namespace {

constexpr int kT = 32;                        // output tile (kT × kT) and k per stage
constexpr int kGroups = 4;                    // groups splitting the band's stages
constexpr int kGroupThreads = 64;             // a group: 32 columns × 2 row halves
constexpr int kThreads = kGroups * kGroupThreads;
constexpr int kRowStep = kGroupThreads / kT;  // rows between a thread's rows
constexpr int kRows = kT / kRowStep;          // rows of the tile per thread
static_assert(kGroupThreads % kT == 0 && kT % kRowStep == 0, "whole rows per thread");
static_assert(kGroupThreads % 32 == 0 && kGroups + 1 <= 16, "whole warps; a named barrier each");
static_assert(kT * kT % kThreads == 0, "the reduction: whole elements per thread");

// One k stage of operands in registers: A(m0 + r, k0 + c) and B(k0 + r, n0 + c) for this
// thread's rows r = ty + kRowStep·q and column c = tx, zero where a structural zero (unless
// dense) or past n. Loads are predicated: nothing outside the band or the triangle is read.
struct Stage {
  float a[kRows], b[kRows];
};
template <bool kDense>
__device__ void load_stage(const float* A, int64_t lda, const float* B, int64_t ldb, int n,
                           bool upper, int m0, int n0, int k0, int tx, int ty, Stage& s) {
  // Row by row from one pointer each (a 64-bit offset per row would cost two registers a row).
  const int ak = k0 + tx, bn = n0 + tx;
  const float* pa = A + int64_t(m0 + ty) * lda + ak;
  const float* pb = B + int64_t(k0 + ty) * ldb + bn;
#pragma unroll
  for (int q = 0; q < kRows; ++q) {
    const int am = m0 + ty + kRowStep * q, bk = k0 + ty + kRowStep * q;
    // In the triangle, one bound implies the other (upper: am <= ak < n; lower: ak <= am < n).
    const bool a_in = kDense ? am < n && ak < n : upper ? ak >= am && ak < n : ak <= am && am < n;
    const bool b_in = kDense ? bk < n && bn < n : upper ? bk <= bn && bn < n : bk >= bn && bk < n;
    s.a[q] = a_in ? *pa : 0.f;
    s.b[q] = b_in ? *pb : 0.f;
    pa += kRowStep * lda;
    pb += kRowStep * ldb;
  }
}

// The group's own barrier (1 + group; 0 is __syncthreads): the groups run independently, which
// was ~1.5× faster than the block's barrier every stage (session 43).
__device__ __forceinline__ void group_sync(int group) {
  asm volatile("bar.sync %0, %1;" ::"r"(1 + group), "n"(kGroupThreads) : "memory");
}

template <bool kDense>
__global__ void __launch_bounds__(kThreads, 2) simt_small_fp32_kernel(Problem p,
                                                                     int64_t batch_offset) {
  // A group's stage: a warp writes one row of each (its lanes are k of A, n of B) and reads one
  // row of each: no bank conflicts, no padding, and A's rows stay 16-byte aligned for the vector
  // loads. After the band, As holds the groups' partial tiles.
  __shared__ __align__(16) float As[kGroups][kT][kT];  // (m, k)
  __shared__ float Bs[kGroups][kT][kT];                // (k, n)
  // Structure::Detect: the every-k launch computes only where the structured one flagged
  // anything, once that one has completed.
  if (kDense && gated_off(p.gate, p.path, p.epoch)) return;
  allow_dependent_launch();  // the gated launch after this one may wait on the SMs already
  const bool upper = p.fill == Fill::Upper;
  const int t = int((p.n + kT - 1) / kT);
  int I, J;
  sched::small_tile_of(blockIdx.x, t, upper, &I, &J);
  const int64_t b = batch_offset + blockIdx.y;
  const float* A = p.A + b * p.stride_a;
  const float* B = p.B + b * p.stride_b;
  float* C = p.C + b * p.stride_c;
  const int group = threadIdx.x / kGroupThreads, gt = threadIdx.x % kGroupThreads;
  const int tx = gt % kT, ty = gt / kT;
  // Indices in 32 bits: an n×n operand with n ≥ 2^31 could not be allocated.
  const int n = int(p.n), m0 = I * kT, n0 = J * kT;

  // The mirror tile (J, I), in C's other triangle, is this block's to zero.
  if (I != J) zero_region<false>(C, p.ldc, p.n, n0, m0, kT, kT, threadIdx.x, kThreads);

  // k band: between the tile's diagonal ends (every k when dense); the group's stages are
  // group, group + kGroups, ...
  const int k_begin = kDense ? 0 : std::min(I, J) * kT;
  const int k_end = kDense ? n : std::min(n, (std::max(I, J) + 1) * kT);
  constexpr int k_step = kGroups * kT;
  auto load = [&](int k0, Stage& st) {
    if (k0 < k_end) load_stage<kDense>(A, p.lda, B, p.ldb, n, upper, m0, n0, k0, tx, ty, st);
  };
  float acc[kRows] = {};
  // Every group runs the same number of rounds (a group past the band idles through its last):
  // each thread meets as many barriers (compute-sanitizer's racecheck counted hazards across the
  // final __syncthreads where the groups' counts differed).
  Stage st;
  load(k_begin + group * kT, st);
  // Structure::Detect: the share of A and B read while the first stage's loads are in flight.
  if (!kDense && p.gate != nullptr) scan::share_flags(p, A, B, b);
  float(&as)[kT][kT] = As[group];
  float(&bs)[kT][kT] = Bs[group];
  for (int k0 = k_begin; k0 < k_end; k0 += k_step) {
    const int ks = k0 + group * kT;
    const bool active = ks < k_end;  // group-uniform
    group_sync(group);               // the group's last stage is read: its buffers are free
    if (active) {
#pragma unroll
      for (int q = 0; q < kRows; ++q) {
        as[ty + kRowStep * q][tx] = st.a[q];
        bs[ty + kRowStep * q][tx] = st.b[q];
      }
    }
    group_sync(group);
    if (!active) continue;
    load(ks + k_step, st);
#pragma unroll 1
    for (int kk = 0; kk < kT; kk += 4) {
      float bv[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) bv[e] = bs[kk + e][tx];
#pragma unroll
      for (int q = 0; q < kRows; ++q) {
        const float4 a = *reinterpret_cast<const float4*>(&as[ty + kRowStep * q][kk]);
        acc[q] = fmaf(a.x, bv[0], acc[q]);
        acc[q] = fmaf(a.y, bv[1], acc[q]);
        acc[q] = fmaf(a.z, bv[2], acc[q]);
        acc[q] = fmaf(a.w, bv[3], acc[q]);
      }
    }
  }

  // The partial tiles, added in group order; the other triangle's part of a diagonal tile is
  // written as zero.
  __syncthreads();  // every group is done with its buffers
#pragma unroll
  for (int q = 0; q < kRows; ++q) as[ty + kRowStep * q][tx] = acc[q];
  __syncthreads();
#pragma unroll
  for (int e = 0; e < kT * kT / kThreads; ++e) {
    const int idx = int(threadIdx.x) + kThreads * e, r = idx / kT, c = idx % kT;
    const int m = m0 + r, col = n0 + c;
    if (m >= n || col >= n) continue;
    float sum = As[0][r][c];
#pragma unroll
    for (int g = 1; g < kGroups; ++g) sum += As[g][r][c];
    const bool outside = upper ? m > col : m < col;
    C[int64_t(m) * p.ldc + col] = outside ? 0.f : sum;
  }
}

void launch(const Problem& p, const DeviceInfo& dev, Stream stream) {
  const int64_t t = (p.n + kT - 1) / kT;
  const int64_t tiles = sched::small_tiles(t);
  if (tiles > INT32_MAX) throw InvalidArgument("simt_small_fp32: n = " + std::to_string(p.n) +
                                               " has more tiles than one grid holds");
  const bool dependent = detect_dependent(p.gate, p.path, dev.cc);
  const auto kernel =
      p.path != Path::Structured ? simt_small_fp32_kernel<true> : simt_small_fp32_kernel<false>;
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const dim3 grid(unsigned(tiles), unsigned(std::min(kMaxGridY, p.batch - b0)));
    launch_maybe_dependent(dependent && b0 == 0, kernel, grid, dim3(kThreads), 0, stream, p, b0);
  }
}

}  // namespace
}  // namespace simt_small

void launch_simt_small_fp32(const Problem& p, const DeviceInfo& dev, Stream stream) {
  simt_small::launch(p, dev, stream);
}

}  // namespace trimm::kernels
