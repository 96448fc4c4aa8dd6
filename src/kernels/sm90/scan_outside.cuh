// Structure::Detect's scan of what should be zero: by sm90_tf32x3's spare warps, which run it
// under their multiply with ordinary loads (scan_outside), and by sm90_fp16x3's helper warps
// under theirs with 1D bulk copies into shared memory (scan_outside_bulk); and the flag test
// that stops sm90_tf32x3's work.
#pragma once

#include <cstdint>

#include "kernels/launch.hpp"
#include "kernels/sm90/ptx.cuh"

namespace trimm::kernels::sm90 {
namespace {

// --- Structure::Detect: the same rows by 1D bulk copies into shared memory --------------------
// For helper warps that run beside a product at few registers (sm90_fp16x3's, 56): the bytes in
// flight sit in shared memory, not in registers. A warp keeps kBulkSlots pieces of 2 KB in
// flight (three warps: 18 KB an SM; 30 KB did no better, session 46). What it costs is the
// bytes, not their latency: at n = 4096 the 64 MB stretch sm90_fp16x3's product by ~23 µs
// (ncu), about what a launch of their own took before it, the product sharing DRAM with them;
// at 8192 it costs 30-90 µs less than that launch (bench/RESULTS.md, session 46). Loaded into
// registers, 96 helper threads held too few loads in flight (~30-36 µs at 4096, sessions 23
// and 30).
constexpr int kBulkSlots = 3, kBulkChunks = 128;  // a piece: up to 128 16-byte chunks of a row
using BulkSlots = uint4[kBulkSlots][kBulkChunks];
struct BulkScan {
  uint64_t full[kBulkSlots];
};

#if TRIMM_SM90_DEVICE

// Structure::Detect: whether A or B is known not to be triangular (then a later launch rewrites
// all of C's triangle, and what the structured one would still compute is wasted). Only the
// scan's flags count: the scan itself stops on them, and must not stop before it has set them.
__device__ __forceinline__ bool not_triangular(const uint32_t* gate) {
  return gate != nullptr &&
         (*reinterpret_cast<const volatile uint32_t*>(gate) & (kOutsideA | kOutsideB)) != 0u;
}

// --- Structure::Detect: the spare warps read what should be zero -----------------------------
// Row i of A and of B outside the triangle: columns [0, i) (upper) or (i, n) (lower), the same
// for both operands (A(m, k) with k < m, B(k, n) with n < k, upper). Any nonzero there (NaN too)
// sets kOutsideA / kOutsideB, any NaN or Inf kNonFiniteOutside. The structured kernel reads
// only the diagonal blocks' share of these elements (and masks it), so this costs the spare
// warps 64 MB of loads at n = 4096, spread over the first wave of blocks and hidden under their
// multiply (streaming loads, so that they do not displace the operands from L2). Rows are
// 16-byte aligned (TMA).
// The spare warps share the SM's issue slots with the consumers, so the scan keeps its
// instructions few: per element, A's and B's magnitude bits are ORed (nonzero iff some value is,
// NaN and Inf included) and the largest exponent field kept (all ones iff NaN or Inf); only the
// partial 16-byte chunks at a row's ends go element by element.
struct ScanBits {
  uint32_t a = 0, b = 0, exp = 0;
  __device__ __forceinline__ void absorb(uint32_t x, uint32_t y) {
    a |= x & 0x7fffffffu;
    b |= y & 0x7fffffffu;
    exp = max(exp, max(x & 0x7f800000u, y & 0x7f800000u));
  }
  __device__ __forceinline__ uint32_t flags() const {
    return (a != 0u ? kOutsideA : 0u) | (b != 0u ? kOutsideB : 0u) |
           (exp == 0x7f800000u ? kNonFiniteOutside : 0u);
  }
};
// Row i's columns outside the triangle, [lo, hi): the whole 16-byte chunks inside it, [c0, c1),
// none past column n - 1 (hi <= n), and the elements before and after them, at most three each:
// [lo, head_end) and [tail_begin, hi). (32-bit columns, n < 2^31: the helper warps run on few
// registers.)
template <bool kLower>
struct OutsideSpan {
  int lo, hi, c0, c1, head_end, tail_begin;
  __device__ __forceinline__ OutsideSpan(int n, int i)
      : lo(kLower ? i + 1 : 0),
        hi(kLower ? n : i),
        c0((lo + 3) / 4),
        c1(hi / 4),
        head_end(min(hi, 4 * c0)),
        tail_begin(max(head_end, 4 * c1)) {}
};

template <bool kLower>
__device__ uint32_t scan_outside_row(const float* a, const float* b, int n, int i, int t,
                                     int threads) {
  const auto [lo, hi, c0, c1, head_end, tail_begin] = OutsideSpan<kLower>(n, i);
  const auto* a4 = reinterpret_cast<const uint4*>(a);
  const auto* b4 = reinterpret_cast<const uint4*>(b);
  ScanBits s;
#pragma unroll 2
  for (int c = c0 + t; c < c1; c += threads) {
    const uint4 x = __ldcs(a4 + c), y = __ldcs(b4 + c);
    s.absorb(x.x, y.x);
    s.absorb(x.y, y.y);
    s.absorb(x.z, y.z);
    s.absorb(x.w, y.w);
  }
  for (int j = lo + t; j < head_end; j += threads)
    s.absorb(__float_as_uint(a[j]), __float_as_uint(b[j]));
  for (int j = tail_begin + t; j < hi; j += threads)
    s.absorb(__float_as_uint(a[j]), __float_as_uint(b[j]));
  return s.flags();
}

// The rows of this launch's batch entries, round-robin over its first `scanners` blocks (the
// first wave: with persistent blocks, all of them, after their mirror tiles), under whose
// multiply the loads hide.
template <bool kLower>
__device__ void scan_outside(const Problem& p, int64_t batch_offset, int scanners, int t,
                             int threads) {
  const int64_t lb = int64_t(blockIdx.y) * gridDim.x + blockIdx.x, rows = gridDim.y * p.n;
  if (lb >= scanners) return;
  // Row r's whole 16-byte chunks of A and B asked of L2 two rows ahead: the helpers' few
  // registers hold too few loads in flight to reach DRAM's bandwidth (at n = 4096 the scan
  // stretched sm90_fp16x3's product from 125 to 161 µs).
  auto prefetch = [&](int64_t r) {
    if (t != 0 || r >= rows) return;
    const int64_t b = batch_offset + r / p.n, i = r % p.n;
    const int64_t c0 = kLower ? (i + 4) / 4 : 0, c1 = kLower ? p.n / 4 : i / 4;  // chunks
    if (c1 <= c0) return;
    const uint32_t bytes = uint32_t(16 * (c1 - c0));
    ptx::bulk_prefetch_l2_evict_first(p.A + b * p.stride_a + i * p.lda + 4 * c0, bytes);
    ptx::bulk_prefetch_l2_evict_first(p.B + b * p.stride_b + i * p.ldb + 4 * c0, bytes);
  };
  prefetch(lb);
  prefetch(lb + scanners);
  for (int64_t r = lb; r < rows; r += scanners) {
    prefetch(r + 2 * scanners);
    const int64_t b = batch_offset + r / p.n, i = r % p.n;
    const uint32_t bits = __reduce_or_sync(
        0xffffffffu, scan_outside_row<kLower>(p.A + b * p.stride_a + i * p.lda,
                                              p.B + b * p.stride_b + i * p.ldb, int(p.n),
                                              int(i), t, threads));
    // Published at once: the producers stop at the flag. And once anything is found outside,
    // the general launch runs, and the rest of the scan is moot (a NaN or Inf it would have
    // found reaches that launch's output, which is checked too).
    if (bits != 0u) {
      if (t % 32 == 0) atomicOr(p.gate, bits);
      return;
    }
    // Lane 0 reads for the warp: the next row's reduction needs every lane.
    if (__shfl_sync(0xffffffffu, t % 32 == 0 && not_triangular(p.gate), 0)) return;
  }
}

// --- Structure::Detect: the same rows by 1D bulk copies (BulkScan above) ---------------------
// The warp's barriers, before the block's first __syncthreads (one thread).
__device__ __forceinline__ void bulk_scan_init(BulkScan& sc) {
  for (int i = 0; i < kBulkSlots; ++i) ptx::mbar_init(&sc.full[i], 1);
}

// Rows first, first + step, ... of one problem's A and B, outside the triangle as in
// scan_outside_row, as a sequence of pieces: each row's whole 16-byte chunks, A's then B's, in
// runs of up to kBulkChunks. Every lane steps the same sequence.
template <bool kLower>
struct BulkPieces {
  const float *a, *b;
  int64_t lda, ldb;
  int n, step;
  int i, op = 0, c = 0;  // the next piece: row i, operand op (0: A), chunk c of the row's run
  __device__ __forceinline__ bool next(const uint4*& src, int& chunks, int& which) {
    while (i < n) {
      const OutsideSpan<kLower> sp(n, i);
      const int c0 = sp.c0, c1 = sp.c1;
      if (c0 + c < c1) {
        const float* row = op == 0 ? a + int64_t(i) * lda : b + int64_t(i) * ldb;
        src = reinterpret_cast<const uint4*>(row) + c0 + c;
        chunks = min(kBulkChunks, c1 - c0 - c);
        which = op;
        c += chunks;
        return true;
      }
      c = 0;
      op ^= 1;
      if (op == 0) i += step;
    }
    return false;
  }
};

// The flags (kOutsideA, kOutsideB, kNonFiniteOutside) of rows first, first + step, ... of A and B
// (one problem: a and b offset to it), ORed over the warp. Every lane of the warp calls it.
// Rows are 16-byte aligned (TMA); the elements before and after a row's whole chunks (at most
// three each) are read directly.
template <bool kLower>
__device__ uint32_t scan_outside_bulk(const float* a, int64_t lda, const float* b, int64_t ldb,
                                      int n, int first, int step, BulkSlots& slots, BulkScan& sc,
                                      int lane) {
  uint32_t mag_a = 0u, mag_b = 0u, exp = 0u;
  auto absorb = [&](int op, uint32_t w) {
    (op == 0 ? mag_a : mag_b) |= w & 0x7fffffffu;
    exp = max(exp, w & 0x7f800000u);
  };
  // The chunks: the issuing cursor runs kBulkSlots pieces ahead of the reading one.
  BulkPieces<kLower> issue{a, b, lda, ldb, n, step, first}, take = issue;
  auto load = [&](int q) {
    const uint4* src;
    int chunks, op;
    if (!issue.next(src, chunks, op)) return;
    if (lane == 0) {
      uint64_t* bar = &sc.full[q % kBulkSlots];
      ptx::fence_proxy_async();  // the warp's reads of this slot before the copy's writes
      ptx::mbar_arrive_expect_tx(bar, uint32_t(16 * chunks));
      ptx::bulk_load_evict_first(slots[q % kBulkSlots], src, uint32_t(16 * chunks), bar);
    }
  };
  for (int q = 0; q < kBulkSlots; ++q) load(q);
  // While the first pieces load, the lone elements: two rows a pass (a half-warp each), 16 lanes
  // a row: lane e % 8 < 4 the head's element e % 8, else the tail's e % 8 - 4, of A (e < 8) or B.
#pragma unroll 2
  for (int i0 = first; i0 < n; i0 += 2 * step) {
    const int i = i0 + (lane / 16) * step, e = lane % 16, op = e / 8, idx = e % 8;
    if (i >= n) continue;
    const OutsideSpan<kLower> sp(n, i);
    const int j = idx < 4 ? sp.lo + idx : sp.tail_begin + idx - 4;
    if (j < (idx < 4 ? sp.head_end : sp.hi)) {
      const float* row = op == 0 ? a + int64_t(i) * lda : b + int64_t(i) * ldb;
      absorb(op, __float_as_uint(__ldcs(row + j)));
    }
  }
  const uint4* src;
  int chunks, op;
  for (int q = 0; take.next(src, chunks, op); ++q) {
    const int slot = q % kBulkSlots;
    ptx::mbar_wait(&sc.full[slot], uint32_t(q / kBulkSlots) & 1u);
    for (int c = lane; c < chunks; c += 32) {
      const uint4 v = slots[slot][c];
      absorb(op, v.x);
      absorb(op, v.y);
      absorb(op, v.z);
      absorb(op, v.w);
    }
    __syncwarp();
    load(q + kBulkSlots);
  }
  const uint32_t bits = (mag_a != 0u ? kOutsideA : 0u) | (mag_b != 0u ? kOutsideB : 0u) |
                        (exp == 0x7f800000u ? kNonFiniteOutside : 0u);
  return __reduce_or_sync(0xffffffffu, bits);
}

#endif  // TRIMM_SM90_DEVICE

}  // namespace
}  // namespace trimm::kernels::sm90
