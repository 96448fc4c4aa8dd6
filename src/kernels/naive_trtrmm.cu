// The yardstick: one thread per element of C, a plain loop over the nonzero band. Obviously
// right, slow on purpose. Its fp32 form is a dispatch entry (forced by name) and, over every k,
// Structure::Detect's path for non-finite inputs (Path::Exact); its fp64 form is the reference
// for the benchmark and the GPU tests.
#include "kernels/common/tile_store.cuh"
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "kernels/launch.hpp"

namespace trimm::kernels {
namespace {

// exact: the dense product's element (every k), then triu/tril's zero; gate/path: Problem's.
template <typename Acc, typename Out>
__global__ void naive_trtrmm_kernel(bool upper, int64_t n, const float* A, int64_t lda,
                                    int64_t stride_a, const float* B, int64_t ldb,
                                    int64_t stride_b, Out* C, int64_t ldc, int64_t stride_c,
                                    int64_t batch_offset, bool exact, const uint32_t* gate) {
  if (gated_off(gate, exact ? Path::Exact : Path::Structured)) return;
  const int64_t b = batch_offset + blockIdx.z;
  A += b * stride_a;
  B += b * stride_b;
  C += b * stride_c;
  // A bounded grid striding over C: a launch that its gate turns off costs few blocks.
  for (int64_t i = int64_t(blockIdx.y) * blockDim.y + threadIdx.y; i < n;
       i += int64_t(gridDim.y) * blockDim.y)
    for (int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n;
         j += int64_t(gridDim.x) * blockDim.x) {
      // Upper: k from i to j; lower: k from j to i. Outside the band, C is zero.
      const int64_t lo = exact ? 0 : upper ? i : j, hi = exact ? n - 1 : upper ? j : i;
      Acc sum = 0;
      for (int64_t k = lo; k <= hi; ++k) sum += Acc(A[i * lda + k]) * Acc(B[k * ldb + j]);
      const bool outside = upper ? i > j : i < j;
      C[i * ldc + j] = exact && outside ? Out(0) : Out(sum);
    }
}

template <typename Acc, typename Out>
void launch_naive(bool upper, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                  const float* B, int64_t ldb, int64_t stride_b, Out* C, int64_t ldc,
                  int64_t stride_c, int64_t batch, cudaStream_t stream, bool exact = false,
                  const uint32_t* gate = nullptr, bool dependent = false) {
  const dim3 block(32, 8);
  // 512 blocks at most per batch slice: Structure::Detect queues this launch after every call,
  // and when its gate turns it off, each block only reads the flags.
  constexpr int64_t kMaxGridX = 16, kMaxGridY = 32;
  const dim3 grid(unsigned(std::min(kMaxGridX, (n + 31) / 32)),
                  unsigned(std::min(kMaxGridY, (n + 7) / 8)));
  constexpr int64_t kMaxGridZ = 65535;
  for (int64_t b0 = 0; b0 < batch; b0 += kMaxGridZ) {
    dim3 g = grid;
    g.z = unsigned(std::min(kMaxGridZ, batch - b0));
    launch_maybe_dependent(dependent, naive_trtrmm_kernel<Acc, Out>, g, block, 0, stream, upper, n,
                           A, lda, stride_a, B, ldb, stride_b, C, ldc, stride_c, b0, exact, gate);
  }
}

}  // namespace

void launch_naive_fp32(const Problem& p, const DeviceInfo& dev, Stream stream) {
  // Structure::Detect's last launch, gated: a dependent of the general one.
  const bool dependent = detect_dependent(p.gate, p.path, dev.cc);
  launch_naive<float, float>(p.fill == Fill::Upper, p.n, p.A, p.lda, p.stride_a, p.B, p.ldb,
                             p.stride_b, p.C, p.ldc, p.stride_c, p.batch, stream,
                             p.path == Path::Exact, p.gate, dependent);
}

void launch_naive_fp64_reference(Fill fill, int64_t n, const float* A, int64_t lda,
                                 const float* B, int64_t ldb, double* C64, int64_t ldc64,
                                 Stream stream, bool dense) {
  if (n == 0) return;
  launch_naive<double, double>(fill == Fill::Upper, n, A, lda, 0, B, ldb, 0, C64, ldc64, 0, 1,
                               stream, dense);
}

}  // namespace trimm::kernels
