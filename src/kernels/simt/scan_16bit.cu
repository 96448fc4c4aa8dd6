// Structure::Detect for 16-bit data: one pass over A and B that sets the flags the product
// launches are gated on (kernels/launch.hpp). The fp32 path scans with its structured launch's
// spare warps while the tensor cores multiply, and gates only the launches after it; here the
// scan runs first, so that every product launch, the structured one included, reads final flags
// at its first instruction (gated_off) and never stops halfway.
//
// One warp per row of A or of B (every batch entry), in two ranges: the other triangle (any
// magnitude bit, NaN included: kOutsideA / kOutsideB; an all-ones exponent: kNonFiniteOutside)
// and the triangle itself (an all-ones exponent: kNonFiniteInside, which the triangular kernels'
// masked zeros would turn into the wrong pattern of NaN). Rows of any alignment: elements one by
// one up to a 16-byte boundary, then 16-byte vectors, then the tail. The other triangle is read
// with evict-first loads (no product reads it); the triangle with ordinary ones, which may leave
// it in L2 for the structured launch that follows.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cuda/check.hpp"
#include "kernels/launch.hpp"

namespace trimm::kernels {
namespace {

constexpr int kWarps = 8, kThreads = 32 * kWarps;

// What one lane has seen of a range, two packed 16-bit elements at a time. kExp: the format's
// exponent field (all ones: Inf or NaN).
template <uint32_t kExp>
struct Seen {
  uint32_t magnitude = 0, nonfinite = 0;
  __device__ __forceinline__ void absorb(uint32_t two) {
    magnitude |= two & 0x7FFF7FFFu;
    nonfinite |= uint32_t((two & kExp) == kExp) | uint32_t(((two >> 16) & kExp) == kExp);
  }
};

// Elements [lo, hi) of a row starting at `row`; kStream: evict-first loads.
template <uint32_t kExp, bool kStream>
__device__ __forceinline__ Seen<kExp> scan_range(const uint16_t* row, int64_t lo, int64_t hi,
                                                 int lane) {
  Seen<kExp> s;
  if (lo >= hi) return s;
  const uint16_t* p = row + lo;
  const int64_t len = hi - lo;
  // Elements before the first 16-byte boundary (16-bit data is 2-byte aligned).
  const int64_t to_boundary = ((16 - (reinterpret_cast<uintptr_t>(p) & 15)) & 15) / 2;
  const int64_t head = std::min<int64_t>(len, to_boundary);
  const int64_t vecs = (len - head) / 8;
  for (int64_t j = lane; j < head; j += 32) s.absorb(p[j]);
  const auto* v = reinterpret_cast<const uint4*>(p + head);
  for (int64_t c = lane; c < vecs; c += 32) {
    const uint4 x = kStream ? __ldcs(v + c) : __ldg(v + c);
    s.absorb(x.x);
    s.absorb(x.y);
    s.absorb(x.z);
    s.absorb(x.w);
  }
  for (int64_t j = head + 8 * vecs + lane; j < len; j += 32) s.absorb(p[j]);
  return s;
}

// Batch entries b over grid y; rows r of the entry (A's rows, then B's) over the warps of grid x.
// Each warp ORs what it saw into *gate once.
template <uint32_t kExp>
__global__ void __launch_bounds__(kThreads, 1)
    scan_16bit_kernel(bool upper, int64_t n, const uint16_t* A, int64_t lda, int64_t stride_a,
                      const uint16_t* B, int64_t ldb, int64_t stride_b, int64_t batch,
                      uint32_t* gate) {
  const int lane = threadIdx.x % 32;
  const int64_t warp = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / 32;
  uint32_t flags = 0;
  for (int64_t b = blockIdx.y; b < batch; b += gridDim.y)
    for (int64_t r = warp; r < 2 * n; r += warps) {
      const bool is_a = r < n;
      if (b > 0 && (is_a ? stride_a : stride_b) == 0) continue;  // a shared operand: once
      const int64_t i = is_a ? r : r - n;
      const uint16_t* row = is_a ? A + b * stride_a + i * lda : B + b * stride_b + i * ldb;
      // Upper: other triangle [0, i), triangle [i, n); Lower: triangle [0, i], other (i, n).
      const int64_t split = upper ? i : i + 1;
      const Seen<kExp> outside = upper ? scan_range<kExp, true>(row, 0, split, lane)
                                       : scan_range<kExp, true>(row, split, n, lane);
      const Seen<kExp> inside = upper ? scan_range<kExp, false>(row, split, n, lane)
                                      : scan_range<kExp, false>(row, 0, split, lane);
      if (outside.magnitude != 0u) flags |= is_a ? kOutsideA : kOutsideB;
      if (outside.nonfinite != 0u) flags |= kNonFiniteOutside;
      if (inside.nonfinite != 0u) flags |= kNonFiniteInside;
    }
  flags = __reduce_or_sync(0xFFFFFFFFu, flags);
  if (lane == 0 && flags != 0u) atomicOr(gate, flags);
}

template <typename S>
void launch_scan(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  if (p.n == 0 || p.batch == 0) return;
  constexpr uint32_t kExp = std::is_same_v<S, bfloat16_t> ? 0x7F80u : 0x7C00u;
  constexpr int64_t kMaxGridY = 65535;
  // About 8 blocks an SM in all (enough loads in flight), never more warps than an entry's rows.
  const int64_t y = std::min(p.batch, kMaxGridY);
  const int64_t target = 8 * int64_t(std::max(1, dev.sms));
  const int64_t x = std::max<int64_t>(
      1, std::min((2 * p.n + kWarps - 1) / kWarps, (target + y - 1) / y));
  scan_16bit_kernel<kExp><<<dim3(unsigned(x), unsigned(y)), kThreads, 0, stream>>>(
      p.fill == Fill::Upper, p.n, reinterpret_cast<const uint16_t*>(p.A), p.lda, p.stride_a,
      reinterpret_cast<const uint16_t*>(p.B), p.ldb, p.stride_b, p.batch, p.gate);
  TRIMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_scan_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  launch_scan(p, dev, stream);
}
void launch_scan_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream) {
  launch_scan(p, dev, stream);
}

}  // namespace trimm::kernels
