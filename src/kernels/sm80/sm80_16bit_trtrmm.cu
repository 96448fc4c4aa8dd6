// sm80_16bit: C = triu(A·B) (or tril) for 16-bit data, bf16 or fp16, on the tensor cores of any
// GPU from sm_80 with mma.sync m16n8k16 and fp32 sums; C rounded to the type once, at the store.
//
// The 16-bit kernel for operands TMA cannot address (rows that are not 16-byte aligned: odd
// leading dimensions, offset views) and for GPUs without wgmma.
//
// One block per work unit of the triangle scheduler, never split into partial tiles (a split
// tile's partial would reach C in 16 bits: a second rounding). On sm_90, where the units leave
// SMs idle (small n), a unit's k band is instead shared by a thread-block cluster whose fp32 sums
// meet in distributed shared memory before the one rounding. 128×128 tiles, 32 k per stage, 8
// warps of 64×32. Each operand's slice is stored as the operand lies in memory (k- or
// x-contiguous, x = m for A' and n for B'), so that it comes in with coalesced loads and goes
// out to the m16n8k16 fragments with ldmatrix (.trans for the x-contiguous one). The triangle is
// masked before a slice is multiplied: the inputs' other triangle, NaN included, never reaches
// the arithmetic.
//
// Two pipelines, by alignment (both measured on the H200, session 11):
// - every row start 16-byte aligned: a 5-slice cp.async ring, the masks applied in place
//   (−16 % at n = 4096 against the register-staged pipeline);
// - otherwise register-staged: aligned 4-byte words through registers into a double buffer,
//   shifted and masked on the way to shared memory. (A ring of 4-byte or of 16-byte copies
//   shifted in shared memory lost 14-60 %: the shift pass, or the copies, cost more
//   instructions a stage than the pipeline saves.) At n <= kRingAnyN rows of any alignment take
//   the ring, element by element: where a rank has few stages, its deeper prologue counts more
//   than its element loads.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "config/tile_config.hpp"
#include "kernels/common/cluster_split.cuh"
#include "kernels/common/elem16.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm80/cp_async.cuh"
#include "kernels/sm80/mma16.cuh"
#include "kernels/sm80/mma_block.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::sm80_16bit {
namespace {

constexpr config::MmaTile Cfg = config::kSm80_16bit;
constexpr int kTile = Cfg.bm, kStep = Cfg.bk, kThreads = Cfg.threads(), kStages = Cfg.stages;
constexpr int kMi = Cfg.warp_m() / 16, kNi = Cfg.warp_n() / 8;  // m16 and n8 tiles per warp
static_assert(Cfg.bm == Cfg.bn, "the scheduler's mirror trick needs square tiles");
static_assert(Cfg.warp_m() % 16 == 0 && Cfg.warp_n() % 8 == 0, "warps hold whole m16n8 tiles");
static_assert(kStep % 16 == 0 && kTile % kStep == 0,
              "stages hold whole k16 steps, bands whole stages");

// One operand's slice, stored as the operand lies in memory: k-contiguous, (x 128, k 32), or
// x-contiguous (kContigX), (k 32, x 128); x is m for A' and n for B'. Rows are padded by 16
// bytes: the 8 rows of 16 bytes an ldmatrix reads are then an odd multiple of 4 words apart, in
// 8 distinct groups of 4 banks.
template <bool kContigX>
struct alignas(16) Stage {
  static constexpr int kRows = kContigX ? kStep : kTile, kCols = (kContigX ? kTile : kStep) + 8;
  static_assert((kCols / 2) % 8 == 4, "a row stride of an odd multiple of 4 banks");
  uint16_t v[kRows][kCols];
  __device__ uint16_t* at(int x, int k) { return kContigX ? &v[k][x] : &v[x][k]; }
  __device__ const uint16_t* at(int x, int k) const { return kContigX ? &v[k][x] : &v[x][k]; }
};
// kTrans (the Lower product): A' = Bᵀ is x-contiguous and B' = Aᵀ k-contiguous; else the other
// way round. kSlots slices of each: the ring, or the double buffer.
template <bool kTrans, int kSlots>
struct SharedStorage {
  Stage<kTrans> a[kSlots];
  Stage<!kTrans> b[kSlots];
};
static_assert(kStages >= 3, "a slice multiplied, one masked, one issued at the same time");
static_assert(sizeof(SharedStorage<false, kStages>) <= 99 * 1024,
              "the ring fits the opt-in shared memory of every sm_80+ GPU (sm_86/89: 99 KB)");

// --- loads ------------------------------------------------------------------------------------
// Both loaders move kTile×kStep slices of one operand, k advancing by kStep per slice. Element
// (x, k) of the operand is p[k·ld + x] when kContigX (x is the contiguous index) and p[x·ld + k]
// otherwise. Each thread moves vectors of 8 elements along the contiguous index, the lanes of a
// warp along it too (coalesced), into a Stage laid out the same way. Elements past n become 0.
// kKAtLeastX: A' keeps k >= x (x = row), B' keeps k <= x (x = column). Coordinates are 32-bit
// (the host checks n < 2^31).
constexpr int kVecs = kTile * kStep / (8 * kThreads);  // vectors per thread per slice
static_assert(kVecs >= 1 && kVecs * 8 * kThreads == kTile * kStep,
              "the threads move a slice in whole 8-element vectors");

// Thread tid's vectors of a slice, as both loaders walk them: vector q's place (xs, ks) in the
// slice, and its first element's global coordinates (X, K) and address (src) in the next slice
// to load; next(q) moves it one slice along k.
template <bool kContigX>
struct SliceVectors {
  const uint16_t* src[kVecs];
  int xs[kVecs], ks[kVecs];
  int X[kVecs], K[kVecs];
  int64_t advance;  // pointer step per slice

  __device__ SliceVectors(int tid, const uint16_t* p, int64_t ld, int x0, int k0)
      : advance(kContigX ? kStep * ld : kStep) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int idx = tid + q * kThreads;
      xs[q] = kContigX ? (idx % (kTile / 8)) * 8 : idx / (kStep / 8);
      ks[q] = kContigX ? idx / (kTile / 8) : (idx % (kStep / 8)) * 8;
      X[q] = x0 + xs[q];
      K[q] = k0 + ks[q];
      src[q] = kContigX ? p + int64_t(K[q]) * ld + X[q] : p + int64_t(X[q]) * ld + K[q];
    }
  }
  __device__ void next(int q) {
    src[q] += advance;
    K[q] += kStep;
  }
};

// Only slices that reach across the diagonal need the mask: the first k block of A', the last
// of B'.
template <bool kKAtLeastX>
__device__ __forceinline__ bool crosses_diagonal(int x0, int k0) {
  return kKAtLeastX ? k0 < x0 + kTile - 1 : k0 + kStep - 1 > x0;
}

// +0 for every element of the vector at global (x, k) outside the triangle.
template <bool kContigX, bool kKAtLeastX>
__device__ __forceinline__ void mask_vector(uint32_t (&v)[4], int x, int k) {
#pragma unroll
  for (int e = 0; e < 8; ++e) {
    const int xe = x + (kContigX ? e : 0), ke = k + (kContigX ? 0 : e);
    const bool keep = kKAtLeastX ? ke >= xe : ke <= xe;
    if (!keep) v[e / 2] &= e % 2 ? 0x0000FFFFu : 0xFFFF0000u;
  }
}

// kAligned (every row start 16-byte aligned): one 16-byte cp.async a vector, the mask applied in
// place once the slice has landed. Vectors that reach past n come in element by element (a
// copy's size, not its source size, is what may be read: no copy reaches past the operand), and
// so does every vector of rows of any alignment (!kAligned: only for small n, kRingAnyN).
template <bool kContigX, bool kKAtLeastX, bool kAligned>
struct RingLoader : SliceVectors<kContigX> {
  using V = SliceVectors<kContigX>;
  using V::src, V::xs, V::ks, V::X, V::K;
  using V::V;

  // Issues the copies of the next slice into st (this thread's group) and moves on.
  __device__ void issue(Stage<kContigX>& st, int n) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int c = kContigX ? X[q] : K[q], o = kContigX ? K[q] : X[q];  // contiguous / strided
      uint16_t* dst = st.at(xs[q], ks[q]);
      if (kAligned && o < n && c + 7 < n) {
        cp_async::copy16(dst, src[q], 16);
      } else {
        uint32_t w[4];
        mma::load_vector_by_elements(w, src[q], c, o, n);
        *reinterpret_cast<uint4*>(dst) = make_uint4(w[0], w[1], w[2], w[3]);
      }
      this->next(q);
    }
  }

  // Masks slice st, which starts at global (x0, k0) and has landed, in place: each thread its
  // own vectors (the ones it copied).
  __device__ void mask(Stage<kContigX>& st, int x0, int k0) const {
    if (!crosses_diagonal<kKAtLeastX>(x0, k0)) return;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      uint4* d = reinterpret_cast<uint4*>(st.at(xs[q], ks[q]));
      const uint4 t = *d;
      uint32_t v[4] = {t.x, t.y, t.z, t.w};
      mask_vector<kContigX, kKAtLeastX>(v, x0 + xs[q], k0 + ks[q]);
      *d = make_uint4(v[0], v[1], v[2], v[3]);
    }
  }
};

// Rows of any alignment: aligned 4-byte words into registers, shifted, masked and stored as the
// slice goes to shared memory. The vector in flight is packed only at commit: packing at the
// load would make the thread wait for its loads before it multiplies the previous stage (30 % of
// the stall samples at n = 4097, session 10).
template <bool kContigX, bool kKAtLeastX>
struct StagedLoader : SliceVectors<kContigX> {
  using V = SliceVectors<kContigX>;
  using V::src, V::X, V::K;
  using V::V;

  // shifted[q] false: element e in the (e % 2) half of word w[q][e / 2]. shifted[q]: the vector
  // starts 2 bytes into a 4-byte word (an odd leading dimension gives every other row such a
  // start), and w[q][0..4] are the five aligned words that cover elements -1 … 8, so that 5
  // 4-byte loads replace 8 2-byte ones.
  uint32_t w[kVecs][5];
  bool shifted[kVecs];

  // Issues the current slice's loads. Nothing here uses the values, so the loads stay in
  // flight while the previous stage is multiplied.
  __device__ void load(int n) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int c = kContigX ? X[q] : K[q], o = kContigX ? K[q] : X[q];  // contiguous / strided
      const bool odd = reinterpret_cast<uintptr_t>(src[q]) & 2;
      // Interior: every word lies inside the row (element -1 exists where the vector starts a
      // row: the previous row's padding or last element).
      const bool interior = o < n && (odd ? c + 8 < n && (c > 0 || o > 0) : c + 7 < n);
      shifted[q] = odd && interior;
      if (interior) {
        const uint32_t* base = reinterpret_cast<const uint32_t*>(src[q] - (odd ? 1 : 0));
#pragma unroll
        for (int i = 0; i < 4; ++i) w[q][i] = __ldg(base + i);
        w[q][4] = odd ? __ldg(base + 4) : 0u;
      } else {
        // Reaching past n (or lying past it): element by element, packed at once. These wait
        // for their loads (deferring them too, with 8 registers a vector, measured +18 % at
        // n = 4097, session 10).
        uint32_t e[4];
        mma::load_vector_by_elements(e, src[q], c, o, n);
#pragma unroll
        for (int i = 0; i < 4; ++i) w[q][i] = e[i];
      }
    }
  }

  // Masks the triangle (where `masked`), stores the slice as (x, k) into st, whose slice starts
  // at global (x0, k0), and moves on to the next slice.
  __device__ void commit(Stage<kContigX>& st, int x0, int k0, bool masked) {
    const bool crosses = masked && crosses_diagonal<kKAtLeastX>(x0, k0);
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      uint32_t v[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)  // shifted: the high half of word i and the low half of i + 1
        v[i] = shifted[q] ? __funnelshift_r(w[q][i], w[q][i + 1], 16) : w[q][i];
      if (crosses) mask_vector<kContigX, kKAtLeastX>(v, X[q], K[q]);
      *reinterpret_cast<uint4*>(st.at(X[q] - x0, K[q] - k0)) = make_uint4(v[0], v[1], v[2], v[3]);
      this->next(q);
    }
  }
};

// --- multiply ---------------------------------------------------------------------------------
// Four 8×8 matrices of a stage into fragment registers: lane l gives the address of row l % 8
// of matrix l / 8, whose first element is (x, k) here; thread (g, t) receives elements
// (x + g, k + 2t) and (x + g, k + 2t + 1) of each, in register l / 8. A row runs along k in a
// k-contiguous stage (plain ldmatrix) and along x in an x-contiguous one (.trans).
template <bool kContigX>
__device__ __forceinline__ void load_matrices(uint32_t (&r)[4], const Stage<kContigX>& s, int x,
                                              int k, int row) {
  mma::ldmatrix_x4<kContigX>(
      r, shared_address(s.at(x + (kContigX ? 0 : row), k + (kContigX ? row : 0))));
}

// acc += A'·B' over one stage. Per the PTX fragment layout of m16n8k16, lane (g, t) holds A rows
// g and g + 8 at k = 2t, 2t + 1 and 2t + 8, 2t + 9 (matrices: rows +0/+8 × k +0/+8), B column g
// at the same k (two n8 tiles a load: columns +0/+8 × k +0/+8), accumulators at rows g, g + 8
// and columns 2t, 2t + 1. Six ldmatrix.x4 per k16 for the warp's 16 mmas.
template <bool kBf16, bool kTrans>
__device__ __forceinline__ void multiply_stage(const Stage<kTrans>& As, const Stage<!kTrans>& Bs,
                                               int wm, int wn, int lane,
                                               float (&acc)[kMi][kNi][4]) {
  static_assert(kNi % 2 == 0, "B's n8 tiles two at a time");
  const int mat = lane / 8, row = lane % 8;
#pragma unroll
  for (int kk = 0; kk < kStep; kk += 16) {
    uint32_t b[kNi][2];
#pragma unroll
    for (int j = 0; j < kNi; j += 2) {
      uint32_t r[4];
      load_matrices(r, Bs, wn + 8 * j + 8 * (mat / 2), kk + 8 * (mat % 2), row);
      b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
    }
#pragma unroll
    for (int i = 0; i < kMi; ++i) {
      uint32_t a[4];
      load_matrices(a, As, wm + 16 * i + 8 * (mat % 2), kk + 8 * (mat / 2), row);
#pragma unroll
      for (int j = 0; j < kNi; ++j) mma::mma16<kBf16>(acc[i][j], a, b[j]);
    }
  }
}

// --- epilogue ---------------------------------------------------------------------------------
// Where C'(r, c) lives: C[r·ldc + c] for the Upper product, C[c·ldc + r] for the Lower one
// (kColwise, C' = Cᵀ). diag: the tile straddles the diagonal, so r > c is written as zero (its
// sum could be 0·Inf).
struct TileOut {
  int64_t ldc, n, row0, col0;
  bool diag;
  int wm, wn, g, t;  // the warp's corner in the tile, the lane's group and thread in it
};

// Stores the lane's fragment (i, j) of the warp's accumulators, rounded to nearest even, to
// C'(row0 + r, col0 + c).
template <bool kColwise, typename E>
__device__ __forceinline__ void store_fragment(E* C, const TileOut& o, int i, int j,
                                               const float (&f)[4]) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int64_t r = o.row0 + o.wm + 16 * i + o.g + 8 * h, c = o.col0 + o.wn + 8 * j + 2 * o.t;
    if (r >= o.n || c >= o.n) continue;
    const E v0 = narrow<E>(o.diag && r > c ? 0.f : f[2 * h]);
    const E v1 = narrow<E>(o.diag && r > c + 1 ? 0.f : f[2 * h + 1]);
    if (kColwise) {
      C[c * o.ldc + r] = v0;
      if (c + 1 < o.n) C[(c + 1) * o.ldc + r] = v1;
    } else {
      E* out = C + r * o.ldc + c;
      if (c + 1 < o.n && reinterpret_cast<uintptr_t>(out) % 4 == 0) {
        *reinterpret_cast<uint32_t*>(out) = uint32_t(*reinterpret_cast<const uint16_t*>(&v0)) |
                                            uint32_t(*reinterpret_cast<const uint16_t*>(&v1)) << 16;
      } else {
        out[0] = v0;
        if (c + 1 < o.n) out[1] = v1;
      }
    }
  }
}

template <bool kColwise, typename E>
__device__ void store_tile(E* C, const TileOut& o, const float (&acc)[kMi][kNi][4]) {
#pragma unroll
  for (int i = 0; i < kMi; ++i)
#pragma unroll
    for (int j = 0; j < kNi; ++j) store_fragment<kColwise>(C, o, i, j, acc[i][j]);
}

// acc += A'·B' over the unit's band, through the ring. Slice i lives in slot i % kStages. Each
// thread commits one group of copies per slice (empty past the band) and masks the vectors it
// copied, one iteration before the slice is multiplied: while slice it is multiplied, it + 1 is
// masked and kStages − 3 slices are in flight behind it, one more issued. kDense: every k of the
// operands as they are, nothing masked (Structure::Detect's general path).
template <bool kBf16, bool kTrans, bool kAligned, bool kDense, typename Prologue>
__device__ void ring_mainloop(SharedStorage<kTrans, kStages>& smem, const uint16_t* a,
                              int64_t lda, const uint16_t* b, int64_t ldb, int n, int m0, int j0,
                              int k_begin, int steps, int tid, const mma::WarpCoords& w,
                              float (&acc)[kMi][kNi][4], const Prologue& prologue) {
  RingLoader<kTrans, true, kAligned> la(tid, a, lda, m0, k_begin);
  RingLoader<!kTrans, false, kAligned> lb(tid, b, ldb, j0, k_begin);
#pragma unroll
  for (int i = 0; i < kStages - 1; ++i) {
    if (i < steps) {
      la.issue(smem.a[i], n);
      lb.issue(smem.b[i], n);
    }
    cp_async::commit();
  }
  prologue();
  cp_async::wait<kStages - 2>();
  if constexpr (!kDense) {
    la.mask(smem.a[0], m0, k_begin);
    lb.mask(smem.b[0], j0, k_begin);
  }
  for (int it = 0; it < steps; ++it) {
    // After the barrier: slice it is masked, slot (it − 1) % kStages is free.
    __syncthreads();
    const int next = it + kStages - 1;
    if (next < steps) {
      la.issue(smem.a[next % kStages], n);
      lb.issue(smem.b[next % kStages], n);
    }
    cp_async::commit();
    if (it + 1 < steps) {
      cp_async::wait<kStages - 2>();  // this thread's copies of slice it + 1
      if constexpr (!kDense) {
        const int k_next = k_begin + (it + 1) * kStep;
        la.mask(smem.a[(it + 1) % kStages], m0, k_next);
        lb.mask(smem.b[(it + 1) % kStages], j0, k_next);
      }
    }
    multiply_stage<kBf16, kTrans>(smem.a[it % kStages], smem.b[it % kStages], w.wm, w.wn,
                                  tid % 32, acc);
  }
}

// acc += A'·B' over the unit's band, register-staged: the next slice's loads are in flight while
// the current one is multiplied. kDense: as for ring_mainloop.
template <bool kBf16, bool kTrans, bool kDense, typename Prologue>
__device__ void staged_mainloop(SharedStorage<kTrans, 2>& smem, const uint16_t* a, int64_t lda,
                                const uint16_t* b, int64_t ldb, int n, int m0, int j0,
                                int k_begin, int steps, int tid, const mma::WarpCoords& w,
                                float (&acc)[kMi][kNi][4], const Prologue& prologue) {
  StagedLoader<kTrans, true> la(tid, a, lda, m0, k_begin);
  StagedLoader<!kTrans, false> lb(tid, b, ldb, j0, k_begin);
  la.load(n);
  lb.load(n);
  prologue();
  la.commit(smem.a[0], m0, k_begin, !kDense);
  lb.commit(smem.b[0], j0, k_begin, !kDense);
  __syncthreads();
  for (int it = 0; it < steps; ++it) {
    const int cur = it & 1;
    const bool more = it + 1 < steps;
    const int k_next = k_begin + (it + 1) * kStep;
    if (more) {
      la.load(n);
      lb.load(n);
    }
    multiply_stage<kBf16, kTrans>(smem.a[cur], smem.b[cur], w.wm, w.wn, tid % 32, acc);
    if (more) {
      la.commit(smem.a[cur ^ 1], m0, k_next, !kDense);
      lb.commit(smem.b[cur ^ 1], j0, k_next, !kDense);
    }
    __syncthreads();
  }
}

// Rows of any alignment at n <= kRingAnyN go through the ring too, element by element: with few
// stages a rank, its slices in flight together count for more than the element loads' waits
// (session 13, bf16, against the register-staged pipeline: 33 9.9 → 9.0 µs, 127 13.4 → 11.7,
// 383 15.2 → 13.9, 1023 24.2 → 21.8; n = 2, 3: 7.0-7.4 → 6.2-6.7 in session 11). Measured on the
// H200 with one problem, where n > 32 splits; unsplit launches (sm_80/89, large batches) at
// 33-1024 were not compared (unsplit at 2047 the ring lost 2 %, at 4097 15 %).
constexpr int kRingAnyN = 1024;

// Split k (sm_90 only, cluster_split.cuh): at small n a unit is a chain of dependent k stages on
// one SM while most SMs idle.
constexpr int kAccBytes = kMi * kNi * 4 * kThreads * int(sizeof(float));  // one rank's sums

// One launch's dynamic shared memory: the ring or the double buffer, grown to one rank's sums
// when the units are split. Only what the launch needs, so that the rest may stay L1 for the
// register-staged loads. (Whether that matters is open: a form asking 64 KB for every unaligned
// launch ran 0.7-1 % slower at n = 4097, but so did this one, session 12.)
constexpr int smem_bytes(bool ring, bool split) {
  const int pipeline =
      int(ring ? sizeof(SharedStorage<false, kStages>) : sizeof(SharedStorage<false, 2>));
  return split && kAccBytes > pipeline ? kAccBytes : pipeline;
}
constexpr int kMaxSmem = smem_bytes(true, true);

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (see simt_fp32). kVec: every
// row start of A, B and C is 16-byte aligned. kDense: Structure::Detect's general path
// (Path::Dense: a dense schedule, every k of the operands as they are, nothing masked but C's
// other triangle).
template <bool kTrans, bool kVec, bool kDense, typename S>
__global__ void __launch_bounds__(kThreads, Cfg.min_blocks)
    sm80_16bit_trtrmm_kernel(Problem16<S> p, sched::TriangleSchedule s, int64_t batch_offset,
                             const __grid_constant__ sched::DispatchOrder order) {
  using E = Elem16<S>;
  constexpr bool kBf16 = std::is_same_v<S, bfloat16_t>;
  // 16-bit Structure::Detect: the next launch (gated, usually off) may be scheduled while this
  // one runs; every block of this one (a cluster's ranks alike) returns here where the flags (a
  // scan's, or the small kernel's, tagged with p.epoch) say its path does not apply.
  allow_dependent_launch();
  if (gated_off(p.gate, kDense ? Path::Dense : Path::Structured, p.epoch)) return;
  extern __shared__ uint4 dynamic_smem[];
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  E* C = reinterpret_cast<E*>(p.C + b * p.stride_c);
  const cluster_split::ClusterPlace cl = cluster_split::ClusterPlace::of_this_block();
  const sched::WorkUnit u =
      sched::ordered_unit<false>(s, order, order.at(blockIdx.x / cl.ranks));

  const mma::UnitOperands<kTrans, S> op(p, b);
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;
  const int n = int(p.n), m0 = int(row0), j0 = int(col0);
  const sched::RankShare share(int((u.k_end - u.k_begin + kStep - 1) / kStep), cl.rank,
                               cl.ranks);
  const int steps = share.steps, k_begin = int(u.k_begin) + share.first * kStep;
  const mma::WarpCoords w(tid, Cfg.warps_n, Cfg.warp_m(), Cfg.warp_n());
  float acc[kMi][kNi][4];
  mma::zero(acc);

  // The mirror tile, in C's other triangle, is this unit's to zero, shared by its ranks: the
  // stores go out while the first slices are in flight.
  auto zero_mirror_tile = [&] {
    if (sched::TriangleSchedule::zeroes_mirror(u))
      zero_mirror<kVec, uint16_t>(reinterpret_cast<uint16_t*>(C), p.ldc, p.n, u.bi, u.bj, kTrans,
                                  kTile, cl.rank * kThreads + tid, cl.ranks * kThreads);
  };
  // A'(m, k): row-major A is k-contiguous; its transpose (Bᵀ) is m-contiguous. B' the other way.
  const auto* a = reinterpret_cast<const uint16_t*>(op.a);
  const auto* bb = reinterpret_cast<const uint16_t*>(op.b);
  auto& ring = *reinterpret_cast<SharedStorage<kTrans, kStages>*>(dynamic_smem);
  if (steps == 0)
    zero_mirror_tile();
  else if (kVec || n <= kRingAnyN)
    ring_mainloop<kBf16, kTrans, kVec, kDense>(ring, a, op.lda, bb, op.ldb, n, m0, j0, k_begin,
                                               steps, tid, w, acc, zero_mirror_tile);
  else
    staged_mainloop<kBf16, kTrans, kDense>(
        *reinterpret_cast<SharedStorage<kTrans, 2>*>(dynamic_smem), a, op.lda, bb, op.ldb, n, m0,
        j0, k_begin, steps, tid, w, acc, zero_mirror_tile);

  // Structure::Detect's dense launch: an output (a rank's share of it) that is NaN or Inf sends
  // the call on to the exact launch (the scan before sm90_16bit does not read the triangles, so
  // a NaN or Inf there may reach this launch), in a bit that this launch's gate does not read
  // (the scan before tagged the word with the call's epoch: one atomic).
  if constexpr (kDense)
    flag_nonfinite(p.gate, reinterpret_cast<const float(&)[kMi * kNi * 4]>(acc), kNonFiniteDense);
  const TileOut out{p.ldc, p.n, row0, col0, u.bi == u.bj, w.wm, w.wn, w.g, w.t};
  if (cl.ranks == 1) {
    store_tile<kTrans>(C, out, acc);
    return;
  }
  // Fragment v of the lane is acc[v / kNi][v % kNi].
  cluster_split::reduce_scatter<kThreads>(
      reinterpret_cast<const float(&)[kMi * kNi * 4]>(acc), dynamic_smem, tid, cl,
      [] { __syncthreads(); },
      [&](int v, float4 sum) {
        const float f[4] = {sum.x, sum.y, sum.z, sum.w};
        store_fragment<kTrans>(C, out, v / kNi, v % kNi, f);
      });
}

// A unit's time in stages, plus one for its epilogue, for the balanced dispatch order (a guess:
// not measured against longest first for this kernel).
double unit_cost(const sched::WorkUnit& u) {
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + 1.0;
}

template <bool kTrans, bool kVec, bool kDense, typename S>
void launch(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr auto kernel = sm80_16bit_trtrmm_kernel<kTrans, kVec, kDense, S>;
  static_assert(sizeof(SharedStorage<true, kStages>) == sizeof(SharedStorage<false, kStages>) &&
                    sizeof(SharedStorage<true, 2>) == sizeof(SharedStorage<false, 2>),
                "both products' pipelines are the same size");
  // The attribute is set once per device, to the largest launch; each launch asks for its own.
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kernel>(dev.ordinal, kThreads, kMaxSmem);
  const bool ring = kVec || p.n <= kRingAnyN;  // as the kernel's branch
  constexpr sched::SplitPolicy kSplit = kVec ? config::kSm80_16bitSplitAligned
                                             : config::kSm80_16bitSplit;  // ranks per unit
  static_assert(!kSplit.any_count, "cluster_split::reduce_scatter gathers 2, 4 or 8 ranks only");
  // Never split into separate partial tiles (see the top of this file): a split unit's ranks
  // meet in one cluster.
  launch_unsplit(p.n, p.batch, kTile, kStep, slots, unit_cost, /*persistent=*/false, kDense,
                 [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
                     const sched::DispatchOrder& order) {
                   const int ranks = cluster_ranks<kernel>(int64_t(grid.x) * grid.y, slots,
                                                           (p.n + kStep - 1) / kStep, kSplit, dev,
                                                           kThreads, kMaxSmem);
                   const int smem = smem_bytes(ring, ranks > 1);
                   // Structure::Detect's general launch: a programmatic dependent of the
                   // structured one.
                   const bool dependent = detect_dependent(p.gate, p.path, dev.cc);
                   if (ranks == 1) {
                     launch_maybe_dependent(dependent, kernel, grid, dim3(kThreads), smem, stream,
                                            p, s, b0, order);
                     return;
                   }
                   const ClusterLaunch cl(dim3(grid.x * unsigned(ranks), grid.y), kThreads,
                                          smem, ranks, stream, dependent);
                   TRIMM_CUDA_CHECK(cudaLaunchKernelEx(&cl.cfg, kernel, p, s, b0, order));
                 },
                 config::kSm80_16bitBand);
}

template <bool kDense, typename S>
void launch_form(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  const bool trans = p.fill == Fill::Lower, vec = rows_16b_aligned(p);
  if (trans)
    vec ? launch<true, true, kDense>(p, dev, stream) : launch<true, false, kDense>(p, dev, stream);
  else
    vec ? launch<false, true, kDense>(p, dev, stream)
        : launch<false, false, kDense>(p, dev, stream);
}

template <typename S>
void launch_any(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  p.path == Path::Dense ? launch_form<true>(p, dev, stream) : launch_form<false>(p, dev, stream);
}

}  // namespace
}  // namespace trimm::kernels::sm80_16bit

namespace trimm::kernels {

void launch_sm80_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  sm80_16bit::launch_any(p, dev, stream);
}

void launch_sm80_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream) {
  sm80_16bit::launch_any(p, dev, stream);
}

}  // namespace trimm::kernels
