// simt_fp32: C = triu(A·B) in plain fp32 FFMA on the CUDA cores, any NVIDIA GPU from sm_80.
// One block per work unit of the triangle scheduler; 128×128 tiles (config/tile_config.hpp).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/slice_loader.cuh"
#include "kernels/launch.hpp"
#include "kernels/simt/epilogue.cuh"
#include "kernels/simt/mainloop.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::simt {
namespace {

using config::SimtTile;

// Shared memory of one block: two stages of A' and B' for the mainloop; the group reduction
// reuses the same bytes.
template <int kId>
struct SharedStorage {
  static constexpr SimtTile Cfg = config::kSimtTiles[kId];
  // +4 floats of padding: the transposing stores' bank conflict is 2-way (4-way unpadded).
  using StageT = Stage<Cfg.k_step(), Cfg.bm, 4>;
  struct Pipe {
    StageT a[2], b[2];
  };
  static constexpr int kRed = 8 * Cfg.group_threads;
  union {
    Pipe pipe;
    float4 red[kRed];
  };
};

// The tile's epilogue: sum the two k groups, each group storing one row half.
template <int kId, bool kVec, bool kColwise>
__device__ void store_tile(float4* red, float* C, const Problem& p, const sched::WorkUnit& u,
                           int group, int lt, int ty, int tx, float (&acc)[8][8]) {
  constexpr SimtTile Cfg = config::kSimtTiles[kId];
  const OutView o{C, p.ldc, p.n};
  const bool diag = u.bi == u.bj;
  const int64_t row0 = int64_t(u.bi) * Cfg.bm, col0 = int64_t(u.bj) * Cfg.bn;
  reduce_and_store<Cfg.group_threads, kVec, kColwise>(red, o, diag, row0, col0, group, lt, ty, tx,
                                                      acc);
}

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (A' = Bᵀ, B' = Aᵀ, C' = Cᵀ),
// which only changes which index of each operand is contiguous.
template <int kId, bool kTrans, bool kVec>
__global__ void __launch_bounds__(config::kSimtTiles[kId].threads(),
                                  config::kSimtTiles[kId].min_blocks)
    simt_fp32_trtrmm_kernel(Problem p, sched::TriangleSchedule s, int64_t batch_offset,
                            const __grid_constant__ sched::DispatchOrder order) {
  constexpr SimtTile Cfg = config::kSimtTiles[kId];
  constexpr int kTile = Cfg.bm, kThreads = Cfg.threads(), kStep = Cfg.k_step();
  static_assert(Cfg.bm == Cfg.bn, "the scheduler's mirror trick needs square tiles");
  static_assert(Cfg.k_groups == 2, "the epilogue's reduction pairs exactly two k groups");
  static_assert(Cfg.tm == 8 && Cfg.tn == 8 && Cfg.group_threads == 256 && kTile == 128,
                "multiply_stage assumes 16x16 threads with 8x8 accumulators per group");
  static_assert(kTile % kStep == 0, "bands start on tile boundaries, so on stage boundaries too");

  extern __shared__ __align__(16) unsigned char smem_bytes[];
  SharedStorage<kId>& smem = *reinterpret_cast<SharedStorage<kId>*>(smem_bytes);
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // sm_80/89 builds take the schedule's own order: the unit index from the table costs ptxas
  // spills there (128-register cap; measured on sm_90 only).
  const sched::WorkUnit u = s.unit(blockIdx.x);
#else
  const sched::WorkUnit u = s.unit(order.at(blockIdx.x));
#endif


  // A'(m, k), B'(k, j): see kTrans.
  const float* Ap = kTrans ? p.B + b * p.stride_b : p.A + b * p.stride_a;
  const float* Bp = kTrans ? p.A + b * p.stride_a : p.B + b * p.stride_b;
  const int64_t lda = kTrans ? p.ldb : p.lda, ldb = kTrans ? p.lda : p.ldb;
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;

  const int n = int(p.n), k_begin = int(u.k_begin);
  constexpr int kPad = SharedStorage<kId>::StageT::kRow - kTile;
  SliceLoader<kStep, kTile, kPad, kThreads, kTrans, true, kVec> la(tid, Ap, lda, int(row0), k_begin);
  SliceLoader<kStep, kTile, kPad, kThreads, !kTrans, false, kVec> lb(tid, Bp, ldb, int(col0),
                                                                     k_begin);

  const int group = tid / Cfg.group_threads, lt = tid % Cfg.group_threads;
  // Each warp covers 4 (ty) × 8 (tx) threads, so that per k it reads 4 A' and 8 B' 16-byte
  // vectors: one shared-memory wavefront each (a 2 × 16 warp needs two for B').
  const int warp = lt / 32, lane = lt % 32;
  const int ty = (warp / 2) * 4 + lane / 8, tx = (warp % 2) * 8 + lane % 8;
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  // (BLK_K, BLK_M) and (BLK_K, BLK_N) stages of kStep k each; group g multiplies k rows
  // [g·bk, (g+1)·bk) of every stage. Bands end at a tile edge or at n, so only a stage that
  // runs past n overruns its band, and the loaders' bounds zero that part.
  const int steps = int((u.k_end - u.k_begin + kStep - 1) / kStep);
  const int m0 = int(row0), j0 = int(col0);
  la.load(n, m0, k_begin);
  lb.load(n, j0, k_begin);
  // The mirror tile, in C's other triangle, is this block's to zero: the stores go out while the
  // first stage's loads are in flight.
  if (sched::TriangleSchedule::zeroes_mirror(u))
    zero_mirror<kVec>(C, p.ldc, p.n, u.bi, u.bj, kTrans, kTile, tid, kThreads);
  la.commit(smem.pipe.a[0], m0, k_begin);
  lb.commit(smem.pipe.b[0], j0, k_begin);
  __syncthreads();
  // The scalar loaders of misaligned operands leave no register for the three loops of Part
  // (ptxas spills): one loop there.
  const sched::HalfStages parts(m0, j0, k_begin, steps, kStep, kTile / 2);
  int it = 0;
  auto run = [&](auto part, int end) {
    for (; it < end; ++it) {
      const int cur = it & 1;
      const bool more = it + 1 < steps;
      const int k_next = k_begin + (it + 1) * kStep;
      if (more) {
        la.load(n, m0, k_next);
        lb.load(n, j0, k_next);
      }
      multiply_stage<Cfg.bk, decltype(part)::value>(smem.pipe.a[cur], smem.pipe.b[cur],
                                                    group * Cfg.bk, ty, tx, acc);
      if (more) {
        la.commit(smem.pipe.a[cur ^ 1], m0, k_next);
        lb.commit(smem.pipe.b[cur ^ 1], j0, k_next);
      }
      __syncthreads();
    }
  };
  if constexpr (kVec) {
    run(std::integral_constant<Part, Part::TopRows>{}, parts.top_end);
    run(std::integral_constant<Part, Part::All>{}, parts.right_begin);
  }
  run(std::integral_constant<Part, kVec ? Part::RightCols : Part::All>{}, steps);

  // A chunk-1 partial goes to the mirror tile, transposed: C'(c, r) instead of C'(r, c).
  if (kTrans != (u.kind == sched::UnitKind::Chunk1))
    store_tile<kId, kVec, true>(smem.red, C, p, u, group, lt, ty, tx, acc);
  else
    store_tile<kId, kVec, false>(smem.red, C, p, u, group, lt, ty, tx, acc);
}

}  // namespace

}  // namespace trimm::kernels::simt

namespace trimm::kernels {
namespace {

template <int kId>
struct SimtFamily {
  static constexpr config::SimtTile Cfg = config::kSimtTiles[kId];
  static constexpr int kTile = Cfg.bm, kThreads = Cfg.threads(), kStep = Cfg.k_step();
  static constexpr int kSmem = sizeof(simt::SharedStorage<kId>);
  template <bool kTrans, bool kVec>
  static constexpr auto tag() {
    return std::integral_constant<TriangleKernel,
                                  simt::simt_fp32_trtrmm_kernel<kId, kTrans, kVec>>{};
  }
  // A unit's time in stages: a Part stage does half the FFMAs (the vector kernels; the scalar
  // one for misaligned operands runs them whole, and gets a slightly worse balance);
  // kUnitOverhead for the prologue (first loads, the mirror tile's zeros) and the epilogue (the
  // k groups' reduction, the store).
  static double cost(const sched::WorkUnit& u) {
    constexpr double kUnitOverhead = 1.0;
    const int steps = int((u.k_end - u.k_begin + kStep - 1) / kStep);
    const sched::HalfStages parts(u.bi * kTile, u.bj * kTile, int(u.k_begin), steps, kStep,
                                  kTile / 2);
    return steps - 0.5 * (parts.top_end + steps - parts.right_begin) + kUnitOverhead;
  }
};

}  // namespace

void launch_simt_fp32(const Problem& p, const DeviceInfo& dev, Stream stream) {
  launch_family<SimtFamily<config::kSimtFp32>>(p, dev, stream);
}

}  // namespace trimm::kernels
