// Structure::Detect's scan of what should be zero, for sm90_tf32x3's spare warps, which run it
// under their multiply, and the flag test that stops their work; sm90_fp16x3's prepass scans
// with its row scan (scan_outside_row), a block a row.
#pragma once

#include <cstdint>

#include "kernels/launch.hpp"
#include "kernels/sm90/ptx.cuh"

namespace trimm::kernels::sm90 {
namespace {

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
// (32-bit columns, n < 2^31: the helper warps run on kProducerRegs registers.)
template <bool kLower>
__device__ uint32_t scan_outside_row(const float* a, const float* b, int n, int i, int t,
                                     int threads) {
  const int lo = kLower ? i + 1 : 0, hi = kLower ? n : i;  // [lo, hi)
  // Whole 16-byte chunks inside [lo, hi): [c0, c1), none past column n - 1 (hi <= n). The
  // elements before and after them, at most three each: [lo, head_end) and [tail_begin, hi).
  const int c0 = (lo + 3) / 4, c1 = hi / 4;
  const int head_end = min(hi, 4 * c0), tail_begin = max(head_end, 4 * c1);
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

#endif  // TRIMM_SM90_DEVICE

}  // namespace
}  // namespace trimm::kernels::sm90
