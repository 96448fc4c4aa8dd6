// Probe: what a launch of sm90_16bit's shape costs before any work, as the bench measures it.
//
// Session 33's stamps put ~4 µs of sm90_16bit's 55 µs at n = 4096 between the bench's events
// and its blocks (launch before the first block starts, exit after the last ends). The kernel
// takes 2.5 KB of parameters (the DispatchOrder table beside three tensor maps) and ~227 KB of
// shared memory a block, after a memset (the bench's L2 flush) that takes none. This times an
// empty kernel of the same grid (one block an SM, 384 threads) in each combination of
//   params  64 B, 2.5 KB or 4 KB of __grid_constant__ parameters (one byte read)
//   smem    0 or the device's opt-in maximum of dynamic shared memory a block
// two ways:
//   flushed  memset of 2 × L2, event, one launch, event (the bench's form): median of 50
//   chained  event, 200 launches back to back, event: the time a launch, median of 5
// Each row: microseconds. A row whose flushed time exceeds the 64 B / 0 smem row by ≥ 1 µs names
// a cost the kernel could shed (the table moved to device memory, or smem's carveout).
//
// Usage: probe_launch_cost
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "probe_check.hpp"

namespace {

template <int kBytes>
struct Params {
  unsigned char b[kBytes];
};

// Reads one parameter byte so that the parameters are live; writes only if it matches a value
// the host never passes.
template <int kBytes>
__global__ void empty_kernel(const __grid_constant__ Params<kBytes> p, int* sink) {
  extern __shared__ unsigned char smem[];
  if (threadIdx.x == 0 && p.b[kBytes - 1] == 0xA5) {
    smem[0] = p.b[0];
    sink[blockIdx.x] = smem[0];
  }
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <int kBytes>
void row(const char* name, int sms, int smem, int* sink, char* flush, size_t flush_bytes) {
  auto kernel = empty_kernel<kBytes>;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  Params<kBytes> p{};
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  for (int w = 0; w < 5; ++w) kernel<<<sms, 384, smem>>>(p, sink);  // warm-up
  PROBE_CHECK(cudaGetLastError());
  std::vector<float> flushed, chained;
  for (int r = 0; r < 50; ++r) {
    PROBE_CHECK(cudaMemsetAsync(flush, r, flush_bytes));
    PROBE_CHECK(cudaEventRecord(e0));
    kernel<<<sms, 384, smem>>>(p, sink);
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    flushed.push_back(ms * 1e3f);
  }
  constexpr int kChain = 200;
  for (int r = 0; r < 5; ++r) {
    PROBE_CHECK(cudaEventRecord(e0));
    for (int i = 0; i < kChain; ++i) kernel<<<sms, 384, smem>>>(p, sink);
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    chained.push_back(ms * 1e3f / kChain);
  }
  PROBE_CHECK(cudaGetLastError());
  std::printf("%-8s %6d %9d %12.2f %12.2f\n", name, kBytes, smem, median(flushed),
              median(chained));
  PROBE_CHECK(cudaEventDestroy(e0));
  PROBE_CHECK(cudaEventDestroy(e1));
}

}  // namespace

int main() {
  int dev = 0, sms = 0, l2 = 0, smem_max = 0;
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const size_t flush_bytes = 2 * size_t(l2);
  char* flush = nullptr;
  int* sink = nullptr;
  PROBE_CHECK(cudaMalloc(&flush, flush_bytes));
  PROBE_CHECK(cudaMalloc(&sink, sizeof(int) * size_t(sms)));
  std::printf("%d SMs, a block each of 384 threads; flush: memset of %zu MB\n", sms,
              flush_bytes >> 20);
  std::printf("%-8s %6s %9s %12s %12s\n", "", "params", "smem", "flushed us", "chained us");
  for (const int smem : {0, smem_max}) {
    row<64>("small", sms, smem, sink, flush, flush_bytes);
    row<2560>("order", sms, smem, sink, flush, flush_bytes);
    row<4000>("max", sms, smem, sink, flush, flush_bytes);
  }
  PROBE_CHECK(cudaFree(flush));
  PROBE_CHECK(cudaFree(sink));
  return 0;
}
