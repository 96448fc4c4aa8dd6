// sm90_fp16x3: C = triu(A·B) (or tril) at fp32 accuracy on Hopper's fp16 tensor cores (wgmma
// m64n128k16, sm_90a), which run twice as fast as TF32's (docs/sm90_fp16x3_plan.md).
//
// Each fp32 operand is scaled by powers of two (A's rows and B's columns, each one's largest |x|
// into [8, 16): exact, and undone in the epilogue; Upper's B columns' largest of a sample of
// their rows, sampled_maxima) and split into two fp16 planes, x ≈ h0 + 2^-11·h1 with
// h0 = fp16(x) and h1 = fp16((x − h0)·2^11): 22 significant bits where x is within 2^17 of its
// row's (column's) largest. Then a·b ≈ a0·b0 + 2^-11·(a0·b1 + a1·b0): three fp16
// products, half of 3xTF32's tensor time. (sm90_fp16x1, precision tf32: h0 alone, one product
// a k16, summed by the tensor cores over the band as cuBLAS's TF32 mode; the same prepass with
// one plane an operand, kPlanes = 1 below.) The elements further below their row's (column's)
// largest ("lost": fp16 would hold them to fewer bits) go into the planes as zeros and into
// lists; the product's helper warps add their products in fp32 to each tile once it is stored
// where every block of the call is resident (elsewhere a launch after the product), and where
// the lists overflow (n / 4 entries an operand) a launch of sm90_tf32x3 gated on a flag (under
// Detect, the API's general launch) recomputes C.
//
// Two launches before the product (the prepass), into the caller's workspace
// (fp16x3_workspace_bytes): the planes X0, X1, Y0, Y1 (fp16x1: X0, Y0; n × ldw halves each,
// ldw = n rounded up to 8), the inverse scales, the maxima they come from, and the lost
// elements' lists. The product is computed as an upper one, Ĉ = triu(X·Y): Upper takes X = A,
// Y = B; Lower takes X = Bᵀ, Y = Aᵀ (Cᵀ = triu(Bᵀ·Aᵀ)) and stores Ĉ transposed. The prepass
// writes exact zeros across the diagonal 128-blocks' other triangle, the only part of it the
// product reads, so the mainloop masks nothing.
//   Upper: launch 1 splits A's rows, a block a row held in registers (A read once; bottom row
//     first), beside B's column maxima in 128 × 128 tiles (above the diagonal blocks from every
//     16th row: B read ~1.1 times); launch 2 splits B in 32 × 256 tiles.
//   Lower: launch 1 takes A's row and B's column maxima in 128 × 128 tiles; launch 2 splits both
//     in 32 × 32 tiles transposed through shared memory.
// The product: sm90_16bit's skeleton (a TMA ring of 64-k stages, two consumer warpgroups of
// m64n128k16, persistent blocks walking packed unit lists), two planes per operand a stage. A
// stage's main products go into fresh registers (their own commit group) promoted with FADD (the
// tensor cores' accumulation truncates), the cross products into a second accumulator over the
// whole band (2^-11 smaller: their truncation does not show).
// Structure::Detect (kDetect): the product's helper warps read A's and B's other triangles by 1D
// bulk copies under the multiply, after their mirror tiles (scan_outside_bulk; until session 46
// a launch of its own between the prepass's two, ~20 µs of DRAM time at 4096), and the
// product's epilogue (and its corrections) flag any output that is not finite; the general
// launch is sm90_tf32x3's dense mode, the exact one the naive kernel, both gated on the flags
// (the host API's three launches).
// Measured (H200, n = 4096, Upper; bench/RESULTS.md, sessions 22-29): prepass 40 + 20 µs (each
// at ~48 % of DRAM's peak, session 28), product 125–130 µs with the corrections, the gated
// fallback 3 µs (ncu, serialized); in place (session 26's probes) the prepass ~57 µs, the product
// ~112, the memset, launches and gate ~13; the call 0.1816–0.1822 ms (session 29) against
// sm90_tf32x3's 0.209. The five prepass forms that led here were measured in a probe,
// bench/probes/sm90_fp16x3.cu, removed once this kernel ran.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/common/dependent_launch.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/shared_address.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/common/unit_list.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm90/launch_registers.hpp"
#include "kernels/sm80/cp_async.cuh"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/scan_outside.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels {
namespace sm90_fp16x3 {
namespace {

// kPlanes: fp16 planes an operand, 2 for sm90_fp16x3 (fp32 accuracy: three products), 1 for
// sm90_fp16x1 (precision tf32: one product, h0 alone). The same tile; the ring's depth differs.
constexpr config::WgmmaTile Cfg = config::kSm90Fp16x3;
static_assert(config::kSm90Fp16x1.tile == Cfg.tile && config::kSm90Fp16x1.bk == Cfg.bk &&
                  config::kSm90Fp16x1.consumers == Cfg.consumers,
              "sm90_fp16x1 differs from sm90_fp16x3 in its ring's depth only");
constexpr int kTile = Cfg.tile, kStep = Cfg.bk, kBoxN = 64;
template <int kPlanes>
constexpr int kStages = kPlanes == 2 ? Cfg.stages : config::kSm90Fp16x1.stages;
constexpr int kConsumerThreads = 128 * Cfg.consumers, kThreads = Cfg.threads();
[[maybe_unused]] constexpr int kProducerWarp = kConsumerThreads / 32;
[[maybe_unused]] constexpr int kHelperThreads = 96;  // warps 9-11
static_assert(kThreads == kConsumerThreads + 32 + kHelperThreads,
              "consumers, then the producer warp, then the helper warps");
static_assert(Cfg.consumers == 2 && kTile == 128 && kStep == 64,
              "two m64n128k16 consumer warpgroups over 128 × 128 tiles, 64-k stages (one "
              "128-byte swizzle row of fp16)");
constexpr int kLaunchRegs = 168, kProducerRegs = 56, kConsumerRegs = 224;
static_assert(kProducerRegs + 2 * kConsumerRegs <= 3 * kLaunchRegs, "setmaxnreg's budget");

// Tiles the consumers may hand the helper warps before waiting for the first one's corrections
// (a helper's tile can take longer than a short tile's mainloop; the backlog catches up later).
constexpr int kHandoffs = 8;
// Lost entries a helper warp gathers at once (their operand values into shared memory by
// cp.async, which takes no registers) before it adds their products: a round trip a group.
constexpr int kStaged = 4;

// One stage: X's planes (m 128 × k 64) K-major and Y's (k 64 × n 128: two boxes of 64 columns)
// N-major, rows of 128 bytes in TMA's 128-byte swizzle.
template <int kPlanes>
struct alignas(1024) Stage {
  __half x[kPlanes][kTile * kStep];
  __half y[kPlanes][kStep * kTile];
};
// The consumers hand each stored tile to the helper warps (its lost elements' products). The
// block's u-th tile completes a phase of stored[u % kHandoffs] once the consumers have stored it,
// and of corrected[u % kHandoffs] once the helpers have added them: the consumers run up to
// kHandoffs tiles ahead of the helpers.
struct Handoff {
  uint64_t stored[kHandoffs], corrected[kHandoffs];
  // Each helper warp's shared memory: under Structure::Detect first its scan's pieces, then its
  // gathered values: an entry's 128 of the other operand (X entries) or of X and of the rows'
  // inverse scales (Y entries), a lane's at 32·q + lane.
  union Space {
    sm90::BulkSlots pieces;
    float staged[kStaged][2][kTile];
  } space[kHelperThreads / 32];
  sm90::BulkScan scan[kHelperThreads / 32];  // Structure::Detect: the pieces' barriers
};
template <int kPlanes>
struct Smem {
  Stage<kPlanes> st[kStages<kPlanes>];
  uint64_t full[kStages<kPlanes>], empty[kStages<kPlanes>];
  Handoff h;
  unit_list::Entry units[unit_list::kMaxLevels];  // the block's units
};
template <int kPlanes>
[[maybe_unused]] constexpr uint32_t kStageBytes = sizeof(Stage<kPlanes>);
// One Y box: the descriptors' leading byte offset.
[[maybe_unused]] constexpr uint32_t kBoxBytes = kBoxN * kStep * sizeof(__half);
static_assert(sizeof(Smem<2>) + 1024 <= 227 * 1024 && sizeof(Smem<1>) + 1024 <= 227 * 1024,
              "the ring fits one SM's shared memory");

// --- the workspace ----------------------------------------------------------------------------
// A's row maxima and B's column maxima (batch · n each), the fallback's flag word, the lost
// elements' counts (X's and Y's, per batch entry): zeroed before the prepass. Then X's and Y's
// inverse scales (batch · n each), the two lists of lost elements (cap slots per batch entry
// each), and a block of 2·kPlanes planes per batch entry, 256-byte aligned.
struct Layout {
  int64_t ldw;           // a plane's row stride, in halves
  int64_t plane;         // a plane's size, in halves
  int64_t entry;         // a batch entry's 2·kPlanes planes, in halves (a multiple of 128)
  int64_t cap;           // lost elements a list holds, per batch entry
  size_t flag, counts;   // byte offsets: the flag word, the counts
  size_t zeroed_bytes;   // [0, zeroed_bytes): the maxima, the flag, the counts
  size_t inv, lists;     // byte offsets: the inverse scales, the lists
  size_t vectors_bytes;  // all but the planes
  size_t bytes;          // all of it
};
// A lost element (below): where it is in its plane, and its value before scaling.
struct Lost {
  int row, col;
  float value;
  int unused;
};
constexpr size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }
Layout layout_of(int64_t n, int64_t batch, int planes) {
  Layout l{};
  const size_t vec = size_t(batch) * size_t(n) * sizeof(float);
  l.ldw = int64_t(round_up(size_t(n), 8));  // TMA: 16-byte rows
  l.plane = n * l.ldw;
  l.entry =
      int64_t(round_up(size_t(2 * planes * l.plane) * sizeof(__half), 256) / sizeof(__half));
  // n / 4 (at least 32): the corrections then cost at most ~n²/2 atomics; rand-style data has
  // ~2^-17 of its elements lost (~60 at 4096), N(0, 1) ~250.
  l.cap = std::max<int64_t>(32, n / 4);
  l.flag = 2 * vec;
  l.counts = l.flag + sizeof(uint32_t);
  l.zeroed_bytes = round_up(l.counts + 2 * size_t(batch) * sizeof(uint32_t), 16);
  l.inv = l.zeroed_bytes;
  l.lists = round_up(l.inv + 2 * vec, 16);
  l.vectors_bytes = round_up(l.lists + 2 * size_t(batch) * size_t(l.cap) * sizeof(Lost), 256);
  l.bytes = l.vectors_bytes + size_t(batch) * size_t(l.entry) * sizeof(__half);
  return l;
}

// Pointers into the workspace; entry b's vectors at + b·n, its lists at + b·cap, its planes at
// + b·entry.
struct Work {
  unsigned *rowmax_a, *colmax_b;  // |x| bits (order-preserving for non-negative floats)
  float *inv_sx, *inv_sy;
  unsigned* counts;     // X's lost elements of entry b at 2b, Y's at 2b + 1 (past cap: overflow)
  Lost *lost_x, *lost_y;
  uint32_t* flag;       // kLostBits where a list overflowed: Structure::Detect's gate, else ours
  __half* planes;       // entry 0's planes: X0, X1, Y0, Y1 (fp16x1: X0, Y0)
  int64_t ldw, plane, entry, cap;
};

constexpr int kPrepassThreads = 256;
// A correction below 2^103 (half an ulp of FLT_MAX) cannot take a finite output past fp32's
// range: |c| <= FLT_MAX = 2^128 - 2^104, so |c + v| < 2^128 - 2^103, which rounds to FLT_MAX at
// most, and so for each of an output's corrections in turn. The epilogue flags an output that is
// not finite; a correction at or past this bound (Inf, NaN) is flagged the same way, so the
// atomics need no read-back (a conservative test: Detect's exact launch then recomputes).
[[maybe_unused]] constexpr float kSafeCorrection = 0x1p103f;  // device code only
// correct_lost's unit of work: a warp this many elements of one lost entry's row or column.
constexpr int kLostChunk = 256;
static_assert(kLostChunk % 32 == 0, "a chunk is whole warp-wide steps");
// Maxima tiles (kTallRows × kTallCols: a warp a row, a float4 a lane) and split tiles.
constexpr int kTallRows = 128, kTallCols = 128, kSplitRows = 32, kSplitCols = 256;
constexpr int kTrTile = 32;  // Lower's transposing tiles

// --- the prepass ------------------------------------------------------------------------------
// (Its kernels, and the corrections, are built for sm_90a only, as the product: their sm_80
// pass is a trap.)
#if TRIMM_SM90_DEVICE
__device__ __forceinline__ __half* x0_of(const Work& w, int64_t b) {
  return w.planes + b * w.entry;
}
template <int kPlanes>
__device__ __forceinline__ __half* y0_of(const Work& w, int64_t b) {
  return w.planes + b * w.entry + kPlanes * w.plane;
}
// 2^(3 − floor(log2 m)) from m's bits: m·scale in [8, 16); 1 for m = 0. Clamped to 2^-126 …
// 2^126, so that its inverse is a normal number too (exact, and kept under flush-to-zero).
__device__ __forceinline__ float pow2_scale_bits(unsigned m) {
  const int e = int(m >> 23);  // |x|'s biased exponent: |x| = 1.f·2^(e − 127) for e >= 1
  if (m == 0u || e == 255) return 1.f;
  return __uint_as_float(unsigned(min(253, max(1, 257 - e))) << 23);  // 2^(130 − e)
}
// |x| for the maxima, 0 for Inf and NaN: a row with an Inf keeps the scale of its finite values
// (its products with the Inf are non-finite anyway; the others stay accurate and in range).
__device__ __forceinline__ float finite_abs(float x) {
  const float a = fabsf(x);
  return a < INFINITY ? a : 0.f;
}
__device__ __forceinline__ float pow2_scale(float m) { return pow2_scale_bits(__float_as_uint(m)); }

__device__ __forceinline__ void split(float x, __half& h0, __half& h1) {
  h0 = __float2half_rn(x);
  h1 = __float2half_rn((x - __half2float(h0)) * 2048.f);
}

// Lost elements: nonzero x whose scaled value xs = x·s (s its row's or column's scale) is below
// fp16's smallest normal, 2^-14, where h0 and h1 turn subnormal and hold x to only ~2^-36 of
// s's unit (docs/sm90_fp16x3_plan.md, "The accuracy limit"). They go into the planes as zeros
// and into a list; the corrections (correct_tile, correct_lost) add their products in fp32.
// (x, not xs, is tested against zero: xs may underflow. NaN and Inf are never lost.)
constexpr float kLostBelow = 0x1p-14f;
// The largest |x·s| the planes take: h0 = fp16(x·s) finite, and h1 = fp16((x·s − h0)·2^11) too
// (|x·s − h0| ≤ 2^3 below 2^15). Exact column maxima keep |x·s| below 16; B's sampled ones
// (sampled_maxima) may not.
constexpr float kScaledMax = 0x1p15f;
__device__ __forceinline__ bool is_lost(float x, float xs) {
  return x != 0.f && fabsf(xs) < kLostBelow;
}
// Whether x (of a row whose inverse scale is inv_s) is held by the planes, not lost: |x·s| >=
// 2^-14 as |x| >= 2^-14 / s (powers of two: exact, where x·s may underflow).
__device__ __forceinline__ bool in_planes(float x, float inv_s) {
  return !(x != 0.f && fabsf(x) < kLostBelow * inv_s);
}
// Appends (row, col, x) to a list of `cap` slots; past it only the count grows (and stops
// growing soon after, so that it cannot wrap).
__device__ __forceinline__ void record_lost(unsigned* count, Lost* list, int64_t cap, int row,
                                            int col, float x) {
  if (*reinterpret_cast<volatile unsigned*>(count) > unsigned(cap)) return;
  const unsigned slot = atomicAdd(count, 1u);
  if (slot < unsigned(cap)) list[slot] = Lost{row, col, x, 0};
}
// h0, h1 of the scaled xs = x·s; a lost x as zeros, recorded at (row, col).
__device__ __forceinline__ void split_or_record(float x, float xs, __half& h0, __half& h1,
                                                unsigned* count, Lost* list, int64_t cap,
                                                int row, int col) {
  if (is_lost(x, xs)) {
    h0 = h1 = __float2half_rn(0.f);
    record_lost(count, list, cap, row, col, x);
  } else {
    split(xs, h0, h1);
  }
}

// Four consecutive elements x of a plane row (row, col … col + 3), each scaled by its s[e], into
// h0 at p0 and h1 at p1, those from `end` on left out; lost ones recorded instead.
template <int kPlanes>
__device__ __forceinline__ void split_store4(const float (&x)[4], const float (&s)[4], __half* p0,
                                             [[maybe_unused]] __half* p1, int col, int end,
                                             unsigned* count, Lost* list, int64_t cap, int row) {
  __half h0[4], h1[4];
  bool lost = false;
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    split(x[e] * s[e], h0[e], h1[e]);
    lost |= is_lost(x[e], x[e] * s[e]);
  }
  if (lost)  // rare: out of the common path's registers
#pragma unroll
    for (int e = 0; e < 4; ++e)
      split_or_record(x[e], x[e] * s[e], h0[e], h1[e], count, list, cap, row, col + e);
  if (col + 4 <= end) {  // ldw is a multiple of 8: 8-byte aligned
    *reinterpret_cast<uint2*>(p0) = *reinterpret_cast<const uint2*>(h0);
    if constexpr (kPlanes == 2)
      *reinterpret_cast<uint2*>(p1) = *reinterpret_cast<const uint2*>(h1);
  } else {
    for (int e = 0; e < 4 && col + e < end; ++e) {
      p0[e] = h0[e];
      if constexpr (kPlanes == 2) p1[e] = h1[e];
    }
  }
}

// Upper, A's rows: a block a row, up to kRowVecs float4s a thread in registers.
constexpr int kRowVecs = 8, kRowSpan = 4 * kPrepassThreads * kRowVecs;

// Four consecutive elements of a row from column k, those at or past `end` as zeros (16-byte
// loads where the row allows: the caller's alignment checks, kernels::tma_compatible).
__device__ __forceinline__ float4 load4(const float* row, int64_t k, int64_t end) {
  if (k + 4 <= end) return *reinterpret_cast<const float4*>(row + k);
  float4 v{0.f, 0.f, 0.f, 0.f};
  if (k < end) v.x = row[k];
  if (k + 1 < end) v.y = row[k + 1];
  if (k + 2 < end) v.z = row[k + 2];
  return v;
}

// Tile id of the upper staircase of a tiles × tiles grid, row by row ((0, 0) … (0, tiles − 1),
// (1, 1) …), as (row tile, column tile): the grids launch only the tiles on or above the
// diagonal (a block that returns at once still takes a slot, and launch 2's wait in it).
static_assert(kTallRows == kTallCols, "upper_tile walks a square grid of maxima tiles");
__device__ __forceinline__ int2 upper_tile(int id, int tiles) {
  int r = 0;
  for (; id >= tiles - r; ++r) id -= tiles - r;
  return make_int2(r, r + id);
}

// A tile's column maxima: a warp's four columns of this lane (m) reduced over the block's eight
// warps through `part`, ORed into colmax by atomicMax (bits of non-negative floats).
__device__ __forceinline__ void column_maxima(const float (&m)[4], int c0, int n,
                                              unsigned* colmax, float (&part)[8][kTallCols]) {
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
#pragma unroll
  for (int e = 0; e < 4; ++e) part[w][4 * lane + e] = m[e];
  __syncthreads();
  if (threadIdx.x < kTallCols && c0 + int(threadIdx.x) < n) {
    float v = part[0][threadIdx.x];
#pragma unroll
    for (int i = 1; i < 8; ++i) v = fmaxf(v, part[i][threadIdx.x]);
    if (v > 0.f) atomicMax(colmax + c0 + threadIdx.x, __float_as_uint(v));
  }
}

// The column maxima of B over its upper (lower) triangle in a kTallRows × kTallCols tile
// (row tile rt, column tile ct), as bits ORed by atomicMax into colmax (zeroed before); and,
// kRows, A's row maxima the same way. Every load of a batch of rows issued before any is used;
// batches wholly outside the triangle skipped. (kRows a template argument: while A was a runtime
// null here and a loop over batch entries held both halves of Upper's first launch, that launch
// took 114 registers and 1.5× the time.)
template <bool kLower, bool kRows>
__device__ void tile_maxima(const float* A, int64_t lda, const float* B, int64_t ldb, int n,
                            int rt, int ct, unsigned* rowmax, unsigned* colmax,
                            float (&part)[8][kTallCols]) {
  const int k0 = rt * kTallRows, c0 = ct * kTallCols;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, j0 = c0 + 4 * lane;
  // Upper: rows k <= j; Lower: rows k >= j.
  const bool any = kLower ? k0 + kTallRows - 1 >= c0 : k0 <= c0 + kTallCols - 1;
  if (!any) return;  // uniform across the block
  // Rows a warp loads at once: with A's too, half as many (112 registers against 62).
  constexpr int kBatch = kRows ? 4 : 8;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  for (int rr = 0; rr < kTallRows / 8; rr += kBatch) {
    // Rows k0 + 8·rr … k0 + 8·(rr + kBatch) − 1: uniform across the block.
    if (kLower ? k0 + 8 * (rr + kBatch) - 1 < c0 : k0 + 8 * rr > c0 + kTallCols - 1) continue;
    float4 a[kRows ? kBatch : 1], b[kBatch];
#pragma unroll
    for (int q = 0; q < kBatch; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      const bool ok = j0 < n && k < n && (kLower ? k >= j0 : k <= j0 + 3);
      b[q] = ok ? load4(B + int64_t(k) * ldb, j0, kLower ? min(n, k + 1) : n) : float4{};
      if constexpr (kRows)
        a[q] = ok ? load4(A + int64_t(k) * lda, j0, kLower ? min(n, k + 1) : n) : float4{};
    }
#pragma unroll
    for (int q = 0; q < kBatch; ++q) {
      const int k = k0 + w + 8 * (rr + q);
      const float bv[4] = {b[q].x, b[q].y, b[q].z, b[q].w};
      float rm = 0.f;
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (kLower ? k >= j0 + e : k <= j0 + e) {
          m[e] = fmaxf(m[e], finite_abs(bv[e]));
          if constexpr (kRows) {
            const float av[4] = {a[q].x, a[q].y, a[q].z, a[q].w};
            rm = fmaxf(rm, finite_abs(av[e]));
          }
        }
      if constexpr (kRows) {
#pragma unroll
        for (int o = 16; o > 0; o /= 2) rm = fmaxf(rm, __shfl_xor_sync(0xffffffffu, rm, o));
        if (lane == 0 && k < n && rm > 0.f) atomicMax(rowmax + k, __float_as_uint(rm));
      }
    }
  }
  column_maxima(m, c0, n, colmax, part);
}

// B's column maxima of an Upper tile above the diagonal (row tile rt < column tile ct) from a
// sample of its rows, every kSampleStep-th: the split scales each column by its sample's
// largest |x| (the diagonal tiles, where a column's last rows lie, read all theirs) and sends
// the call to the fallback where that takes an element past kScaledMax (upper_split_b): an
// underestimate costs time on such inputs, never accuracy. B is then read ~1.1 times, not twice
// (session 29: −0.6 µs at 4096, where the second read had mostly hit L2; −18 at 8192).
constexpr int kSampleStep = 16;
static_assert(kSampleStep * 8 == kTallRows, "a warp a sampled row of the tile");
__device__ void sampled_maxima(const float* B, int64_t ldb, int n, int rt, int ct,
                               unsigned* colmax, float (&part)[8][kTallCols]) {
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const int k = rt * kTallRows + kSampleStep * w, c0 = ct * kTallCols, j0 = c0 + 4 * lane;
  float m[4] = {0.f, 0.f, 0.f, 0.f};
  if (k < n && j0 < n) {  // k < c0 <= j0: the whole float4 in the triangle
    const float4 v = load4(B + int64_t(k) * ldb, j0, n);
    m[0] = finite_abs(v.x);
    m[1] = finite_abs(v.y);
    m[2] = finite_abs(v.z);
    m[3] = finite_abs(v.w);
  }
  column_maxima(m, c0, n, colmax, part);
}

#endif  // TRIMM_SM90_DEVICE

// Upper, launch 1: blocks [0, n) split A's rows into X (row i from its diagonal block's first
// column: zeros before i), each scaled by its own largest |x|; blocks from n take B's column
// maxima. Grid y: batch entries from b0.
template <int kPlanes>
__global__ void __launch_bounds__(kPrepassThreads)
    upper_rows_and_maxima(const Problem p, Work w, int64_t b0) {
#if TRIMM_SM90_DEVICE
  // Launch 2 may start once every block of this one has: its B loads overlap this launch's
  // last wave (it waits for this launch's completion before it reads the maxima).
  allow_dependent_launch();
  __shared__ float part[8][kTallCols];
  __shared__ float row_part[kPrepassThreads / 32];
  const int n = int(p.n), lane = threadIdx.x % 32, wp = threadIdx.x / 32;
  const int64_t b = b0 + blockIdx.y;
  if (int(blockIdx.x) >= n) {
    const int2 t = upper_tile(int(blockIdx.x) - n, (n + kTallCols - 1) / kTallCols);
    if (t.x < t.y)
      sampled_maxima(p.B + b * p.stride_b, p.ldb, n, t.x, t.y, w.colmax_b + b * n, part);
    else
      tile_maxima<false, false>(nullptr, 0, p.B + b * p.stride_b, p.ldb, n, t.x, t.y, nullptr,
                                w.colmax_b + b * n, part);
    return;
  }
  // Bottom row first: the top rows, the longest, which the product's first units (the top-right
  // tiles) read, are written last, the likeliest still in L2 (session 29: −1.2 µs at 4096).
  const int i = n - 1 - int(blockIdx.x), c0 = i / kTile * kTile;
  const float* row = p.A + b * p.stride_a + int64_t(i) * p.lda;
  __half* x0 = x0_of(w, b) + int64_t(i) * w.ldw;
  [[maybe_unused]] __half* x1 = x0 + w.plane;
  auto masked = [&](float4 v, int k) {
    v.x = k >= i ? v.x : 0.f;
    v.y = k + 1 >= i ? v.y : 0.f;
    v.z = k + 2 >= i ? v.z : 0.f;
    v.w = k + 3 >= i ? v.w : 0.f;
    return v;
  };
  auto vmax = [](float m, float4 v) {
    return fmaxf(m, fmaxf(fmaxf(finite_abs(v.x), finite_abs(v.y)),
                          fmaxf(finite_abs(v.z), finite_abs(v.w))));
  };
  auto split4 = [&](float4 v, int k, float s) {
    const float x[4] = {v.x, v.y, v.z, v.w}, sc[4] = {s, s, s, s};
    split_store4<kPlanes>(x, sc, x0 + k, x1 + k, k, n, w.counts + 2 * b, w.lost_x + b * w.cap,
                          w.cap, i);
  };
  float m = 0.f;
  float4 v[kRowVecs];
  const bool in_registers = n - c0 <= kRowSpan;
  if (in_registers) {
#pragma unroll
    for (int q = 0; q < kRowVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + kPrepassThreads * q);
      v[q] = k < n ? masked(load4(row, k, n), k) : float4{};
      m = vmax(m, v[q]);
    }
  } else {
    for (int k = c0 + 4 * int(threadIdx.x); k < n; k += 4 * kPrepassThreads)
      m = vmax(m, masked(load4(row, k, n), k));
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (lane == 0) row_part[wp] = m;
  __syncthreads();
#pragma unroll
  for (int q = 0; q < kPrepassThreads / 32; ++q) m = fmaxf(m, row_part[q]);
  const float s = pow2_scale(m);
  if (threadIdx.x == 0) w.inv_sx[b * n + i] = 1.f / s;
  if (in_registers) {
#pragma unroll
    for (int q = 0; q < kRowVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + kPrepassThreads * q);
      if (k < n) split4(v[q], k, s);
    }
  } else {
    for (int k = c0 + 4 * int(threadIdx.x); k < n; k += 4 * kPrepassThreads)
      split4(masked(load4(row, k, n), k), k, s);
  }
#else
  __trap();
#endif
}

// Launch 2's tile id as (row tile, column tile): only the tiles whose rows' diagonal blocks start
// at or before their last column, row tiles bottom first. Row tile ti's first column tile is
// ti / kGroup, so the rows come in groups of kGroup with the same first.
constexpr int kGroup = kSplitCols / kSplitRows;
static_assert(kSplitCols % kTile == 0 && kSplitCols % kSplitRows == 0,
              "a split tile's diagonal blocks start on a tile boundary");
#if TRIMM_SM90_DEVICE
__device__ __forceinline__ int2 split_tile(int id, int rows, int tiles) {
  for (int g = (rows - 1) / kGroup;; --g) {
    const int in = min(rows, (g + 1) * kGroup) - g * kGroup, per = tiles - g;
    if (id < in * per) return make_int2(g * kGroup + in - 1 - id / per, g + id % per);
    id -= in * per;
  }
}
#endif
// Their number (the host's grid).
int split_tiles(int rows, int tiles) {
  int count = 0;
  for (int g = 0; g * kGroup < rows; ++g)
    count += (std::min(rows, (g + 1) * kGroup) - g * kGroup) * (tiles - g);
  return count;
}

// Upper, launch 2: B into Y in kSplitRows × kSplitCols tiles (row k from its diagonal block's
// first column), each column scaled by its own largest |x|; the last column of tiles writes Y's
// inverse scales.
template <int kPlanes>
__global__ void __launch_bounds__(kPrepassThreads)
    upper_split_b(const Problem p, Work w, int64_t b0) {
#if TRIMM_SM90_DEVICE
  // The product may be scheduled once every block here has started (it waits for this launch's
  // completion before it reads the planes): its launch and prologue under this launch's tail.
  allow_dependent_launch();
  // Row tiles bottom first: chosen while launch 1 read all of B top first, so that its last-read
  // rows were read here first (session 26: −1.1…−2.1 µs at 4096); with B's maxima sampled, top
  // first still cost +1.8 µs (session 29).
  const int n = int(p.n);
  const int2 tile = split_tile(int(blockIdx.x), (n + kSplitRows - 1) / kSplitRows,
                               (n + kSplitCols - 1) / kSplitCols);
  const int ti = tile.x, tj = tile.y, t = threadIdx.x;
  const int j0 = tj * kSplitCols + 4 * (t % 64);
  const int64_t b = b0 + blockIdx.y;
  // This thread's r-th row, and whether its four columns reach that row's diagonal block.
  auto row = [&](int r) { return ti * kSplitRows + t / 64 + 4 * r; };
  auto in_band = [&](int k) { return j0 < n && k < n && j0 + 3 >= k / kTile * kTile; };
  // B's values before the wait: an input launch 1 never writes, so that their loads overlap
  // launch 1's end.
  const float* B = p.B + b * p.stride_b;
  float4 v[kSplitRows / 4];
#pragma unroll
  for (int r = 0; r < kSplitRows / 4; ++r)
    v[r] = in_band(row(r)) ? load4(B + int64_t(row(r)) * p.ldb, j0, n) : float4{};
  wait_for_previous_grid();  // the column maxima
  const unsigned* colmax = w.colmax_b + b * n;
  if (tj == (n - 1) / kSplitCols && t < kSplitRows && ti * kSplitRows + t < n)
    w.inv_sy[b * n + ti * kSplitRows + t] = 1.f / pow2_scale_bits(colmax[ti * kSplitRows + t]);
  if (j0 >= n) return;
  float sc[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) sc[e] = j0 + e < n ? pow2_scale_bits(colmax[j0 + e]) : 1.f;
  __half* y0 = y0_of<kPlanes>(w, b);
  [[maybe_unused]] __half* y1 = y0 + w.plane;
  bool over = false;  // a finite element the sampled scale takes past kScaledMax
#pragma unroll
  for (int r = 0; r < kSplitRows / 4; ++r) {
    const int k = row(r);
    if (!in_band(k)) continue;
    float y[4] = {j0 >= k ? v[r].x : 0.f, j0 + 1 >= k ? v[r].y : 0.f, j0 + 2 >= k ? v[r].z : 0.f,
                  j0 + 3 >= k ? v[r].w : 0.f};
    // Such an element goes in as zero: the fallback recomputes C, and no Inf in the planes makes
    // Detect's general launch the exact (naive) one instead of the dense one.
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (finite_abs(y[e]) * sc[e] >= kScaledMax) {
        over = true;
        y[e] = 0.f;
      }
    const int64_t o = int64_t(k) * w.ldw + j0;
    split_store4<kPlanes>(y, sc, y0 + o, y1 + o, j0, n, w.counts + 2 * b + 1,
                          w.lost_y + b * w.cap, w.cap, k);
  }
  // Past the lists' capacity: the flag, then the fallback, as for too many lost elements.
  if (over) atomicMax(w.counts + 2 * b + 1, unsigned(w.cap) + 1u);
#else
  __trap();
#endif
}

// Lower, launch 1: A's row maxima and B's column maxima over their lower triangles.
__global__ void __launch_bounds__(kPrepassThreads)
    lower_maxima(const Problem p, Work w, int64_t b0) {
#if TRIMM_SM90_DEVICE
  __shared__ float part[8][kTallCols];
  const int n = int(p.n), tiles_x = (n + kTallCols - 1) / kTallCols;
  const int64_t b = b0 + blockIdx.y;
  tile_maxima<true, true>(p.A + b * p.stride_a, p.lda, p.B + b * p.stride_b, p.ldb, n,
                          int(blockIdx.x) / tiles_x, int(blockIdx.x) % tiles_x,
                          w.rowmax_a + b * n, w.colmax_b + b * n, part);
#else
  __trap();
#endif
}

// Lower, launch 2: A and B transposed into the planes, kTrTile × kTrTile tiles of the source
// through shared memory: Y(k, j) = A(j, k)·sa_j, X(j, k) = B(k, j)·sb_j, for the source's lower
// triangle and, as zeros, the rest of its diagonal 128-blocks (rows k >= (j / 128)·128 of column
// j). Tiles of column 0 write the inverse scales: X's from B's columns, Y's from A's rows.
template <int kPlanes>
__global__ void __launch_bounds__(kPrepassThreads)
    lower_split(const Problem p, Work w, int64_t b0) {
#if TRIMM_SM90_DEVICE
  wait_for_previous_grid();  // the maxima
  __shared__ float tile[2][kTrTile][kTrTile + 1];
  const int n = int(p.n), tiles = (n + kTrTile - 1) / kTrTile;
  const int ti = blockIdx.x / tiles, tj = blockIdx.x % tiles;  // source rows, columns
  const int r0 = ti * kTrTile, c0 = tj * kTrTile, tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const int64_t b = b0 + blockIdx.y;
  const unsigned* rowmax = w.rowmax_a + b * n;
  const unsigned* colmax = w.colmax_b + b * n;
  if (tj == 0 && threadIdx.x < kTrTile && r0 + int(threadIdx.x) < n) {
    const int i = r0 + int(threadIdx.x);
    w.inv_sx[b * n + i] = 1.f / pow2_scale_bits(colmax[i]);
    w.inv_sy[b * n + i] = 1.f / pow2_scale_bits(rowmax[i]);
  }
  // Needed where some source (row, column) of the tile has row >= (column / 128)·128.
  if (r0 + kTrTile - 1 < c0 / kTile * kTile) return;
  const float* A = p.A + b * p.stride_a;
  const float* B = p.B + b * p.stride_b;
  // Read: thread (ty, tx) takes rows ty, ty + 8, ... of the tile at column c0 + tx.
  const int c = c0 + tx;
  for (int r = ty; r < kTrTile; r += kPrepassThreads / 32) {
    const int row = r0 + r;
    const bool in = row < n && c < n && row >= c;
    tile[0][r][tx] = in ? A[int64_t(row) * p.lda + c] : 0.f;
    tile[1][r][tx] = in ? B[int64_t(row) * p.ldb + c] : 0.f;
  }
  __syncthreads();
  // Write: plane row = source column c0 + r, plane column = source row r0 + tx.
  __half* y0 = y0_of<kPlanes>(w, b);
  [[maybe_unused]] __half* y1 = y0 + w.plane;
  __half* x0 = x0_of(w, b);
  [[maybe_unused]] __half* x1 = x0 + w.plane;
  for (int r = ty; r < kTrTile; r += kPrepassThreads / 32) {
    const int prow = c0 + r, pcol = r0 + tx;
    if (prow >= n || pcol >= n || pcol < prow / kTile * kTile) continue;
    const int64_t o = int64_t(prow) * w.ldw + pcol;
    const float a = tile[0][tx][r], bv = tile[1][tx][r];  // A(pcol, prow), B(pcol, prow)
    __half h0, h1;
    split_or_record(a, a * pow2_scale_bits(rowmax[pcol]), h0, h1, w.counts + 2 * b + 1,
                    w.lost_y + b * w.cap, w.cap, prow, pcol);
    y0[o] = h0;
    if constexpr (kPlanes == 2) y1[o] = h1;
    split_or_record(bv, bv * pow2_scale_bits(colmax[prow]), h0, h1, w.counts + 2 * b,
                    w.lost_x + b * w.cap, w.cap, prow, pcol);
    x0[o] = h0;
    if constexpr (kPlanes == 2) x1[o] = h1;
  }
#else
  __trap();
#endif
}

// --- the lost elements, added back ------------------------------------------------------------
// In the product's frame (Ĉ = triu(X·Y); Upper X = A, Y = B, Ĉ = C; Lower X = Bᵀ, Y = Aᵀ,
// Ĉ = Cᵀ), with X = X' + X_lost and Y = Y' + Y_lost (X', Y' what the planes hold):
// Ĉ = triu(X'·Y') + triu(X_lost·Y) + triu(X'·Y_lost). An X entry (i, k, x) adds x·Y(k, j) to
// Ĉ(i, j) for j >= k; a Y entry (k, j, y) adds X'(i, k)·y for i <= k, X' without its lost
// elements (the entry's own test, from the row's inverse scale), so that a product of two lost
// elements is added once. fp32 atomics: entries may meet in an element. The product's helper
// warps add a tile's share once its consumers have stored it (correct_tile) where every block of
// the call is resident; elsewhere a launch after the product (correct_lost).
#if TRIMM_SM90_DEVICE
// Entry b's X, Y and Ĉ, indexed in the product's frame. (It refers to the kernel's parameter,
// not a copy of its fields: the helper warps' 56 registers cannot hold those.)
template <bool kLower>
struct Frame {
  const Problem& p;
  int64_t b;
  __device__ const float* xp(int r, int c) const {
    return kLower ? p.B + b * p.stride_b + int64_t(c) * p.ldb + r
                  : p.A + b * p.stride_a + int64_t(r) * p.lda + c;
  }
  __device__ const float* yp(int r, int c) const {
    return kLower ? p.A + b * p.stride_a + int64_t(c) * p.lda + r
                  : p.B + b * p.stride_b + int64_t(r) * p.ldb + c;
  }
  __device__ float x(int r, int c) const { return *xp(r, c); }
  __device__ float y(int r, int c) const { return *yp(r, c); }
  __device__ float* c(int r, int c) const {
    return p.C + b * p.stride_c + (kLower ? int64_t(c) * p.ldc + r : int64_t(r) * p.ldc + c);
  }
};

// The products of entry b's lost elements that land in tile (bi, bj) of Ĉ, by the helper warps
// (ht: 0 … kHelperThreads − 1). A warp reads 32 entries at a time, a lane one; a ballot keeps
// those that reach the tile (rand at 4096: ~60 entries a list, almost none a tile). Of those,
// kStaged at a time: the whole warp gathers their values into its part of shared memory
// (`staged`; a lane a column of an X entry's row, a row of a Y entry's column), waits once, then
// adds their products. The atomics are reductions (no return waited on); under
// Structure::Detect (kDetect) a correction that could take an output past fp32's range
// (kSafeCorrection) is flagged as the epilogue flags its own (Detect's exact launch then
// recomputes).
template <bool kLower, bool kDetect>
__device__ __forceinline__ void correct_tile(const Frame<kLower>& f, const Work& w, int64_t b,
                                             int n, int bi, int bj, int ht,
                                             float (&staged)[kStaged][2][kTile]) {
  constexpr int kWarps = kHelperThreads / 32, kPer = kTile / 32;
  // Read again for each tile (from L2), not held across the unit loop: registers.
  const unsigned nx = w.counts[2 * b], ny = w.counts[2 * b + 1];
  if (nx > unsigned(w.cap) || ny > unsigned(w.cap)) return;  // the fallback recomputes C
  const int lane = ht % 32, m0 = bi * kTile, n0 = bj * kTile;
  const int m1 = min(n, m0 + kTile), n1 = min(n, n0 + kTile);
  const float* inv_sx = w.inv_sx + b * n;
  [[maybe_unused]] bool overflow = false;  // kDetect: a correction past kSafeCorrection
  auto add = [&](float* out, float v) {
    atomicAdd(out, v);
    if constexpr (kDetect) overflow |= !(fabsf(v) < kSafeCorrection);
  };
  for (unsigned e0 = 32u * unsigned(ht / 32); e0 < nx + ny; e0 += 32u * kWarps) {
    const unsigned e = e0 + unsigned(lane);
    Lost l{};
    bool reach = false;
    if (e < nx) {  // its row in the tile, and a column j >= its own there
      l = w.lost_x[b * w.cap + e];
      reach = l.row >= m0 && l.row < m1 && l.col < n1;
    } else if (e < nx + ny) {  // its column in the tile, and a row i <= its own there
      l = w.lost_y[b * w.cap + (e - nx)];
      reach = l.col >= n0 && l.col < n1 && l.row >= m0;
    }
    for (unsigned hit = __ballot_sync(0xffffffffu, reach); hit != 0u;) {
      unsigned rest = hit;  // the hits after this group's kStaged
      for (int k = 0; k < kStaged && rest != 0u; ++k) rest &= rest - 1u;
      const unsigned group = hit & ~rest;
      int s = 0;
      for (unsigned g = group; g != 0u; g &= g - 1u, ++s) {
        const int src = __ffs(int(g)) - 1;
        const int row = __shfl_sync(0xffffffffu, l.row, src);
        const int col = __shfl_sync(0xffffffffu, l.col, src);
        if (e0 + unsigned(src) < nx) {  // uniform across the warp
#pragma unroll 1
          for (int q = 0; q < kPer; ++q) {
            const int j = n0 + 32 * q + lane;
            if (j >= col && j < n1) cp_async::copy4(&staged[s][0][32 * q + lane], f.yp(col, j));
          }
        } else {
#pragma unroll 1
          for (int q = 0; q < kPer; ++q) {
            const int i = m0 + 32 * q + lane;
            if (i <= row && i < m1) {
              cp_async::copy4(&staged[s][0][32 * q + lane], f.xp(i, row));
              cp_async::copy4(&staged[s][1][32 * q + lane], inv_sx + i);
            }
          }
        }
      }
      cp_async::commit();
      cp_async::wait<0>();  // a lane reads back only what it copied itself
      s = 0;
      for (unsigned g = group; g != 0u; g &= g - 1u, ++s) {
        const int src = __ffs(int(g)) - 1;
        const int row = __shfl_sync(0xffffffffu, l.row, src);
        const int col = __shfl_sync(0xffffffffu, l.col, src);
        const float value = __shfl_sync(0xffffffffu, l.value, src);
        if (e0 + unsigned(src) < nx) {
#pragma unroll 1
          for (int q = 0; q < kPer; ++q) {
            const int j = n0 + 32 * q + lane;
            if (j >= col && j < n1)
              add(f.c(row, j), value * staged[s][0][32 * q + lane]);
          }
        } else {
#pragma unroll 1
          for (int q = 0; q < kPer; ++q) {
            const int i = m0 + 32 * q + lane;
            if (i > row || i >= m1) continue;
            const float x = staged[s][0][32 * q + lane];
            if (in_planes(x, staged[s][1][32 * q + lane])) add(f.c(i, col), x * value);
          }
        }
      }
      hit = rest;
    }
  }
  if constexpr (kDetect)
    if (overflow) atomicOr(w.flag, kNonFiniteOut);
}
#endif  // TRIMM_SM90_DEVICE

// --- the product ------------------------------------------------------------------------------
// Persistent where the packed layouts apply (the block's list of units decoded once into shared
// memory, unit_list, as sm90_16bit): the ring continues from a block's unit to the next, so the
// producer loads the next unit while the consumers store the last. WG0, WG1: consumers, 64 rows
// of the tile each; warp 8: the TMA producer; warps 9-11: zero the mirror tiles of C's other
// triangle, then add the lost elements' products to each tile the consumers have stored (where
// `correct`).
template <int kPlanes, bool kLower, bool kDetect>
__global__ void __launch_bounds__(kThreads, 1)
    fp16x3_kernel(const __grid_constant__ CUtensorMap map_x0,
                  const __grid_constant__ CUtensorMap map_x1,
                  const __grid_constant__ CUtensorMap map_y0,
                  const __grid_constant__ CUtensorMap map_y1, const Problem p, const Work w,
                  sched::TriangleSchedule s, int64_t batch_offset, bool correct,
                  const __grid_constant__ sched::DispatchOrder order) {
#if TRIMM_SM90_DEVICE
  namespace ptx = trimm::kernels::sm90::ptx;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  constexpr int kRing = kStages<kPlanes>;
  Smem<kPlanes>& sm = *reinterpret_cast<Smem<kPlanes>*>(
      smem_raw + ((1024u - (shared_address(smem_raw) & 1023u)) & 1023u));
  const int tid = threadIdx.x, n = int(p.n);
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
  auto steps_of = [](const sched::WorkUnit& u) {
    return int((u.k_end - u.k_begin + kStep - 1) / kStep);
  };
  if constexpr (kDetect) allow_dependent_launch();  // the general launch (gated, usually off)
  if (tid == 0) {
    for (int i = 0; i < kRing; ++i) {
      ptx::mbar_init(&sm.full[i], 1);
      ptx::mbar_init(&sm.empty[i], kConsumerThreads / 32);  // one arrival per consumer warp
    }
    for (int i = 0; i < kHandoffs; ++i) {
      ptx::mbar_init(&sm.h.stored[i], kConsumerThreads);
      ptx::mbar_init(&sm.h.corrected[i], kHelperThreads);
    }
    if constexpr (kDetect)
      for (auto& sc : sm.h.scan) sm90::bulk_scan_init(sc);
    ptx::mbar_init_fence();
  }
  unit_list::decode(sm.units, s, order, blockIdx.x, gridDim.x, tid, kThreads);
  __syncthreads();

  if (tid >= kConsumerThreads) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (tid == 32 * kProducerWarp) {
      wait_for_previous_grid();  // the planes
      const int z = int(b);
      int q = 0;  // the block's stages so far: ring slot q % kRing
      sched::WorkUnit u;
      for (unit_list::Walk wk(sm.units, s); wk.next(u);) {
        const int m0 = u.bi * kTile, n0 = u.bj * kTile;
        for (int it = 0; it < steps_of(u); ++it, ++q) {
          const int slot = q % kRing;
          if (q >= kRing) ptx::mbar_wait(&sm.empty[slot], ((q / kRing) & 1) ^ 1);
          Stage<kPlanes>& st = sm.st[slot];
          const int k0 = int(u.k_begin) + it * kStep;
          ptx::mbar_arrive_expect_tx(&sm.full[slot], kStageBytes<kPlanes>);
          ptx::tma_load_3d(st.x[0], &map_x0, &sm.full[slot], k0, m0, z);
          if constexpr (kPlanes == 2) ptx::tma_load_3d(st.x[1], &map_x1, &sm.full[slot], k0, m0, z);
#pragma unroll
          for (int j = 0; j < kTile / kBoxN; ++j) {
            ptx::tma_load_3d(st.y[0] + j * kBoxN * kStep, &map_y0, &sm.full[slot],
                             n0 + j * kBoxN, k0, z);
            if constexpr (kPlanes == 2)
              ptx::tma_load_3d(st.y[1] + j * kBoxN * kStep, &map_y1, &sm.full[slot],
                               n0 + j * kBoxN, k0, z);
          }
        }
      }
    } else if (tid >= 32 * (kProducerWarp + 1)) {
      const int ht = tid - 32 * (kProducerWarp + 1);
      sched::WorkUnit u;
      for (unit_list::Walk wk(sm.units, s); wk.next(u);) {
        if (sched::TriangleSchedule::zeroes_mirror(u))
          zero_mirror<false, float>(C, p.ldc, n, u.bi, u.bj, kLower, kTile, ht, kHelperThreads);
      }
      if constexpr (kDetect) {
        // Structure::Detect: A's and B's rows outside the triangles, a helper warp every
        // (3 · gridDim.x)-th row of the entry, under the product (A and B are the call's inputs:
        // nothing to wait for).
        constexpr int kWarps = kHelperThreads / 32;
        const int hw = ht / 32;
        const uint32_t bits = sm90::scan_outside_bulk<kLower>(
            p.A + b * p.stride_a, p.lda, p.B + b * p.stride_b, p.ldb, n,
            int(blockIdx.x) * kWarps + hw, int(gridDim.x) * kWarps, sm.h.space[hw].pieces,
            sm.h.scan[hw], ht % 32);
        if (bits != 0u && ht % 32 == 0) atomicOr(p.gate, bits);
      }
      if (correct) {
        // Each unit's share of the lost elements' products, once the consumers have stored it.
        // Lists past their capacity: the flag sends the call to the fallback launch (under
        // Detect, the API's general launch), which recomputes C. First the lists and the
        // inverse scales (before any load of them: L1).
        wait_for_previous_grid();
        if (blockIdx.x == 0 && ht == 0 &&
            (w.counts[2 * b] > unsigned(w.cap) || w.counts[2 * b + 1] > unsigned(w.cap)))
          atomicOr(w.flag, kLostBits);
        const Frame<kLower> f{p, b};
        int done = 0;  // the block's units so far
        for (unit_list::Walk wk(sm.units, s); wk.next(u); ++done) {
          ptx::mbar_wait(&sm.h.stored[done % kHandoffs], (done / kHandoffs) & 1);
          correct_tile<kLower, kDetect>(f, w, b, n, u.bi, u.bj, ht, sm.h.space[ht / 32].staged);
          ptx::mbar_arrive(&sm.h.corrected[done % kHandoffs]);
        }
      }
    }
    return;
  }

  ptx::setmaxnreg_inc<kConsumerRegs>();
  wait_for_previous_grid();  // the inverse scales
  const int wg = tid / 128;
  const bool lane0 = tid % 32 == 0;
  const uint32_t da = ptx::desc_kmajor_sw128_lo(sm.st[0].x[0] + 64 * wg * kStep);
  const uint32_t db = uint32_t(ptx::desc_mnmajor_sw128(sm.st[0].y[0], kBoxBytes));
  constexpr uint32_t kSlot = kStageBytes<kPlanes> >> 4;
  [[maybe_unused]] constexpr uint32_t kPlane = (kTile * kStep * sizeof(__half)) >> 4;
  constexpr uint32_t kStepX = (16 * sizeof(__half)) >> 4;          // k16: 32 bytes along a row
  constexpr uint32_t kStepY = (16 * kBoxN * sizeof(__half)) >> 4;  // k16: 16 rows of 128 bytes
  const int q4 = (tid % 128) / 32, g = (tid % 32) / 4, t = tid % 4;
  const float* inv_sx = w.inv_sx + b * n;
  const float* inv_sy = w.inv_sy + b * n;
  int q = 0;
  int done = 0;  // the units stored so far (for the helpers' corrections)
  sched::WorkUnit u;
  for (unit_list::Walk wk(sm.units, s); wk.next(u);) {
    const int m0 = u.bi * kTile, n0 = u.bj * kTile, steps = steps_of(u);
    // Accumulator r of a thread: row m0 + 64·wg + 16·q4 + g + 8·((r / 2) % 2), column
    // n0 + 8·(r / 4) + 2·t + r % 2 (m64n128's fragment).
    float acc[64], cross[64], part[64];
#pragma unroll
    for (int r = 0; r < 64; ++r) acc[r] = cross[r] = part[r] = 0.f;
    if constexpr (kPlanes == 2) {
      for (int it = 0; it < steps; ++it, ++q) {
        const int slot = q % kRing;
        ptx::mbar_wait(&sm.full[slot], (q / kRing) & 1);
#pragma unroll
        for (int r = 0; r < 64; ++r) ptx::pin(part[r]);
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kStep / 16; ++kk) {
          const uint32_t a = da + slot * kSlot + kStepX * kk, c = db + slot * kSlot + kStepY * kk;
          ptx::wgmma_m64n128k16_ss<false>(part, ptx::desc_kmajor_sw128_from_lo(a),
                                          ptx::desc_kmajor_sw128_from_lo(c), kk > 0);
        }
        ptx::wgmma_commit();
#pragma unroll
        for (int kk = 0; kk < kStep / 16; ++kk) {
          const uint32_t a = da + slot * kSlot + kStepX * kk, c = db + slot * kSlot + kStepY * kk;
          ptx::wgmma_m64n128k16_ss<false>(cross, ptx::desc_kmajor_sw128_from_lo(a),
                                          ptx::desc_kmajor_sw128_from_lo(c + kPlane), 1);
          ptx::wgmma_m64n128k16_ss<false>(cross, ptx::desc_kmajor_sw128_from_lo(a + kPlane),
                                          ptx::desc_kmajor_sw128_from_lo(c), 1);
        }
        ptx::wgmma_commit();
        ptx::wgmma_wait<1>();  // this stage's main group, and the last stage's cross group
        if (it > 0 && lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kRing]);
#pragma unroll
        for (int r = 0; r < 64; ++r) {
          ptx::pin(part[r]);
          acc[r] += part[r];
        }
      }
      ptx::wgmma_wait<0>();
#pragma unroll
      for (int r = 0; r < 64; ++r) {
        ptx::pin(acc[r]);
        ptx::pin(cross[r]);
      }
      if (lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kRing]);
    } else {
      // One product a k16, summed by the tensor cores over the whole band (as cuBLAS's TF32
      // mode); a stage's group retired a stage later, its slot released then.
      for (int it = 0; it < steps; ++it, ++q) {
        const int slot = q % kRing;
        ptx::mbar_wait(&sm.full[slot], (q / kRing) & 1);
#pragma unroll
        for (int r = 0; r < 64; ++r) ptx::pin(acc[r]);  // the zeros written before the fence
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kStep / 16; ++kk) {
          const uint32_t a = da + slot * kSlot + kStepX * kk, c = db + slot * kSlot + kStepY * kk;
          ptx::wgmma_m64n128k16_ss<false>(acc, ptx::desc_kmajor_sw128_from_lo(a),
                                          ptx::desc_kmajor_sw128_from_lo(c), 1);
        }
        ptx::wgmma_commit();
        ptx::wgmma_wait<1>();
        if (it > 0 && lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kRing]);
      }
      ptx::wgmma_wait<0>();
#pragma unroll
      for (int r = 0; r < 64; ++r) ptx::pin(acc[r]);
      if (lane0) ptx::mbar_arrive(&sm.empty[(q - 1) % kRing]);
    }

    // The column scales first, all loads in flight at once (one at each use stalled 31 % of the
    // probe's first form's issue slots).
    float isy[32];
#pragma unroll
    for (int j = 0; j < 16; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int c = n0 + 8 * j + 2 * t + e;
        isy[2 * j + e] = c < n ? inv_sy[c] : 0.f;
      }
    const bool diag = u.bi == u.bj;
    bool nonfinite = false;  // kDetect: an output of this thread that is NaN or Inf
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int m = m0 + 64 * wg + 16 * q4 + g + 8 * h;
      if (m >= n) continue;
      const float ix = inv_sx[m];
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int c = n0 + 8 * j + 2 * t;
        float v[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int r = 4 * j + 2 * h + e;
          const float sum = kPlanes == 2 ? acc[r] + cross[r] * (1.f / 2048.f) : acc[r];
          // The scales' product first: exact (powers of two), where sum·ix alone could leave
          // fp32's range for a C that fits it.
          v[e] = diag && m > c + e ? 0.f : sum * (ix * isy[2 * j + e]);
          if constexpr (kDetect) nonfinite |= c + e < n && !isfinite(v[e]);
        }
        if constexpr (kLower) {  // Ĉ(m, c) is C(c, m)
          if (c < n) C[int64_t(c) * p.ldc + m] = v[0];
          if (c + 1 < n) C[int64_t(c + 1) * p.ldc + m] = v[1];
        } else {
          float* out = C + int64_t(m) * p.ldc + c;
          if (c + 1 < n && (reinterpret_cast<uintptr_t>(out) & 7) == 0) {
            *reinterpret_cast<float2*>(out) = make_float2(v[0], v[1]);
          } else {
            if (c < n) out[0] = v[0];
            if (c + 1 < n) out[1] = v[1];
          }
        }
      }
    }
    if constexpr (kDetect)
      if (__any_sync(0xffffffffu, nonfinite) && lane0) atomicOr(p.gate, kNonFiniteOut);
    if (correct) {
      // The tile to the helpers (its corrections). The one kHandoffs before must be corrected
      // first, so that no stored[] barrier runs two phases ahead of the helpers' waits.
      const int slot = done % kHandoffs;
      if (done >= kHandoffs) ptx::mbar_wait(&sm.h.corrected[slot], (done / kHandoffs - 1) & 1);
      ptx::mbar_arrive(&sm.h.stored[slot]);
      ++done;
    }
  }
#else
  __trap();  // built for sm_90a only; dispatch never launches it elsewhere
#endif
}

// A warp a chunk of an entry, after the product, where the product's blocks are not all
// resident. Where either list overflowed nothing is added: the flag sends the call to its
// fallback instead.
template <bool kLower>
__global__ void __launch_bounds__(kPrepassThreads)
    correct_lost(const Problem p, Work w, int64_t b0) {
#if TRIMM_SM90_DEVICE
  wait_for_previous_grid();  // the product's C
  allow_dependent_launch();  // the next launches wait for this one's completion anyway
  const int64_t b = b0 + blockIdx.y;
  const unsigned nx = w.counts[2 * b], ny = w.counts[2 * b + 1];
  if (nx > unsigned(w.cap) || ny > unsigned(w.cap)) {
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicOr(w.flag, kLostBits);
    return;
  }
  const int n = int(p.n), lane = threadIdx.x % 32;
  const Frame<kLower> f{p, b};
  const float* inv_sx = w.inv_sx + b * n;
  // A correction that could take an output past fp32's range (kSafeCorrection) is flagged as
  // the epilogue flags its own (Detect's exact launch then recomputes; outside Detect the flag
  // word ignores the bit). Once a thread, at its end: the atomics are reductions.
  bool overflow = false;
  auto add = [&](float* out, float v) {
    atomicAdd(out, v);
    overflow |= !(fabsf(v) < kSafeCorrection);
  };
  // A warp a chunk of an entry's segment (not a warp an entry: an entry's 4096-long segment walked
  // by one warp is a chain of 128 round trips, 155 µs at 4096 whatever the count). A chunk's
  // loads are issued before its atomics (they may alias C, so they would not be hoisted).
  constexpr int kPer = kLostChunk / 32;
  const int64_t chunks = (n + kLostChunk - 1) / kLostChunk;
  const int64_t warps = int64_t(gridDim.x) * (kPrepassThreads / 32);
  for (int64_t t = int64_t(blockIdx.x) * (kPrepassThreads / 32) + threadIdx.x / 32;
       t < (int64_t(nx) + ny) * chunks; t += warps) {
    const int64_t e = t / chunks;
    const int c0 = int(t % chunks) * kLostChunk;
    float v[kPer];
    unsigned on = 0;  // bit q: element q is in the segment (and, in a Y entry's, not lost itself)
    if (e < nx) {
      const Lost l = w.lost_x[b * w.cap + e];
      if (c0 + kLostChunk <= l.col) continue;
#pragma unroll
      for (int q = 0; q < kPer; ++q) {
        const int j = c0 + 32 * q + lane;
        if (j >= l.col && j < n) on |= 1u << q;
        v[q] = on >> q & 1u ? f.y(l.col, j) : 0.f;
      }
#pragma unroll
      for (int q = 0; q < kPer; ++q)
        if (on >> q & 1u) add(f.c(l.row, c0 + 32 * q + lane), l.value * v[q]);
    } else {
      const Lost l = w.lost_y[b * w.cap + (e - nx)];
      if (c0 > l.row) continue;
      float inv[kPer];  // loaded beside x, not after it: one round trip, not two
#pragma unroll
      for (int q = 0; q < kPer; ++q) {
        const int i = c0 + 32 * q + lane;
        v[q] = i <= l.row ? f.x(i, l.row) : 0.f;
        inv[q] = i <= l.row ? inv_sx[i] : 0.f;
      }
#pragma unroll
      for (int q = 0; q < kPer; ++q) {
        const int i = c0 + 32 * q + lane;
        if (i <= l.row && in_planes(v[q], inv[q])) on |= 1u << q;
      }
#pragma unroll
      for (int q = 0; q < kPer; ++q)
        if (on >> q & 1u) add(f.c(c0 + 32 * q + lane, l.col), v[q] * l.value);
    }
  }
  if (overflow) atomicOr(w.flag, kNonFiniteOut);
#else
  __trap();
#endif
}

// --- host -------------------------------------------------------------------------------------
// A unit's time in stages plus its epilogue's (sm90_16bit's weight), for the packing.
double unit_cost(const sched::WorkUnit& u) {
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + 7.0;
}

// A prepass (or correction) kernel over every batch entry: grid x its blocks of one entry, y the
// entries, one launch per 65535 of them (`kernel(p, w, first entry)`); `dependent`: the first
// launch as a programmatic dependent of the stream's previous kernel (the kernel waits for it).
void launch_entries(void (*kernel)(Problem, Work, int64_t), int64_t blocks, const Problem& p,
                    const Work& w, bool dependent, cudaStream_t stream) {
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const dim3 grid(unsigned(blocks), unsigned(std::min(kMaxGridY, p.batch - b0)));
    launch_maybe_dependent(dependent && b0 == 0, kernel, grid, dim3(kPrepassThreads), 0, stream,
                           p, w, b0);
  }
}

template <int kPlanes, bool kLower, bool kDetect>
void launch(const Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr auto kernel = fp16x3_kernel<kPlanes, kLower, kDetect>;
  constexpr int smem = int(sizeof(Smem<kPlanes>)) + 1024;  // + alignment slack
  sm90::check_launch_registers<kernel, kLaunchRegs>(kPlanes == 2 ? "sm90_fp16x3" : "sm90_fp16x1");
  // p.workspace holds l.bytes (the host API's attach_workspace).
  const Layout l = layout_of(p.n, p.batch, kPlanes);
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kernel>(dev.ordinal, kThreads, smem);
  unsigned char* base = static_cast<unsigned char*>(p.workspace);
  const size_t vec = size_t(p.batch) * size_t(p.n);
  Work w{};
  w.rowmax_a = reinterpret_cast<unsigned*>(base);
  w.colmax_b = w.rowmax_a + vec;
  w.inv_sx = reinterpret_cast<float*>(base + l.inv);
  w.inv_sy = w.inv_sx + vec;
  w.counts = reinterpret_cast<unsigned*>(base + l.counts);
  w.lost_x = reinterpret_cast<Lost*>(base + l.lists);
  w.lost_y = w.lost_x + p.batch * l.cap;
  // Detect's gate takes kLostBits (its general launch recomputes); otherwise our own flag, for
  // the Fallback launch below.
  w.flag = p.gate != nullptr ? p.gate : reinterpret_cast<uint32_t*>(base + l.flag);
  w.planes = reinterpret_cast<__half*>(base + l.vectors_bytes);
  w.ldw = l.ldw;
  w.plane = l.plane;
  w.entry = l.entry;
  w.cap = l.cap;
  // What the prepass takes with atomics starts at zero: B's column maxima (Lower: A's row maxima
  // too, just before them), the flag, the counts; under Detect the gate as well (zeroes_gate),
  // which the host API puts just before the workspace: one memset (Upper's then also clears A's
  // row maxima, a slice it never uses: it keeps them in shared memory).
  unsigned char* const gate = reinterpret_cast<unsigned char*>(p.gate);
  if (gate != nullptr && !(gate < base && size_t(base - gate) <= kGateReach))
    throw Error("trimm: sm90_fp16x3's gate must lie at most " + std::to_string(kGateReach) +
                " bytes before its workspace (the host API's layout)");
  unsigned char* const zero_lo =
      gate != nullptr ? gate : base + (kLower ? 0 : vec * sizeof(unsigned));
  TRIMM_CUDA_CHECK(cudaMemsetAsync(zero_lo, 0, size_t(base + l.zeroed_bytes - zero_lo), stream));
  const int n = int(p.n);
  if constexpr (kLower) {
    launch_entries(lower_maxima,
                   int64_t((n + kTallCols - 1) / kTallCols) * ((n + kTallRows - 1) / kTallRows), p,
                   w, /*dependent=*/false, stream);
    launch_entries(lower_split<kPlanes>,
                   int64_t((n + kTrTile - 1) / kTrTile) * ((n + kTrTile - 1) / kTrTile), p, w,
                   /*dependent=*/true, stream);
  } else {
    // Only the tiles on or above the diagonal (upper_tile, split_tile).
    const int64_t tall = (n + kTallCols - 1) / kTallCols;
    launch_entries(upper_rows_and_maxima<kPlanes>, n + tall * (tall + 1) / 2, p, w,
                   /*dependent=*/false, stream);
    launch_entries(upper_split_b<kPlanes>,
                   split_tiles((n + kSplitRows - 1) / kSplitRows,
                               (n + kSplitCols - 1) / kSplitCols),
                   p, w, /*dependent=*/true, stream);
  }
  // The planes: entry b's X0 at planes + b·entry, X1 a plane later, then Y0, Y1 (one plane an
  // operand: X0, Y0; the kernel never reads the maps x1 and y1 then).
  const half_t* planes = reinterpret_cast<const half_t*>(w.planes);
  const CUtensorMap x0 = sm90::make_map(planes, p.n, l.ldw, l.entry, p.batch, kBoxN, kTile);
  const CUtensorMap y0 =
      sm90::make_map(planes + kPlanes * l.plane, p.n, l.ldw, l.entry, p.batch, kBoxN, kStep);
  const CUtensorMap x1 =
      kPlanes == 1 ? x0
                   : sm90::make_map(planes + l.plane, p.n, l.ldw, l.entry, p.batch, kBoxN, kTile);
  const CUtensorMap y1 = kPlanes == 1 ? y0
                                      : sm90::make_map(planes + 3 * l.plane, p.n, l.ldw, l.entry,
                                                       p.batch, kBoxN, kStep);
  bool helpers_correct = false;
  launch_unsplit(p.n, p.batch, kTile, kStep, slots, unit_cost, unit_list::fits(slots),
                 /*dense=*/false,
                 [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
                     const sched::DispatchOrder& order) {
                   unit_list::check_fits(order, kPlanes == 2 ? "sm90_fp16x3" : "sm90_fp16x1");
                   // The helper warps add the lost elements' products where every block of the
                   // call is resident (the same for every chunk of the batch):
                   // there a block's last corrections delay only the call's end, where blocks
                   // queue for SMs they would delay the next block.
                   helpers_correct = int64_t(grid.x) * p.batch <= slots;
                   launch_maybe_dependent(b0 == 0, kernel, grid, dim3(kThreads), smem, stream,
                                          x0, x1, y0, y1, p, w, s, b0, helpers_correct, order);
                 },
                 config::kSm90Fp16x3Band);
  // Otherwise the lost elements' products after the product: a warp a chunk of an entry, up to
  // a wave of blocks.
  if (!helpers_correct) {
    const int64_t chunks = (p.n + kLostChunk - 1) / kLostChunk;
    launch_entries(correct_lost<kLower>,
                   std::min<int64_t>(
                       (2 * l.cap * chunks + kPrepassThreads / 32 - 1) / (kPrepassThreads / 32),
                       dev.sms),
                   p, w, /*dependent=*/true, stream);
  }
  // More lost elements than the lists hold: sm90_tf32x3 (sm90_tf32 for fp16x1) recomputes C
  // (its blocks return at once where the flag is clear; under Path::Fallback it splits no tile,
  // so no fix-up pass follows). Under Detect the API's general launch recomputes, on kLostBits.
  if (p.gate == nullptr) {
    Problem fallback = p;
    fallback.gate = w.flag;
    fallback.path = Path::Fallback;
    kPlanes == 2 ? launch_sm90_tf32x3(fallback, dev, stream)
                 : launch_sm90_tf32(fallback, dev, stream);
  }
}

}  // namespace
}  // namespace sm90_fp16x3

namespace {
// layout_of's bytes, or SIZE_MAX where a bound of them (its roundings included: a problem's
// planes, vectors and lists, 1 KB of lists at least) passes 2^62, before its int64 and size_t
// sums could overflow (no device holds that much).
size_t planes_bytes(int64_t n, int64_t batch, int planes) {
  if (n <= 0 || batch <= 0) return 0;
  const long double x = static_cast<long double>(n);
  const long double per_problem =
      4.0L * planes * x * (x + 8) + 16.0L * x + 32.0L * std::max(32.0L, x / 4) + 264.0L;
  if (per_problem * static_cast<long double>(batch) + 288.0L > 0x1p62L) return SIZE_MAX;
  return sm90_fp16x3::layout_of(n, batch, planes).bytes;
}
}  // namespace

size_t fp16x3_workspace_bytes(int64_t n, int64_t batch) { return planes_bytes(n, batch, 2); }

size_t fp16x1_workspace_bytes(int64_t n, int64_t batch) { return planes_bytes(n, batch, 1); }

void launch_sm90_fp16x3(const Problem& p, const DeviceInfo& dev, Stream stream) {
  // Structure::Detect's general launch (every k, no masks): sm90_tf32x3's dense mode.
  if (p.path == Path::Dense) return launch_sm90_tf32x3(p, dev, stream);
  const bool lower = p.fill == Fill::Lower, detect = p.gate != nullptr;
  if (detect)
    lower ? sm90_fp16x3::launch<2, true, true>(p, dev, stream)
          : sm90_fp16x3::launch<2, false, true>(p, dev, stream);
  else
    lower ? sm90_fp16x3::launch<2, true, false>(p, dev, stream)
          : sm90_fp16x3::launch<2, false, false>(p, dev, stream);
}

// Precision tf32 (Structure::Detect is refused for it before any launch).
void launch_sm90_fp16x1(const Problem& p, const DeviceInfo& dev, Stream stream) {
  p.fill == Fill::Lower ? sm90_fp16x3::launch<1, true, false>(p, dev, stream)
                        : sm90_fp16x3::launch<1, false, false>(p, dev, stream);
}

}  // namespace trimm::kernels
