// Structure::Detect's pass over A and B: is either nonzero outside its triangle, is anything not
// finite? One word of flags (see launch.hpp), set with one atomicOr per warp that found anything.
// Memory-bound: it reads every element of both matrices once.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "kernels/launch.hpp"

namespace trimm::kernels {
namespace {

constexpr int kThreads = 256;

// Rows (batch entry, i) round-robin over blocks; a block's threads stride along the row.
__global__ void __launch_bounds__(kThreads) detect_structure_kernel(Problem p, uint32_t* flag) {
  const bool upper = p.fill == Fill::Upper;
  uint32_t bits = 0;
  const int64_t rows = p.batch * p.n;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const int64_t b = r / p.n, i = r % p.n;
    const float* a = p.A + b * p.stride_a + i * p.lda;  // (n)
    const float* bb = p.B + b * p.stride_b + i * p.ldb;  // (n)
    for (int64_t j = threadIdx.x; j < p.n; j += kThreads) {
      const float x = a[j], y = bb[j];
      const bool outside = upper ? j < i : j > i;
      // x != 0 is true for NaN too: NaN outside the triangle is structure the dense product sees.
      bits |= (outside && x != 0.f ? 1u : 0u) | (outside && y != 0.f ? 2u : 0u) |
              (isfinite(x) && isfinite(y) ? 0u : 4u);
    }
  }
  bits = __reduce_or_sync(0xffffffffu, bits);
  if (threadIdx.x % 32 == 0 && bits != 0) atomicOr(flag, bits);
}

}  // namespace

void launch_detect_structure(const Problem& p, const DeviceInfo& dev, uint32_t* flag,
                             Stream stream) {
  const int64_t rows = p.batch * p.n;
  const unsigned blocks = unsigned(std::min<int64_t>(rows, int64_t(dev.sms) * 8));
  detect_structure_kernel<<<blocks, kThreads, 0, stream>>>(p, flag);
  TRIMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace trimm::kernels
