// Probe: sm90_16bit's stage on its own, with real shared-memory footprints (bench/NOTES.md,
// session 32). The kernel's bare pipeline (no loads, masks or stores) takes ~1.45-1.7× its
// tensor time at n = 4096, while probe_sm90_wgmma_rate ran the same wgmma at the dense peak. That
// probe re-reads one operand tile; the kernel walks a ring of six 32 KB slots. Here two consumer
// warpgroups run stages exactly as the kernel's consumers do (four k16 wgmmas a stage into one
// commit group, the previous group retired with wait_group 1), their operands in a ring of
// kSlots slots laid out as TMA writes them (A K-major, B N-major, 128-byte swizzle), with no
// producer: the data is written once. N = 128 is sm90_16bit's m64n128k16 (128×128 tiles, 32 KB
// a stage); N = 256 asks what m64n256k16 (128×256 tiles, 48 KB a stage) would reach.
//
// Prints for each form: cycles a stage per SM (both warpgroups' wgmmas) against the dense peak
// (4·N cycles), the rate from CUDA events, and the clock that rate implies at that efficiency
// (the SMs' clock under a full tensor load: session 18's "tensor floor" assumed 1.755 GHz).
// Session 32's rows: the stage runs at peak (512 cycles) in any ring.
//
// Session 33: with writers. In the kernel a stage moves 80 KB through shared memory, 32 KB
// written by TMA and 48 KB read by the wgmmas (each consumer its 8 KB of A and all 16 KB of B).
// At 128 bytes a cycle that takes 640 cycles, while the tensor work takes 512. The traced stage
// period was 652 (bench/RESULTS.md, session 33). A writer warp keeps kWriters bulk copies of
// 32 KB each in flight from global memory (L2-resident) into a landing region beside the ring,
// for as long as the consumers run. The rows print the write rate the SM reached, in bytes a
// cycle. If shared memory's bandwidth binds, the stage slows as that rate nears 64 B/cycle
// (the kernel's 32 KB a stage).
//
// Usage: probe_sm90_bf16_ring_rate [stages]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/sm90/ptx.cuh"
#include "probe_check.hpp"

namespace {

constexpr int kConsumerThreads = 256;  // two consumer warpgroups
constexpr int kThreads = kConsumerThreads + 32;  // and the writer warp
constexpr int kCopyBytes = 32 * 1024;  // a writer's bulk copy, one stage's worth
constexpr int kSourceCopies = 128;      // the writers' source: 4 MB, resident in L2
constexpr int kStep = 64;      // k a stage: one 128-byte swizzled row of 16-bit elements
[[maybe_unused]] constexpr int kBoxBytes = kStep * 64 * 2;  // a 64-column box of B (k 64 × n 64)
constexpr int kABytes = 128 * kStep * 2;   // A: 128 rows × 64 k
template <int N>
constexpr int kSlotBytes = kABytes + kStep * N * 2;
constexpr int kMaxWriters = 8;
// The ring, the writers' landing region, their barriers and the consumers' done flag.
template <int N, int kSlots>
constexpr int kSmem = kSlots * kSlotBytes<N> + kCopyBytes + kMaxWriters * 8 + 16 +
                      1024;  // + alignment slack

#if TRIMM_SM90_DEVICE
template <int N>
__device__ __forceinline__ void stage_wgmma(float (&d)[N / 2], uint64_t da, uint64_t db) {
  if constexpr (N == 128)
    trimm::kernels::sm90::ptx::wgmma_m64n128k16_ss<true>(d, da, db, 1);
  else
    trimm::kernels::sm90::ptx::wgmma_m64n256k16_ss<true>(d, da, db, 1);
}
#endif

// kWriters bulk copies of kCopyBytes into `landing`, each re-issued as it lands, until *done.
// Every copy lands on the same bytes: only the traffic matters. Returns the bytes landed.
#if TRIMM_SM90_DEVICE
__device__ long long write_traffic(int writers, unsigned char* landing, uint64_t* bars,
                                   const volatile int* done, const unsigned char* source) {
  namespace ptx = trimm::kernels::sm90::ptx;
  const uint32_t dst = trimm::kernels::shared_address(landing);
  auto issue = [&](int w, int i) {
    ptx::mbar_arrive_expect_tx(&bars[w], kCopyBytes);
    const unsigned char* src =
        source + size_t((blockIdx.x * 7 + i) % kSourceCopies) * kCopyBytes;
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        ::"r"(dst), "l"(src), "r"(kCopyBytes), "r"(trimm::kernels::shared_address(&bars[w]))
        : "memory");
  };
  int issued = 0;
  for (; issued < writers; ++issued) issue(issued, issued);
  long long landed = 0;
  for (int i = 0;; ++i) {
    const int w = i % writers;
    ptx::mbar_wait(&bars[w], uint32_t(i / writers) & 1u);
    landed += kCopyBytes;
    if (*done) break;
    issue(w, issued++);
  }
  // The copies still in flight land before the block's shared memory goes.
  for (int i = int(landed / kCopyBytes); i < issued; ++i)
    ptx::mbar_wait(&bars[i % writers], uint32_t(i / writers) & 1u);
  return landed;
}
#endif

template <int N, int kSlots>
__global__ void __launch_bounds__(kThreads, 1) ring_probe(int stages, int writers, float* sink,
                                                          long long* cycles, long long* written,
                                                          const unsigned char* source) {
  static_assert(N == 128 || N == 256, "m64n128k16 or m64n256k16");
  static_assert(kSlotBytes<N> % 1024 == 0, "slots stay 1024-byte aligned, as descriptors need");
#if TRIMM_SM90_DEVICE
  namespace ptx = trimm::kernels::sm90::ptx;
  extern __shared__ __align__(1024) unsigned char raw[];
  unsigned char* base = raw + ((1024u - (trimm::kernels::shared_address(raw) & 1023u)) & 1023u);
  // bf16 values near 1 (their products do not matter, only their time).
  for (int i = threadIdx.x; i < kSlots * kSlotBytes<N> / 4; i += kThreads)
    reinterpret_cast<uint32_t*>(base)[i] = 0x3F803F80u + uint32_t(i % 7) * 0x00010001u;
  unsigned char* landing = base + kSlots * kSlotBytes<N>;
  uint64_t* bars = reinterpret_cast<uint64_t*>(landing + kCopyBytes);
  volatile int* done = reinterpret_cast<volatile int*>(bars + kMaxWriters);
  if (threadIdx.x == 0) {
    for (int w = 0; w < kMaxWriters; ++w) ptx::mbar_init(&bars[w], 1);
    *done = 0;
    ptx::mbar_init_fence();
  }
  ptx::fence_proxy_async();  // the generic-proxy writes, before wgmma's async-proxy reads
  __syncthreads();
  if (threadIdx.x >= kConsumerThreads) {
    if (threadIdx.x == kConsumerThreads && writers > 0)
      written[blockIdx.x] = write_traffic(writers, landing, bars, done, source);
    return;
  }
  const int wg = threadIdx.x / 128;
  float d[N / 2];
#pragma unroll
  for (int r = 0; r < N / 2; ++r) d[r] = 0.f;
  // As sm90_16bit: a warpgroup's 64 rows of A, B's boxes LBO apart; k moves 32 bytes along A's
  // rows and 16 rows (two 1024-byte atoms) down B.
  const uint32_t a0 = ptx::desc_kmajor_sw128_lo(base + 64 * wg * kStep * 2);
  const uint64_t b0 = ptx::desc_mnmajor_sw128(base + kABytes, kBoxBytes);
  constexpr uint32_t kSlot = kSlotBytes<N> >> 4, kStepA = 16 * 2 >> 4, kStepB = 16 * 64 * 2 >> 4;
  int s = 0;
  const long long t0 = clock64();
  for (int q = 0; q < stages; ++q) {
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kStep / 16; ++kk)
      stage_wgmma<N>(d, ptx::desc_kmajor_sw128_from_lo(a0 + s * kSlot + kStepA * kk),
                     b0 + s * kSlot + kStepB * kk);
    ptx::wgmma_commit();
    ptx::wgmma_wait<1>();
    if (++s == kSlots) s = 0;
  }
  ptx::wgmma_wait<0>();
  const long long t1 = clock64();
  if (threadIdx.x == 0) *done = 1;
  float sum = 0.f;
#pragma unroll
  for (int r = 0; r < N / 2; ++r) sum += d[r];
  sink[blockIdx.x * kConsumerThreads + threadIdx.x] = sum;
  if (threadIdx.x % 128 == 0) cycles[blockIdx.x * 2 + wg] = t1 - t0;
#else
  __trap();
#endif
}

struct Buffers {
  float* sink;
  long long *cycles, *written;
  const unsigned char* source;
};

template <int N, int kSlots>
void run(int stages, int sms, int writers, const Buffers& buf) {
  auto kernel = ring_probe<N, kSlots>;
  constexpr int smem = kSmem<N, kSlots>;
  static_assert(smem <= 227 * 1024, "one block per SM, its shared memory at most 227 KB");
  float* sink = buf.sink;
  long long* cycles = buf.cycles;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  PROBE_CHECK(cudaMemset(buf.written, 0, size_t(sms) * sizeof(long long)));
  kernel<<<sms, kThreads, smem>>>(stages / 10, writers, sink, cycles, buf.written,
                                  buf.source);  // warm-up
  PROBE_CHECK(cudaGetLastError());
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  PROBE_CHECK(cudaEventRecord(e0));
  kernel<<<sms, kThreads, smem>>>(stages, writers, sink, cycles, buf.written, buf.source);
  PROBE_CHECK(cudaEventRecord(e1));
  PROBE_CHECK(cudaEventSynchronize(e1));
  PROBE_CHECK(cudaGetLastError());
  float ms = 0.f;
  PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::vector<long long> c(2 * size_t(sms));
  PROBE_CHECK(cudaMemcpy(c.data(), cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<long long> wr(static_cast<size_t>(sms));
  PROBE_CHECK(cudaMemcpy(wr.data(), buf.written, wr.size() * sizeof(long long),
                         cudaMemcpyDeviceToHost));
  std::sort(wr.begin(), wr.end());
  std::sort(c.begin(), c.end());
  const double median_cycles = double(c[c.size() / 2]);
  const double per_stage = median_cycles / stages;  // both warpgroups run each stage
  const double write_rate = double(wr[wr.size() / 2]) / median_cycles;
  const double peak = 4.0 * N;  // 2 warpgroups × 4 wgmmas × N/2 cycles (dense peak)
  const double flops = double(sms) * stages * 2 * 4 * (2.0 * 64 * N * 16);
  const double tflops = flops / (ms * 1e9);
  // rate = SMs × 4096 flop/clock × efficiency × clock
  const double ghz = tflops * 1e3 / (double(sms) * 4096.0 * (peak / per_stage));
  std::printf("bf16 m64n%dk16 SS, B N-major, ring of %d x %2d KB, %d writers: %7.1f cycles/stage/SM "
              "(peak %4.0f, %5.1f %%)  %6.1f TFLOP/s  implied clock %.2f GHz  writes %5.1f B/cycle/SM "
              "(%5.1f KB a stage)\n",
              N, kSlots, kSlotBytes<N> / 1024, writers, per_stage, peak, 100.0 * peak / per_stage,
              tflops, ghz, write_rate, write_rate * per_stage / 1024.0);
  PROBE_CHECK(cudaEventDestroy(e0));
  PROBE_CHECK(cudaEventDestroy(e1));
}

}  // namespace

int main(int argc, char** argv) {
  const int stages = argc > 1 ? std::atoi(argv[1]) : 20000;
  int dev = 0, major = 0, sms = 0, count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("probe_sm90_bf16_ring_rate: no CUDA device; skipped\n");
    return 0;
  }
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (major != 9) {
    std::printf("probe_sm90_bf16_ring_rate: needs an sm_90 GPU; skipped\n");
    return 0;
  }
  Buffers buf{};
  unsigned char* source = nullptr;
  PROBE_CHECK(cudaMalloc(&buf.sink, size_t(sms) * kConsumerThreads * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&buf.cycles, size_t(sms) * 2 * sizeof(long long)));
  PROBE_CHECK(cudaMalloc(&buf.written, size_t(sms) * sizeof(long long)));
  PROBE_CHECK(cudaMalloc(&source, size_t(kSourceCopies) * kCopyBytes));
  PROBE_CHECK(cudaMemset(source, 0, size_t(kSourceCopies) * kCopyBytes));
  buf.source = source;
  run<128, 1>(stages, sms, 0, buf);
  run<256, 1>(stages, sms, 0, buf);
  for (int writers : {0, 1, 2, 4, 8}) run<128, 6>(stages, sms, writers, buf);  // sm90_16bit's
  for (int writers : {0, 2, 4, 8}) run<256, 4>(stages, sms, writers, buf);  // 128×256 in 192 KB
  PROBE_CHECK(cudaFree(buf.sink));
  PROBE_CHECK(cudaFree(buf.cycles));
  PROBE_CHECK(cudaFree(buf.written));
  PROBE_CHECK(cudaFree(source));
  return 0;
}
