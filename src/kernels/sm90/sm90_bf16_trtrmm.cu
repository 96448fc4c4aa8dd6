// sm90_16bit: C = triu(A·B) (or tril) for 16-bit data, bf16 or fp16, on Hopper's warpgroup tensor
// cores (wgmma, sm_90a) with fp32 accumulators; C rounded to the type once, at the store.
//
// For 16-bit inputs wgmma reads both operands from shared memory (SS) and takes B either K-major
// or MN-major (imm-trans-b), so both tiles are used exactly as TMA writes them from row-major
// memory: A(m, k) K-major, B(k, n) N-major. No transpose, no register operand, no workspace.
//
// A persistent grid where sched::persistent_order has a layout (one block per SM, each walking
// its packed list of units, heaviest first, the ring continuing from unit to unit, so that the
// producer loads the next unit while the consumers store the last). For one problem, in clusters
// of two where sched::pair_order has a layout (kPair; config::kSm90Bf16PairMinN to
// kSm90Bf16PairMaxN): the two blocks take tiles of one scheduler row, level by level, in step,
// and each loads half of the operand they share (Upper: A's rows; Lower: B's columns) and
// multicasts it to both, since at n = 4096 the stages wait on L2 (bench/RESULTS.md, session 35:
// A on every other stage alone took 54 to 46 µs). Else one block per unit in the balanced order
// (longest first for a batch; past the tables, in bands of diagonals for L2:
// config::kSm90Bf16Band). No split units (see below).
// Three warpgroups:
//   WG0, WG1: consumers, 64 rows m × 128 columns n of the 128×128 tile each: four m64n128k16
//     wgmmas per 64-k stage, one commit group per stage, the previous stage's group retired
//     (and its slot freed on mbarrier `empty`) while the current one runs; the epilogue rounds
//     the warpgroup's 64 rows into shared memory and one thread stores them with TMA, so that
//     the consumers start the next unit while C is written (−12 % at n = 4096, session 9), and
//     it runs while the tensor cores take the next unit's first stage (consume_units);
//   WG2 warp 8: TMA producer (one thread) into a ring of kStages (a cluster's k split: of
//     kSplitRing), completion on mbarrier `full`;
//   WG2 warps 9-11: zero the mirror tile in C's other triangle, then exit; in a cluster pair
//     warp 9's lane 0 issues B's loads beside the producer's A (load_pair_stage) and warps
//     10-11 zero the mirrors.
// Structural zeros: a stage whose k range crosses the diagonal of A's or B's tile holds the
// inputs' other triangle, which is never trusted (NaN included). On those stages only (at most
// four per tile), by 64×64 block: each consumer zeroes its own rows of A where they lie wholly in
// the other triangle and masks them where they hold the diagonal, both consumers B's boxes; the
// generic-proxy writes are fenced against the async proxy (wgmma), then the consumer (A only) or
// both (B) meet at a named barrier before the wgmmas. Only each row's diagonal chunk is read:
// 59.5 against 61.5 µs at n = 4096 for masking every element of the crossing stages (session 17).
// No split tiles through C: the fix-up pass would carry a chunk's partial sum through C, which
// in 16 bits costs a second rounding. Where the units leave most SMs idle (one problem, n up to
// ~1400 on 132 SMs), the longest band bounds the time; there a cluster of 2 to 4 blocks shares
// each unit's band (kSplit), and their fp32 sums meet in shared memory before C is rounded once
// (split_push / split_store below).
// Path::Dense (Structure::Detect's dense launch: alone and ungated on small work, else gated after
// this kernel's structured launch): a dense schedule, every unit's band all of k, nothing masked
// but C's other triangle: the dense product's triangle whatever A and B hold. (Its non-finite flag
// also sees sums it never stores, past n or across a diagonal tile: a needless exact launch at
// worst, as sm80_16bit's.)
// Tall units (sm90_bf16_tall_kernel): one Upper problem's structured product from
// config::kSm90Bf16TallMinN to kSm90Bf16TallMaxN runs in 192×128 units on three consumer
// warpgroups instead (sched/tall_order.hpp), 0.92-0.99× the square pairs' time (session 55); from
// config::kSm90Bf16WideMinN to kSm90Bf16WideMaxN, 192×256 units on the same
// warpgroups (each two m64n128k16 a k16), 0.80-0.93× main's time on an H100 (session 57).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/common/cluster_split.cuh"
#include "kernels/common/elem16.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/common/unit_list.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm90/launch_registers.hpp"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "sched/order_cache.hpp"
#include "sched/tall_order.hpp"
#include "sched/triangle_scheduler.hpp"

static_assert(sizeof(trimm::half_t) == sizeof(__half) && alignof(trimm::half_t) == alignof(__half),
              "trimm::half_t is layout-compatible with __half");
static_assert(sizeof(trimm::bfloat16_t) == sizeof(__nv_bfloat16) &&
                  alignof(trimm::bfloat16_t) == alignof(__nv_bfloat16),
              "trimm::bfloat16_t is layout-compatible with __nv_bfloat16");

namespace trimm::kernels::sm90_16bit {
namespace {

constexpr config::WgmmaTile Cfg = config::kSm90Bf16;
constexpr config::TallTile Tall = config::kSm90Bf16Tall;
constexpr config::TallTile Wide = config::kSm90Bf16Wide;
constexpr int kTile = Cfg.tile, kStep = Cfg.bk;
constexpr int kBoxN = 64;           // 16-bit elements per 128-byte swizzled row: TMA's box width
constexpr int kWgmmaK = 16;         // k per wgmma for 16-bit inputs
constexpr int kHelperThreads = 96;  // the last warpgroup's warps after the producer's
static_assert(kStep == kBoxN, "a stage of A is one TMA box: k spans one 128-byte row");
static_assert(kTile % kBoxN == 0, "B's stage is kTile / kBoxN boxes");
static_assert(kStep % kWgmmaK == 0 && kStep % 8 == 0, "whole wgmma k steps, whole swizzle atoms");
static_assert(Tall.cols == kTile && Tall.bk == kStep,
              "tall units are 128 wide, with the square tiles' stage of k");
static_assert(Wide.rows == Tall.rows && Wide.cols == 2 * kTile && Wide.bk == kStep,
              "wide units are tall units twice as wide: two m64n128k16 a k16");

// A block's form, by the rows M of its units: the square schedule's 128×128 tiles, or tall
// 192×128 units (Upper, one problem: sched/tall_order.hpp). Each consumer warpgroup owns 64 rows
// of a unit, all 128 columns (m64n128k16); the last warpgroup holds the producer warp and the
// helper warps. Registers a thread: at launch (one block per SM), then after setmaxnreg, which
// moves them from the last warpgroup to the consumers' accumulators (consume_units). Each SM
// sub-partition hosts one warp of each warpgroup.
// Wide units (Cols = 256, config::kSm90Bf16Wide) are tall units of two 128-column halves, each a
// m64n128k16 into its own 64 accumulators (ptxas checks m64n256's 154 registers against the
// launch's 128, not setmaxnreg's).
template <int M, int Cols = kTile>
struct Form {
  static_assert(M == kTile ? Cols == kTile
                           : M == Tall.rows && (Cols == Tall.cols || Cols == Wide.cols),
                "the square tiles, the tall units or the wide ones");
  static constexpr int kConsumers = M / 64, kConsumerThreads = 128 * kConsumers;
  static constexpr int kThreads = kConsumerThreads + 32 + kHelperThreads;
  static constexpr int kStages = M == kTile          ? Cfg.stages
                                 : Cols == Wide.cols ? Wide.stages
                                                     : Tall.stages;
  static constexpr int kHalves = Cols / kTile;  // 128-column halves: 64 accumulators each
  static constexpr int kLaunchRegs = M == kTile ? 168 : 128;
  static constexpr int kProducerRegs = M == kTile ? 40 : 32;  // (tall: 24 spills)
  static constexpr int kConsumerRegs = M == kTile ? 232 : 160;
  // Accumulator sets a consumer thread: two of 64, or (160 registers) one.
  static constexpr int kAccSets = M == kTile ? 2 : 1;
  static_assert(64 * kHalves * kAccSets + 32 <= kConsumerRegs,
                "the accumulators leave a consumer room for its addresses and loop state");
  static_assert(kLaunchRegs * kThreads <= 65536, "one block per SM");
  static_assert(kProducerRegs + kConsumers * kConsumerRegs <= (kConsumers + 1) * kLaunchRegs,
                "setmaxnreg hands on only what the producer warpgroup gives up");
  static_assert(kConsumerRegs % 8 == 0 && kProducerRegs % 8 == 0 && kProducerRegs >= 24,
                "setmaxnreg takes multiples of 8 from 24");
};
using Square = Form<kTile>;
constexpr int kStages = Square::kStages, kConsumers = Square::kConsumers;
constexpr int kThreads = Square::kThreads, kConsumerThreads = Square::kConsumerThreads;
constexpr int kLaunchRegs = Square::kLaunchRegs;
static_assert(kThreads == Cfg.threads() && kConsumerThreads == 128 * Cfg.consumers,
              "the table's shape");
static_assert(Form<Tall.rows>::kConsumers == Tall.consumers() &&
                  Form<Tall.rows>::kStages == Tall.stages &&
                  Form<Wide.rows, Wide.cols>::kStages == Wide.stages,
              "the table's tall and wide shapes");
// A cluster's k split keeps fewer loads in flight: at n = 1024, 4 of the 6 slots ran 11.9 µs
// against 12.45 (its blocks all start at once, and a block's first stage arrives sooner), while
// the persistent kernel at 4096 wants all 6 (58.2 against 59.0-59.9 µs with 4; session 17,
// call 9: times at 4096 move ~1 µs between calls).
constexpr int kSplitRing = config::kSm90Bf16SplitStages;
static_assert(kSplitRing >= 2 && kSplitRing <= kStages, "the split's ring is part of the ring");
// How many more stages a pair's longer band may have: the shorter one's consumers hold their last
// slot until the next level's first stage, kMaxPairLag + 1 stages on, which the producers may
// issue only once the slot kStages back is free (sched::pair_order checks it; its pairs differ by
// at most two).
constexpr int kMaxPairLag = kStages - 2;

// One pipeline stage, every tile in rows of 128 bytes in TMA's 128-byte swizzle: the 16-byte
// chunk c of row r sits at chunk c ^ (r % 8). 1024-byte aligned, as the descriptors require.
template <int M, int Cols = kTile>
struct alignas(1024) Stage {
  uint16_t a[M * kStep];     // (m M, k 64): A rows, K-major
  uint16_t b[kStep * Cols];  // Cols/64 boxes of (k 64, n 64): B rows, N-major
};
static_assert(sizeof(Stage<kTile>) == 2 * 2 * kTile * kStep &&
                  sizeof(Stage<Tall.rows>) == 2 * (Tall.rows + kTile) * kStep &&
                  sizeof(Stage<Wide.rows, Wide.cols>) == 2 * (Wide.rows + Wide.cols) * kStep,
              "no padding inside a stage");
// C's tile on its way out: each consumer's 64 rows as two TMA boxes of 64 columns, in the same
// 128-byte swizzle (so that the accumulators' pairs land in distinct banks).
struct alignas(1024) OutBuffer {
  uint16_t box[kTile / kBoxN][64 * kBoxN];
};
template <int M, int Cols = kTile>
struct Storage {
  Stage<M, Cols> stage[Form<M, Cols>::kStages];
  OutBuffer out[Form<M>::kConsumers];  // (wide units: each half in turn)
  uint64_t full[Form<M, Cols>::kStages], empty[Form<M, Cols>::kStages];
  unit_list::Entry units[unit_list::kMaxLevels];  // the block's units (unsplit kernel)
  uint16_t partner[unit_list::kMaxLevels];  // a pair layout's partners, level by level (kPair)
};
using SharedStorage = Storage<kTile>;
static_assert(sizeof(Storage<kTile>) + 1024 <= 227 * 1024 &&
                  sizeof(Storage<Tall.rows>) + 1024 <= 227 * 1024 &&
                  sizeof(Storage<Wide.rows, Wide.cols>) + 1024 <= 227 * 1024,
              "fits a block's shared memory");

// A cluster's k split (kSplit): the tile's four pieces, consumer wg's rows × box bx of 64
// columns (piece 2·wg + bx), belong to the ranks in order: rank r owns pieces
// [first_piece(r), first_piece(r + 1)), so piece p is rank p · ranks / kPieces's.
constexpr int kMaxSplitRanks = config::kSm90Bf16SplitRanks;
constexpr int kPieces = kConsumers * (kTile / kBoxN);
static_assert(kPieces == 4 && kMaxSplitRanks <= kPieces, "every rank owns a piece");
__host__ __device__ constexpr int first_piece(int rank, int ranks) {
  return (kPieces * rank + ranks - 1) / ranks;
}
// Each owner receives every rank's fp32 sums of its pieces (its own included) in its ring:
// float4 fragments, [rank][piece of the owner's][fragment of 8 in the piece][thread of 128], at
// most ranks · ceil(kPieces / ranks) pieces' worth (6 for 3 ranks).
constexpr int kPieceFragments = 8 * 128;
constexpr int kMaxOwnerFragments = 3 * first_piece(1, 3) * kPieceFragments;  // 3 ranks: 6 pieces
static_assert(sizeof(SharedStorage::stage) >= kMaxOwnerFragments * sizeof(float4) &&
                  kMaxOwnerFragments >= 4 * kPieceFragments,
              "the ring holds what an owner receives, for 2, 3 or 4 ranks");

// Where a tile lies in C. Upper: tile (bi, bj) of the scheduler is rows bi, columns bj. Lower:
// the scheduler's coordinates are those of Cᵀ, so rows bj, columns bi. Either way the kernel
// computes C(m, n) = Σ_k A(m, k)·B(k, n) over the scheduler's band of k. Tall and wide units
// (rows = 192, cols = 128 or 256, Upper only): row block bi, column block bj
// (sched::TallSchedule).
struct TileCoords {
  int m0, n0;
  __device__ TileCoords(const sched::WorkUnit& u, bool lower, int rows = kTile, int cols = kTile)
      : m0((lower ? u.bj : u.bi) * rows), n0((lower ? u.bi : u.bj) * cols) {}
};

#if TRIMM_SM90_DEVICE

namespace ptx = sm90::ptx;

constexpr int kProducerWarp = kConsumerThreads / 32;
constexpr int kPairBWarp = kProducerWarp + 1;  // a pair's B loads (lane 0; kPair)
constexpr uint32_t kStageTxBytes = sizeof(Stage<kTile>);          // A and B by TMA, whole boxes
constexpr uint32_t kBoxBytes = kBoxN * kStep * sizeof(uint16_t);  // one B box: LBO
constexpr int kMaskBarrier = 1;    // named barrier of all consumers on stages that mask B
constexpr int kMaskWgBarrier = 2;  // one consumer's, on stages that mask only its A (2, 3[, 4])
// Then one consumer's epilogue's: 4, 5 (square) or 5, 6, 7 (tall).
template <int M>
constexpr int kStoreBarrier = kMaskWgBarrier + Form<M>::kConsumers;
static_assert(kMaskWgBarrier > kMaskBarrier && kStoreBarrier<Tall.rows> + Tall.consumers() <= 16,
              "named barriers: 0 is __syncthreads, then the masks', then one per consumer");

// --- producer: one thread, kRing loads ahead --------------------------------------------------
// B's stage from k0, all of its boxes of 64 columns, completing on `full`.
template <int M, int Cols>
__device__ __forceinline__ void load_b(Stage<M, Cols>& st, const CUtensorMap* map_b, uint64_t* full,
                                       const TileCoords& tc, int k0, int zb) {
#pragma unroll
  for (int j = 0; j < Cols / kBoxN; ++j)
    ptx::tma_load_3d(st.b + j * kBoxN * kStep, map_b, full, tc.n0 + j * kBoxN, k0, zb);
}

// Stage q's loads (its slot free), k from k0: A's M rows in one box.
template <int kRing, int M, int Cols>
__device__ __forceinline__ void load_stage(Storage<M, Cols>& sm, const CUtensorMap* map_a,
                                           const CUtensorMap* map_b, const TileCoords& tc, int k0,
                                           int q, int za, int zb) {
  const int s = q % kRing;
  Stage<M, Cols>& st = sm.stage[s];
  ptx::mbar_arrive_expect_tx(&sm.full[s], uint32_t(sizeof(Stage<M, Cols>)));
  ptx::tma_load_3d(st.a, map_a, &sm.full[s], k0, tc.m0, za);
  load_b(st, map_b, &sm.full[s], tc, k0, zb);
}

// A cluster pair's stage q (kPair; sched/pair_order.hpp), iteration `it` of a level whose tiles
// share their band start, in two parts issued by two threads: A's boxes with the slot's
// expect_tx, and B's boxes, each once the slot is free. real: this block's band has the stage
// (else only its partner's does, and the slot's phase passes with no data). multicast: both
// bands have it, so the shared operand comes in halves, one from each block, to both (Upper: A's
// 64-row halves, map_a's box; Lower: B's boxes); otherwise this block loads all of it. B's
// bytes may land before the expect_tx, as the partner's half may: the phase waits for both.
enum Part : int { kPartA = 1, kPartB = 2 };
template <bool kLower>
__device__ __forceinline__ void load_pair_stage(SharedStorage& sm, const CUtensorMap* map_a,
                                                const CUtensorMap* map_b, const TileCoords& tc,
                                                int k0, int q, int za, int zb, int rank, bool real,
                                                bool multicast, int parts) {
  const int s = q % kStages;
  Stage<kTile>& st = sm.stage[s];
  constexpr uint16_t kBoth = 0b11;
  if (parts & kPartA) {
    if (!real) {
      ptx::mbar_arrive(&sm.full[s]);
    } else {
      ptx::mbar_arrive_expect_tx(&sm.full[s], kStageTxBytes);  // B and the partner's half too
      if (kLower) {
        ptx::tma_load_3d(st.a, map_a, &sm.full[s], k0, tc.m0, za);
      } else if (multicast) {
        ptx::tma_load_3d_multicast(st.a + 64 * rank * kStep, map_a, &sm.full[s], k0,
                                   tc.m0 + 64 * rank, za, kBoth);
      } else {
        ptx::tma_load_3d(st.a, map_a, &sm.full[s], k0, tc.m0, za);
        ptx::tma_load_3d(st.a + 64 * kStep, map_a, &sm.full[s], k0, tc.m0 + 64, za);
      }
    }
  }
  if ((parts & kPartB) && real) {
    if (kLower && multicast)
      ptx::tma_load_3d_multicast(st.b + rank * kBoxN * kStep, map_b, &sm.full[s],
                                 tc.n0 + rank * kBoxN, k0, zb, kBoth);
    else
      load_b(st, map_b, &sm.full[s], tc, k0, zb);
  }
}

// A pair's level from ring position q0: the stages both blocks step through (the longer band's),
// [first, end), their `parts`.
template <bool kLower>
__device__ void produce_pair(SharedStorage& sm, const CUtensorMap* map_a, const CUtensorMap* map_b,
                             const unit_list::PairLevel& l, int q0, int za, int zb, int rank,
                             int first, int end, int parts) {
  const TileCoords tc(l.u, kLower);
  for (int it = first; it < end; ++it) {
    const int q = q0 + it, s = q % kStages;
    if (q >= kStages) ptx::mbar_wait(&sm.empty[s], ((q / kStages) & 1) ^ 1);
    load_pair_stage<kLower>(sm, map_a, map_b, tc, int(l.u.k_begin) + it * kStep, q, za, zb, rank,
                            it < l.steps, l.shared && it < l.steps && it < l.partner_steps, parts);
  }
}

// q0: the stages this block ran before this unit (the ring and its phases continue across units).
// kRing: the ring's depth in use, kStages or (a cluster's k split) kSplitRing.
// first: stages already issued (the prologue's early loads of a block's first unit).
template <int kRing, int M, int Cols>
__device__ void produce(Storage<M, Cols>& sm, const CUtensorMap* map_a, const CUtensorMap* map_b,
                        const TileCoords& tc, int k_begin, int steps, int q0, int za, int zb,
                        int first = 0) {
  for (int it = first; it < steps; ++it) {
    const int q = q0 + it, s = q % kRing;
    if (q >= kRing) ptx::mbar_wait(&sm.empty[s], ((q / kRing) & 1) ^ 1);
    load_stage<kRing>(sm, map_a, map_b, tc, k_begin + it * kStep, q, za, zb);
  }
}

// --- structural zeros ------------------------------------------------------------------------
// A stage meets A's tile in two 64×64 blocks (a consumer's 64 rows each against the stage's 64 k)
// and B's in two (the stage's k against a box of 64 columns). Units are whole tiles, their rows
// and columns start at multiples of 128, and every stage (a cluster rank's share included) starts
// a whole number of 64-k stages into a band that starts on a tile, so each block lies wholly in
// the inputs' referenced triangle (Kept), wholly in the other one (Zero), or exactly on the
// diagonal. Structural zeros: A(m, k) with k < m (upper) or k > m (lower), B(k, n) with k > n or
// k < n. off: the stage's first k minus the block's first row (A) or column (B), a multiple of 64.
enum class Block { Kept, Zero, Diagonal };
template <bool kLower>
__device__ __forceinline__ Block a_block(int off) {
  if (off == 0) return Block::Diagonal;
  return (off > 0) != kLower ? Block::Kept : Block::Zero;  // upper keeps k >= m
}
template <bool kLower>
__device__ __forceinline__ Block b_block(int off) {
  if (off == 0) return Block::Diagonal;
  return (off > 0) == kLower ? Block::Kept : Block::Zero;  // upper keeps k <= n
}

// A block in shared memory: 64 rows of 8 chunks of 16 bytes, row r's chunk p holding its elements
// 8·(p ^ r % 8) … + 7 (the 128-byte swizzle). tid of `threads` (128 or 256) share the work.
constexpr int kBlockChunks = kStep * kBoxN / 8;
static_assert(kStep == 64 && kBoxN == 64, "blocks of 64×64: a diagonal element per row");

// Wholly in the other triangle: +0 throughout, written blind.
__device__ __forceinline__ void zero_block(uint16_t* block, int tid, int threads) {
  for (int c = tid; c < kBlockChunks; c += threads)
    reinterpret_cast<uint4*>(block)[c] = make_uint4(0u, 0u, 0u, 0u);
}

// On the diagonal: element e of row r is structural where e < r (kBelow: upper A, upper B, whose
// zeros A(m, k < m) and B(k > n, n) both lie left of the row's diagonal element) or e > r. The
// chunks off the diagonal are zeroed blind or left alone (a predicated store, no branch); only
// row r's diagonal chunk, r / 8, is read and masked, by one thread a row.
template <bool kBelow>
__device__ __forceinline__ void mask_diagonal_block(uint16_t* block, int tid, int threads) {
  uint4* chunks = reinterpret_cast<uint4*>(block);
  for (int c = tid; c < kBlockChunks; c += threads) {
    const int r = c / 8, lc = (c % 8) ^ (r % 8);
    if (kBelow ? lc < r / 8 : lc > r / 8) chunks[c] = make_uint4(0u, 0u, 0u, 0u);
  }
#pragma unroll 1
  for (int r = tid; r < kStep; r += threads) {
    uint4& q = chunks[8 * r + ((r / 8) ^ (r % 8))];
    const int z = r % 8;  // the diagonal element's place in its chunk
    // Word w holds elements 2w (low half) and 2w + 1: each kept where it is not structural.
    auto keep = [&](int w) {
      const bool lo = kBelow ? 2 * w >= z : 2 * w <= z;
      const bool hi = kBelow ? 2 * w + 1 >= z : 2 * w + 1 <= z;
      return (lo ? 0x0000FFFFu : 0u) | (hi ? 0xFFFF0000u : 0u);
    };
    uint4 v = q;
    v.x &= keep(0), v.y &= keep(1), v.z &= keep(2), v.w &= keep(3);
    q = v;
  }
}

// A block of A or B, as its Block says.
template <bool kLower>
__device__ __forceinline__ void mask_block(uint16_t* block, Block blk, int tid, int threads) {
  if (blk == Block::Zero)
    zero_block(block, tid, threads);
  else if (blk == Block::Diagonal)
    mask_diagonal_block<!kLower>(block, tid, threads);
}

// --- consumer mainloop ------------------------------------------------------------------------
// The ring's position, advanced a stage at a time (no division by the depth).
template <int kRing>
struct RingPos {
  int s = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++s == kRing) s = 0, phase ^= 1u;
  }
};

// The low words of a warpgroup's wgmma descriptors in slot 0 (its 64 rows of A; B): a slot
// further adds sizeof(Stage<M>) >> 4, one instruction (the address field never carries).
struct StageDescs {
  uint32_t a, b;
  template <int M, int Cols>
  __device__ StageDescs(Storage<M, Cols>& sm, int wg)
      : a(ptx::desc_kmajor_sw128_lo(sm.stage[0].a + 64 * wg * kStep)),
        b(uint32_t(ptx::desc_mnmajor_sw128(sm.stage[0].b, kBoxBytes))) {}
};

// The stage at ring position pos (its k range from k0) of warpgroup wg's 64 m × 128 n: waits for
// its data, masks its structural zeros (not in a dense schedule: Path::Dense multiplies the
// operands as they are), and issues its four wgmmas into acc as one commit group.
// accumulate = 0 for a unit's first stage: its first wgmma overwrites acc, which needs no
// zeroing. (The ring and its phases continue across a block's units.) M: the unit's rows. Wide
// units (Cols = 256): acc the left 128 columns, hi the right ones (else hi is acc, unused).
template <bool kLower, bool kBf16, int kRing, int M, int Cols>
__device__ __forceinline__ void issue_stage(Storage<M, Cols>& sm, const TileCoords& tc, int k0,
                                            bool dense, RingPos<kRing> pos, const StageDescs& d,
                                            int wg, int ctid, int accumulate, float (&acc)[64],
                                            float (&hi)[64]) {
  constexpr int kConsumerThreads = Form<M>::kConsumerThreads;
  const int s = pos.s;
  ptx::mbar_wait(&sm.full[s], pos.phase);
  Stage<M, Cols>& st = sm.stage[s];
  // Block-uniform: does the stage's k range reach A's or B's diagonal (any block not Kept)?
  const bool edge_a = kLower ? k0 + kStep > tc.m0 : k0 < tc.m0 + M;
  const bool edge_b = kLower ? k0 < tc.n0 + kTile : k0 + kStep > tc.n0;
  if (!dense && (edge_a || edge_b)) {
    // Wide units (128 accumulators in 160 registers): the thread's index opaque here, so that
    // the masks' per-thread offsets are computed where used, not held through the mainloop.
    if constexpr (Cols != kTile) asm volatile("mov.b32 %0, %0;" : "+r"(ctid));
    // Warpgroup-uniform: this consumer's 64 rows of A, its own to zero or mask. (Skipping the
    // wgmmas of a Zero block instead would put them in a branch: ptxas then serializes every
    // wgmma, C7520.)
    const Block a = a_block<kLower>(k0 - (tc.m0 + 64 * wg));
    mask_block<kLower>(st.a + 64 * wg * kStep, a, ctid % 128, 128);
    // B's two boxes, read by every consumer.
    if (edge_b) {
      mask_block<kLower>(st.b, b_block<kLower>(k0 - tc.n0), ctid, kConsumerThreads);
      mask_block<kLower>(st.b + kBoxN * kStep, b_block<kLower>(k0 - tc.n0 - kBoxN), ctid,
                         kConsumerThreads);
#pragma unroll
      for (int j = 2; j < Cols / kBoxN; ++j)  // (wide units: the right half's boxes)
        mask_block<kLower>(st.b + j * kBoxN * kStep, b_block<kLower>(k0 - tc.n0 - j * kBoxN), ctid,
                           kConsumerThreads);
    }
    ptx::fence_proxy_async();  // these generic-proxy writes, before wgmma's async-proxy reads
    if (edge_b)
      ptx::named_barrier_sync(kMaskBarrier, kConsumerThreads);  // B's boxes (and A) done
    else
      ptx::named_barrier_sync(kMaskWgBarrier + wg, 128);  // this consumer's rows of A done
  }
#pragma unroll
  for (int r = 0; r < 64; ++r) ptx::pin(acc[r]);
  if constexpr (Cols != kTile) {
#pragma unroll
    for (int r = 0; r < 64; ++r) ptx::pin(hi[r]);
  }
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kStep / kWgmmaK; ++kk) {
    // A: this warpgroup's 64 rows (8 atoms of 8 rows, 1024 bytes apart), k moves 32 bytes
    // along the swizzled row. B: k moves 16 rows = two 1024-byte atoms; the second 64 columns
    // are the next box (LBO).
    constexpr uint32_t kSlot = sizeof(Stage<M, Cols>) >> 4;
    constexpr uint32_t kStepA = kWgmmaK * sizeof(uint16_t) >> 4,
                       kStepB = kWgmmaK * kBoxN * sizeof(uint16_t) >> 4;
    const uint64_t da = ptx::desc_kmajor_sw128_from_lo(d.a + s * kSlot + kStepA * kk);
    const uint64_t db = ptx::desc_kmajor_sw128_from_lo(d.b + s * kSlot + kStepB * kk);
    ptx::wgmma_m64n128k16_ss<kBf16>(acc, da, db, kk == 0 ? accumulate : 1);
    if constexpr (Cols != kTile)  // the right half: B's boxes 2 and 3, two LBOs on
      ptx::wgmma_m64n128k16_ss<kBf16>(hi, da, db + (2 * kBoxBytes >> 4), kk == 0 ? accumulate : 1);
  }
  ptx::wgmma_commit();
}

// Once the stage after it is issued: the stage in `slot` has been read by its group, and the slot
// is free (the tensor cores always have the next group queued).
// partner >= 0 (a cluster pair): that block's producer multicasts into this slot too, and waits
// for these arrivals on its own `empty`.
template <int M, int Cols>
__device__ __forceinline__ void free_slot(Storage<M, Cols>& sm, int slot, int partner) {
  ptx::mbar_arrive(&sm.empty[slot]);
  if (partner >= 0)
    ptx::mbar_arrive_cluster(ptx::map_shared_rank(shared_address(&sm.empty[slot]), partner));
}
template <int M, int Cols>
__device__ __forceinline__ void retire_stage(Storage<M, Cols>& sm, int slot, bool lane0,
                                             int partner = -1) {
  ptx::wgmma_wait<1>();
  if (lane0) free_slot(sm, slot, partner);
}

// The last stage issued (in `slot`): its group retired (acc final), its slot freed where `release`
// (a cluster rank's share may have issued none). The wait is unconditional: a wait in a branch
// serializes the wgmmas (C7518).
template <int M, int Cols>
__device__ __forceinline__ void drain(Storage<M, Cols>& sm, int slot, bool lane0, float (&acc)[64],
                                      bool release = true, int partner = -1) {
  ptx::wgmma_wait<0>();
#pragma unroll
  for (int r = 0; r < 64; ++r) ptx::pin(acc[r]);
  if (release && lane0) free_slot(sm, slot, partner);
}

// acc (64 m × 128 n of warpgroup wg) = Σ over a cluster rank's `steps` stages of its one unit,
// from the ring's first slot.
template <bool kLower, bool kBf16, int kRing>
__device__ __forceinline__ void mainloop(SharedStorage& sm, const TileCoords& tc, int k_begin,
                                         int steps, bool dense, int wg, int ctid,
                                         float (&acc)[64]) {
  const StageDescs d(sm, wg);
  const bool lane0 = threadIdx.x % 32 == 0;
  RingPos<kRing> pos;
  int last = 0;
  for (int it = 0; it < steps; ++it) {
    issue_stage<kLower, kBf16, kRing>(sm, tc, k_begin + it * kStep, dense, pos, d, wg, ctid, 1, acc,
                                      acc);
    if (it > 0) retire_stage(sm, last, lane0);
    last = pos.s;
    pos.advance();
  }
  drain(sm, last, lane0, acc, steps > 0);
}

// --- epilogue ---------------------------------------------------------------------------------
// The staged word holding elements e and e + 1 (e even) of chunk f of row r in box bx, through
// the swizzle: columns 64·bx + 8·f + e and the next.
__device__ __forceinline__ uint32_t& staged_pair(OutBuffer& ob, int bx, int r, int f, int e) {
  return *reinterpret_cast<uint32_t*>(&ob.box[bx][r * kBoxN + (f ^ (r % 8)) * 8 + e]);
}

// Accumulator 4j + 2h + e of lane (g, t) in warp q of warpgroup wg holds C(m, n) with
// m = m0 + 64·wg + r, r = 16·q + g + 8h, and n = n0 + c, c = 8j + 2t + e. Each thread rounds
// pairs of adjacent columns to the type (nearest even). diag: the tile straddles the diagonal,
// whose other side is written as zero.
template <bool kLower, typename E>
__device__ __forceinline__ uint32_t out_pair(float v0, float v1, int64_t m, int64_t nc,
                                             bool diag) {
  if (diag) {
    v0 = (kLower ? m < nc : m > nc) ? 0.f : v0;
    v1 = (kLower ? m < nc + 1 : m > nc + 1) ? 0.f : v1;
  }
  if constexpr (std::is_same_v<E, __nv_bfloat16>) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(v0, v1);
    return *reinterpret_cast<const uint32_t*>(&v);
  } else {
    const __half2 v = __floats2half2_rn(v0, v1);
    return *reinterpret_cast<const uint32_t*>(&v);
  }
}

// Through shared memory: the warpgroup writes its 64 rows into its OutBuffer and one thread
// stores them with TMA (rows past n are not written), so that the consumers go on to the next
// unit while the store runs (−12 % at n = 4096, session 9). The buffer is free once the previous
// unit's store has read it. TMA clips the columns past n only to 16 bytes, so a tile that holds
// column n − 1 takes store_tile_direct unless n is a multiple of 8.
template <bool kLower, typename E, int M, int Cols>
__device__ void store_tile_tma(Storage<M, Cols>& sm, const CUtensorMap* map_c, int zc,
                               const TileCoords& tc, int wg, bool diag, const float (&acc)[64]) {
  const int wtid = threadIdx.x % 128, q = wtid / 32, g = (wtid % 32) / 4, t = wtid % 4;
  OutBuffer& ob = sm.out[wg];
  if (wtid == 0) ptx::bulk_wait_read_all();
  ptx::named_barrier_sync(kStoreBarrier<M> + wg, 128);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int r = 16 * q + g + 8 * h;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const int c = 8 * j + 2 * t;
      staged_pair(ob, c / kBoxN, r, (c % kBoxN) / 8, c % 8) =
          out_pair<kLower, E>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1], tc.m0 + 64 * wg + r,
                              tc.n0 + c, diag);
    }
  }
  ptx::fence_proxy_async();  // the generic-proxy writes, before the TMA engine reads them
  ptx::named_barrier_sync(kStoreBarrier<M> + wg, 128);
  if (wtid == 0) {
#pragma unroll
    for (int bx = 0; bx < kTile / kBoxN; ++bx)
      ptx::tma_store_3d(map_c, ob.box[bx], tc.n0 + bx * kBoxN, tc.m0 + 64 * wg, zc);
    ptx::bulk_commit();
  }
}

// A wide unit's 64 rows of warpgroup wg (Upper; not the last column block where n % 8 != 0): both
// halves rounded into 64 words first, so that the 128 accumulators are dead before the staging's
// addresses are live (the probe's direct form spilled 152 bytes at 160 registers), then each half
// through the warpgroup's OutBuffer in turn.
template <typename E>
__device__ void store_wide_tma(Storage<Wide.rows, Wide.cols>& sm, const CUtensorMap* map_c,
                               const TileCoords& tc, int wg, bool diag, const float (&lo)[64],
                               const float (&hi)[64]) {
  const int wtid = threadIdx.x % 128, q = wtid / 32, g = (wtid % 32) / 4, t = wtid % 4;
  uint32_t words[2][32];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int r = 16 * q + g + 8 * h;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const int c = 8 * j + 2 * t;
      words[0][2 * j + h] = out_pair<false, E>(lo[4 * j + 2 * h], lo[4 * j + 2 * h + 1],
                                               tc.m0 + 64 * wg + r, tc.n0 + c, diag);
      words[1][2 * j + h] = out_pair<false, E>(hi[4 * j + 2 * h], hi[4 * j + 2 * h + 1],
                                               tc.m0 + 64 * wg + r, tc.n0 + kTile + c, diag);
    }
  }
  OutBuffer& ob = sm.out[wg];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    if (wtid == 0) ptx::bulk_wait_read_all();  // the previous store has read the buffer
    ptx::named_barrier_sync(kStoreBarrier<Wide.rows> + wg, 128);
    // The row, opaque to the compiler in each half: else it keeps both halves' 16 staging
    // addresses live across the barriers (spilled).
    int r0 = 16 * q + g;
    asm volatile("mov.b32 %0, %0;" : "+r"(r0));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = r0 + 8 * h;
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int c = 8 * j + 2 * t;
        staged_pair(ob, c / kBoxN, r, (c % kBoxN) / 8, c % 8) = words[half][2 * j + h];
      }
    }
    ptx::fence_proxy_async();  // the generic-proxy writes, before the TMA engine reads them
    ptx::named_barrier_sync(kStoreBarrier<Wide.rows> + wg, 128);
    if (wtid == 0) {
#pragma unroll
      for (int bx = 0; bx < kTile / kBoxN; ++bx)
        ptx::tma_store_3d(map_c, ob.box[bx], tc.n0 + kTile * half + bx * kBoxN, tc.m0 + 64 * wg, 0);
      ptx::bulk_commit();
    }
  }
}

// One rounded pair to C(m, c) and C(m, c + 1), the second only where c + 1 < n.
template <typename E>
__device__ __forceinline__ void put_pair(E* C, int64_t ldc, int64_t n, int64_t m, int64_t c,
                                         uint32_t v) {
  if (c + 1 < n)
    *reinterpret_cast<uint32_t*>(C + m * ldc + c) = v;
  else
    *reinterpret_cast<uint16_t*>(C + m * ldc + c) = uint16_t(v);  // the low half: column c
}

// From registers, element by element where a pair would cross column n − 1.
template <bool kLower, typename E>
__device__ void store_tile_direct(E* C, int64_t ldc, int64_t n, const TileCoords& tc, int wg,
                                  bool diag, const float (&acc)[64]) {
  const int q = (threadIdx.x % 128) / 32, g = (threadIdx.x % 32) / 4, t = threadIdx.x % 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int64_t m = tc.m0 + 64 * wg + 16 * q + g + 8 * h;
    if (m >= n) continue;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      const int64_t c = tc.n0 + 8 * j + 2 * t;
      if (c >= n) continue;
      put_pair(C, ldc, n, m, c,
               out_pair<kLower, E>(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1], m, c, diag));
    }
  }
}

// --- a cluster's k split -----------------------------------------------------------------------
// Piece 2·wg + bx belongs to rank (2·wg + bx) · ranks / kPieces: with 2 ranks, a consumer's 64
// rows each; with 3, rank 0 consumer 0's rows and the others a box each; with 4, a box each.
// Fragment v of a consumer thread (accumulators 4v … 4v + 3: columns 8v + 2t, + 1, of its rows g
// and g + 8) lies in box v / 8. Once every rank's ring is free (the first cluster barrier),
// split_push stores each fragment into its owner's ring (st.shared::cluster); once they are all
// there (the second), split_store adds them up and rounds them into C, by all the owner's
// consumer threads. The first barrier is relaxed: it hands over rings the wgmmas no longer read,
// with no data to publish (the default release costs every thread a GPU-scope fence).
__device__ void split_push(const float (&acc)[64], Stage<kTile>* ring,
                           const cluster_split::ClusterPlace& cl, int wg) {
  const uint32_t base = shared_address(ring);
  const int wtid = threadIdx.x % 128;
#pragma unroll
  for (int v = 0; v < 16; ++v) {
    const int piece = (kTile / kBoxN) * wg + v / 8, owner = piece * cl.ranks / kPieces;
    const int first = first_piece(owner, cl.ranks);
    const int count = first_piece(owner + 1, cl.ranks) - first;
    const uint32_t local =
        base + 16u * uint32_t(((cl.rank * count + piece - first) * 8 + v % 8) * 128 + wtid);
    ptx::st_cluster(ptx::map_shared_rank(local, owner),
                    make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]));
  }
}

// This rank's pieces: every rank's fragments added in rank order (the same sum whichever rank
// owns the piece), rounded, and stored: staged for TMA as store_tile_tma does, or (direct)
// straight to C. ctid: the consumer thread, of kConsumerThreads. Thread ctid takes fragments
// f = ctid / 128 + 2j (j < 4) of pushing thread wtid = ctid % 128 in every owned piece, so that
// its rows and column pairs are fixed and its loads independent (a loop over flat indices spent
// ~100 instructions a fragment on index arithmetic: 1.1-2.2 µs, bench/NOTES.md session 17).
template <bool kLower, typename E>
__device__ void split_store(SharedStorage& sm, const CUtensorMap* map_c, int zc,
                            const cluster_split::ClusterPlace& cl, const TileCoords& tc,
                            bool diag, bool direct, E* C, int64_t ldc, int64_t n, int ctid) {
  const float4* buf = reinterpret_cast<const float4*>(sm.stage);
  const int first = first_piece(cl.rank, cl.ranks);
  const int count = first_piece(cl.rank + 1, cl.ranks) - first;  // this rank's pieces
  const int rank_stride = count * kPieceFragments;                 // one pushing rank's share
  const int wtid = ctid % 128, f0 = ctid / 128, t = wtid % 4;
  const int r0 = 16 * (wtid / 32) + (wtid % 32) / 4;  // the warpgroup's rows r0 and r0 + 8
#pragma unroll 1
  for (int lp = 0; lp < count; ++lp) {
    const int piece = first + lp, wg = piece / 2, bx = piece % 2;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int f = f0 + 2 * j, i = (lp * 8 + f) * 128 + wtid;
      float4 sum = buf[i];
#pragma unroll
      for (int q = 1; q < kMaxSplitRanks; ++q) {
        if (q < cl.ranks) {
          const float4 x = buf[q * rank_stride + i];
          sum.x += x.x, sum.y += x.y, sum.z += x.z, sum.w += x.w;
        }
      }
      const int c = kBoxN * bx + 8 * f + 2 * t;  // the tile's column
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = r0 + 8 * h;
        const int64_t m = tc.m0 + 64 * wg + r, nc = tc.n0 + c;
        const uint32_t v = out_pair<kLower, E>(h ? sum.z : sum.x, h ? sum.w : sum.y, m, nc, diag);
        if (direct) {
          if (m < n && nc < n) put_pair(C, ldc, n, m, nc, v);
        } else {
          staged_pair(sm.out[wg], bx, r, f, c % 8) = v;
        }
      }
    }
  }
  if (direct) return;
  ptx::fence_proxy_async();  // the generic-proxy writes, before the TMA engine reads them
  ptx::named_barrier_sync(kMaskBarrier, kConsumerThreads);
  if (ctid == 0) {
    for (int piece = first; piece < first + count; ++piece) {
      const int wg = piece / 2, bx = piece % 2;
      ptx::tma_store_3d(map_c, sm.out[wg].box[bx], tc.n0 + bx * kBoxN, tc.m0 + 64 * wg, zc);
    }
    ptx::bulk_commit();
  }
}

// The consumers of the unsplit kernel, over the block's units: a unit's C is rounded and stored
// while the tensor cores run the next unit's first stage. Units alternate between two sets of
// accumulators (the loop unrolled by two, so that each set is named statically), and a unit's
// epilogue comes right after the next unit's first group is issued and its own last group retired.
// W: unit_list::Walk, or PairWalk for a cluster pair (partner: the other block's rank), whose
// levels end with the stages only the partner's band has: their slots are freed as they come.
// gate: Structure::Detect's flag word, or null: kNonFiniteOut where a sum is NaN or Inf
// (flag_nonfinite: one atomic, the scan before having tagged the word with the call's epoch;
// kNonFiniteDense from a dense schedule, as sm80_16bit's dense launch flags). A
// NaN or Inf inside A's or B's triangle reaches C's diagonal block
// (A(i, k)·B(k, k), A(k, k)·B(k, j)), so the scan before this launch reads the other triangles
// alone (half the bytes). M: the units' rows (tall units: W walks a sched::TallSchedule's);
// Cols: their columns (wide units: two halves in one set, acc[0] and acc[1]). dense: Path::Dense's
// schedule.
template <bool kLower, typename S, class W, int M, int Cols>
__device__ __forceinline__ void consume_units(Storage<M, Cols>& sm, const CUtensorMap* map_c,
                                              int zc, Elem16<S>* C, int64_t ldc, int64_t n,
                                              bool dense, W& w, int ctid, uint32_t* gate,
                                              int partner = -1) {
  using F = Form<M, Cols>;
  constexpr bool kBf16 = std::is_same_v<S, bfloat16_t>;
  // Warp-uniform as the compiler sees it (a shuffle): the descriptors stay in uniform registers.
  const int wg = __shfl_sync(0xFFFFFFFFu, ctid / 128, 0);
  const StageDescs d(sm, wg);
  const bool lane0 = threadIdx.x % 32 == 0;
  float acc[F::kAccSets * F::kHalves][64];
  // The unit whose C waits in the other set.
  unit_list::PairLevel done;
  if (!w.next(done)) return;
  RingPos<F::kStages> pos;  // the next stage to issue
  int last = 0;             // the slot of the last one issued
  // hi: a wide unit's right half (else a again, unused).
  auto issue = [&](const TileCoords& tc, int k0, int accumulate, float(&a)[64], float(&hi)[64]) {
    issue_stage<kLower, kBf16>(sm, tc, k0, dense, pos, d, wg, ctid, accumulate, a, hi);
  };
  auto stages = [&](const unit_list::PairLevel& l, float(&a)[64],
                    float(&hi)[64]) {  // all but the first
    const TileCoords tc(l.u, kLower, M, Cols);
    for (int it = 1; it < l.steps; ++it) {
      issue(tc, int(l.u.k_begin) + it * kStep, 1, a, hi);
      retire_stage(sm, last, lane0, partner);
      last = pos.s;
      pos.advance();
    }
    for (int it = l.steps; it < l.common_steps(); ++it) {  // the partner's alone
      ptx::mbar_wait(&sm.full[pos.s], pos.phase);
      if (lane0) free_slot(sm, pos.s, partner);
      pos.advance();
    }
  };
  auto store = [&](const float(&a)[64], const float(&hi)[64]) {
    if (done.same && partner == 0) return;  // rank 1 of a pair computing one tile twice
    flag_nonfinite(gate, a, dense ? kNonFiniteDense : kNonFiniteOut);
    const TileCoords tc(done.u, kLower, M, Cols);
    // The unit holds elements of C's other triangle: a square tile on the diagonal, a tall or wide
    // unit (Upper) left of its last row's diagonal element.
    const bool diag = M == kTile ? done.u.bi == done.u.bj : tc.n0 < tc.m0 + M;
    if constexpr (Cols != kTile) {
      flag_nonfinite(gate, hi, kNonFiniteOut);
      if (n % 8 != 0 && tc.n0 + Cols > n) {  // the last column block: each half from registers
        store_tile_direct<kLower>(C, ldc, n, tc, wg, diag, a);
        TileCoords right = tc;
        right.n0 += kTile;
        store_tile_direct<kLower>(C, ldc, n, right, wg, diag, hi);
      } else {
        store_wide_tma<Elem16<S>>(sm, map_c, tc, wg, diag, a, hi);
      }
      return;
    }
    if (n % 8 != 0 && tc.n0 + kTile > n)  // TMA's store would pass column n - 1
      store_tile_direct<kLower>(C, ldc, n, tc, wg, diag, a);
    else
      store_tile_tma<kLower, Elem16<S>>(sm, map_c, zc, tc, wg, diag, a);
  };
  // The first unit: no epilogue to overlap. (hi: a wide unit's right half, else acc[0] again.)
  float(&hi)[64] = acc[F::kHalves - 1];
  issue(TileCoords(done.u, kLower, M, Cols), int(done.u.k_begin), 0, acc[0], hi);
  last = pos.s;
  pos.advance();
  stages(done, acc[0], hi);
  if constexpr (F::kAccSets == 1) {
    // One set: each unit's C is stored before the next unit's first stage is issued (the
    // producer loads it meanwhile).
    for (;;) {
      drain(sm, last, lane0, acc[0], true, partner);
      if constexpr (F::kHalves == 2) {
#pragma unroll
        for (int r = 0; r < 64; ++r) ptx::pin(hi[r]);
      }
      store(acc[0], hi);
      if (!w.next(done)) return;
      issue(TileCoords(done.u, kLower, M, Cols), int(done.u.k_begin), 0, acc[0], hi);
      last = pos.s;
      pos.advance();
      stages(done, acc[0], hi);
    }
  } else {
    auto unit = [&](auto parity) {
      constexpr int P = decltype(parity)::value;
      float(&cur)[64] = acc[P];
      float(&prev)[64] = acc[1 - P];
      unit_list::PairLevel l;
      if (!w.next(l)) {
        drain(sm, last, lane0, prev, true, partner);
        store(prev, prev);
        return false;
      }
      issue(TileCoords(l.u, kLower, M), int(l.u.k_begin), 0, cur, cur);
      retire_stage(sm, last, lane0, partner);  // the previous unit's last group: prev is final
      last = pos.s;
      pos.advance();
#pragma unroll
      for (int r = 0; r < 64; ++r) ptx::pin(prev[r]);
      store(prev, prev);
      done = l;
      stages(l, cur, cur);
      return true;
    };
    while (unit(std::integral_constant<int, 1>{}) && unit(std::integral_constant<int, 0>{})) {
    }
  }
}

// A cluster-wide barrier of every thread (release, then acquire).
__device__ __forceinline__ void cluster_sync_all() {
  cooperative_groups::this_cluster().sync();
}

#endif  // TRIMM_SM90_DEVICE

// The order a launch takes: a pair layout (kPair) or an index order, persistent layout or bands.
template <bool kPair>
using OrderOf = std::conditional_t<kPair, sched::PairLayout, sched::DispatchOrder>;

// kPair: a cluster pair's block (sched/pair_order.hpp), blocks 2c and 2c + 1 of cluster c, rank
// blockIdx.x % 2, each walking its list in step with the other and sharing one operand.
template <bool kLower, bool kSplit, bool kPair, typename S>
__global__ void __launch_bounds__(kThreads, 1)
    sm90_bf16_trtrmm_kernel(const __grid_constant__ CUtensorMap map_a,
                            const __grid_constant__ CUtensorMap map_b,
                            const __grid_constant__ CUtensorMap map_c, Problem16<S> p,
                            sched::TriangleSchedule s, int64_t batch_offset,
                            const __grid_constant__ OrderOf<kPair> order) {
#if TRIMM_SM90_DEVICE
  // Aligned by pointer arithmetic on the __shared__ array, never through an integer (which would
  // make every shared access a generic one).
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  SharedStorage& sm = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024u - (shared_address(smem_raw) & 1023u)) & 1023u));
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  S* C = p.C + b * p.stride_c;
  // A batch entry's index in a tensor map: 0 where the operand is shared by the batch.
  const int za = p.stride_a == 0 ? 0 : int(b), zb = p.stride_b == 0 ? 0 : int(b);
  const int64_t units = s.num_units();
  // kSplit: a cluster of cl.ranks blocks per unit, one unit per cluster (never a persistent
  // layout), each rank a share of its k stages (sched::RankShare).
  const cluster_split::ClusterPlace cl =
      kSplit ? cluster_split::ClusterPlace::of_this_block() : cluster_split::ClusterPlace{};
  const int64_t first_block = blockIdx.x / cl.ranks, blocks = gridDim.x / cl.ranks;
  // 16-bit Structure::Detect: every block of the launch (a cluster's ranks alike) returns here
  // where the scan found the inputs not triangular or not finite (or, a block that starts late,
  // where another block's outputs were not: the exact launch then rewrites all of C). A dense
  // schedule (Path::Dense) runs where they are finite but not triangular, or ungated.
  allow_dependent_launch();  // Structure::Detect's next launch (gated, usually off)
  if (gated_off(p.gate, s.dense ? Path::Dense : Path::Structured, p.epoch)) return;

  if (tid == 0) {
    for (int i = 0; i < kStages; ++i) {
      ptx::mbar_init(&sm.full[i], 1);
      // One arrival per consumer warp (a pair's: of both blocks).
      ptx::mbar_init(&sm.empty[i], kConsumers * 4 * (kPair ? 2 : 1));
    }
    ptx::mbar_init_fence();
    ptx::tma_prefetch_descriptor(&map_a);
    ptx::tma_prefetch_descriptor(&map_b);
    ptx::tma_prefetch_descriptor(&map_c);
  }
  const int rank = int(blockIdx.x % 2);  // a pair's (kPair)
  if constexpr (kPair) {
    unit_list::decode_pair(sm.units, sm.partner, order, blockIdx.x, tid, kThreads);
    // Both blocks' barriers initialized before either's multicast or remote arrival.
    cluster_sync_all();
    // The first level's first loads, as below (ring positions below kStages: no waits).
    if (tid == 0 && sm.units[0].bi >= 0) {
      unit_list::PairLevel l0;
      unit_list::PairWalk(sm.units, sm.partner, s).next(l0);
      produce_pair<kLower>(sm, &map_a, &map_b, l0, 0, za, zb, rank, 0,
                           min(kStages, l0.common_steps()), kPartA | kPartB);
    }
  } else if constexpr (!kSplit) {
    unit_list::decode(sm.units, s, order, first_block, blocks, tid, kThreads);
    // The first unit's first loads, before the warps split: the producer's own way to them
    // (setmaxnreg, the list, its unit's band) put its first load ~2 µs into a block, of a
    // ~4.7 µs cold start (session 33's trace). Thread 0 decoded level 0 itself.
    if (tid == 0 && sm.units[0].bi >= 0) {
      const sched::WorkUnit u0 = s.whole_unit(sm.units[0].bi, sm.units[0].bj);
      produce<kStages>(sm, &map_a, &map_b, TileCoords(u0, kLower), int(u0.k_begin),
                       min(kStages, s.steps(u0)), 0, za, zb);
    }
  }
  __syncthreads();

  // This rank's stages of unit u: [k_begin, k_begin + steps · kStep).
  struct Band {
    int k_begin, steps;
  };
  auto band_of = [&](const sched::WorkUnit& u) {
    const sched::RankShare share(int((u.k_end - u.k_begin + kStep - 1) / kStep), cl.rank,
                                 cl.ranks);
    return Band{int(u.k_begin) + share.first * kStep, share.steps};
  };
  int64_t x;
  // f(u) for each unit of this block (the producer's and the helpers' walk).
  auto each = [&](auto&& f) {
    if constexpr (kSplit) {
      for (sched::BlockUnits w(order, units, first_block, blocks); w.next(x);)
        f(sched::ordered_unit<false>(s, order, x));
    } else {
      sched::WorkUnit u;
      for (unit_list::Walk w(sm.units, s); w.next(u);) f(u);
    }
  };
  constexpr int kRing = kSplit ? kSplitRing : kStages;
  // The helper warps that zero the mirrors: warps 9-11, or (a pair's) 10-11.
  constexpr int kFirstZeroer = 32 * (kPair ? kPairBWarp + 1 : kProducerWarp + 1);
  if (tid >= kConsumerThreads) {
    if constexpr (!kSplit) ptx::setmaxnreg_dec<Square::kProducerRegs>();
    if (kPair && (tid == 32 * kProducerWarp || tid == 32 * kPairBWarp)) {
      // A pair's loads from two threads: a slot's boxes go out sooner once it is free (4096
      // bf16: −0.1…−0.6 µs, session 41; the producer's time a slot is on the kernel's path).
      int q0 = 0;
      unit_list::PairLevel l;
      for (unit_list::PairWalk w(sm.units, sm.partner, s); w.next(l); q0 += l.common_steps())
        produce_pair<kLower>(sm, &map_a, &map_b, l, q0, za, zb, rank,
                             q0 == 0 ? min(kStages, l.common_steps()) : 0, l.common_steps(),
                             tid == 32 * kProducerWarp ? kPartA : kPartB);
    } else if (tid == 32 * kProducerWarp) {
      int q0 = 0;
      each([&](const sched::WorkUnit& u) {
        const Band band = band_of(u);
        // The prologue issued the first unit's first kStages stages (unsplit).
        const int first = !kSplit && q0 == 0 ? min(kStages, band.steps) : 0;
        produce<kRing>(sm, &map_a, &map_b, TileCoords(u, kLower), band.k_begin, band.steps, q0, za,
                       zb, first);
        q0 += band.steps;
      });
    } else if (tid >= kFirstZeroer) {
      // The mirror tiles, in C's other triangle, are this block's to zero (+0 is all zero bits),
      // shared by a cluster's ranks.
      constexpr int kZeroers = kThreads - kFirstZeroer;
      each([&](const sched::WorkUnit& u) {
        if (sched::TriangleSchedule::zeroes_mirror(u))
          zero_mirror<true, uint16_t>(reinterpret_cast<uint16_t*>(C), p.ldc, p.n, u.bi, u.bj,
                                      kLower, kTile, cl.rank * kZeroers + tid - kFirstZeroer,
                                      cl.ranks * kZeroers);
      });
    }
    if constexpr (kSplit) {  // the consumers' two cluster barriers count every thread
      cluster_sync_all();
      cluster_sync_all();
    }
    if constexpr (kPair) cluster_sync_all();  // the consumers' last one
    return;
  }

  if constexpr (kPair) {
    ptx::setmaxnreg_inc<Square::kConsumerRegs>();
    unit_list::PairWalk w(sm.units, sm.partner, s);
    consume_units<kLower, S>(sm, &map_c, int(b), reinterpret_cast<Elem16<S>*>(C), p.ldc, p.n,
                             s.dense, w, tid, p.gate, rank ^ 1);
  } else if constexpr (!kSplit) {
    ptx::setmaxnreg_inc<Square::kConsumerRegs>();
    unit_list::Walk w(sm.units, s);
    consume_units<kLower, S>(sm, &map_c, int(b), reinterpret_cast<Elem16<S>*>(C), p.ldc, p.n,
                             s.dense, w, tid, p.gate);
  } else {
    // A cluster rank: one unit (a loop all the same: ptxas serializes the wgmmas of the form
    // with an `if`, C7515), its share of the band, from the ring's first slot (mainloop's ring
    // position starts there, as the producer's count does: a split block never runs a second
    // unit).
    const int wg = tid / 128;
    for (sched::BlockUnits w(order, units, first_block, blocks); w.next(x);) {
      const sched::WorkUnit u = sched::ordered_unit<false>(s, order, x);
      const TileCoords tc(u, kLower);
      const Band band = band_of(u);
      float acc[64];
#pragma unroll
      for (int r = 0; r < 64; ++r) acc[r] = 0.f;  // a rank's share may be empty
      mainloop<kLower, std::is_same_v<S, bfloat16_t>, kRing>(sm, tc, band.k_begin, band.steps,
                                                             s.dense, wg, tid, acc);
      // A rank's partial sums: NaN or Inf in one is NaN or Inf in the whole.
      flag_nonfinite(p.gate, acc, s.dense ? kNonFiniteDense : kNonFiniteOut);
      const bool direct = p.n % 8 != 0 && tc.n0 + kTile > p.n;
      // Once every rank's consumers are done, every ring is free to receive. Relaxed: this
      // thread's accesses to its ring are complete (the wgmmas' reads retired by wait 0, the
      // mask stores read by those wgmmas), so none needs ordering before the other ranks'
      // pushes; the warps have reconverged after the mainloop's lane-0 arrive.
      ptx::cluster_sync_relaxed();
      split_push(acc, sm.stage, cl, wg);
      cluster_sync_all();  // the pushes are visible; nothing touches another block's memory after
      split_store<kLower>(sm, &map_c, int(b), cl, tc, u.bi == u.bj, direct,
                          reinterpret_cast<Elem16<S>*>(C), p.ldc, p.n, tid);
    }
  }
  // The last TMA stores done before the block exits: their reads of its shared memory (all the
  // exit needs) and, conservatively, their writes.
  if (tid % 128 == 0) ptx::bulk_wait_all();
  // A pair's partner arrives on this block's barriers until its consumers are done.
  if constexpr (kPair) cluster_sync_all();
#else
  __trap();  // built for sm_90a only; dispatch never launches it elsewhere
#endif
}

// The tall form (sched/tall_order.hpp): one Upper problem's structured product in 192×128 units,
// a persistent block per SM over its list (sched::tall_order's layout, heaviest first), three
// consumer warpgroups (consume_units, as the square kernel's), the last warpgroup's producer
// thread loading A's 192 rows and B's two boxes a stage, and its three helper warps zeroing C's
// other triangle left of every row block's units (row m by block m % gridDim.x; each unit's own
// store writes the zeros inside it). As the square kernel under Structure::Detect, it runs only
// where the scan found the inputs triangular and finite, and flags non-finite sums. Cols = 256:
// the wide units (192×256, B's four boxes a stage, each consumer's two halves).
template <typename S, int Cols>
__global__ void __launch_bounds__(Form<Tall.rows, Cols>::kThreads, 1)
    sm90_bf16_tall_kernel(const __grid_constant__ CUtensorMap map_a,
                          const __grid_constant__ CUtensorMap map_b,
                          const __grid_constant__ CUtensorMap map_c, Problem16<S> p,
                          sched::TallSchedule s, const __grid_constant__ sched::PairLayout layout) {
#if TRIMM_SM90_DEVICE
  using F = Form<Tall.rows, Cols>;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  Storage<Tall.rows, Cols>& sm = *reinterpret_cast<Storage<Tall.rows, Cols>*>(
      smem_raw + ((1024u - (shared_address(smem_raw) & 1023u)) & 1023u));
  const int tid = threadIdx.x;
  allow_dependent_launch();  // Structure::Detect's next launch (gated, usually off)
  if (gated_off(p.gate, Path::Structured, p.epoch)) return;
  if (tid == 0) {
    for (int i = 0; i < F::kStages; ++i) {
      ptx::mbar_init(&sm.full[i], 1);
      ptx::mbar_init(&sm.empty[i], F::kConsumers * 4);  // one arrival per consumer warp
    }
    ptx::mbar_init_fence();
    ptx::tma_prefetch_descriptor(&map_a);
    ptx::tma_prefetch_descriptor(&map_b);
    ptx::tma_prefetch_descriptor(&map_c);
  }
  // The block's list, a level a thread: thread 0 decodes level 0 and issues its first loads
  // before the warps split, as the square kernel's prologue does.
  for (int i = tid; i < unit_list::kMaxLevels; i += F::kThreads) {
    const uint16_t t = layout.at(blockIdx.x, i);
    sm.units[i] = t == sched::PairLayout::kHole
                      ? unit_list::Entry{-1, -1}
                      : unit_list::Entry{sched::packed_bi(t), sched::packed_bj(t)};
  }
  if (tid == 0 && sm.units[0].bi >= 0) {
    const sched::WorkUnit u0 = s.whole_unit(sm.units[0].bi, sm.units[0].bj);
    produce<F::kStages>(sm, &map_a, &map_b, TileCoords(u0, false, Tall.rows, Cols), int(u0.k_begin),
                        min(F::kStages, s.steps(u0)), 0, 0, 0);
  }
  __syncthreads();
  constexpr int kProducer = F::kConsumerThreads, kFirstZeroer = kProducer + 32;
  if (tid >= F::kConsumerThreads) {
    ptx::setmaxnreg_dec<F::kProducerRegs>();
    if (tid == kProducer) {
      int q0 = 0;
      sched::WorkUnit u;
      for (unit_list::Walk w(sm.units, s); w.next(u);) {
        const int steps = s.steps(u);
        produce<F::kStages>(sm, &map_a, &map_b, TileCoords(u, false, Tall.rows, Cols),
                            int(u.k_begin), steps, q0, 0, 0, q0 == 0 ? min(F::kStages, steps) : 0);
        q0 += steps;
      }
    } else if (tid >= kFirstZeroer) {
      for (int64_t m = blockIdx.x; m < p.n; m += gridDim.x)
        zero_region<true, uint16_t>(reinterpret_cast<uint16_t*>(p.C), p.ldc, p.n, m, 0, 1,
                                    int(s.zero_cols(int(m / Tall.rows))), tid - kFirstZeroer,
                                    kHelperThreads);
    }
    return;
  }
  ptx::setmaxnreg_inc<F::kConsumerRegs>();
  unit_list::Walk w(sm.units, s);
  consume_units<false, S>(sm, &map_c, 0, reinterpret_cast<Elem16<S>*>(p.C), p.ldc, p.n, false, w,
                          tid, p.gate);
  if (tid % 128 == 0) ptx::bulk_wait_all();  // the last TMA stores, before the block exits
#else
  __trap();  // built for sm_90a only; dispatch never launches it elsewhere
#endif
}

// --- host -------------------------------------------------------------------------------------
// A unit's time in stages for its block's list (persistent_order): its k stages plus seven for
// its epilogue, its masked stages and the pipeline's turn (a 16-bit stage is short). Blocks with
// more units ended later at n = 4096 (session 18's per-block probe); weights 3/5/7/9/12 measured:
// 7 best at 3072-5120 (4096 59.6 -> 59.0 us, 5120 103.1 -> 101.4; bench/RESULTS.md session 18).
double unit_cost(const sched::WorkUnit& u) {
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + 7.0;
}

// A tall unit's time in 128×128 stages, as unit_cost's: a stage carries 1.5× the multiply-adds
// and 1.25× the bytes of a square one, and the bytes bind at n = 4096 (the probe's model,
// bench/variants/s54_tile_shape_model.py); 8 for its epilogue and masked stages.
double tall_cost(const sched::TallSchedule& s, const sched::WorkUnit& u) {
  return 1.25 * s.steps(u) + 8.0;
}
// A wide unit's: a stage ran 1.9 square stages in the probe at 8192 (bench/RESULTS.md session 57;
// 3× the multiply-adds, 1.75× the bytes).
double wide_cost(const sched::TallSchedule& s, const sched::WorkUnit& u) {
  return 1.9 * s.steps(u) + 8.0;
}

// The tall form (Cols = 128: from config::kSm90Bf16TallMinN to kSm90Bf16TallMaxN) or the wide
// one (Cols = 256: from kSm90Bf16WideMinN to kSm90Bf16WideMaxN) for one Upper problem's
// structured product, where its layout fits the table and each block's list; false where it does
// not apply.
template <typename S, int Cols>
bool launch_tall(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  using F = Form<Tall.rows, Cols>;
  constexpr bool kWide = Cols == Wide.cols;
  constexpr auto kernel = sm90_bf16_tall_kernel<S, Cols>;
  constexpr int smem = int(sizeof(Storage<Tall.rows, Cols>)) + 1024;  // + alignment slack
  const int64_t min_n = kWide ? config::kSm90Bf16WideMinN : config::kSm90Bf16TallMinN;
  const int64_t max_n = kWide ? config::kSm90Bf16WideMaxN : config::kSm90Bf16TallMaxN;
  if (p.path != Path::Structured || p.fill == Fill::Lower || p.batch != 1 || p.n < min_n ||
      p.n > max_n || !driver_takes_large_params())
    return false;
  sm90::check_launch_registers<kernel, F::kLaunchRegs>(kWide ? "sm90_16bit (wide)"
                                                             : "sm90_16bit (tall)");
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kernel>(dev.ordinal, F::kThreads, smem);
  const sched::TallSchedule s{p.n, Tall.rows, Cols, kStep};
  static sched::OrderCache<std::pair<int64_t, int64_t>, sched::PairLayout, 64> cache;
  const sched::PairLayout layout = cache.get(
      {p.n, slots}, [&] { return sched::tall_order(s, slots, kWide ? wide_cost : tall_cost); });
  if (layout.blocks == 0 || layout.count > int64_t(layout.blocks) * unit_list::kMaxLevels)
    return false;
  // A: 192 rows × 64 k a box; B: 64 k rows × 64 columns, Cols / 64 boxes a stage; C: 64 × 64
  // pieces.
  const CUtensorMap map_a = sm90::make_map(p.A, p.n, p.lda, p.stride_a, p.batch, kBoxN, Tall.rows);
  const CUtensorMap map_b = sm90::make_map(p.B, p.n, p.ldb, p.stride_b, p.batch, kBoxN, kStep);
  const CUtensorMap map_c = sm90::make_map<S>(p.C, p.n, p.ldc, p.stride_c, p.batch, kBoxN, 64);
  launch_maybe_dependent(false, kernel, dim3(unsigned(layout.blocks)), dim3(F::kThreads), smem,
                         stream, map_a, map_b, map_c, p, s, layout);
  return true;
}

template <bool kLower, typename S>
void launch(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  if (!kLower &&
      (launch_tall<S, Wide.cols>(p, dev, stream) || launch_tall<S, Tall.cols>(p, dev, stream)))
    return;
  constexpr auto kernel = sm90_bf16_trtrmm_kernel<kLower, false, false, S>;
  constexpr auto split_kernel = sm90_bf16_trtrmm_kernel<kLower, true, false, S>;
  constexpr auto pair_kernel = sm90_bf16_trtrmm_kernel<kLower, false, true, S>;
  constexpr int smem = int(sizeof(SharedStorage)) + 1024;  // + alignment slack
  sm90::check_launch_registers<kernel, kLaunchRegs>("sm90_16bit");
  sm90::check_launch_registers<pair_kernel, kLaunchRegs>("sm90_16bit (pairs)");
  // Opts in to the shared memory, checks fit.
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kernel>(dev.ordinal, kThreads, smem);
  // A: `rows` rows × 64 k per box; B: 64 k rows × 64 columns, two boxes a stage; C: 64 × 64
  // pieces.
  auto map_a_of = [&](int rows) {
    return sm90::make_map(p.A, p.n, p.lda, p.stride_a, p.batch, kBoxN, rows);
  };
  const CUtensorMap map_b = sm90::make_map(p.B, p.n, p.ldb, p.stride_b, p.batch, kBoxN, kStep);
  const CUtensorMap map_c = sm90::make_map<S>(p.C, p.n, p.ldc, p.stride_c, p.batch, kBoxN, 64);
  // One problem from config::kSm90Bf16PairMinN to kSm90Bf16PairMaxN: clusters of two blocks
  // that share an operand (sched/pair_order.hpp), in its packed layout where that exists (an
  // 8 KB kernel parameter: not on a driver older than CUDA 12.1's). Upper shares A, in 64-row
  // boxes.
  const bool dense = p.path == Path::Dense;  // the pair layouts are the triangular schedule's
  if (!dense && p.batch == 1 && p.n >= config::kSm90Bf16PairMinN &&
      p.n <= config::kSm90Bf16PairMaxN && dev.cc == 90 && has_clusters<pair_kernel>(dev.ordinal) &&
      driver_takes_large_params()) {
    blocks_per_sm<pair_kernel>(dev.ordinal, kThreads, smem);  // opts it in
    const int64_t clusters = max_clusters<pair_kernel>(dev, 2, kThreads, smem);
    const sched::TriangleSchedule s =
        sched::make_schedule(p.n, kTile, kStep, /*slots=*/1, /*dense=*/false, /*split=*/false);
    const sched::PairLayout layout = cached_pair_order(s, clusters, kMaxPairLag, unit_cost);
    // Each block's list must fit its kMaxLevels (a device with few clusters).
    if (layout.blocks > 0 && layout.count <= int64_t(layout.blocks) * unit_list::kMaxLevels) {
      const CUtensorMap map_a_pair = map_a_of(kLower ? kTile : 64);
      const ClusterLaunch cl(dim3(unsigned(layout.blocks)), kThreads, smem, 2, stream);
      TRIMM_CUDA_CHECK(cudaLaunchKernelEx(&cl.cfg, pair_kernel, map_a_pair, map_b, map_c, p, s,
                                          int64_t(0), layout));
      return;
    }
  }
  // Never split through C (see the top of this file); where the units leave SMs idle (no
  // persistent layout), a cluster shares each unit's band.
  const CUtensorMap map_a = map_a_of(kTile);
  launch_unsplit(p.n, p.batch, kTile, kStep, slots, unit_cost, unit_list::fits(slots), dense,
                 [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
                     const sched::DispatchOrder& order) {
                   unit_list::check_fits(order, "sm90_16bit");
                   // A split block runs exactly one unit: only in the schedule's own order, one
                   // block per unit (a persistent layout or a packed order never splits).
                   int ranks = 1;
                   if (order.count == 0) {
                     blocks_per_sm<split_kernel>(dev.ordinal, kThreads, smem);  // opts it in
                     ranks = cluster_ranks<split_kernel>(
                         int64_t(grid.x) * grid.y, slots, (p.n + kStep - 1) / kStep,
                         config::kSm90Bf16Split, dev, kThreads, smem, kMaxSplitRanks);
                   }
                   // Structure::Detect's gated dense launch: a programmatic dependent of the
                   // structured launch, as sm80_16bit's (its blocks wait in gated_off).
                   const bool dependent = detect_dependent(p.gate, p.path, dev.cc);
                   if (ranks == 1) {
                     launch_maybe_dependent(dependent, kernel, grid, dim3(kThreads), smem, stream,
                                            map_a, map_b, map_c, p, s, b0, order);
                     return;
                   }
                   const ClusterLaunch cl(dim3(grid.x * unsigned(ranks), grid.y), kThreads, smem,
                                          ranks, stream, dependent);
                   TRIMM_CUDA_CHECK(cudaLaunchKernelEx(&cl.cfg, split_kernel, map_a, map_b, map_c,
                                                       p, s, b0, order));
                 },
                 config::kSm90Bf16Band);
}

}  // namespace
}  // namespace trimm::kernels::sm90_16bit

namespace trimm::kernels {

template <typename T>
bool tma_compatible_16bit(const Problem16<T>& p) {
  // TMA: 16-byte aligned bases and row strides (C's too: the epilogue stores through TMA, the
  // mirror with 16-byte stores). Batch entries must not overlap unless the operand is shared
  // (stride 0; never C, validate_args). TMA's limits: 32-bit coordinates, strides below 2^40
  // bytes.
  constexpr int64_t kMaxStride = (int64_t(1) << 40) / int64_t(sizeof(T));
  auto batch_ok = [&](int64_t stride, int64_t ld) {
    return p.batch <= 1 || stride == 0 || (stride >= ld * p.n && stride < kMaxStride);
  };
  return rows_16b_aligned(p) && batch_ok(p.stride_a, p.lda) && batch_ok(p.stride_b, p.ldb) &&
         batch_ok(p.stride_c, p.ldc) && p.n < (int64_t(1) << 31) && p.lda < kMaxStride &&
         p.ldb < kMaxStride && p.ldc < kMaxStride && p.batch <= INT32_MAX;
}
template bool tma_compatible_16bit(const Problem16<half_t>&);
template bool tma_compatible_16bit(const Problem16<bfloat16_t>&);

void launch_sm90_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  p.fill == Fill::Lower ? sm90_16bit::launch<true>(p, dev, stream)
                        : sm90_16bit::launch<false>(p, dev, stream);
}

void launch_sm90_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream) {
  p.fill == Fill::Lower ? sm90_16bit::launch<true>(p, dev, stream)
                        : sm90_16bit::launch<false>(p, dev, stream);
}

}  // namespace trimm::kernels
