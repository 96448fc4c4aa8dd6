// sm80_tf32x3: C = triu(A·B) at fp32 accuracy on the tensor cores of any GPU from sm_80, with
// mma.sync m16n8k8 in TF32 and error compensation (3xTF32). Each operand element splits into
// big = tf32(x) and small = tf32(x − big); a·b ≈ a_small·b_big + a_big·b_small + a_big·b_big,
// the small products first so that they are not lost against the large one. The dropped
// a_small·b_small is below 2⁻²² of |a·b|.
//
// Same skeleton as simt_fp32: one block per work unit of the triangle scheduler, 128×128 tiles,
// the shared slice loader (which masks the triangle) feeding a two-stage register-staged pipeline.
// The split happens as fragments leave shared memory, so shared memory holds plain fp32.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "config/tile_config.hpp"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/slice_loader.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm80/mma_block.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::sm80 {
namespace {

constexpr config::MmaTile Cfg = config::kSm80Tf32x3;
constexpr int kTile = Cfg.bm, kStep = Cfg.bk, kThreads = Cfg.threads();
constexpr int kMi = Cfg.warp_m() / 16, kNi = Cfg.warp_n() / 8;  // m16 and n8 tiles per warp
static_assert(Cfg.bm == Cfg.bn, "the scheduler's mirror trick needs square tiles");
static_assert(Cfg.warp_m() % 16 == 0 && Cfg.warp_n() % 8 == 0, "warps hold whole m16n8 tiles");
static_assert(kStep % 8 == 0 && kTile % kStep == 0, "stages hold whole k8 steps, bands whole stages");

// Rows padded by 8 floats: fragment loads read 8 columns (groupID) × 4 k rows (threadID) of a
// stage, and a row stride of 8 mod 32 banks puts those 32 words in 32 banks.
constexpr int kPad = 8;
using StageT = Stage<kStep, kTile, kPad>;
struct SharedStorage {
  StageT a[2], b[2];
};

__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

// x = big + small, both TF32 (x − big is exact in fp32).
__device__ __forceinline__ void split(float x, uint32_t& big, uint32_t& small) {
  big = to_tf32(x);
  small = to_tf32(x - __uint_as_float(big));
}

// d += a·b on one m16n8k8 tile.
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4],
                                         const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// acc += A'·B' over one stage. Lane (g, t) = (lane / 4, lane % 4) holds, per the PTX fragment
// layout for m16n8k8 TF32: A rows g and g+8 at k = t and t+4; B column g at k = t and t+4;
// accumulators at rows g, g+8 and columns 2t, 2t+1. (BLK_K, BLK_M) and (BLK_K, BLK_N) stages.
__device__ __forceinline__ void multiply_stage(const StageT& As, const StageT& Bs, int wm, int wn,
                                               int g, int t, float (&acc)[kMi][kNi][4]) {
#pragma unroll
  for (int kk = 0; kk < kStep; kk += 8) {
    uint32_t b_big[kNi][2], b_small[kNi][2];
#pragma unroll
    for (int j = 0; j < kNi; ++j) {
      const int c = wn + 8 * j + g;
      split(Bs.v[kk + t][c], b_big[j][0], b_small[j][0]);
      split(Bs.v[kk + t + 4][c], b_big[j][1], b_small[j][1]);
    }
#pragma unroll
    for (int i = 0; i < kMi; ++i) {
      const int r = wm + 16 * i + g;
      uint32_t a_big[4], a_small[4];
      split(As.v[kk + t][r], a_big[0], a_small[0]);
      split(As.v[kk + t][r + 8], a_big[1], a_small[1]);
      split(As.v[kk + t + 4][r], a_big[2], a_small[2]);
      split(As.v[kk + t + 4][r + 8], a_big[3], a_small[3]);
      // Product by product across the n8 tiles, so that consecutive mmas are independent.
#pragma unroll
      for (int j = 0; j < kNi; ++j) mma_tf32(acc[i][j], a_small, b_big[j]);
#pragma unroll
      for (int j = 0; j < kNi; ++j) mma_tf32(acc[i][j], a_big, b_small[j]);
#pragma unroll
      for (int j = 0; j < kNi; ++j) mma_tf32(acc[i][j], a_big, b_big[j]);
    }
  }
}

// Stores the warp's accumulators to C'(row0 + r, col0 + c), or to C'(col0 + c, row0 + r) for a
// chunk-1 partial (the mirror tile). kColwise: C' is addressed column-major (see OutView).
// diag: the tile straddles the diagonal, so r > c is written as zero (its sum could be 0·Inf).
template <bool kColwise>
__device__ void store_tile(const OutView& o, bool diag, int64_t row0, int64_t col0, int wm,
                           int wn, int g, int t, const float (&acc)[kMi][kNi][4]) {
#pragma unroll
  for (int i = 0; i < kMi; ++i)
#pragma unroll
    for (int j = 0; j < kNi; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int64_t r = row0 + wm + 16 * i + g + 8 * (e / 2);
        const int64_t c = col0 + wn + 8 * j + 2 * t + e % 2;
        if (r >= o.n || c >= o.n) continue;
        const float v = diag && r > c ? 0.f : acc[i][j][e];
        o.C[kColwise ? c * o.ldc + r : r * o.ldc + c] = v;
      }
}

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (see simt_fp32).
template <bool kTrans, bool kVec>
__global__ void __launch_bounds__(kThreads, Cfg.min_blocks)
    sm80_tf32x3_trtrmm_kernel(Problem p, sched::TriangleSchedule s, int64_t batch_offset,
                              const __grid_constant__ sched::DispatchOrder order) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  SharedStorage& smem = *reinterpret_cast<SharedStorage*>(smem_bytes);
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
  const sched::WorkUnit u = s.unit(order.at(blockIdx.x));


  const mma::UnitOperands<kTrans, float> op(p, b);
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;
  const int n = int(p.n), k_begin = int(u.k_begin), m0 = int(row0), j0 = int(col0);
  SliceLoader<kStep, kTile, kPad, kThreads, kTrans, true, kVec> la(tid, op.a, op.lda, m0, k_begin);
  SliceLoader<kStep, kTile, kPad, kThreads, !kTrans, false, kVec> lb(tid, op.b, op.ldb, j0,
                                                                     k_begin);

  const mma::WarpCoords w(tid, Cfg.warps_n, Cfg.warp_m(), Cfg.warp_n());
  float acc[kMi][kNi][4];
  mma::zero(acc);

  const int steps = int((u.k_end - u.k_begin + kStep - 1) / kStep);
  la.load(n, m0, k_begin);
  lb.load(n, j0, k_begin);
  // The mirror tile, in C's other triangle, is this block's to zero: the stores go out while the
  // first stage's loads are in flight.
  if (sched::TriangleSchedule::zeroes_mirror(u))
    zero_mirror<kVec>(C, p.ldc, p.n, u.bi, u.bj, kTrans, kTile, tid, kThreads);
  la.commit(smem.a[0], m0, k_begin);
  lb.commit(smem.b[0], j0, k_begin);
  __syncthreads();
  for (int it = 0; it < steps; ++it) {
    const int cur = it & 1;
    const bool more = it + 1 < steps;
    const int k_next = k_begin + (it + 1) * kStep;
    if (more) {
      la.load(n, m0, k_next);
      lb.load(n, j0, k_next);
    }
    // Each stage sums into fresh registers, added to the running sum with fp32 FADD (round to
    // nearest). Measured on the H200 (bench/NOTES.md): accumulating the whole band in the tensor
    // cores' own fp32 accumulators loses the small correction products against a large partial
    // sum, to a normwise error of 2.9e-5 at n = 4096; promoting every stage gives 2.1e-7.
    float part[kMi][kNi][4];
    mma::zero(part);
    multiply_stage(smem.a[cur], smem.b[cur], w.wm, w.wn, w.g, w.t, part);
#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
      for (int j = 0; j < kNi; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][j][e] += part[i][j][e];
    if (more) {
      la.commit(smem.a[cur ^ 1], m0, k_next);
      lb.commit(smem.b[cur ^ 1], j0, k_next);
    }
    __syncthreads();
  }

  const OutView o{C, p.ldc, p.n};
  const bool diag = u.bi == u.bj;
  // A chunk-1 partial goes to the mirror tile, transposed: C'(c, r) instead of C'(r, c).
  if (kTrans != (u.kind == sched::UnitKind::Chunk1))
    store_tile<true>(o, diag, row0, col0, w.wm, w.wn, w.g, w.t, acc);
  else
    store_tile<false>(o, diag, row0, col0, w.wm, w.wn, w.g, w.t, acc);
}

}  // namespace
}  // namespace trimm::kernels::sm80

namespace trimm::kernels {

namespace {

struct Sm80Family {
  static constexpr int kTile = sm80::kTile, kThreads = sm80::kThreads, kStep = sm80::kStep;
  static constexpr int kSmem = sizeof(sm80::SharedStorage);
  template <bool kTrans, bool kVec>
  static constexpr auto tag() {
    return std::integral_constant<TriangleKernel, sm80::sm80_tf32x3_trtrmm_kernel<kTrans, kVec>>{};
  }
  static constexpr std::nullptr_t cost = nullptr;  // longest first (not measured otherwise)
};

}  // namespace

void launch_sm80_tf32x3(const Problem& p, const DeviceInfo& dev, Stream stream) {
  launch_family<Sm80Family>(p, dev, stream);
}

}  // namespace trimm::kernels
