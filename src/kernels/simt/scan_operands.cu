// Structure::Detect for 16-bit and fp64 data: one pass over A and B that sets the flags the
// product launches are gated on (kernels/launch.hpp). The fp32 path scans within its structured
// launch (sm90_tf32x3's spare warps while the tensor cores multiply; simt_small_fp32's blocks
// beside their band) and gates only the launches after it; here the scan runs first, so that every
// product launch, the structured one included, reads final flags at its first instruction
// (gated_off) and never stops halfway.
//
// One warp per row of A or of B (every batch entry), each element counted by its column: the
// other triangle (any magnitude bit, NaN included: kOutsideA / kOutsideB; an all-ones exponent:
// kNonFiniteOutside) or the triangle itself (an all-ones exponent: kNonFiniteInside, which the
// triangular kernels' masked zeros would turn into the wrong pattern of NaN): scan::row_flags.
// Before sm90_16bit, which flags its own outputs that are not finite (kNonFiniteOut, as fp32's
// structured launches do: every element of A's and B's triangles reaches C's diagonal block),
// the other triangles alone (outside_only): half the bytes. fp64 always reads those alone: its
// structured launch (sm80_fp64) flags its own outputs too.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "kernels/common/scan_rows.cuh"
#include "kernels/launch.hpp"

namespace trimm::kernels {
namespace {

using scan::Format;

constexpr int kWarps = 8, kThreads = 32 * kWarps;

// Batch entries b over grid y; rows r of the entry (A's rows, then B's) over the warps of grid x.
// Each warp ORs what it saw into *gate once.
template <typename T>
__global__ void __launch_bounds__(kThreads, 1)
    scan_kernel(bool upper, int64_t n, const typename Format<T>::Word* A, int64_t lda,
                int64_t stride_a, const typename Format<T>::Word* B, int64_t ldb, int64_t stride_b,
                int64_t batch, uint32_t* gate, uint32_t epoch, bool outside_only) {
  // The word carries this call's epoch from here on, flags or none, so that the launches after
  // this one add theirs with one atomic.
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) or_epoch_flags(gate, epoch, 0u);
  const int lane = threadIdx.x % 32;
  const int64_t warp = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = int64_t(gridDim.x) * blockDim.x / 32;
  uint32_t flags = 0;
  for (int64_t b = blockIdx.y; b < batch; b += gridDim.y)
    flags |= scan::entry_flags<T>(upper, n, A + b * stride_a, lda, b > 0 && stride_a == 0,
                                  B + b * stride_b, ldb, b > 0 && stride_b == 0, warp, warps, lane,
                                  outside_only);
  if (lane == 0 && flags != 0u) or_epoch_flags(gate, epoch, flags);
}

template <typename T>
void launch_scan_of(const GatedProblem<T>& p, const DeviceInfo& dev, cudaStream_t stream,
                    bool outside_only) {
  using Word = typename Format<T>::Word;
  static_assert(sizeof(Word) == sizeof(T), "the scan reads T's bits as Word");
  if (p.n == 0 || p.batch == 0) return;
  constexpr int64_t kMaxGridY = 65535;
  // About 8 blocks an SM in all (enough loads in flight), never more warps than an entry's rows.
  const int64_t y = std::min(p.batch, kMaxGridY);
  const int64_t target = 8 * int64_t(std::max(1, dev.sms));
  const int64_t x =
      std::max<int64_t>(1, std::min((2 * p.n + kWarps - 1) / kWarps, (target + y - 1) / y));
  scan_kernel<T><<<dim3(unsigned(x), unsigned(y)), kThreads, 0, stream>>>(
      p.fill == Fill::Upper, p.n, reinterpret_cast<const Word*>(p.A), p.lda, p.stride_a,
      reinterpret_cast<const Word*>(p.B), p.ldb, p.stride_b, p.batch, p.gate, p.epoch,
      outside_only);
  TRIMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_scan_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream,
                       bool outside_only) {
  launch_scan_of(p, dev, stream, outside_only);
}
void launch_scan_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream,
                       bool outside_only) {
  launch_scan_of(p, dev, stream, outside_only);
}
void launch_scan_fp64(const ProblemFp64& p, const DeviceInfo& dev, Stream stream) {
  launch_scan_of(p, dev, stream, /*outside_only=*/true);
}

}  // namespace trimm::kernels
