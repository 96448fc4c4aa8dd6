// Structure::Detect's pass over A and B: is either nonzero outside its triangle, is anything not
// finite? One word of flags (see launch.hpp), set with one atomicOr per warp that found anything.
// Memory-bound: it reads every element of both matrices once.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/launch.hpp"

namespace trimm::kernels {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t classify(float x, float y, bool outside) {
  // x != 0 is true for NaN too: NaN outside the triangle is structure the dense product sees.
  return (outside && x != 0.f ? 1u : 0u) | (outside && y != 0.f ? 2u : 0u) |
         (isfinite(x) && isfinite(y) ? 0u : 4u);
}

// Rows (batch entry, i) round-robin over blocks; a block's threads stride along the row, 16 bytes
// of each matrix at a time where the rows are 16-byte aligned (kVec): bytes in flight are what
// a pass at memory speed needs.
template <bool kVec>
__global__ void __launch_bounds__(kThreads) detect_structure_kernel(Problem p, uint32_t* flag) {
  const bool upper = p.fill == Fill::Upper;
  uint32_t bits = 0;
  const int64_t rows = p.batch * p.n;
  const int64_t vec_end = kVec ? p.n / 4 * 4 : 0;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const int64_t b = r / p.n, i = r % p.n;
    const float* a = p.A + b * p.stride_a + i * p.lda;  // (n)
    const float* bb = p.B + b * p.stride_b + i * p.ldb;  // (n)
    if constexpr (kVec) {
#pragma unroll 4
      for (int64_t j = 4 * int64_t(threadIdx.x); j < vec_end; j += 4 * kThreads) {
        const float4 x = __ldg(reinterpret_cast<const float4*>(a + j));
        const float4 y = __ldg(reinterpret_cast<const float4*>(bb + j));
        bits |= classify(x.x, y.x, upper ? j < i : j > i) |
                classify(x.y, y.y, upper ? j + 1 < i : j + 1 > i) |
                classify(x.z, y.z, upper ? j + 2 < i : j + 2 > i) |
                classify(x.w, y.w, upper ? j + 3 < i : j + 3 > i);
      }
    }
    for (int64_t j = vec_end + threadIdx.x; j < p.n; j += kThreads)
      bits |= classify(a[j], bb[j], upper ? j < i : j > i);
  }
  bits = __reduce_or_sync(0xffffffffu, bits);
  if (threadIdx.x % 32 == 0 && bits != 0) atomicOr(flag, bits);
}

}  // namespace

void launch_detect_structure(const Problem& p, const DeviceInfo& dev, uint32_t* flag,
                             Stream stream) {
  const int64_t rows = p.batch * p.n;
  const unsigned blocks = unsigned(std::min<int64_t>(rows, int64_t(dev.sms) * 8));
  if (rows_16b_aligned(p))
    detect_structure_kernel<true><<<blocks, kThreads, 0, stream>>>(p, flag);
  else
    detect_structure_kernel<false><<<blocks, kThreads, 0, stream>>>(p, flag);
  TRIMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace trimm::kernels
