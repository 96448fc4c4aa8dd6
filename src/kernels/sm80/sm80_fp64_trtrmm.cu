// sm80_fp64: trtrmm on double operands on the fp64 tensor cores (mma.sync: m16n8k8 on sm_90,
// m8n8k4 on sm_80), the default for double; simt_fp64 (plain FMA) stays as the yardstick.
//
// Why: torch.triu(A @ B) on float64 runs cuBLAS DGEMM, which is on these tensor cores too. The
// plain FMA kernel lost to it at every n (H100, session 58: 0.08–0.72× Triangular, 0.16–0.29×
// with Detect, which sums every k).
//
// Semantics are simt_fp64's (include/trimm/cuda.hpp): Triangular sums each element's band only,
// its operands' other triangles never loaded; Detect sums every k of A and B as they are.
// Every stage runs on the tensor cores, those that straddle a band's edges with the operands'
// other triangles loaded as zeros. Where that leaves one of a tile's sums NaN or Inf (a 0·Inf
// term, or a legitimate Inf), the tile runs again with those stages in plain FMA under a
// per-element band test, so Inf inside a triangle reaches only the elements whose band holds it.
// Tiles outside C's triangle are written with zeros and load nothing.
//
// Each block strides over its problem's tiles ordered by band length, longest first (diagonal by
// diagonal), then the zero tiles; the batch is on grid y. Five tiles of the table
// (config::kSm80Fp64Tiles): 32×32 at small n (on eight warps at the smallest, or with a deeper
// ring), 128×128 for Detect at large n, 64×64 otherwise. The loaders' loops stay rolled: unrolled,
// ptxas kept every copy's address live (session 58: 220 and 255 registers with spills, against 160
// and 252). Now 164 (Triangular), 160 (Detect) and 255 (Detect on 128×128, every register, no
// spills) on sm_90a; the 32×32 tile's Triangular is at its cap on four warps (128), 110 on eight.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "config/tile_config.hpp"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm80/cp_async.cuh"
#include "sched/small_tiles.hpp"

namespace trimm::kernels {
namespace {

// A tile of the table (config::kSm80Fp64Tiles) and what follows from it.
template <int kTileId>
struct Shape {
  static constexpr config::MmaTile kCfg = config::kSm80Fp64Tiles[kTileId];
  static constexpr int kThreads = kCfg.threads();
  // A warp's accumulators as m16n8 tiles (both instruction forms below fill them alike).
  static constexpr int kMi = kCfg.warp_m() / 16, kNi = kCfg.warp_n() / 8;
  // Shared rows padded by 4 doubles: a fragment's 16 lanes of a half-warp then read 16 distinct
  // 8-byte bank pairs (row strides ≡ 4 mod 16 doubles), and cp.async writes stay contiguous.
  static constexpr int kPad = 4;
  static constexpr int kLdA = kCfg.bk + kPad;  // A's stage: bm rows of bk k (k contiguous)
  static constexpr int kLdB = kCfg.bn + kPad;  // B's stage: bk rows of bn columns
  static constexpr int kStageA = kCfg.bm * kLdA, kStageB = kCfg.bk * kLdB;  // doubles
  static constexpr int kSmemBytes = kCfg.stages * (kStageA + kStageB) * int(sizeof(double));
  static_assert(kCfg.warp_m() % 16 == 0 && kCfg.warp_n() % 8 == 0, "m16n8 tiles a warp");
  static_assert(kCfg.bk % 8 == 0, "k8 steps a stage");
  static_assert(kLdA % 16 == 4 && kLdB % 16 == 4, "conflict-free fragment reads");
  static_assert((kCfg.bm * kCfg.bk) % kThreads == 0 && (kCfg.bk * kCfg.bn) % kThreads == 0,
                "whole copies per thread");
  static_assert(kCfg.stages >= 2, "a ring: copies of later stages in flight during a stage");
  static_assert(kCfg.bm == kCfg.bn, "square tiles: C's triangle by whole tiles");
  // The stage copies two doubles at a time, thread t's l-th pair of A at element t + l·threads of
  // its bm × bk/2 pairs, of B at t + l·threads of bk × bn/2. Whole rows a round, so a thread's
  // column stays put and its row steps by kRowsA (kRowsB): the fast copies' addresses.
  static constexpr int kPairsA = kCfg.bm * kCfg.bk / 2 / kThreads;
  static constexpr int kPairsB = kCfg.bk * kCfg.bn / 2 / kThreads;
  static constexpr int kRowsA = kThreads / (kCfg.bk / 2), kRowsB = kThreads / (kCfg.bn / 2);
  static_assert(kPairsA * kThreads * 2 == kCfg.bm * kCfg.bk &&
                    kPairsB * kThreads * 2 == kCfg.bk * kCfg.bn,
                "whole pair copies per thread (the aligned loader)");
  static_assert(kThreads % (kCfg.bk / 2) == 0 && kThreads % (kCfg.bn / 2) == 0,
                "a round of pair copies covers whole rows");
  // The unaligned loader's one-double copies alike: rows kRowsA1 (kRowsB1) apart.
  static constexpr int kCopiesA = kCfg.bm * kCfg.bk / kThreads;
  static constexpr int kCopiesB = kCfg.bk * kCfg.bn / kThreads;
  static constexpr int kRowsA1 = kThreads / kCfg.bk, kRowsB1 = kThreads / kCfg.bn;
  static_assert(kThreads % kCfg.bk == 0 && kThreads % kCfg.bn == 0,
                "a round of one-double copies covers whole rows");
};

// One m16n8 tile's k8 step. d: rows g (d[0], d[1]) and g + 8 (d[2], d[3]), columns 2t, 2t + 1
// (g = lane / 4, t = lane % 4). a(r, k): the tile's 16 rows of A by 8 k; b(k, c): B's 8 k by 8
// columns.
// kM8n8k4: sm_80's instruction on sm_90 too (sm80_fp64_m8n8k4: that path tested on Hopper).
template <bool kM8n8k4, class FA, class FB>
__device__ __forceinline__ void mma_k8(double (&d)[4], int g, int t, FA&& a, FB&& b) {
#if __CUDA_ARCH__ >= 900
  constexpr bool kSm90Shape = !kM8n8k4;
#else
  constexpr bool kSm90Shape = false;
#endif
  if constexpr (kSm90Shape) {
    // sm_90's m16n8k8: A a0..a3 at (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4); B b0, b1 at
    // (t, g), (t + 4, g). Hopper runs sm_80's m8n8k4 (below) at a fraction of this rate (session
    // 58: 1.4× slower at n = 4096); k8 rather than k16 keeps fewer fragments live.
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a(g, t)), "d"(a(g + 8, t)), "d"(a(g, t + 4)), "d"(a(g + 8, t + 4)), "d"(b(t, g)),
          "d"(b(t + 4, g)));
  } else {
    // sm_80's m8n8k4, two k4 steps on each 8-row half: A (g, t), B (t, g), D (g, 2t + {0, 1}).
#pragma unroll
    for (int k = 0; k < 8; k += 4) {
      const double bk = b(k + t, g);
#pragma unroll
      for (int half = 0; half < 2; ++half)
        asm volatile(
            "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
            : "+d"(d[2 * half]), "+d"(d[2 * half + 1])
            : "d"(a(g + 8 * half, k + t)), "d"(bk));
    }
  }
}

// A tile wholly outside C's triangle: zeros, nothing loaded.
template <int kTileId>
__device__ __forceinline__ void zero_tile(double* C, int64_t ldc, int64_t n, int64_t i0,
                                          int64_t j0) {
  using S = Shape<kTileId>;
  for (int e = threadIdx.x; e < S::kCfg.bm * S::kCfg.bn; e += S::kThreads) {
    const int64_t i = i0 + e / S::kCfg.bn, j = j0 + e % S::kCfg.bn;
    if (i < n && j < n) C[i * ldc + j] = 0.0;
  }
}

// kDense: Structure::Detect, every k of A and B as they are. kVec: A's and B's rows are 16-byte
// aligned (bases, lds and batch strides), so every stage copies two doubles at a time (one where
// a pair straddles a triangle's edge, n or kend). kM8n8k4: mma_k8's.
template <int kTileId, bool kDense, bool kVec, bool kM8n8k4>
__global__ void __launch_bounds__(Shape<kTileId>::kThreads, Shape<kTileId>::kCfg.min_blocks)
    sm80_fp64_kernel(const ProblemFp64 p) {
  using S = Shape<kTileId>;
  constexpr config::MmaTile kCfg = S::kCfg;
  constexpr int kThreads = S::kThreads, kMi = S::kMi, kNi = S::kNi, kLdA = S::kLdA, kLdB = S::kLdB,
                kStageA = S::kStageA, kStageB = S::kStageB;
  extern __shared__ __align__(16) double smem[];
  double* const As = smem;                          // [stages][bm][kLdA]
  double* const Bs = smem + kCfg.stages * kStageA;  // [stages][bk][kLdB]
  // Structure::Detect's gated launches (p.gate): the triangular one runs where the scan flagged
  // nothing in A's and B's other triangles, the dense one where anything was flagged.
  if (gated_off(p.gate, p.path, p.epoch)) return;
  const bool upper = p.fill == Fill::Upper;
  constexpr bool dense = kDense;
  const int64_t n = p.n, tiles = (n + kCfg.bm - 1) / kCfg.bm;
  const int64_t units = tiles * tiles;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const int g = lane / 4, t = lane % 4;  // the fragments' group and thread in group
  const int wm = (warp / kCfg.warps_n) * kCfg.warp_m(), wn = (warp % kCfg.warps_n) * kCfg.warp_n();
  // This thread's first pair of each stage (S::kPairsA): A's row ra, k ka; B's k kb, column cb.
  const int ra = int(threadIdx.x) / (kCfg.bk / 2), ka = 2 * (int(threadIdx.x) % (kCfg.bk / 2));
  const int kb = int(threadIdx.x) / (kCfg.bn / 2), cb = 2 * (int(threadIdx.x) % (kCfg.bn / 2));

  for (int64_t b = blockIdx.y; b < p.batch; b += gridDim.y)
    for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {  // block-uniform: barriers below
      int64_t I, J;
      const bool outside = sched::unit_tile(u, tiles, upper, I, J);
      const int64_t i0 = I * kCfg.bm, j0 = J * kCfg.bn;
      double* const C = p.C + b * p.stride_c;
      if (outside) {
        zero_tile<kTileId>(C, p.ldc, n, i0, j0);
        continue;
      }
      const double* const A = p.A + b * p.stride_a;
      const double* const B = p.B + b * p.stride_b;
      // The k this tile sums: the band's hull for the triangular product, else all.
      const int64_t kbeg = dense ? 0 : (upper ? i0 : j0);
      const int64_t kend = dense ? n : std::min(n, (upper ? j0 : i0) + kCfg.bm);
      const int64_t lo = upper ? i0 : j0, hi = upper ? j0 : i0;

      // One commit group a stage, into `slot`: elements outside the kept triangles, past n or
      // past kend become zeros without a read; past kend, an empty group (the ring's count).
      // Whether stage k0 straddles a band's edge: unless every k of it lies in every element's
      // band (upper, k ≥ every i and k ≤ every j of the tile; lower, the mirror), its sums in the
      // exact pass take the per-element band test (its copies, the loader's edge_a and edge_b).
      const auto band_edge = [&](int64_t k0) {
        return !dense && !(k0 >= lo + kCfg.bm - 1 && k0 + kCfg.bk - 1 <= hi);
      };
      // Two doubles from row-major `src` at (r, c), each read where its flag says so, else a
      // zero. A 16-byte copy only when both are read: compute-sanitizer counts all 16 bytes of a
      // copy as read whatever its source size, and the pair may end the allocation.
      const auto copy_pair = [&](double* dst, const double* base, const double* src, bool in0,
                                 bool in1) {
        if (in0 && in1) {
          cp_async::copy16(dst, src, 16);
        } else {
          cp_async::copy8(dst, in0 ? src : base, in0 ? 8 : 0);
          cp_async::copy8(dst + 1, in1 ? src + 1 : base, in1 ? 8 : 0);
        }
      };
      // The stage copies' sources at k0 = 0: this thread's first pair of A (row ra, k ka) and of
      // B (k kb, column cb); its later pairs lie kRowsA rows of A, kRowsB rows of B further on.
      const double* const a_src = A + (i0 + ra) * p.lda + ka;
      const double* const b_src = B + kb * p.ldb + j0 + cb;
      // No row of A's stages (column of B's) past n: the tile's last row or column past n
      // bounds only its own operand's copies (n = 500 on the 32×32 tile: 16 tiles of 136).
      const bool rows_in = i0 + kCfg.bm <= n, cols_in = j0 + kCfg.bn <= n;
      auto load = [&](int64_t k0, int slot) {
        if (k0 >= kend) {
          cp_async::commit();
          return;
        }
        double* const as = As + slot * kStageA;
        double* const bs = Bs + slot * kStageB;
        // An operand whose stage has every element kept and in range takes plain copies from one
        // pointer that steps by whole rows: ncu put most of the 32×32 kernel's stall samples on
        // the tests' integer work, 3 % on its DMMA (H200, session 63). Elsewhere n and kend bound
        // the copies, and each element takes the triangle test.
        const int da = int(k0 - i0), db = int(k0 - j0);  // k0's offsets in the tile (< n)
        // Each operand's triangle edge crosses the stage only where its k meet A's rows (B's
        // columns): on the 32×32 tile, A's in a band's first stage, B's in its last. Testing the
        // two apart (not the stage's band_edge for both) copies the other operand plainly:
        // Triangular 256 0.0116 → 0.0107 ms, 1024 0.0380 → 0.0348 (H100, session 64).
        const bool edge_a = !dense && (upper ? da < kCfg.bm - 1 : da > 1 - kCfg.bk);
        const bool edge_b = !dense && (upper ? db > 1 - kCfg.bk : db < kCfg.bn - 1);
        const bool full_k = k0 + kCfg.bk <= kend;
        const bool fast_a = rows_in && full_k && !edge_a, fast_b = cols_in && full_k && !edge_b;
        if constexpr (kVec) {
          // Two doubles a copy (S::kPairsA, kPairsB), rows S::kRowsA (kRowsB) apart. The triangle
          // test in tile coordinates holds for every element where that operand's triangle
          // misses the stage, so it needs no edge flag.
          const double* a = a_src + k0;
#pragma unroll 1
          for (int l = 0; l < S::kPairsA; ++l, a += S::kRowsA * p.lda) {
            const int r = ra + l * S::kRowsA;
            double* const dst = as + r * kLdA + ka;
            if (fast_a) {
              cp_async::copy16(dst, a, 16);
              continue;
            }
            // A's triangle in tile coordinates: k − i = ka + da − r.
            const int d = ka + da - r;
            const bool in = i0 + r < n;
            copy_pair(dst, A, a, in && k0 + ka < kend && (dense || (upper ? d >= 0 : d <= 0)),
                      in && k0 + ka + 1 < kend && (dense || (upper ? d >= -1 : d <= -1)));
          }
          const double* b = b_src + k0 * p.ldb;
#pragma unroll 1
          for (int l = 0; l < S::kPairsB; ++l, b += S::kRowsB * p.ldb) {
            const int kk = kb + l * S::kRowsB;
            double* const dst = bs + kk * kLdB + cb;
            if (fast_b) {
              cp_async::copy16(dst, b, 16);
              continue;
            }
            // B's triangle in tile coordinates: j − k = cb − kk − db.
            const int d = cb - kk - db;
            const bool in = k0 + kk < kend;
            copy_pair(dst, B, b, in && j0 + cb < n && (dense || (upper ? d >= 0 : d <= 0)),
                      in && j0 + cb + 1 < n && (dense || (upper ? d >= -1 : d <= -1)));
          }
        } else {
          // Rows not 16-byte aligned (odd lds): one double a copy. Thread t's l-th copy of A is
          // element t + l·threads of its bm × bk, of B of bk × bn: a column that stays put, rows
          // S::kRowsA1 (kRowsB1) apart. Plain copies as above (odd n: 513 0.0282–0.0317 ms against
          // DGEMM + triu's 0.0239–0.0244 before them, H100, session 64). This thread's first
          // copy: A's row ra1, k ka1; B's k kb1, column cb1 (shifts of threadIdx.x, kept out of
          // the registers held across the kernel).
          const int ra1 = int(threadIdx.x) / kCfg.bk, ka1 = int(threadIdx.x) % kCfg.bk;
          const int kb1 = int(threadIdx.x) / kCfg.bn, cb1 = int(threadIdx.x) % kCfg.bn;
          const double* a = A + (i0 + ra1) * p.lda + k0 + ka1;
#pragma unroll 1
          for (int l = 0; l < S::kCopiesA; ++l, a += S::kRowsA1 * p.lda) {
            const int r = ra1 + l * S::kRowsA1;
            double* const dst = as + r * kLdA + ka1;
            if (fast_a) {
              cp_async::copy8(dst, a, 8);
              continue;
            }
            const int d = ka1 + da - r;  // k − i
            const bool in = i0 + r < n && k0 + ka1 < kend && (dense || (upper ? d >= 0 : d <= 0));
            cp_async::copy8(dst, in ? a : A, in ? 8 : 0);
          }
          const double* b = B + (k0 + kb1) * p.ldb + j0 + cb1;
#pragma unroll 1
          for (int l = 0; l < S::kCopiesB; ++l, b += S::kRowsB1 * p.ldb) {
            const int kk = kb1 + l * S::kRowsB1;
            double* const dst = bs + kk * kLdB + cb1;
            if (fast_b) {
              cp_async::copy8(dst, b, 8);
              continue;
            }
            const int d = cb1 - kk - db;  // j − k
            const bool in = k0 + kk < kend && j0 + cb1 < n && (dense || (upper ? d >= 0 : d <= 0));
            cp_async::copy8(dst, in ? b : B, in ? 8 : 0);
          }
        }
        cp_async::commit();
      };

      // C(i0 + row(mi, h), j0 + col(ni, h)): the m16n8 accumulator layout.
      double acc[kMi][kNi][4];
      const auto row = [&](int mi, int h) { return wm + 16 * mi + g + 8 * (h / 2); };
      const auto col = [&](int ni, int h) { return wn + 8 * ni + 2 * t + h % 2; };
      // First every stage on the tensor cores, the band edges' stages with their operands'
      // other triangles as zeros: the band's sum exactly, unless a term was 0·Inf or 0·NaN. Such
      // a term leaves its element's sum not finite, so where one of the tile's sums is not finite
      // (those past n or below C's diagonal too: testing them costs fewer registers, and their
      // terms are all finite where the operands are), the tile runs again (`exact`) with the band
      // edges in plain FMA, each element's band alone. Only NaN, Inf or a sum that overflows
      // brings a tile to the second pass.
      for (bool exact = false;; exact = true) {
#pragma unroll
        for (int mi = 0; mi < kMi; ++mi)
#pragma unroll
          for (int ni = 0; ni < kNi; ++ni)
#pragma unroll
            for (int h = 0; h < 4; ++h) acc[mi][ni][h] = 0.0;

#pragma unroll
        for (int s = 0; s < kCfg.stages - 1; ++s) load(kbeg + s * kCfg.bk, s);
        int slot = 0;
        for (int64_t k0 = kbeg; k0 < kend; k0 += kCfg.bk, slot = (slot + 1) % kCfg.stages) {
          cp_async::wait<kCfg.stages - 2>();
          // Stage k0 visible to all, and every warp done with the slot the next copies overwrite
          // (the one read in the previous iteration).
          __syncthreads();
          load(k0 + (kCfg.stages - 1) * kCfg.bk, (slot + kCfg.stages - 1) % kCfg.stages);
          const double* const as = As + slot * kStageA;
          const double* const bs = Bs + slot * kStageB;
          if (!exact || !band_edge(k0)) {
#pragma unroll
            for (int ks = 0; ks < kCfg.bk; ks += 8)
#pragma unroll
              for (int mi = 0; mi < kMi; ++mi)
#pragma unroll
                for (int ni = 0; ni < kNi; ++ni)
                  mma_k8<kM8n8k4>(
                      acc[mi][ni], g, t,
                      [&](int r, int k) { return as[(wm + 16 * mi + r) * kLdA + ks + k]; },
                      [&](int k, int c) { return bs[(ks + k) * kLdB + wn + 8 * ni + c]; });
          } else {
            // Plain FMA on this thread's own accumulators, k by k, in tile coordinates: k's
            // offsets from the tile's first row and column (< n, so 32 bits). Its rows and
            // columns as constant offsets from its first (row(0, 0), col(0, 0)), so that the
            // pass holds two addresses, not one an element (at the 64×64 tile's register cap).
            const int ki0 = int(k0 - i0), kj0 = int(k0 - j0);
            const int r0 = row(0, 0), c0 = col(0, 0);
            const double* a_k = as + r0 * kLdA;
            const double* b_k = bs + c0;
#pragma unroll 1
            for (int kk = 0; kk < kCfg.bk; ++kk, ++a_k, b_k += kLdB) {
              // This element's row and column past the thread's first: r − r0 ≤ ki − r0 etc.
              const int ki = ki0 + kk - r0, kj = kj0 + kk - c0;
#pragma unroll
              for (int mi = 0; mi < kMi; ++mi)
#pragma unroll
                for (int ni = 0; ni < kNi; ++ni)
#pragma unroll
                  for (int h = 0; h < 4; ++h) {
                    const int r = row(mi, h) - r0, c = col(ni, h) - c0;  // compile-time
                    const bool in_band = upper ? (r <= ki && kj <= c) : (c <= kj && ki <= r);
                    if (in_band) acc[mi][ni][h] = __fma_rn(a_k[r * kLdA], b_k[c], acc[mi][ni][h]);
                  }
            }
          }
        }
        // The next pass's or unit's first copies overwrite slots that slow warps may still be
        // reading, and the ring's trailing empty groups must not count for its stages.
        cp_async::wait<0>();
        bool redo = false;
        if (!exact && !dense)
#pragma unroll
          for (int mi = 0; mi < kMi; ++mi)
#pragma unroll
            for (int ni = 0; ni < kNi; ++ni)
#pragma unroll
              for (int h = 0; h < 4; ++h) redo |= !isfinite(acc[mi][ni][h]);
        const bool again = __syncthreads_or(redo);
        // A sum of the first pass not finite: an operand in the tile's reach is NaN or Inf, or a
        // sum overflowed. Under gated Detect the dense launch then reruns every k, over C whole
        // (kNonFiniteOut, as the other dtypes' structured launches flag their outputs), so this
        // tile needs no second pass: every element of A's and B's triangles reaches one such
        // sum (A(i, k) through B(k, k) in C(i, k)), so no NaN or Inf goes unflagged.
        if (again && p.gate != nullptr && threadIdx.x == 0) atomicOr(p.gate, kNonFiniteOut);
        if (!again || p.gate != nullptr) break;
      }
      // C's other triangle inside the tile: triu's zeros, not 0·sum (NaN stays out).
#pragma unroll
      for (int mi = 0; mi < kMi; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNi; ++ni)
#pragma unroll
          for (int h = 0; h < 4; ++h) {
            const int64_t i = i0 + row(mi, h), j = j0 + col(ni, h);
            if (i >= n || j >= n) continue;
            C[i * p.ldc + j] = (upper ? i > j : i < j) ? 0.0 : acc[mi][ni][h];
          }
    }
}

template <int kTileId, bool kDense, bool kVec, bool kM8n8k4>
void launch_shape(const ProblemFp64& p, const DeviceInfo& dev, Stream stream) {
  using S = Shape<kTileId>;
  constexpr int64_t kMaxGridY = 65535;
  const int64_t tiles = (p.n + S::kCfg.bm - 1) / S::kCfg.bm, units = tiles * tiles;
  const int per_sm = blocks_per_sm<sm80_fp64_kernel<kTileId, kDense, kVec, kM8n8k4>>(
      dev.ordinal, S::kThreads, S::kSmemBytes);
  const int64_t target = int64_t(per_sm) * std::max(1, dev.sms);  // blocks resident at once
  const int64_t y = std::min(p.batch, kMaxGridY);
  const int64_t x = std::max<int64_t>(1, std::min(units, (target + y - 1) / y));
  sm80_fp64_kernel<kTileId, kDense, kVec, kM8n8k4>
      <<<dim3(unsigned(x), unsigned(y)), S::kThreads, S::kSmemBytes, stream>>>(p);
  TRIMM_CUDA_CHECK(cudaGetLastError());
}

template <int kTileId, bool kDense, bool kM8n8k4>
void launch_tile(const ProblemFp64& p, const DeviceInfo& dev, Stream stream) {
  if (rows_16b_aligned(p.A, p.lda, p.stride_a, p.batch) &&
      rows_16b_aligned(p.B, p.ldb, p.stride_b, p.batch))
    launch_shape<kTileId, kDense, true, kM8n8k4>(p, dev, stream);
  else
    launch_shape<kTileId, kDense, false, kM8n8k4>(p, dev, stream);
}

template <bool kM8n8k4>
void launch_mma(const ProblemFp64& p, bool dense, const DeviceInfo& dev, Stream stream) {
  if (!dense) {
    if (p.n <= config::kSm80Fp64TinyEightWarpsMaxN)
      launch_tile<config::kSm80Fp64TinyEightWarps, false, kM8n8k4>(p, dev, stream);
    else if (p.n <= config::kSm80Fp64TinyMaxN)
      launch_tile<config::kSm80Fp64Tiny, false, kM8n8k4>(p, dev, stream);
    else
      launch_tile<config::kSm80Fp64Small, false, kM8n8k4>(p, dev, stream);
  } else if (p.n <= config::kSm80Fp64TinyDenseMaxN) {
    switch (config::sm80_fp64_tiny_dense_tile(p.n)) {
      case config::kSm80Fp64TinyEightWarps:
        return launch_tile<config::kSm80Fp64TinyEightWarps, true, kM8n8k4>(p, dev, stream);
      case config::kSm80Fp64TinyDeep:
        return launch_tile<config::kSm80Fp64TinyDeep, true, kM8n8k4>(p, dev, stream);
      default:
        return launch_tile<config::kSm80Fp64Tiny, true, kM8n8k4>(p, dev, stream);
    }
  } else if (p.n >= config::kSm80Fp64LargeMinN) {
    launch_tile<config::kSm80Fp64Large, true, kM8n8k4>(p, dev, stream);
  } else {
    launch_tile<config::kSm80Fp64Small, true, kM8n8k4>(p, dev, stream);
  }
}

}  // namespace

void launch_sm80_fp64(const ProblemFp64& p, bool dense, bool m8n8k4, const DeviceInfo& dev,
                      Stream stream) {
  if (p.n == 0 || p.batch == 0) return;
  if (m8n8k4)
    launch_mma<true>(p, dense, dev, stream);
  else
    launch_mma<false>(p, dense, dev, stream);
}

}  // namespace trimm::kernels
