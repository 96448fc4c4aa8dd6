// sm90_tf32x3: C = triu(A·B) (or tril) at fp32 accuracy on Hopper's warpgroup tensor cores
// (wgmma, sm_90a), by error-compensated TF32: a·b ≈ a_small·b_big + a_big·b_small + a_big·b_big.
//
// The product is computed transposed, per tile: Cᵀ(n, m) = Σ_k Y(k, n)·X(m, k) with X = A and
// Y = B as they lie in memory (row-major). tf32 wgmma wants both operands K-major; X is, Y is not.
// So Y is the register operand ("A" of wgmma): each consumer thread loads its fragment from
// shared memory with ordinary loads, which can read any layout, and splits it into big and small
// TF32 in registers. X is the shared-memory operand ("B" of wgmma), exactly as TMA wrote it:
// the raw fp32 tile serves as X_big (the tensor cores truncate it to TF32), and the consumers
// write X_small next to it. No transpose pass, no workspace, nothing in global memory but A, B
// and C.
//
// For a single problem whose units outnumber the SMs, one persistent block per SM, each walking
// its packed list of units (sched::persistent_order; the ring continues from unit to unit, so the
// next unit's loads overlap the last one's store: −1.7 % at n = 4096, bench/RESULTS.md session
// 7); otherwise one block per unit, longest first, or past the packed layouts' table, in bands of
// diagonals for L2 (config::kSm90Tf32x3Band). Three warpgroups:
//   WG0, WG1: consumers, 64 n × 128 m of the 128×128 tile each. While the tensor cores run one
//     stage's wgmmas, the consumers prepare the next stage's X (triangle masks, X_small) and
//     signal mbarrier `ready`; after the wgmmas, mbarrier `empty` frees the stage;
//   WG2 warp 8: TMA producer (one thread) into a kStages ring, completion on mbarrier `full`;
//   WG2 warps 9-11: zero the mirror tile in C's other triangle, then exit.
// (A separate transform warpgroup for X, as in the first form, bounded the kernel: 3 warps on
// the critical path, 0.275 against 0.209 ms without it at n = 4096; bench/NOTES.md.)
// The consumers hold 64 running sums, 64 stage sums and 32 fragment registers: setmaxnreg moves
// registers to them from WG2. (Each SM sub-partition has a quarter of the register file and
// hosts one warp of each warpgroup, so 3 warps share 16384 registers: 168 each at launch.)
// Each stage's products go into fresh accumulators that are added to the running sum with FADD:
// the tensor cores' own fp32 accumulation truncates, and over a whole band that costs 2.9e-5
// normwise (bench/NOTES.md, sm80_tf32x3).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm90/launch_registers.hpp"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/scan_outside.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::sm90 {
namespace {

constexpr config::WgmmaTile Cfg = config::kSm90Tf32x3;
constexpr int kTile = Cfg.tile, kStep = Cfg.bk, kStages = Cfg.stages;
constexpr int kConsumers = Cfg.consumers, kThreads = Cfg.threads();
constexpr int kConsumerThreads = 128 * kConsumers;
constexpr int kHelperThreads = 96;  // warps 9-11
static_assert(kThreads == kConsumerThreads + 32 + kHelperThreads,
              "consumers, then the producer warp, then the helper warps");
// Registers per thread: at launch (one block per SM), then after setmaxnreg.
constexpr int kLaunchRegs = 168, kProducerRegs = 56, kConsumerRegs = 224;
static_assert(kLaunchRegs * kThreads <= 65536, "one block per SM");
static_assert(kProducerRegs + kConsumers * kConsumerRegs <= (kConsumers + 1) * kLaunchRegs,
              "setmaxnreg hands on only what the producer warpgroup gives up");
constexpr int kBox = 32;               // floats per 128-byte swizzled row: TMA's box width
static_assert(kTile == 128 && kConsumers == 2, "two consumers of 64 rows: wgmma M is 64");
static_assert(kStep == kBox, "a stage of X is one TMA box: k spans one 128-byte row");
static_assert(kTile % kBox == 0, "Y's stage is kTile / kBox boxes");
static_assert(kTile * kStep / 4 % kConsumerThreads == 0,
              "each consumer thread prepares whole 16-byte chunks of X");
// X is prepared this many stages before its wgmmas: with 1, both consumer warpgroups wait for
// each other at every stage (each prepares half of what both read), and their gaps coincide.
constexpr int kPrepareAhead = 2;
static_assert(kPrepareAhead >= 1 && kPrepareAhead < kStages,
              "the prepared stages, the one in the tensor cores and one loading fit the ring");

// One pipeline stage. Every tile is rows of 128 bytes in TMA's 128-byte swizzle: the 16-byte
// chunk c of row r sits at chunk c ^ (r % 8). 1024-byte aligned, as wgmma descriptors require.
struct alignas(1024) StageBuffers {
  float x[kTile * kStep];        // (m 128, k 32): A rows (K-major)
  float x_small[kTile * kStep];  // (m 128, k 32): tf32_small of each element, same layout
  float y[kStep * kTile];        // kTile/32 boxes of (k 32, n 32): B rows (N-major)
};
struct SharedStorage {
  StageBuffers stage[kStages];
  uint64_t full[kStages], ready[kStages], empty[kStages];
  // Structure::Detect: nonzero where the producer abandoned the stage (see produce), written
  // before the stage's `full` arrival, so that every consumer warp reads the same value.
  int skipped[kStages];
  int block_skip;  // the whole block returns at once (thread 0 read the flags)
};
// (A block's shared window is 228 KB on sm_90, below 2^18 bytes: a descriptor's 14-bit address
// field, and so its low word, never carries; consume relies on it.)
static_assert(sizeof(SharedStorage) + 1024 <= 228 * 1024, "one block's shared memory");

// Where a tile lies in C. Upper: C(m, n) = Σ A(m, k)·B(k, n) over tile (bi, bj) of the
// scheduler; Lower: the scheduler's C' = Cᵀ, so tile (bi, bj) is rows bj, columns bi of C.
struct TileCoords {
  int m0, n0;  // first row (of C and X) and first column (of C and Y)
  __device__ TileCoords(const sched::WorkUnit& u, bool lower)
      : m0((lower ? u.bj : u.bi) * kTile), n0((lower ? u.bi : u.bj) * kTile) {}
};

// What a launch computes. Structured: the triangular product. Detect: the same, under
// Structure::Detect (the spare warps scan A's and B's other triangles, outputs are checked, and
// the block stops once the flags say the inputs are not triangular). Dense: every k, no triangle
// masks (the general launch of Structure::Detect); all its units weigh the same, so its blocks
// are persistent, one per slot, each taking every gridDim.x-th unit (a launch that its gate turns
// off then costs one block per slot, not one per tile).
enum class Mode { Structured, Detect, Dense };

#if TRIMM_SM90_DEVICE

constexpr int kProducerWarp = kConsumerThreads / 32;
constexpr uint32_t kStageTxBytes = 2 * kTile * kStep * sizeof(float);  // X and Y by TMA

// Index of element (r, c), c < 32, in a swizzled tile of 128-byte rows.
__host__ __device__ constexpr int swizzled(int r, int c) {
  return r * kBox + (((c / 4) ^ (r % 8)) * 4) + c % 4;
}

// Structural zeros: A(m, k) with k < m (upper) or k > m (lower), B(k, n) with k > n or k < n.
template <bool kLower>
__device__ __forceinline__ bool a_zero(int m, int k) {
  return kLower ? k > m : k < m;
}
template <bool kLower>
__device__ __forceinline__ bool b_zero(int k, int n) {
  return kLower ? k < n : k > n;
}

// --- producer: one thread, kStages loads ahead ------------------------------------------------
// Under Structure::Detect it reads the flags once a stage (the load in flight while it waits for
// the stage to empty); once A or B is known not to be triangular, it loads nothing more and
// completes the remaining stages empty-handed, marked skipped: the consumers run them out
// without multiplying. (A stage's mark is per stage, not a block flag, so that the four warps of
// a consumer warpgroup, which issue wgmma together, always agree.) Returns whether it skipped:
// the consumers then return without storing, so the unit is the block's last.
// q0: the stages this block ran before this unit (the ring and its phases continue across units).
template <Mode kMode>
__device__ bool produce(SharedStorage& sm, const CUtensorMap* map_x, const CUtensorMap* map_y,
                        const TileCoords& tc, int k_begin, int steps, int q0, int zx, int zy,
                        const uint32_t* gate) {
  bool skip = false;
  for (int it = 0; it < steps; ++it) {
    const int q = q0 + it, s = q % kStages;
    const bool flagged = kMode == Mode::Detect && not_triangular(gate);  // used after the wait
    if (q >= kStages) ptx::mbar_wait(&sm.empty[s], ((q / kStages) & 1) ^ 1);
    if constexpr (kMode == Mode::Detect) {
      skip = skip || flagged;
      *reinterpret_cast<volatile int*>(&sm.skipped[s]) = skip;
      if (skip) {
        ptx::mbar_arrive(&sm.full[s]);
        continue;
      }
    }
    StageBuffers& st = sm.stage[s];
    const int k0 = k_begin + it * kStep;
    ptx::mbar_arrive_expect_tx(&sm.full[s], kStageTxBytes);
    ptx::tma_load_3d(st.x, map_x, &sm.full[s], k0, tc.m0, zx);
#pragma unroll
    for (int j = 0; j < kTile / kBox; ++j)
      ptx::tma_load_3d(st.y + j * kBox * kStep, map_y, &sm.full[s], tc.n0 + j * kBox, k0, zy);
  }
  return skip;
}

// --- X preparation, by the consumers while the previous stage's wgmmas run -------------------
// Stage `it` of X: the triangle's structural zeros (only stages that cross the diagonal have any;
// the inputs' other triangle is never trusted: it may hold anything, NaN included), then
// X_small = tf32(x − trunc(x)) beside it (kSplit), or else X rounded in place to nearest TF32
// (the tensor cores would truncate it: a bias of half an ulp on every product). Mode::Dense: the
// general-input path (Structure::Detect), no structural zeros. ctid: consumer thread index;
// q0: as for produce. Returns whether the producer skipped the stage (Mode::Detect): every
// consumer thread reads the mark here, before its own `ready` arrival, which orders the read
// before the producer rewrites the mark (after `empty`, after every `ready`).
template <bool kLower, bool kSplit, Mode kMode>
__device__ __forceinline__ bool prepare_x(SharedStorage& sm, const TileCoords& tc, int k_begin,
                                          int it, int q0, int ctid) {
  constexpr bool kDense = kMode == Mode::Dense;
  constexpr int kChunks = kTile * kStep / 4 / kConsumerThreads;  // 16-byte chunks per thread
  const int q = q0 + it, s = q % kStages;
  ptx::mbar_wait(&sm.full[s], (q / kStages) & 1);
  if (kMode == Mode::Detect && *reinterpret_cast<volatile int*>(&sm.skipped[s])) {
    ptx::mbar_arrive(&sm.ready[s]);
    return true;
  }
  StageBuffers& st = sm.stage[s];
  const int k0 = k_begin + it * kStep;
  const bool mask_x = !kDense && (kLower ? k0 + kStep - 1 > tc.m0 : k0 < tc.m0 + kTile - 1);
  float4 v[kChunks];
#pragma unroll
  for (int i = 0; i < kChunks; ++i)
    v[i] = reinterpret_cast<const float4*>(st.x)[ctid + i * kConsumerThreads];
#pragma unroll
  for (int i = 0; i < kChunks; ++i) {
    const int c = ctid + i * kConsumerThreads;
    if (mask_x) {
      const int r = c / (kBox / 4), m = tc.m0 + r;
      const int k = k0 + 4 * ((c % (kBox / 4)) ^ (r % 8));
      v[i].x = a_zero<kLower>(m, k) ? 0.f : v[i].x;
      v[i].y = a_zero<kLower>(m, k + 1) ? 0.f : v[i].y;
      v[i].z = a_zero<kLower>(m, k + 2) ? 0.f : v[i].z;
      v[i].w = a_zero<kLower>(m, k + 3) ? 0.f : v[i].w;
      if constexpr (kSplit) reinterpret_cast<float4*>(st.x)[c] = v[i];
    }
    if constexpr (kSplit)
      reinterpret_cast<uint4*>(st.x_small)[c] =
          make_uint4(ptx::tf32_small(v[i].x), ptx::tf32_small(v[i].y), ptx::tf32_small(v[i].z),
                     ptx::tf32_small(v[i].w));
    else
      reinterpret_cast<uint4*>(st.x)[c] =
          make_uint4(ptx::tf32_round(v[i].x), ptx::tf32_round(v[i].y), ptx::tf32_round(v[i].z),
                     ptx::tf32_round(v[i].w));
  }
  ptx::fence_proxy_async();  // wgmma reads X and X_small through the async proxy
  ptx::mbar_arrive(&sm.ready[s]);
  return false;
}

// --- consumer mainloop ------------------------------------------------------------------------
// The register operand's rows are a permutation of the tile's columns n: warp q of consumer cw
// holds, for lane (g, t), columns nl and nl + 1 (fragment rows g and g + 8), so that one 8-byte
// load fetches both, and the 32 lanes of a load hit 32 distinct banks through the swizzle:
//   box = 2·cw + q/2 (32 columns each), nl = 16·(g/4) + 8·(q%2) + 2·(g%4) within the box.
struct ConsumerLane {
  int box, nl, t;
  __device__ explicit ConsumerLane(int tid) {
    const int cw = tid / 128, q = (tid % 128) / 32, g = (tid % 32) / 4;
    box = 2 * cw + q / 2;
    nl = 16 * (g / 4) + 8 * (q % 2) + 2 * (g % 4);
    t = tid % 4;
  }
};

// Y fragment values of ring stage q (q0 + it), as loaded: y[k8][2h + e] = Y(8·k8 + t + 4h, nl + e).
struct YFragment {
  float v[kStep / 8][4];
};
__device__ __forceinline__ void load_y(const SharedStorage& sm, int q, const ConsumerLane& L,
                                       YFragment& f) {
  const float* y = sm.stage[q % kStages].y + L.box * kBox * kStep;
#pragma unroll
  for (int k8 = 0; k8 < kStep / 8; ++k8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const float2 v = *reinterpret_cast<const float2*>(&y[swizzled(8 * k8 + L.t + 4 * h, L.nl)]);
      f.v[k8][2 * h] = v.x;
      f.v[k8][2 * h + 1] = v.y;
    }
}

// acc(n, m) += the products of stage `it`, summed in fresh accumulators `part` and added with
// FADD. All small products go first, while `part` is still small: the tensor cores truncate each
// addition to the accumulator, so the fewer additions to a large `part`, the smaller the error.
// While the wgmmas run, the consumers prepare X kPrepareAhead stages ahead and load the next
// stage's Y fragment (`f`: this stage's on entry, the next one's on return), so that the gap
// between two stages' wgmmas is the FADDs and the split only. (A consumer warp has already
// waited for a stage's `full` barrier in prepare_x before it loads that stage's Y.)
// skip_from: the first stage this thread's prepare_x found skipped (Structure::Detect), updated
// kPrepareAhead stages ahead, so that the caller's test is a register compare between stages.
template <bool kLower, bool kSplit, Mode kMode>
__device__ __forceinline__ void consume(SharedStorage& sm, const TileCoords& tc, int k_begin,
                                        int it, int steps, int q0, const ConsumerLane& L,
                                        int ctid, YFragment& f, float (&acc)[64],
                                        float (&part)[64], int& skip_from) {
  constexpr bool kDense = kMode == Mode::Dense;
  constexpr int kK8 = kStep / 8;
  const int q = q0 + it, s = q % kStages;
  const int k0 = k_begin + it * kStep;
  // On stages that cross the diagonal, B's structural zeros are enforced here, in registers
  // (a branch: the other stages skip the compares).
  if (!kDense && (kLower ? k0 < tc.n0 + kTile - 1 : k0 + kStep - 1 > tc.n0)) {
    const int n = tc.n0 + L.box * kBox + L.nl;
#pragma unroll
    for (int k8 = 0; k8 < kK8; ++k8)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (b_zero<kLower>(k0 + 8 * k8 + L.t + 4 * (e / 2), n + e % 2)) f.v[k8][e] = 0.f;
  }
  // Split into big = tf32(y) and small = y − big (fp32-exact), three instructions a value: small
  // is left to the tensor cores' truncation (its error, under 2⁻²¹ of |y| and of either sign,
  // is what the X side's rounded small already costs), and it carries a NaN that the bitwise
  // rounding of big may drop. (tf32: big alone, so rounded by cvt, which keeps NaN.)
  uint32_t big[kK8][4], small[kK8][4];
#pragma unroll
  for (int k8 = 0; k8 < kK8; ++k8)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const float v = f.v[k8][e];
      if constexpr (kSplit) {
        big[k8][e] = ptx::tf32_round_bits(v);
        small[k8][e] = __float_as_uint(v - __uint_as_float(big[k8][e]));
      } else {
        big[k8][e] = ptx::tf32_round(v);
      }
    }
  const StageBuffers& st = sm.stage[s];
  const uint32_t x_lo = ptx::desc_kmajor_sw128_lo(st.x);
  auto x_desc = [&](bool small_plane, int k8) {
    constexpr uint32_t kSmallOffset = sizeof(StageBuffers::x) >> 4, kK8Offset = 8 * 4 >> 4;
    return ptx::desc_kmajor_sw128_from_lo(x_lo + (small_plane ? kSmallOffset : 0u) +
                                          kK8Offset * uint32_t(k8));
  };
  ptx::mbar_wait(&sm.ready[s], (q / kStages) & 1);
#pragma unroll
  for (int r = 0; r < 64; ++r) ptx::pin(part[r]);
  ptx::wgmma_fence();
  if constexpr (kSplit) {
#pragma unroll
    for (int j = 0; j < kK8; ++j)
      ptx::wgmma_m64n128k8_tf32_rs(part, small[j], x_desc(false, j), j > 0);
#pragma unroll
    for (int j = 0; j < kK8; ++j) ptx::wgmma_m64n128k8_tf32_rs(part, big[j], x_desc(true, j), 1);
  }
#pragma unroll
  for (int j = 0; j < kK8; ++j)
    ptx::wgmma_m64n128k8_tf32_rs(part, big[j], x_desc(false, j), kSplit || j > 0);
  ptx::wgmma_commit();
  if (it + kPrepareAhead < steps &&
      prepare_x<kLower, kSplit, kMode>(sm, tc, k_begin, it + kPrepareAhead, q0, ctid) &&
      skip_from > it + kPrepareAhead)
    skip_from = it + kPrepareAhead;
  if (it + 1 < steps) load_y(sm, q + 1, L, f);
  ptx::wgmma_wait_all();
#pragma unroll
  for (int j = 0; j < kK8; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      ptx::pin(big[j][e]);
      if constexpr (kSplit) ptx::pin(small[j][e]);
    }
  if (threadIdx.x % 32 == 0) ptx::mbar_arrive(&sm.empty[s]);
#pragma unroll
  for (int r = 0; r < 64; ++r) {
    ptx::pin(part[r]);
    acc[r] += part[r];
  }
}

// A stage the producer skipped (Structure::Detect): run out without multiplying, keeping the
// ring's protocol (prepare ahead, meet at `ready`, free the stage).
template <bool kLower, bool kSplit, Mode kMode>
__device__ void run_out(SharedStorage& sm, const TileCoords& tc, int k_begin, int it, int steps,
                        int q0, int ctid) {
  const int q = q0 + it, s = q % kStages;
  ptx::mbar_wait(&sm.ready[s], (q / kStages) & 1);
  if (it + kPrepareAhead < steps)
    prepare_x<kLower, kSplit, kMode>(sm, tc, k_begin, it + kPrepareAhead, q0, ctid);
  if (threadIdx.x % 32 == 0) ptx::mbar_arrive(&sm.empty[s]);
}

// --- epilogue ---------------------------------------------------------------------------------
// Accumulator r of lane (g, t) holds Cᵀ(n, m) with n = nl + (r/2) % 2 of the lane's box and
// m = 8·(r/4) + 2t + r % 2: C(m, n) and C(m, n + 1) are registers 4j + b and 4j + 2 + b.
// diag: the tile straddles the diagonal, whose other side is written as zero. kMirror: a chunk-1
// partial, stored transposed into the mirror tile for the fix-up pass.
template <bool kLower, bool kMirror>
__device__ void store_tile(const OutView& o, const TileCoords& tc, const ConsumerLane& L,
                           bool diag, const float (&acc)[64]) {
  const int64_t n = tc.n0 + L.box * kBox + L.nl;
#pragma unroll
  for (int j = 0; j < 16; ++j)
#pragma unroll
    for (int b = 0; b < 2; ++b) {
      const int64_t m = tc.m0 + 8 * j + 2 * L.t + b;
      if (m >= o.n || n >= o.n) continue;
      float v0 = acc[4 * j + b], v1 = acc[4 * j + 2 + b];
      if (diag) {
        v0 = (kLower ? m < n : m > n) ? 0.f : v0;
        v1 = (kLower ? m < n + 1 : m > n + 1) ? 0.f : v1;
      }
      if (kMirror) {
        o.C[n * o.ldc + m] = v0;
        if (n + 1 < o.n) o.C[(n + 1) * o.ldc + m] = v1;
      } else if (n + 1 < o.n) {
        *reinterpret_cast<float2*>(&o.C[m * o.ldc + n]) = make_float2(v0, v1);
      } else {
        o.C[m * o.ldc + n] = v0;
      }
    }
}

#endif  // TRIMM_SM90_DEVICE

// kSplit: 3xTF32 (precision fp32); otherwise one TF32 product per k8 (precision tf32).
// Block x computes the units sched::BlockUnits lists for it: one where the grid covers the units,
// else a persistent list (packed, or in Mode::Dense the schedule's own order, every gridDim.x-th),
// the ring and its phases continuing from one unit to the next.
template <bool kLower, bool kSplit, Mode kMode>
__global__ void __launch_bounds__(kThreads, 1)
    sm90_tf32x3_trtrmm_kernel(const __grid_constant__ CUtensorMap map_x,
                              const __grid_constant__ CUtensorMap map_y, Problem p,
                              sched::TriangleSchedule s, int64_t batch_offset, int scanners,
                              const __grid_constant__ sched::DispatchOrder order) {
#if TRIMM_SM90_DEVICE
  // Aligned by pointer arithmetic on the __shared__ array, never through an integer, so that the
  // compiler still knows the address space (else every access is a generic LD/ST).
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  SharedStorage& sm = *reinterpret_cast<SharedStorage*>(
      smem_raw + ((1024u - (shared_address(smem_raw) & 1023u)) & 1023u));
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
  const int64_t units = s.num_units();
  // Structure::Detect's next launch (gated, usually off) may be scheduled while this one drains.
  if constexpr (kMode != Mode::Structured) allow_dependent_launch();

  if (tid == 0) {
    // One thread reads the flags for the block (they change while the launch runs: a per-thread
    // read could split the block). Detect: a block that starts once A or B is known not to be
    // triangular has nothing to do that a later launch will not redo (its mirror tile included).
    // Dense: the launch is for inputs that are not triangular and finite only. Structured with
    // Path::Fallback: sm90_fp16x3's, for inputs its planes could not hold.
    sm.block_skip = kMode == Mode::Detect  ? not_triangular(p.gate)
                    : kMode == Mode::Dense ? gated_off(p.gate, Path::Dense)
                                           : p.path == Path::Fallback && gated_off(p.gate, p.path);
    for (int i = 0; i < kStages; ++i) {
      ptx::mbar_init(&sm.full[i], 1);
      ptx::mbar_init(&sm.ready[i], kConsumerThreads);
      ptx::mbar_init(&sm.empty[i], kConsumers * 4);  // one arrival per consumer warp
    }
    ptx::mbar_init_fence();
    ptx::tma_prefetch_descriptor(&map_x);
    ptx::tma_prefetch_descriptor(&map_y);
  }
  __syncthreads();
  // Mode::Dense runs as a dependent of the structured launch, Path::Fallback of sm90_fp16x3's
  // corrections: A, B and C are theirs until then.
  if (kMode == Mode::Dense || p.path == Path::Fallback) wait_for_previous_grid();
  if (sm.block_skip) return;

  auto steps_of = [](const sched::WorkUnit& u) {
    return int((u.k_end - u.k_begin + kStep - 1) / kStep);
  };
  if (tid >= kConsumerThreads) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (tid == 32 * kProducerWarp) {
      // A batch entry's index in a tensor map: 0 where the operand is shared by the batch.
      const int zx = p.stride_a == 0 ? 0 : int(b), zy = p.stride_b == 0 ? 0 : int(b);
      int q0 = 0;
      int64_t x;
      for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
        const sched::WorkUnit u = sched::ordered_unit(s, order, x);
        if (produce<kMode>(sm, &map_x, &map_y, TileCoords(u, kLower), int(u.k_begin),
                           steps_of(u), q0, zx, zy, p.gate))
          break;
        q0 += steps_of(u);
      }
    } else if (tid >= 32 * (kProducerWarp + 1)) {
      const int ht = tid - 32 * (kProducerWarp + 1);
      // The mirror tiles, in C's other triangle, are this block's to zero.
      int64_t x;
      for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
        const sched::WorkUnit u = sched::ordered_unit(s, order, x);
        if (sched::TriangleSchedule::zeroes_mirror(u))
          zero_mirror<true>(C, p.ldc, p.n, u.bi, u.bj, kLower, kTile, ht, kHelperThreads);
      }
      if constexpr (kMode == Mode::Detect)
        scan_outside<kLower>(p, batch_offset, scanners, ht, kHelperThreads);
    }
    return;
  }

  ptx::setmaxnreg_inc<kConsumerRegs>();
  const ConsumerLane L(tid);
  int q0 = 0;
  int64_t x;
  for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {
    const sched::WorkUnit u = sched::ordered_unit(s, order, x);
    const TileCoords tc(u, kLower);
    const int k_begin = int(u.k_begin), steps = steps_of(u);
    float acc[64], part[64];
#pragma unroll
    for (int r = 0; r < 64; ++r) acc[r] = part[r] = 0.f;
    int skip_from = INT_MAX;  // Mode::Detect: the first stage the producer skipped
    for (int it = 0; it < kPrepareAhead && it < steps; ++it)
      if (prepare_x<kLower, kSplit, kMode>(sm, tc, k_begin, it, q0, tid) && skip_from > it)
        skip_from = it;
    YFragment f;
    if (steps > 0) load_y(sm, q0, L, f);
    // The skip test sits between stages, not between `ready` and the wgmmas (a branch there
    // cost 1.6 % at n = 4096).
    int it = 0;
    for (; it < steps && it < skip_from; ++it)
      consume<kLower, kSplit, kMode>(sm, tc, k_begin, it, steps, q0, L, tid, f, acc, part,
                                     skip_from);
    if constexpr (kMode == Mode::Detect) {
      // The producer stopped, for this unit and the block's later ones: the general launch
      // redoes them all.
      if (it < steps) {
        for (; it < steps; ++it)
          run_out<kLower, kSplit, kMode>(sm, tc, k_begin, it, steps, q0, tid);
        return;
      }
    }
    q0 += steps;

    if constexpr (kMode != Mode::Structured) flag_nonfinite(p.gate, acc);
    const OutView o{C, p.ldc, p.n};
    const bool diag = u.bi == u.bj;
    if (u.kind == sched::UnitKind::Chunk1)
      store_tile<kLower, true>(o, tc, L, diag, acc);
    else
      store_tile<kLower, false>(o, tc, L, diag, acc);
  }
#else
  __trap();  // built for sm_90a only; dispatch never launches it elsewhere
#endif
}

// --- host ------------------------------------------------------------------------------------
// A unit's time in stages for the packing (launch_over_triangle): its k stages plus
// kUnitOverhead for the epilogue's store (0.25 and 3 measured no different, session 7).
// (Mode::Dense: units weigh the same; its persistent grid takes them in the schedule's order.)
double unit_cost(const sched::WorkUnit& u) {
  constexpr double kUnitOverhead = 1.0;
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + kUnitOverhead;
}

template <bool kLower, bool kSplit, Mode kMode>
void launch(const Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr auto kernel = sm90_tf32x3_trtrmm_kernel<kLower, kSplit, kMode>;
  constexpr int smem = int(sizeof(SharedStorage)) + 1024;  // + alignment slack
  check_launch_registers<kernel, kLaunchRegs>("sm90 TF32");
  const CUtensorMap map_x = sm90::make_map(p.A, p.n, p.lda, p.stride_a, p.batch, kBox, kTile);
  const CUtensorMap map_y = sm90::make_map(p.B, p.n, p.ldb, p.stride_b, p.batch, kBox, kStep);
  const int per_sm = blocks_per_sm<kernel>(dev.ordinal, kThreads, smem);
  const int64_t slots = int64_t(dev.sms) * per_sm;
  launch_over_triangle<kTile>(
      p, dev, per_sm, kStep, kLower,
      [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
          const sched::DispatchOrder& order) {
        // Detect: the first wave of blocks scans the other triangles.
        const int scanners =
            kMode == Mode::Detect ? int(std::min(slots, int64_t(grid.x) * grid.y)) : 0;
        // Dense: persistent, about one block a slot (a batch that fills half the slots or more
        // keeps one block per unit: a block per whole matrix would leave SMs idle).
        if (kMode == Mode::Dense && slots / grid.y >= 2)
          grid.x = unsigned(std::min<int64_t>(grid.x, slots / grid.y));
        launch_maybe_dependent(kMode == Mode::Dense || p.path == Path::Fallback, kernel, grid,
                               dim3(kThreads), smem, stream, map_x, map_y, p, s, b0, scanners,
                               order);
      },
      stream, unit_cost, /*persistent=*/true, config::kSm90Tf32x3Band);
}

}  // namespace
}  // namespace trimm::kernels::sm90

namespace trimm::kernels {

bool tma_compatible(const Problem& p) {
  // TMA: 16-byte aligned bases and strides. Batch entries must not overlap (the tensor map's
  // batch stride spans a whole matrix) unless the operand is shared (stride 0).
  // TMA's limits: 32-bit coordinates, strides below 2^40 bytes.
  auto batch_ok = [&](int64_t stride, int64_t ld) {
    return p.batch <= 1 || stride == 0 ||
           (stride >= ld * p.n && stride < (int64_t(1) << 40) / int64_t(sizeof(float)));
  };
  return rows_16b_aligned(p) && batch_ok(p.stride_a, p.lda) && batch_ok(p.stride_b, p.ldb) &&
         p.n < (int64_t(1) << 31) && p.lda < (int64_t(1) << 37) && p.ldb < (int64_t(1) << 37) &&
         p.batch <= INT32_MAX;
}

namespace {

// The launch for p's fill and Structure::Detect path: the dense general launch, the structured
// one that flags (Detect), or the structured one alone. kSplit: 3xTF32, or one TF32 product.
template <bool kSplit>
void launch_for_path(const Problem& p, const DeviceInfo& dev, Stream stream) {
  using sm90::Mode;
  const bool lower = p.fill == Fill::Lower;
  if (p.path == Path::Dense)
    lower ? sm90::launch<true, kSplit, Mode::Dense>(p, dev, stream)
          : sm90::launch<false, kSplit, Mode::Dense>(p, dev, stream);
  else if (p.gate != nullptr && p.path != Path::Fallback)
    lower ? sm90::launch<true, kSplit, Mode::Detect>(p, dev, stream)
          : sm90::launch<false, kSplit, Mode::Detect>(p, dev, stream);
  else
    lower ? sm90::launch<true, kSplit, Mode::Structured>(p, dev, stream)
          : sm90::launch<false, kSplit, Mode::Structured>(p, dev, stream);
}

}  // namespace

void launch_sm90_tf32x3(const Problem& p, const DeviceInfo& dev, Stream stream) {
  launch_for_path<true>(p, dev, stream);
}

// Structure::Detect as sm90_tf32x3's, its general launch one TF32 product a k8 as well (precision
// tf32 all the way).
void launch_sm90_tf32(const Problem& p, const DeviceInfo& dev, Stream stream) {
  launch_for_path<false>(p, dev, stream);
}

}  // namespace trimm::kernels
