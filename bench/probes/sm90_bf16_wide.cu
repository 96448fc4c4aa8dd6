// Probe: sm90_16bit's tile widened to 128×256 (docs/sm90_16bit_wide_plan.md, option A), timed
// against the same skeleton at 128×128 before any build-out (bench/NOTES.md, session 42, Next 1).
//
// Why: a 128×256 stage brings 48 KB for twice the multiply-adds of a 128×128 one (32 KB): 0.75×
// the bytes an SM receives a flop, and half the stage boundaries. Its costs: the longest unit
// (row block 0 against the last 256 columns) is twice as long, so the balance is worse, and one
// set of 128 accumulators leaves no room to overlap the epilogue. "mixed" plans run the longest
// 128×256 units as their two 128×128 halves on blocks of their own (the threshold and the split
// from an LPT model of each block's time).
//
// The skeleton, every shape: one block per SM, persistent over a host-packed list of units
// (largest first onto the least-loaded block); a TMA producer thread into a ring (6 × 32 KB,
// 4 × 48 KB, or M=192's 4 × 40 KB); two (M=192: three) consumer warpgroups of 64 rows, four
// m64nWk16 wgmmas a stage into one commit group; the structural zeros of A and B masked on the
// stages that cross a diagonal, as sm90_16bit does; C rounded to bf16 and stored with TMA,
// staged 64 × 128 a warpgroup at a time (128×256: two rounds; 4 slots + 32 KB of staging fit
// 227 KB). Upper only, n a multiple of 256.
// Not in it: the mirror zeroing (C is cleared beforehand), pairs, the overlapped epilogue, the
// early loads. The landed kernel (trimm bench) is timed beside it in the same device call.
//
// Unit (row block i of M rows, column block j of W columns), j ≥ ⌊M·i / W⌋: its band is
// k ∈ [M·i, W·(j + 1)). 128×256 tiles start on multiples of 256, so the first unit of an odd
// row block has its left half wholly below the diagonal (written as zeros).
//
// Checked: A and B upper triangular with values in [1/16, 1), NaN in the strictly lower
// triangles (the masks must keep it out); C against an fp32 reference within bf16's rounding;
// C's strictly lower part inside the written tiles exactly +0. Timed: L2 flushed before each run
// (a write of twice its size), CUDA events, median and minimum of 20 runs after 3. Session 43's
// rows: bench/RESULTS.md.
//
// Session 45: "W=256 split" runs every unit 128×256 and the long ones as two parts on two blocks
// (the first half of the band's sums through global memory, a flag tagged with the launch), the
// cure the mixed plans lacked for the longest chains (split_plan).
//
// Session 47: --split T,T,... runs split plans at those thresholds (even stage counts) instead of
// the model's choice, each also with its loads alone (session 46's reading: the model's choice,
// 58 stages at 4096, leaves the busiest block 22 % over the mean in bytes).
//
// Session 54: M=192 runs 192×128 units on three consumer warpgroups (4 slots of 40 KB, 160
// registers a consumer): 0.83× the bytes a flop of 128×128, and its longest unit (64 stages of
// 768 tensor cycles) no longer than a block's mean work at 4096, where 128×256's (64 of 1024) is
// what held that width back (session 43). Row blocks start on multiples of 192, so the last one
// reaches past n (TMA fills those rows of A with zeros and clips them from C's stores).
//
// Session 54 too: --pairs runs W=128 and M=192 in clusters of two whose units are neighbours in a
// row block (as sm90_16bit's pairs), each block loading half of A's stage and multicasting it
// to both; `empty` counts both blocks' consumer warps, a shorter band's block passes its
// partner's extra stages without data, and a unit left alone in its row block pairs with itself.
//
// Session 57: --wide192 adds 192×256 units (three consumer warpgroups, each two m64n128k16 a
// k16, 128 accumulators in 160 registers, 3 slots of 56 KB), the long bands split in two as
// W=256's: 0.58× the bytes a flop of 128×128, which brings a stage's demand (37 B a tensor
// cycle) to about the intake cap (~35 B, session 45). Built only as probe_sm90_bf16_wide192
// (TRIMM_PROBE_WIDE192): ptxas spills 32 bytes there, reloaded on masked stages and in the
// epilogue only (SASS read), so that target does not fail on spills.
//
// Usage: probe_sm90_bf16_wide [--paths] [--ring] [--tall | --pairs] [--split T,...] [--wide192]
// [n ...]
// (default 2048 3072 4096 6144 8192; --paths: also each path alone, timing only: no loads, no
// wgmma (--pairs: no wgmma only); --ring: the loads alone with 2 to all of the ring's slots;
// --tall: W=128 and M=192 only; --pairs: their pair plans only)
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "common/float16.hpp"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "probe_check.hpp"

namespace {

constexpr int kStep = 64;  // k a stage: one 128-byte swizzled row of 16-bit elements
constexpr int kBoxN = 64;  // columns of a TMA box of B and C

// M rows of a unit: M / 64 consumer warpgroups, then a warpgroup whose first thread produces.
// Registers a thread at launch fill the SM; setmaxnreg then moves them to the consumers (M = 128:
// 128 accumulators need more than 168; M = 192: 64 of them, or 192×256's 128, in 160). kPair: the
// pairs' producer spills at 24, so it keeps 40 (as sm90_16bit's, with 232) or 32 (M = 192).
template <int M, bool kPair = false>
struct Warps {
  static_assert(M == 128 || M == 192, "two or three consumer warpgroups of 64 rows");
  static constexpr int kConsumers = M / 64, kConsumerThreads = 128 * kConsumers;
  static constexpr int kThreads = kConsumerThreads + 128;
  static constexpr int kLaunchRegs = M == 128 ? 168 : 128;
  static constexpr int kProducerRegs = !kPair ? 24 : M == 128 ? 40 : 32;
  static constexpr int kConsumerRegs = M == 128 ? (kPair ? 232 : 240) : 160;
  static_assert(kLaunchRegs * kThreads <= 65536 &&
                    kProducerRegs + kConsumers * kConsumerRegs <= (kConsumers + 1) * kLaunchRegs,
                "one block per SM; setmaxnreg hands on only what the producer's warpgroup "
                "gives up");
};
constexpr int kBoxBytes = kBoxN * kStep * 2;  // one box of B: k 64 × n 64
constexpr int kOutBytes = 64 * 128 * 2;       // a warpgroup's staged C: 64 rows × 128 columns
// Named barriers: the consumers' masks (1), a warpgroup's masks (2 + wg) and stores (5 + wg), the
// split plans' consumers (8).
[[maybe_unused]] constexpr uint32_t kMaskBarrier = 1, kMaskWgBarrier = 2, kStoreBarrier = 5,
                                    kSplitBarrier = 8;

template <int M, int W>
struct Shape {
  static_assert(W == 128 || W == 256, "m64n128k16 or m64n256k16");
  static constexpr int kBoxes = W / kBoxN;
  static constexpr int kABytes = M * kStep * 2;
  static constexpr int kStageBytes = kABytes + kBoxes * kBoxBytes;
  // 192×256: 56 KB a stage, so three slots beside the 48 KB of staging.
  static constexpr int kSlots = M == 128 && W == 128 ? 6 : M == 192 && W == 256 ? 3 : 4;
  static constexpr int kOutTotal = Warps<M>::kConsumers * kOutBytes;
  static constexpr int kSmem = kSlots * kStageBytes + kOutTotal + 2 * kSlots * 8 + 1024;
  static_assert(kStageBytes % 1024 == 0, "slots stay 1024-byte aligned, as descriptors need");
  static_assert(kSmem <= 227 * 1024, "one block per SM, its shared memory at most 227 KB");
};

// A launch's dynamic shared memory: M = 128's layout serves both widths (and mixed launches).
template <int M>
constexpr int kLaunchSmem = std::max(Shape<M, 128>::kSmem, Shape<M, 256>::kSmem);

// role (split plans, session 45): 0 the whole band; 1 its first part, whose sums go to
// partials[split] and then flags[split] = the launch's epoch; 2 the rest, which adds them
// before it stores. Every block's list has its role-1 parts first: they never wait, so a
// role-2 part's wait ends (one block per SM, all resident).
// Pairs (kPairs): span, the stages both blocks of the cluster step through (the longer band's);
// both, those both bands have (A arrives in halves, one from each block, to both); quiet, rank 1
// of a unit paired with itself (it computes, its partner stores).
struct Unit {
  int r0, c0, k_begin, steps, role, split, span, both, quiet;
};
// kMode of a launch of 128-wide units in clusters of two whose units share A's rows (as
// sm90_16bit's pairs): each block loads half of A's stage and multicasts it to both.
constexpr int kPairs = 2;

#if TRIMM_SM90_DEVICE
namespace ptx = trimm::kernels::sm90::ptx;
using trimm::kernels::shared_address;

// Structural zeros, Upper (as sm90_16bit): a 64×64 block of A or B lies wholly in the kept
// triangle, wholly in the other (zeroed), or on the diagonal (masked: element e of row r is
// structural where e < r, for A(m, k < m) and B(k > n, n) alike).
enum class Block { Kept, Zero, Diagonal };
__device__ __forceinline__ Block a_block(int off) {  // off: the stage's k minus the block's row
  return off == 0 ? Block::Diagonal : off > 0 ? Block::Kept : Block::Zero;
}
__device__ __forceinline__ Block b_block(int off) {  // off: the stage's k minus the box's column
  return off == 0 ? Block::Diagonal : off > 0 ? Block::Zero : Block::Kept;
}
__device__ __forceinline__ void mask_block(unsigned char* block, Block blk, int tid, int threads) {
  uint4* chunks = reinterpret_cast<uint4*>(block);  // 64 rows × 8 swizzled 16-byte chunks
  if (blk == Block::Kept) return;
  for (int c = tid; c < 512; c += threads) {
    const int r = c / 8, lc = (c % 8) ^ (r % 8);
    if (blk == Block::Zero || lc < r / 8) chunks[c] = make_uint4(0u, 0u, 0u, 0u);
  }
  if (blk == Block::Zero) return;
  for (int r = tid; r < 64; r += threads) {  // each row's diagonal chunk
    uint4& q = chunks[8 * r + ((r / 8) ^ (r % 8))];
    const int z = r % 8;
    auto keep = [&](int w) {
      return (2 * w >= z ? 0x0000FFFFu : 0u) | (2 * w + 1 >= z ? 0xFFFF0000u : 0u);
    };
    uint4 v = q;
    v.x &= keep(0), v.y &= keep(1), v.z &= keep(2), v.w &= keep(3);
    q = v;
  }
}

// M = 192, W = 256: two m64n128k16 on B's halves (two boxes, 2·kBoxBytes apart), the same
// fragment layout as one m64n256k16. ptxas checks a wgmma's operands against the launch's
// register count (128 at 512 threads), not setmaxnreg's, and m64n256 needs 154.
template <int M, int W>
__device__ __forceinline__ void wgmma(float (&d)[W / 2], uint64_t da, uint64_t db, int acc) {
  if constexpr (W == 128) {
    ptx::wgmma_m64n128k16_ss<true>(d, da, db, acc);
  } else if constexpr (M == 128) {
    ptx::wgmma_m64n256k16_ss<true>(d, da, db, acc);
  } else {
    ptx::wgmma_m64n128k16_ss<true>(reinterpret_cast<float(&)[64]>(d[0]), da, db, acc);
    ptx::wgmma_m64n128k16_ss<true>(reinterpret_cast<float(&)[64]>(d[64]), da,
                                   db + (2 * kBoxBytes >> 4), acc);
  }
}

// A warpgroup's 64 rows of the unit to C, 128 columns a round through its staging buffer.
// M = 192, W = 256 (160 registers): every pair rounded into one word first, so that the 128
// accumulators die before the rounds' addresses are live (the direct form spilled 152 bytes).
template <int M, int W>
__device__ void store_unit(unsigned char* out, const CUtensorMap* map_c, const Unit& un, int wg,
                           const float (&acc)[W / 2]) {
  const int wtid = threadIdx.x % 128, q = wtid / 32, g = (wtid % 32) / 4, t = wtid % 4;
  uint16_t* ob = reinterpret_cast<uint16_t*>(out + wg * kOutBytes);  // [2 boxes][64][64]
  const bool diag = un.c0 < un.r0 + M;
  constexpr bool kPacked = M == 192 && W == 256;
  uint32_t words[kPacked ? W / 4 : 1];
  if constexpr (kPacked) {
#pragma unroll
    for (int i = 0; i < W / 4; ++i) {
      const int hf = i / 32, j = i % 32 / 2, h = i % 2;
      const int m = un.r0 + 64 * wg + 16 * q + g + 8 * h, col = un.c0 + 128 * hf + 8 * j + 2 * t;
      float v0 = acc[64 * hf + 4 * j + 2 * h], v1 = acc[64 * hf + 4 * j + 2 * h + 1];
      if (diag) {
        v0 = m > col ? 0.f : v0;
        v1 = m > col + 1 ? 0.f : v1;
      }
      const __nv_bfloat162 v = __floats2bfloat162_rn(v0, v1);
      words[i] = *reinterpret_cast<const uint32_t*>(&v);
    }
  }
#pragma unroll
  for (int hf = 0; hf < W / 128; ++hf) {
    if (wtid == 0)
      ptx::bulk_wait_read_all();  // the previous round's store has read the
                                  // buffer
    ptx::named_barrier_sync(kStoreBarrier + wg, 128);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = 16 * q + g + 8 * h, m = un.r0 + 64 * wg + r;
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int c = 8 * j + 2 * t, col = un.c0 + 128 * hf + c;
        uint16_t* dst =
            &ob[(c / kBoxN) * 64 * kBoxN + r * kBoxN + (((c % kBoxN) / 8) ^ (r % 8)) * 8 + c % 8];
        if constexpr (kPacked) {
          *reinterpret_cast<uint32_t*>(dst) = words[32 * hf + 2 * j + h];
          continue;
        }
        float v0 = acc[64 * hf + 4 * j + 2 * h], v1 = acc[64 * hf + 4 * j + 2 * h + 1];
        if (diag) {
          v0 = m > col ? 0.f : v0;
          v1 = m > col + 1 ? 0.f : v1;
        }
        *reinterpret_cast<__nv_bfloat162*>(dst) = __floats2bfloat162_rn(v0, v1);
      }
    }
    ptx::fence_proxy_async();  // the generic-proxy writes, before the TMA engine
                               // reads them
    ptx::named_barrier_sync(kStoreBarrier + wg, 128);
    if (wtid == 0) {
      for (int bx = 0; bx < 2; ++bx)
        ptx::tma_store_3d(map_c, ob + bx * 64 * kBoxN, un.c0 + 128 * hf + kBoxN * bx,
                          un.r0 + 64 * wg, 0);
      ptx::bulk_commit();
    }
  }
}

// The ring (M = 128, both widths: 192 KB; M = 192: 160 KB), the staging behind it, then the
// barriers.
template <int M, int W>
struct Smem {
  using S = Shape<M, W>;
  unsigned char* ring;
  __device__ unsigned char* out() const { return ring + S::kSlots * S::kStageBytes; }
  __device__ uint64_t* full() const { return reinterpret_cast<uint64_t*>(out() + S::kOutTotal); }
  __device__ uint64_t* empty() const { return full() + S::kSlots; }
};

template <int M, int W>
__device__ __forceinline__ void init(const Smem<M, W>& sm, bool pairs) {
  for (int i = 0; i < Shape<M, W>::kSlots; ++i) {
    ptx::mbar_init(&sm.full()[i], 1);
    // One arrival a consumer warp (pairs: of both blocks, whose producers write both slots).
    ptx::mbar_init(&sm.empty()[i], Warps<M>::kConsumerThreads / 32 * (pairs ? 2 : 1));
  }
  ptx::mbar_init_fence();
}

// The producer thread over the block's units [u_first, u_end), all of width W. kSkip (timing only):
// 1, no loads (each slot's `full` completes on the producer's arrival, stale data); 2, the
// consumers issue no wgmma.
// kPair: map_a's box is half of A's rows; stage `it` of a unit's span: where both bands have it,
// this block's half multicast to both blocks; where only this one's does, both halves here;
// past this band, an arrival without data (the slot's phase passes for the partner's sake).
template <int M, int W, int kSkip, bool kPair>
__device__ __forceinline__ void produce(const Smem<M, W>& sm, const CUtensorMap& map_a,
                                        const CUtensorMap& map_b, const Unit* units, int u_first,
                                        int u_end, int slots) {
  using S = Shape<M, W>;
  constexpr int kHalfBytes = S::kABytes / 2;
  unsigned char* ring = sm.ring;
  uint64_t *full = sm.full(), *empty = sm.empty();
  const int rank = int(blockIdx.x % 2);  // (kPair)
  int q = 0;  // stages issued: the ring and its phases run on across units
  for (int u = u_first; u < u_end; ++u) {
    const Unit un = units[u];
    for (int it = 0; it < (kPair ? un.span : un.steps); ++it, ++q) {
      const int s = q % slots, k0 = un.k_begin + it * kStep;
      if (q >= slots) ptx::mbar_wait(&empty[s], ((q / slots) & 1) ^ 1);
      unsigned char* st = ring + s * S::kStageBytes;
      if (kSkip == 1 || it >= un.steps) {
        ptx::mbar_arrive(&full[s]);
        continue;
      }
      ptx::mbar_arrive_expect_tx(&full[s], S::kStageBytes);
      if (!kPair) {
        ptx::tma_load_3d(st, &map_a, &full[s], k0, un.r0, 0);
      } else if (it < un.both) {
        ptx::tma_load_3d_multicast(st + rank * kHalfBytes, &map_a, &full[s], k0,
                                   un.r0 + rank * M / 2, 0, 0b11);
      } else {
        ptx::tma_load_3d(st, &map_a, &full[s], k0, un.r0, 0);
        ptx::tma_load_3d(st + kHalfBytes, &map_a, &full[s], k0, un.r0 + M / 2, 0);
      }
#pragma unroll
      for (int j = 0; j < S::kBoxes; ++j)
        ptx::tma_load_3d(st + S::kABytes + j * kBoxBytes, &map_b, &full[s], un.c0 + kBoxN * j, k0,
                         0);
    }
  }
}

// The consumer warpgroups over the same units.
template <int M, int W, int kSkip, bool kPair>
__device__ __forceinline__ void consume(const Smem<M, W>& sm, const CUtensorMap& map_c,
                                        const Unit* units, int u_first, int u_end, int ring_slots,
                                        float* partials, int* flags, int epoch) {
  using S = Shape<M, W>;
  constexpr int kConsumerThreads = Warps<M>::kConsumerThreads;
  // (M = 192, W = 256: the whole ring, a constant, for the registers)
  const int slots = M == 192 && W == 256 ? S::kSlots : ring_slots;
  unsigned char *ring = sm.ring, *out = sm.out();
  uint64_t *full = sm.full(), *empty = sm.empty();
  const int tid = threadIdx.x;
  const int wg = __shfl_sync(0xFFFFFFFFu, tid / 128, 0);
  const bool lane0 = tid % 32 == 0;
  // The warpgroup's 64 rows of A and B's boxes (LBO apart), in slot 0; see sm90_16bit.
  const uint32_t da0 = ptx::desc_kmajor_sw128_lo(ring + 64 * wg * kStep * 2);
  const uint32_t db0 = uint32_t(ptx::desc_mnmajor_sw128(ring + S::kABytes, kBoxBytes));
  constexpr uint32_t kSlot = S::kStageBytes >> 4, kStepA = 16 * 2 >> 4,
                     kStepB = 16 * kBoxN * 2 >> 4;
  constexpr int kAcc = W / 2;  // accumulators a consumer thread
  constexpr bool kNoPins = kSkip == 2 && M == 192 && W == 256;
  float acc[kAcc];
  int s = 0;
  uint32_t phase = 0;
  // A slot read: free for this block's producer and (kPair) its partner's, which multicasts
  // into it.
  auto release = [&](int slot) {
    if (!lane0) return;
    ptx::mbar_arrive(&empty[slot]);
    if (kPair)
      ptx::mbar_arrive_cluster(
          ptx::map_shared_rank(shared_address(&empty[slot]), int(blockIdx.x % 2) ^ 1));
  };
  // Stage `it` of the unit: wait, mask, four wgmmas as one commit group.
  auto issue = [&](const Unit& un, int it) {
    const int k0 = un.k_begin + it * kStep;
    ptx::mbar_wait(&full[s], phase);
    unsigned char* st = ring + s * S::kStageBytes;
    const bool edge_a = k0 < un.r0 + M;
    const bool edge_b = k0 + kStep > un.c0;
    if (edge_a || edge_b) {
      mask_block(st + 64 * wg * kStep * 2, a_block(k0 - (un.r0 + 64 * wg)), tid % 128, 128);
      if (edge_b) {
#pragma unroll
        for (int j = 0; j < S::kBoxes; ++j)
          mask_block(st + S::kABytes + j * kBoxBytes, b_block(k0 - un.c0 - kBoxN * j), tid,
                     kConsumerThreads);
      }
      ptx::fence_proxy_async();  // these generic-proxy writes, before wgmma's
                                 // async-proxy reads
      if (edge_b)
        ptx::named_barrier_sync(kMaskBarrier, kConsumerThreads);
      else
        ptx::named_barrier_sync(kMaskWgBarrier + wg, 128);
    }
    // (M = 192, W = 256 without wgmma: no pins, or the 128 unwritten accumulators spill)
    if constexpr (!kNoPins) {
#pragma unroll
      for (int r = 0; r < kAcc; ++r) ptx::pin(acc[r]);
    }
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < (kSkip == 2 ? 0 : kStep / 16); ++kk)
      wgmma<M, W>(acc, ptx::desc_kmajor_sw128_from_lo(da0 + s * kSlot + kStepA * kk),
                  ptx::desc_kmajor_sw128_from_lo(db0 + s * kSlot + kStepB * kk),
                  kk == 0 && it == 0 ? 0 : 1);
    ptx::wgmma_commit();
  };
  for (int u = u_first; u < u_end; ++u) {
    const Unit un = units[u];
    issue(un, 0);
    int last = s;
    if (++s == slots) s = 0, phase ^= 1u;
    for (int it = 1; it < un.steps; ++it) {
      issue(un, it);
      ptx::wgmma_wait<1>();
      release(last);
      last = s;
      if (++s == slots) s = 0, phase ^= 1u;
    }
    ptx::wgmma_wait<0>();
    if constexpr (!kNoPins) {
#pragma unroll
      for (int r = 0; r < kAcc; ++r) ptx::pin(acc[r]);
    }
    release(last);
    // kPair: the partner's longer band's stages, phases without data here.
    for (int it = un.steps; kPair && it < un.span; ++it) {
      ptx::mbar_wait(&full[s], phase);
      release(s);
      if (++s == slots) s = 0, phase ^= 1u;
    }
    // M = 192, W = 256 (160 registers): the unit read again, not held through the mainloop.
    const Unit ue = M == 192 && W == 256 ? units[u] : un;
    if (ue.role != 0) {
      // A split unit's sums, a thread's accumulators kConsumerThreads apart (coalesced).
      float* part = partials + size_t(ue.split) * kConsumerThreads * kAcc + tid;
      if (ue.role == 1) {
#pragma unroll
        for (int r = 0; r < kAcc; ++r) __stcg(part + r * kConsumerThreads, acc[r]);
        __threadfence();
        ptx::named_barrier_sync(kSplitBarrier, kConsumerThreads);
        if (tid == 0)
          asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(flags + ue.split), "r"(epoch)
                       : "memory");
        continue;
      }
      if (tid == 0) {
        int seen = 0;
        do {
          asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n"
                       : "=r"(seen)
                       : "l"(flags + ue.split)
                       : "memory");
        } while (seen != epoch);
      }
      ptx::named_barrier_sync(kSplitBarrier, kConsumerThreads);
#pragma unroll
      for (int r = 0; r < kAcc; ++r) acc[r] += __ldcg(part + r * kConsumerThreads);
    }
    if (!kPair || !ue.quiet) store_unit<M, W>(out, &map_c, ue, wg, acc);
  }
  if (tid % 128 == 0) ptx::bulk_wait_all();
}

__device__ __forceinline__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif

// Each block's SM clock over its run (session 56): thread 0's clock64 and %globaltimer at entry
// and after its consumer work, to see whether the forms without wgmma run at a higher clock.
constexpr int kMaxStampBlocks = 1024;
__device__ long long g_stamps[kMaxStampBlocks][4];

// M = 128, kMode 128 or 256: every block of that width; 0 (mixed): blocks below narrow_blocks run
// 128×128 units, the others 128×256 ones, each from its own list. M = 192: 192×128 units (kMode
// 128). kPairs (either M): 128-wide units in clusters of two (blocks 2c, 2c + 1) sharing A.
// ring_slots: the slots in use (0: all of the shape's ring; fewer, for --ring).
template <int M, int kMode, int kSkip>
__global__ void __launch_bounds__(Warps<M>::kThreads, 1)
    wide_probe(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               const __grid_constant__ CUtensorMap map_c, const Unit* units, const int* offsets,
               int narrow_blocks, int ring_slots, float* partials, int* flags, int epoch) {
#if TRIMM_SM90_DEVICE
  constexpr bool kPair = kMode == kPairs;
  constexpr int kWide = kMode == 0 || kMode == 256 ? 256 : 128;  // the other blocks' width
  using Wp = Warps<M, kPair>;
  using Narrow = Smem<M, 128>;
  using Wide = Smem<M, kWide>;
  extern __shared__ __align__(1024) unsigned char raw[];
  unsigned char* ring = raw + ((1024u - (shared_address(raw) & 1023u)) & 1023u);
  const int u_first = offsets[blockIdx.x], u_end = offsets[blockIdx.x + 1];
  const bool narrow = kMode != 256 && (kMode != 0 || int(blockIdx.x) < narrow_blocks);
  const int narrow_slots = ring_slots > 0 ? ring_slots : Shape<M, 128>::kSlots;
  const int wide_slots = ring_slots > 0 ? ring_slots : Shape<M, kWide>::kSlots;
  const int tid = threadIdx.x;
  if (tid == 0 && blockIdx.x < kMaxStampBlocks) {
    g_stamps[blockIdx.x][0] = clock64();
    g_stamps[blockIdx.x][1] = global_ns();
  }
  if (tid == 0) {
    narrow ? init(Narrow{ring}, kPair) : init(Wide{ring}, kPair);
    ptx::tma_prefetch_descriptor(&map_a);
    ptx::tma_prefetch_descriptor(&map_b);
    ptx::tma_prefetch_descriptor(&map_c);
  }
  __syncthreads();
  // kPair: both blocks' barriers initialized before either's multicast or remote arrival.
  if constexpr (kPair) cooperative_groups::this_cluster().sync();
  if (tid >= Wp::kConsumerThreads) {
    ptx::setmaxnreg_dec<Wp::kProducerRegs>();
    if (tid == Wp::kConsumerThreads) {
      if (narrow)
        produce<M, 128, kSkip, kPair>(Narrow{ring}, map_a, map_b, units, u_first, u_end,
                                      narrow_slots);
      else
        produce<M, kWide, kSkip, kPair>(Wide{ring}, map_a, map_b, units, u_first, u_end,
                                        wide_slots);
    }
    // kPair: the partner's multicasts and arrivals reach this block until its consumers are done.
    if constexpr (kPair) cooperative_groups::this_cluster().sync();
    return;
  }
  ptx::setmaxnreg_inc<Wp::kConsumerRegs>();
  if (narrow)
    consume<M, 128, kSkip, kPair>(Narrow{ring}, map_c, units, u_first, u_end, narrow_slots,
                                  partials, flags, epoch);
  else
    consume<M, kWide, kSkip, kPair>(Wide{ring}, map_c, units, u_first, u_end, wide_slots, partials,
                                    flags, epoch);
  if (tid == 0 && blockIdx.x < kMaxStampBlocks) {
    g_stamps[blockIdx.x][2] = clock64();
    g_stamps[blockIdx.x][3] = global_ns();
  }
  if constexpr (kPair) cooperative_groups::this_cluster().sync();
#else
  __trap();
#endif
}

// C = triu(A·B) in fp32 from the bf16 inputs, one thread an element, k over the band only.
__global__ void reference(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int n) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
  if (c >= n || m > c) return;
  float sum = 0.f;
  for (int k = m; k <= c; ++k)
    sum = fmaf(__bfloat162float(A[size_t(m) * n + k]), __bfloat162float(B[size_t(k) * n + c]), sum);
  C[size_t(m) * n + c] = sum;
}

// The M × W units over the whole triangle (the last row block may reach past n).
template <int M, int W>
std::vector<Unit> units_of(int n) {
  std::vector<Unit> all;
  for (int r0 = 0; r0 < n; r0 += M)
    for (int c0 = (r0 / W) * W; c0 < n; c0 += W)
      all.push_back({r0, c0, r0, (c0 + W - r0) / kStep, 0, 0});
  return all;
}

// A unit's time in 128×128-stage equivalents: its stages (a wide stage `wide` of them, a narrow
// one `narrow`: 1 at M = 128) plus the unit's own costs (7: sm90_16bit's unit_cost).
struct Cost {
  double wide, narrow = 1.0;
  double operator()(const Unit& u, bool is_wide) const {
    // (a split part's 128 KB of partial sums, written or read: ~4 stages' bytes)
    return (is_wide ? wide * u.steps + 8.0 : narrow * u.steps + 7.0) + (u.role != 0 ? 4.0 : 0.0);
  }
};

// Largest first onto the least-loaded of `count` lists (each then heaviest first); returns the
// makespan by cost.
double lpt(std::vector<Unit> us, int count, bool is_wide, const Cost& cost,
           std::vector<std::vector<Unit>>* lists) {
  std::stable_sort(us.begin(), us.end(),
                   [](const Unit& x, const Unit& y) { return x.steps > y.steps; });
  using Load = std::pair<double, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> heap;
  for (int b = 0; b < count; ++b) heap.push({0.0, b});
  if (lists) lists->assign(size_t(count), {});
  double makespan = 0.0;
  for (const Unit& u : us) {
    auto [load, b] = heap.top();
    heap.pop();
    load += cost(u, is_wide);
    makespan = std::max(makespan, load);
    if (lists) (*lists)[size_t(b)].push_back(u);
    heap.push({load, b});
  }
  return makespan;
}

// A launch's plan: narrow_blocks lists of M×128 units, then lists of M×256 ones (M=192 alone: every
// list of 192×128 units).
struct Plan {
  std::vector<std::vector<Unit>> lists;
  int narrow_blocks = 0, threshold = 0;
  double makespan = 0.0;
};

// Mixed: M×256 units of at most `threshold` stages, the longer ones as their two M×128 halves
// (a half wholly below the diagonal dropped), the blocks split between the widths; the threshold
// and the split minimize the modelled makespan.
template <int M>
Plan mixed_plan(int n, int blocks, const Cost& cost) {
  const std::vector<Unit> wide = units_of<M, 256>(n);
  Plan best;
  best.makespan = 1e30;
  for (int threshold = 2; threshold <= n / kStep; threshold += 2) {
    std::vector<Unit> nu, wu;
    for (const Unit& u : wide) {
      if (u.steps <= threshold) {
        wu.push_back(u);
        continue;
      }
      for (int c = u.c0; c < u.c0 + 256; c += 128)
        if (c + 128 > u.r0) nu.push_back({u.r0, c, u.r0, (c + 128 - u.r0) / kStep, 0, 0});
    }
    if (nu.empty() || wu.empty()) continue;
    for (int p = 1; p < blocks; ++p) {
      const double m =
          std::max(lpt(nu, p, false, cost, nullptr), lpt(wu, blocks - p, true, cost, nullptr));
      if (m < best.makespan) {
        best.makespan = m, best.narrow_blocks = p, best.threshold = threshold;
      }
    }
  }
  std::vector<Unit> nu, wu;
  for (const Unit& u : wide) {
    if (u.steps <= best.threshold) {
      wu.push_back(u);
      continue;
    }
    for (int c = u.c0; c < u.c0 + 256; c += 128)
      if (c + 128 > u.r0) nu.push_back({u.r0, c, u.r0, (c + 128 - u.r0) / kStep, 0, 0});
  }
  std::vector<std::vector<Unit>> wl;
  lpt(nu, best.narrow_blocks, false, cost, &best.lists);
  lpt(wu, blocks - best.narrow_blocks, true, cost, &wl);
  best.lists.insert(best.lists.end(), wl.begin(), wl.end());
  return best;
}

// Split: every unit M × W, those of more than `threshold` stages as two parts (the first
// half of the band, then the rest), the threshold minimizing the modelled makespan unless
// `forced` (> 0) gives it; each block's first parts moved to the front of its list.
template <int M, int W>
Plan split_plan(int n, int blocks, const Cost& cost, int forced = 0) {
  auto parts = [&](int threshold) {
    std::vector<Unit> us;
    int split = 0;
    for (Unit u : units_of<M, W>(n)) {
      if (u.steps <= threshold) {
        us.push_back(u);
        continue;
      }
      const int first = u.steps / 2;
      us.push_back({u.r0, u.c0, u.k_begin, first, 1, split});
      us.push_back({u.r0, u.c0, u.k_begin + first * kStep, u.steps - first, 2, split++});
    }
    return us;
  };
  Plan best;
  best.makespan = 1e30;
  for (int threshold = 8; threshold <= n / kStep; threshold += 2) {
    const double m = lpt(parts(threshold), blocks, true, cost, nullptr);
    if (forced > 0 ? threshold == forced : m < best.makespan)
      best.makespan = m, best.threshold = threshold;
  }
  best.makespan = lpt(parts(best.threshold), blocks, true, cost, &best.lists);
  for (auto& l : best.lists)
    std::stable_partition(l.begin(), l.end(), [](const Unit& u) { return u.role == 1; });
  return best;
}

// Pairs: each row block's M × 128 units two by two, left to right (an odd one out paired with
// itself, its rank 1 quiet); the pairs, longest span first, onto the least-loaded of `clusters`;
// lists 2c and 2c + 1 hold cluster c's first and second units, in step.
template <int M>
Plan pair_plan(int n, int clusters, const Cost& cost) {
  const std::vector<Unit> all = units_of<M, 128>(n);  // row block by row block, left to right
  std::vector<std::pair<Unit, Unit>> pairs;
  for (size_t i = 0; i < all.size();) {
    const bool two = i + 1 < all.size() && all[i + 1].r0 == all[i].r0;
    Unit a = all[i], b = two ? all[i + 1] : all[i];
    a.span = b.span = std::max(a.steps, b.steps);
    a.both = b.both = std::min(a.steps, b.steps);
    b.quiet = two ? 0 : 1;
    pairs.push_back({a, b});
    i += two ? 2 : 1;
  }
  std::vector<Unit> spans;  // one unit a pair, its span as its steps, its index as `split`
  for (size_t i = 0; i < pairs.size(); ++i) {
    Unit u = pairs[i].first;
    u.steps = u.span, u.split = int(i);
    spans.push_back(u);
  }
  Plan plan;
  std::vector<std::vector<Unit>> by_cluster;
  plan.makespan = lpt(spans, clusters, M != 128, cost, &by_cluster);
  plan.lists.assign(size_t(2 * clusters), {});
  for (int c = 0; c < clusters; ++c)
    for (const Unit& u : by_cluster[size_t(c)]) {
      plan.lists[size_t(2 * c)].push_back(pairs[size_t(u.split)].first);
      plan.lists[size_t(2 * c + 1)].push_back(pairs[size_t(u.split)].second);
    }
  plan.narrow_blocks = 2 * clusters;  // (printed only)
  return plan;
}

struct Problem {
  int n;
  uint16_t *A, *B, *C;
  float* ref;
  std::vector<float> ref_host;
};

// The launch's shape (kPairs: clusters of two along x).
template <int M>
cudaLaunchConfig_t launch_config(int blocks, bool pairs, cudaLaunchAttribute* attr) {
  constexpr int kSmem = kLaunchSmem<M>;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(unsigned(Warps<M>::kThreads));
  cfg.dynamicSmemBytes = kSmem;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = 2;
  attr->val.clusterDim.y = attr->val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = pairs ? 1 : 0;  // (plain launches as before: no cluster attribute)
  return cfg;
}

// The clusters of two that fit the device at once (at most one block an SM).
template <int M>
int pair_clusters(int sms) {
  auto kernel = wide_probe<M, kPairs, 0>;
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = launch_config<M>(sms & ~1, true, &attr);
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(cfg.dynamicSmemBytes)));
  int clusters = 0;
  PROBE_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
  if (clusters < 1) {
    std::printf("probe_sm90_bf16_wide: no cluster of two fits (M = %d)\n", M);
    std::exit(1);
  }
  return std::min(clusters, sms / 2);
}

// kSkip != 0 (the timing variants, see produce): the check is skipped. ring_slots: the
// ring's depth in use (0: the width's whole ring).
template <int M, int kMode, int kSkip = 0>
bool run(const Problem& p, const Plan& plan, const char* label, unsigned char* flush,
         size_t flush_bytes, int ring_slots = 0) {
  constexpr int kSmem = kLaunchSmem<M>;
  std::vector<Unit> units;
  std::vector<int> offsets(1, 0);
  int max_steps = 0;
  for (const auto& l : plan.lists) {
    units.insert(units.end(), l.begin(), l.end());
    offsets.push_back(int(units.size()));
    for (const Unit& u : l) max_steps = std::max(max_steps, u.steps);
  }
  const int blocks = int(plan.lists.size());
  Unit* d_units = nullptr;
  int* d_offsets = nullptr;
  PROBE_CHECK(cudaMalloc(&d_units, units.size() * sizeof(Unit)));
  PROBE_CHECK(cudaMalloc(&d_offsets, offsets.size() * sizeof(int)));
  PROBE_CHECK(
      cudaMemcpy(d_units, units.data(), units.size() * sizeof(Unit), cudaMemcpyHostToDevice));
  PROBE_CHECK(
      cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  namespace sm90 = trimm::kernels::sm90;
  using bf = trimm::bfloat16_t;
  // (kPairs: each block loads half of A's rows.)
  const CUtensorMap map_a = sm90::make_map(reinterpret_cast<const bf*>(p.A), p.n, p.n, 0, 1, 64,
                                           kMode == kPairs ? M / 2 : M);
  const CUtensorMap map_b =
      sm90::make_map(reinterpret_cast<const bf*>(p.B), p.n, p.n, 0, 1, 64, 64);
  const CUtensorMap map_c =
      sm90::make_map(reinterpret_cast<const bf*>(p.C), p.n, p.n, 0, 1, 64, 64);
  int splits = 0;
  for (const Unit& u : units) splits = std::max(splits, u.role == 2 ? u.split + 1 : 0);
  float* partials = nullptr;
  int* flags = nullptr;
  PROBE_CHECK(
      cudaMalloc(&partials, size_t(std::max(splits, 1)) * Warps<M>::kConsumerThreads * 128 * 4));
  PROBE_CHECK(cudaMalloc(&flags, size_t(std::max(splits, 1)) * sizeof(int)));
  PROBE_CHECK(cudaMemset(flags, 0, size_t(std::max(splits, 1)) * sizeof(int)));
  int epoch = 0;  // each launch's own: no flag reset between launches
  auto kernel = wide_probe<M, kMode, kSkip>;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = launch_config<M>(blocks, kMode == kPairs, &attr);
  auto launch = [&] {
    PROBE_CHECK(cudaLaunchKernelEx(&cfg, kernel, map_a, map_b, map_c,
                                   static_cast<const Unit*>(d_units),
                                   static_cast<const int*>(d_offsets), plan.narrow_blocks,
                                   ring_slots, partials, flags, ++epoch));
  };
  // The check: C cleared, one run, every element of the upper triangle against the reference (fp32
  // sums in another order, then bf16's rounding: 2^-8 relative), the lower one +0.
  const size_t elems = size_t(p.n) * p.n;
  PROBE_CHECK(cudaMemset(p.C, 0, elems * 2));
  launch();
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaDeviceSynchronize());
  std::vector<uint16_t> c(elems);
  PROBE_CHECK(cudaMemcpy(c.data(), p.C, elems * 2, cudaMemcpyDeviceToHost));
  long long bad = 0;
  double worst = 0.0;
  for (int m = 0; m < p.n; ++m)
    for (int col = 0; col < p.n; ++col) {
      const size_t i = size_t(m) * p.n + col;
      if (m > col) {
        bad += c[i] != 0;
        continue;
      }
      const double ref = p.ref_host[i], got = trimm::detail::widen(trimm::bfloat16_t{c[i]});
      const double err = std::fabs(got - ref) / std::fabs(ref);
      if (!(err <= 1.0 / 128)) ++bad;
      if (err > worst || std::isnan(err)) worst = std::isnan(err) ? INFINITY : err;
    }
  // Timed: L2 flushed before each run.
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = 0; r < 23; ++r) {
    PROBE_CHECK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));
    PROBE_CHECK(cudaEventRecord(e0));
    launch();
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    float t = 0.f;
    PROBE_CHECK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3) ms.push_back(t);
  }
  PROBE_CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  // The last run's clocks: cycles over nanoseconds a block, median and extremes over the blocks.
  std::vector<long long> st(size_t(kMaxStampBlocks) * 4);
  PROBE_CHECK(cudaMemcpyFromSymbol(st.data(), g_stamps, st.size() * sizeof(long long)));
  std::vector<double> ghz;
  for (int b = 0; b < std::min(blocks, kMaxStampBlocks); ++b) {
    const long long* t = &st[size_t(b) * 4];
    if (t[3] > t[1]) ghz.push_back(double(t[2] - t[0]) / double(t[3] - t[1]));
  }
  std::sort(ghz.begin(), ghz.end());
  const double ghz_med = ghz.empty() ? 0.0 : ghz[ghz.size() / 2];
  const double ghz_lo = ghz.empty() ? 0.0 : ghz.front(), ghz_hi = ghz.empty() ? 0.0 : ghz.back();
  std::printf(
      "wide-probe %-26s n=%d units=%zu narrow_blocks=%d threshold=%d "
      "longest=%d stages "
      "model=%.0f eq  median %.4f ms  min %.4f ms  clock %.3f GHz (%.3f-%.3f)  "
      "worst_rel_err %.2e  bad %lld  %s\n",
      label, p.n, units.size(), plan.narrow_blocks, plan.threshold, max_steps, plan.makespan,
      ms[ms.size() / 2], ms[0], ghz_med, ghz_lo, ghz_hi, worst, bad,
      kSkip != 0 ? "(timing only)"
      : bad == 0 ? "OK"
                 : "FAILED");
  PROBE_CHECK(cudaEventDestroy(e0));
  PROBE_CHECK(cudaEventDestroy(e1));
  PROBE_CHECK(cudaFree(d_units));
  PROBE_CHECK(cudaFree(d_offsets));
  PROBE_CHECK(cudaFree(partials));
  PROBE_CHECK(cudaFree(flags));
  return kSkip != 0 || bad == 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Mixed plans are made for each modelled cost of a 128×256 stage (in 128×128 stages): 2.0 if only
  // the tensor work counted, 1.5 if only the bytes did.
  const double wide_costs[] = {1.5, 1.65, 1.8};
  std::vector<int> sizes;
  bool timing_variants = false;       // --paths: each path alone too (timing only)
  bool ring_variants = false;         // --ring: the loads alone with 2 … all slots of the ring
  bool tall_only = false;             // --tall: no 128×256 or mixed plans
  bool pair_only = false;             // --pairs: only the pair plans (W=128 and M=192)
  bool wide192 = false;               // --wide192: 192×256 units too, long bands split
  std::vector<int> split_thresholds;  // --split: the split plans' thresholds, forced
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--paths") == 0) {
      timing_variants = true;
    } else if (std::strcmp(argv[i], "--ring") == 0) {
      ring_variants = true;
    } else if (std::strcmp(argv[i], "--tall") == 0) {
      tall_only = true;
    } else if (std::strcmp(argv[i], "--pairs") == 0) {
      pair_only = true;
    } else if (std::strcmp(argv[i], "--wide192") == 0) {
      wide192 = true;
    } else if (std::strcmp(argv[i], "--split") == 0 && i + 1 < argc) {
      for (char* t = std::strtok(argv[++i], ","); t != nullptr; t = std::strtok(nullptr, ","))
        split_thresholds.push_back(std::atoi(t));
    } else {
      sizes.push_back(std::atoi(argv[i]));
    }
  }
  if (sizes.empty()) sizes = {2048, 3072, 4096, 6144, 8192};
  int dev = 0, major = 0, sms = 0, l2 = 0, count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("probe_sm90_bf16_wide: no CUDA device; skipped\n");
    return 0;
  }
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  if (major != 9) {
    std::printf("probe_sm90_bf16_wide: needs an sm_90 GPU; skipped\n");
    return 0;
  }
  const size_t flush_bytes = 2 * size_t(l2);
  unsigned char* flush = nullptr;
  PROBE_CHECK(cudaMalloc(&flush, flush_bytes));
  bool ok = true;
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> val(16, 255);  // x/256 in [1/16, 1)
  for (const int n : sizes) {
    if (n <= 0 || n % 256 != 0) {
      std::printf("probe_sm90_bf16_wide: n = %d skipped (a multiple of 256 only)\n", n);
      continue;
    }
    const size_t elems = size_t(n) * n;
    std::vector<uint16_t> a(elems), b(elems);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        // x/256 is exact in bf16; NaN below the diagonal.
        auto value = [&] {
          return trimm::detail::narrow<trimm::bfloat16_t>(val(rng) / 256.f).bits;
        };
        const size_t i = size_t(r) * n + c;
        a[i] = c >= r ? value() : 0x7FC0u;
        b[i] = c >= r ? value() : 0x7FC0u;
      }
    Problem p{n, nullptr, nullptr, nullptr, nullptr, {}};
    PROBE_CHECK(cudaMalloc(&p.A, elems * 2));
    PROBE_CHECK(cudaMalloc(&p.B, elems * 2));
    PROBE_CHECK(cudaMalloc(&p.C, elems * 2));
    PROBE_CHECK(cudaMalloc(&p.ref, elems * 4));
    PROBE_CHECK(cudaMemcpy(p.A, a.data(), elems * 2, cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMemcpy(p.B, b.data(), elems * 2, cudaMemcpyHostToDevice));
    reference<<<dim3(unsigned((n + 127) / 128), unsigned(n)), 128>>>(
        reinterpret_cast<const __nv_bfloat16*>(p.A), reinterpret_cast<const __nv_bfloat16*>(p.B),
        p.ref, n);
    PROBE_CHECK(cudaGetLastError());
    p.ref_host.resize(elems);
    PROBE_CHECK(cudaMemcpy(p.ref_host.data(), p.ref, elems * 4, cudaMemcpyDeviceToHost));
    if (pair_only) {
      // Clusters of two sharing A's rows by multicast, against the plain plans above (another
      // invocation): sm90_16bit's pairs took its loads alone from 54 to 46 µs (session 35).
      const int clusters128 = pair_clusters<128>(sms), clusters192 = pair_clusters<192>(sms);
      const Plan p128 = pair_plan<128>(n, clusters128, Cost{1.5});  // (`wide` unused at M = 128)
      const Plan p192 = pair_plan<192>(n, clusters192, Cost{1.25});
      std::printf("wide-probe pairs: %d and %d clusters of two (W=128, M=192)\n", clusters128,
                  clusters192);
      ok = run<128, kPairs>(p, p128, "W=128 pairs", flush, flush_bytes) && ok;
      ok = run<192, kPairs>(p, p192, "M=192 pairs", flush, flush_bytes) && ok;
      if (timing_variants) {
        run<128, kPairs, 2>(p, p128, "W=128 pairs no wgmma", flush, flush_bytes);
        run<192, kPairs, 2>(p, p192, "M=192 pairs no wgmma", flush, flush_bytes);
      }
    }
    for (const int w : {128, 256}) {
      if (pair_only || (w == 256 && tall_only)) continue;
      Plan plan;
      const bool wide = w == 256;
      plan.makespan = lpt(wide ? units_of<128, 256>(n) : units_of<128, 128>(n), sms, wide,
                          Cost{1.5}, &plan.lists);
      plan.narrow_blocks = wide ? 0 : sms;
      ok = (wide ? run<128, 256>(p, plan, "W=256", flush, flush_bytes)
                 : run<128, 128>(p, plan, "W=128", flush, flush_bytes)) &&
           ok;
      if (wide)
        ok = run<128, 256>(p, split_plan<128, 256>(n, sms, Cost{1.5}), "W=256 split", flush,
                           flush_bytes) &&
             ok;
      for (const int t : wide ? split_thresholds : std::vector<int>{}) {
        char label[64];
        std::snprintf(label, sizeof label, "W=256 split at %d", t);
        const Plan plan_t = split_plan<128, 256>(n, sms, Cost{1.5}, t);
        ok = run<128, 256>(p, plan_t, label, flush, flush_bytes) && ok;
        std::snprintf(label, sizeof label, "W=256 split at %d no wgmma", t);
        run<128, 256, 2>(p, plan_t, label, flush, flush_bytes);
      }
      if (ring_variants) {
        // The bytes in flight a SM against the rate: if it is the latency (Little's law), the
        // loads' time falls with every slot; if a cap, it stops falling.
        for (int slots = 2; slots <= (wide ? Shape<128, 256>::kSlots : Shape<128, 128>::kSlots);
             ++slots) {
          char label[64];
          std::snprintf(label, sizeof label, "W=%d no wgmma, %d slots", w, slots);
          if (wide)
            run<128, 256, 2>(p, plan, label, flush, flush_bytes, slots);
          else
            run<128, 128, 2>(p, plan, label, flush, flush_bytes, slots);
        }
      }
      if (!timing_variants) continue;
      // Each path alone: the loads (no wgmma) and the compute (no loads, stale operands).
      if (wide) {
        run<128, 256, 1>(p, plan, "W=256 no loads", flush, flush_bytes);
        run<128, 256, 2>(p, plan, "W=256 no wgmma", flush, flush_bytes);
      } else {
        run<128, 128, 1>(p, plan, "W=128 no loads", flush, flush_bytes);
        run<128, 128, 2>(p, plan, "W=128 no wgmma", flush, flush_bytes);
      }
    }
    if (!pair_only) {
      // 192×128 units: a stage is 1.25 of 128×128's in bytes (the model's cost), 1.5 in tensor
      // work.
      Plan plan;
      plan.makespan = lpt(units_of<192, 128>(n), sms, true, Cost{1.25}, &plan.lists);
      plan.narrow_blocks = sms;  // (printed only: every block runs the one shape)
      ok = run<192, 128>(p, plan, "M=192", flush, flush_bytes) && ok;
      if (ring_variants)
        for (int slots = 2; slots <= Shape<192, 128>::kSlots; ++slots) {
          char label[64];
          std::snprintf(label, sizeof label, "M=192 no wgmma, %d slots", slots);
          run<192, 128, 2>(p, plan, label, flush, flush_bytes, slots);
        }
      if (timing_variants) {
        run<192, 128, 1>(p, plan, "M=192 no loads", flush, flush_bytes);
        run<192, 128, 2>(p, plan, "M=192 no wgmma", flush, flush_bytes);
      }
    }
#ifdef TRIMM_PROBE_WIDE192
    if (wide192) {
      // 192×256 units (session 57): 0.58× the bytes a flop of 128×128 (37 B a tensor cycle at
      // peak, near the ~35 B intake cap), a stage ~2.5 of 128×128's; the longest bands (64
      // stages of 1536 tensor cycles) split in two.
      const Plan plan = split_plan<192, 256>(n, sms, Cost{2.5});
      ok = run<192, 256>(p, plan, "M=192 W=256 split", flush, flush_bytes) && ok;
      for (const int t : split_thresholds) {
        char label[64];
        std::snprintf(label, sizeof label, "M=192 W=256 split at %d", t);
        ok = run<192, 256>(p, split_plan<192, 256>(n, sms, Cost{2.5}, t), label, flush,
                           flush_bytes) &&
             ok;
      }
      if (timing_variants) {
        run<192, 256, 1>(p, plan, "M=192 W=256 split no loads", flush, flush_bytes);
        run<192, 256, 2>(p, plan, "M=192 W=256 split no wgmma", flush, flush_bytes);
      }
      // Mixed (M = 192): the longest 192×256 units as their two 192×128 halves, on blocks of
      // their own; stage costs from session 57's 8192 row (192×128 1.17 and 192×256 1.9 of
      // 128×128's), then the bytes' view (1.25 and 1.75).
      for (const Cost c : {Cost{1.9, 1.17}, Cost{1.75, 1.25}}) {
        char label[64];
        std::snprintf(label, sizeof label, "M=192 mixed (%.2f/%.2f eq)", c.wide, c.narrow);
        const Plan plan_m = mixed_plan<192>(n, sms, c);
        ok = run<192, 0>(p, plan_m, label, flush, flush_bytes) && ok;
        if (timing_variants) {
          std::snprintf(label, sizeof label, "M=192 mixed (%.2f) no loads", c.wide);
          run<192, 0, 1>(p, plan_m, label, flush, flush_bytes);
          std::snprintf(label, sizeof label, "M=192 mixed (%.2f) no wgmma", c.wide);
          run<192, 0, 2>(p, plan_m, label, flush, flush_bytes);
        }
      }
    }
#else
    if (wide192) std::printf("wide-probe: --wide192 is probe_sm90_bf16_wide192's\n");
#endif
    for (const double a : tall_only || pair_only
                              ? std::vector<double>{}
                              : std::vector<double>(std::begin(wide_costs), std::end(wide_costs))) {
      char label[64];
      std::snprintf(label, sizeof label, "mixed (wide stage %.2f eq)", a);
      ok = run<128, 0>(p, mixed_plan<128>(n, sms, Cost{a}), label, flush, flush_bytes) && ok;
    }
    PROBE_CHECK(cudaFree(p.A));
    PROBE_CHECK(cudaFree(p.B));
    PROBE_CHECK(cudaFree(p.C));
    PROBE_CHECK(cudaFree(p.ref));
  }
  PROBE_CHECK(cudaFree(flush));
  return ok ? 0 : 1;
}
