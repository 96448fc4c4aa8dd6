// simt_fp32: C = triu(A·B) in plain fp32 FFMA on the CUDA cores, any NVIDIA GPU from sm_80.
// One block per work unit of the triangle scheduler; 128×128 tiles; two k groups per block.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/launch.hpp"
#include "kernels/simt/epilogue.cuh"
#include "kernels/simt/mainloop.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::simt {
namespace {

constexpr config::SimtTile kCfg = config::kSimtFp32;
constexpr int kTile = kCfg.bm;
constexpr int kThreads = kCfg.threads();
constexpr int kGroupThreads = kCfg.group_threads;
constexpr int kStep = kCfg.k_step();  // k per pipeline stage, both groups together
static_assert(kCfg.bm == kCfg.bn, "the scheduler's mirror trick needs square tiles");
static_assert(kCfg.k_groups == 2, "the epilogue's reduction pairs exactly two k groups");
static_assert(kCfg.tm == 8 && kCfg.tn == 8 && kGroupThreads == 256,
              "multiply_stage assumes 16x16 threads with 8x8 accumulators per group");
static_assert(kTile % kStep == 0, "bands start on tile boundaries, so on stage boundaries too");

using StageT = Stage<kStep, kTile>;

// Two stages of A' and B' for the mainloop; the group reduction reuses the same bytes.
union SharedStorage {
  struct {
    StageT a[2], b[2];
  } pipe;
  float4 red[8 * kGroupThreads];
};

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (A' = Bᵀ, B' = Aᵀ, C' = Cᵀ),
// which only changes which index of each operand is contiguous.
template <bool kTrans, bool kVec>
__global__ void __launch_bounds__(kThreads, kCfg.min_blocks)
    simt_fp32_trtrmm_kernel(Problem p, sched::TriangleSchedule s, int64_t batch_offset) {
  __shared__ SharedStorage smem;
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
  const sched::WorkUnit u = s.unit(blockIdx.x);

  if (u.kind == sched::UnitKind::Zero) {
    const int64_t r0 = int64_t(kTrans ? u.bj : u.bi) * kTile, c0 = int64_t(kTrans ? u.bi : u.bj) * kTile;
    zero_region<kVec>(C, p.ldc, p.n, r0, c0, kTile, kTile, tid, kThreads);
    return;
  }

  // A'(m, k), B'(k, j): see kTrans.
  const float* Ap = kTrans ? p.B + b * p.stride_b : p.A + b * p.stride_a;
  const float* Bp = kTrans ? p.A + b * p.stride_a : p.B + b * p.stride_b;
  const int64_t lda = kTrans ? p.ldb : p.lda, ldb = kTrans ? p.lda : p.ldb;
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;

  SliceLoader<kStep, kTile, kThreads, kTrans, true, kVec> la(tid);    // A': keeps k >= m
  SliceLoader<kStep, kTile, kThreads, !kTrans, false, kVec> lb(tid);  // B': keeps k <= j

  const int group = tid / kGroupThreads, lt = tid % kGroupThreads;
  const int ty = lt / 16, tx = lt % 16;
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  // (BLK_K, BLK_M) and (BLK_K, BLK_N) stages, one k step of kStep per iteration; group g
  // multiplies rows [g·bk, (g+1)·bk) of each stage.
  const int64_t steps = (u.k_end - u.k_begin + kStep - 1) / kStep;
  la.load(Ap, lda, p.n, row0, u.k_begin);
  lb.load(Bp, ldb, p.n, col0, u.k_begin);
  la.store(smem.pipe.a[0]);
  lb.store(smem.pipe.b[0]);
  __syncthreads();
  for (int64_t it = 0; it < steps; ++it) {
    const int cur = int(it & 1);
    const bool more = it + 1 < steps;
    if (more) {
      const int64_t k = u.k_begin + (it + 1) * kStep;
      la.load(Ap, lda, p.n, row0, k);
      lb.load(Bp, ldb, p.n, col0, k);
    }
    multiply_stage<kCfg.bk>(smem.pipe.a[cur], smem.pipe.b[cur], group * kCfg.bk, ty, tx, acc);
    if (more) {
      la.store(smem.pipe.a[cur ^ 1]);
      lb.store(smem.pipe.b[cur ^ 1]);
    }
    __syncthreads();
  }
  // Chunk bands end where the next chunk starts, so k past k_end belongs to that chunk. Only the
  // last stage can overrun it, and only when the band end is not a multiple of kStep: that is
  // n itself (bands end at tile edges or at n), where the loaders' bounds zero the overrun.

  const bool mirror = u.kind == sched::UnitKind::Chunk1;
  const OutView o{C, p.ldc, p.n};
  reduce_and_store<kGroupThreads, kVec>(smem.red, o, kTrans != mirror, u.bi == u.bj, row0, col0,
                                        group, lt, ty, tx, acc);
}

// Blocks per SM for one instantiation, queried once per device (a host-side occupancy query: no
// allocation, no synchronization).
template <bool kTrans, bool kVec>
int blocks_per_sm(int device) {
  static std::atomic<int> cache[64] = {};
  if (device < 0 || device >= 64) device = 0;
  int v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    TRIMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v, simt_fp32_trtrmm_kernel<kTrans, kVec>, kThreads, 0));
    v = std::max(v, 1);
    cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

template <bool kTrans, bool kVec>
void launch(const Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kTrans, kVec>(dev.ordinal);
  // A batch fills the machine by itself: split only what one problem's share cannot balance.
  const int64_t slots_per_problem = std::max<int64_t>(1, (slots + p.batch - 1) / p.batch);
  const sched::TriangleSchedule s = sched::make_schedule(p.n, kTile, kStep, slots_per_problem);
  const int64_t units = s.num_units(), fixups = s.num_fixup_tiles();
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const unsigned nb = unsigned(std::min(kMaxGridY, p.batch - b0));
    simt_fp32_trtrmm_kernel<kTrans, kVec><<<dim3(unsigned(units), nb), kThreads, 0, stream>>>(p, s, b0);
    TRIMM_CUDA_CHECK(cudaGetLastError());
    if (fixups > 0) {
      fixup_split_tiles<kTile><<<dim3(unsigned(fixups), nb), dim3(32, 8), 0, stream>>>(
          p.C, p.ldc, p.stride_c, s, kTrans, b0);
      TRIMM_CUDA_CHECK(cudaGetLastError());
    }
  }
}

bool aligned16(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % 16 == 0; }

}  // namespace

}  // namespace trimm::kernels::simt

namespace trimm::kernels {

void launch_simt_fp32(const Problem& p, const DeviceInfo& dev, Stream stream) {
  using namespace simt;
  // 16-byte vectors need every row start 16-byte aligned: aligned bases, lds and batch strides.
  const bool vec = aligned16(p.A) && aligned16(p.B) && aligned16(p.C) && p.lda % 4 == 0 &&
                   p.ldb % 4 == 0 && p.ldc % 4 == 0 &&
                   (p.batch <= 1 || (p.stride_a % 4 == 0 && p.stride_b % 4 == 0 && p.stride_c % 4 == 0));
  const bool trans = p.fill == Fill::Lower;
  if (trans)
    vec ? launch<true, true>(p, dev, stream) : launch<true, false>(p, dev, stream);
  else
    vec ? launch<false, true>(p, dev, stream) : launch<false, false>(p, dev, stream);
}

}  // namespace trimm::kernels
