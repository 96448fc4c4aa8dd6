// Probe: how fast does this GPU run the tf32 wgmmas that sm90_tf32x3 is made of?
//
// sm90_tf32x3 reaches about half the tensor cores' tf32 peak (bench/NOTES.md, session 2): its
// wgmmas took ~125 cycles each where m64n128k8 at the dense peak needs 64. This separates the
// suspects: the register-operand form (RS) against both operands in shared memory (SS), N = 128
// against 256, and concurrent shared-memory traffic from other warps (the kernel's transform
// and fragment loads). Two consumer warpgroups issue groups of wgmmas back to back on operands
// resident in shared memory (128-byte swizzled K-major tiles, as TMA writes them), waiting at
// the end of each group as the kernel does; warpgroup 2 optionally streams LDS.128/STS.128.
//
// The bf16 rows ask the same of sm90_16bit's instruction, m64n128k16 with both operands in
// shared memory: B K-major against N-major (imm-trans-b, as sm90_16bit reads row-major B), each
// group waited for at once or with the previous group still in flight (wait_group 1, as the
// kernel does).
//
// Usage: probe_sm90_wgmma_rate [iterations]. Prints one row per configuration: cycles per wgmma
// per SM (both consumers' wgmmas counted), the rate it means, and the traffic's bytes/cycle.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/sm90/ptx.cuh"
#include "probe_check.hpp"

namespace {

constexpr int kThreads = 384;
constexpr int kBTileBytes = 256 * 128;  // up to N = 256 rows of 32 floats (128-byte rows)
constexpr int kATileBytes = 64 * 128;   // one consumer's 64 rows, for SS
constexpr int kTrafficBytes = 32 * 1024;
constexpr int kSmem = kBTileBytes + 2 * kATileBytes + kTrafficBytes + 1024 + 16;

#if TRIMM_SM90_DEVICE
__device__ __forceinline__ void wgmma_n128_ss(float (&d)[64], uint64_t desc_a, uint64_t desc_b, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
        "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
        "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(acc));
}

__device__ __forceinline__ void wgmma_n256_rs(float (&d)[128], uint32_t const (&a)[4], uint64_t desc_b, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
        "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
        "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
        "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
        "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
        "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
        "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
        "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
        "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
        "+f"(d[126]), "+f"(d[127])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(acc));
}

__device__ __forceinline__ void wgmma_n256_ss(float (&d)[128], uint64_t desc_a, uint64_t desc_b, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
        "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
        "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
        "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
        "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
        "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
        "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
        "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
        "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
        "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(acc));
}

template <int N, bool kRS>
__device__ __forceinline__ void issue(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t da,
                                      uint64_t db) {
  if constexpr (N == 128 && kRS) trimm::kernels::sm90::ptx::wgmma_m64n128k8_tf32_rs(d, a, db, 1);  // the kernel's own
  if constexpr (N == 128 && !kRS) wgmma_n128_ss(d, da, db, 1);
  if constexpr (N == 256 && kRS) wgmma_n256_rs(d, a, db, 1);
  if constexpr (N == 256 && !kRS) wgmma_n256_ss(d, da, db, 1);
}
#endif

// What the consumers issue: tf32 (issue<N, kRS>), or bf16 m64n128k16 SS with B K-major or
// N-major.
enum Kind : int { kTf32 = 0, kBf16KMajorB = 1, kBf16NMajorB = 2 };

// kGroup wgmmas per commit/wait; kTrafficWarps of warpgroup 2 stream shared memory meanwhile;
// kConsumers (1 or 2) warpgroups issue wgmmas; kPending: groups left in flight at each wait.
template <int N, bool kRS, int kGroup, int kTrafficWarps, int kConsumers, int kKind = kTf32,
          int kPending = 0>
__global__ void __launch_bounds__(kThreads, 1)
    probe(int iters, float* sink, long long* cycles, unsigned long long* traffic_bytes) {
  static_assert(kKind == kTf32 || (N == 128 && !kRS), "bf16 rows: m64n128k16, SS");
#if TRIMM_SM90_DEVICE
  namespace ptx = trimm::kernels::sm90::ptx;
  extern __shared__ __align__(1024) unsigned char raw[];
  unsigned char* base = raw + ((1024u - (trimm::kernels::shared_address(raw) & 1023u)) & 1023u);
  float* b_tile = reinterpret_cast<float*>(base);
  float* a_tiles = reinterpret_cast<float*>(base + kBTileBytes);
  float4* traffic = reinterpret_cast<float4*>(base + kBTileBytes + 2 * kATileBytes);
  volatile int* done = reinterpret_cast<volatile int*>(base + kBTileBytes + 2 * kATileBytes +
                                                       kTrafficBytes);
  const int tid = threadIdx.x;
  for (int i = tid; i < (kBTileBytes + 2 * kATileBytes + kTrafficBytes) / 4; i += kThreads)
    reinterpret_cast<float*>(base)[i] = 1.f + float((i * 7919) % 1024) / 1024.f;
  if (tid == 0) *done = 0;
  ptx::fence_proxy_async();
  __syncthreads();

  if (tid < 128 * kConsumers) {
    const int wg = tid / 128;
    float d[N / 2];
#pragma unroll
    for (int r = 0; r < N / 2; ++r) d[r] = 0.f;
    uint32_t a[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) a[e] = __float_as_uint(1.f + 0.125f * float(e)) & 0xFFFFE000u;
    const float* a_tile = a_tiles + wg * (kATileBytes / 4);
    const long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
      ptx::wgmma_fence();
#pragma unroll
      for (int j = 0; j < kGroup; ++j) {
        // k moves 32 bytes along a K-major row (8 tf32 or 16 bf16 elements); along N-major B,
        // 16 rows of 128 bytes, the second 64 columns one 8 KB box on (LBO).
        const uint64_t da = ptx::desc_kmajor_sw128(a_tile + 8 * (j % 4));
        if constexpr (kKind == kTf32)
          issue<N, kRS>(d, a, da, ptx::desc_kmajor_sw128(b_tile + 8 * (j % 4)));
        else if constexpr (kKind == kBf16KMajorB)
          ptx::wgmma_m64n128k16_ss<true, 0>(d, da, ptx::desc_kmajor_sw128(b_tile + 8 * (j % 4)), 1);
        else
          ptx::wgmma_m64n128k16_ss<true, 1>(
              d, da, ptx::desc_mnmajor_sw128(b_tile + 512 * (j % 4), 8192), 1);
      }
      ptx::wgmma_commit();
      ptx::wgmma_wait<kPending>();
    }
    ptx::wgmma_wait_all();
    const long long t1 = clock64();
    float s = 0.f;
#pragma unroll
    for (int r = 0; r < N / 2; ++r) s += d[r];
    sink[blockIdx.x * 256 + tid] = s;
    if (tid % 128 == 0) cycles[blockIdx.x * 2 + wg] = t1 - t0;
    __syncwarp();
    if (tid == 0) *done = 1;
  } else if (tid >= 256 && (tid - 256) / 32 < kTrafficWarps) {
    // Read a 16-byte chunk, add one, write it back elsewhere: the transform's pattern.
    const int t = tid - 256;
    unsigned long long bytes = 0;
    while (!*done) {
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const int c = (t + i * 128) % (kTrafficBytes / 16 / 2);
        float4 v = traffic[c];
        v.x += 1.f;
        traffic[c + kTrafficBytes / 16 / 2] = v;
      }
      bytes += 8 * 32;
    }
    if (t % 32 == 0) atomicAdd(traffic_bytes, bytes * 32);
  }
#else
  __trap();
#endif
}

template <int N, bool kRS, int kGroup, int kTrafficWarps, int kConsumers = 2, int kKind = kTf32,
          int kPending = 0>
void run(const char* name, int iters, int sms, float* sink, long long* cycles,
         unsigned long long* traffic) {
  auto kernel = probe<N, kRS, kGroup, kTrafficWarps, kConsumers, kKind, kPending>;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  PROBE_CHECK(cudaMemset(traffic, 0, sizeof(unsigned long long)));
  kernel<<<sms, kThreads, kSmem>>>(iters / 10, sink, cycles, traffic);  // warm-up
  PROBE_CHECK(cudaMemset(traffic, 0, sizeof(unsigned long long)));
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  PROBE_CHECK(cudaEventRecord(e0));
  kernel<<<sms, kThreads, kSmem>>>(iters, sink, cycles, traffic);
  PROBE_CHECK(cudaEventRecord(e1));
  PROBE_CHECK(cudaEventSynchronize(e1));
  PROBE_CHECK(cudaGetLastError());
  float ms = 0.f;
  PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::vector<long long> all(2 * size_t(sms)), c;
  unsigned long long bytes = 0;
  PROBE_CHECK(cudaMemcpy(all.data(), cycles, all.size() * sizeof(long long),
                         cudaMemcpyDeviceToHost));
  PROBE_CHECK(cudaMemcpy(&bytes, traffic, sizeof(bytes), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < all.size(); ++i)
    if (int(i % 2) < kConsumers) c.push_back(all[i]);
  std::sort(c.begin(), c.end());
  const double med = double(c[c.size() / 2]);
  const double wgmmas_per_sm = double(kConsumers) * iters * kGroup;  // every consumer's
  const int k = kKind == kTf32 ? 8 : 16;  // per wgmma; both peak at N / 2 cycles
  const double flops = double(sms) * wgmmas_per_sm * 2.0 * 64 * N * k;
  std::printf("%-32s N=%3d group=%2d consumers=%d traffic_warps=%d pending=%d  %7.1f"
              " cycles/wgmma/SM (dense peak %3d)  %6.1f TFLOP/s  traffic %5.1f B/cycle/SM\n",
              name, N, kGroup, kConsumers, kTrafficWarps, kPending, med / wgmmas_per_sm, N / 2,
              flops / (ms * 1e9), double(bytes) / sms / med);
  PROBE_CHECK(cudaEventDestroy(e0));
  PROBE_CHECK(cudaEventDestroy(e1));
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 2000;
  int dev = 0, major = 0, sms = 0, count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("probe_sm90_wgmma_rate: no CUDA device; skipped\n");
    return 0;
  }
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (major != 9) {
    std::printf("probe_sm90_wgmma_rate: needs an sm_90 GPU; skipped\n");
    return 0;
  }
  float* sink = nullptr;
  long long* cycles = nullptr;
  unsigned long long* traffic = nullptr;
  PROBE_CHECK(cudaMalloc(&sink, size_t(sms) * 256 * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&cycles, size_t(sms) * 2 * sizeof(long long)));
  PROBE_CHECK(cudaMalloc(&traffic, sizeof(unsigned long long)));
  run<128, true, 12, 0>("RS (as sm90_tf32x3)", iters, sms, sink, cycles, traffic);
  run<128, true, 12, 0, 1>("RS, one consumer", iters, sms, sink, cycles, traffic);
  run<128, false, 12, 0, 1>("SS, one consumer", iters, sms, sink, cycles, traffic);
  run<128, true, 48, 0>("RS, deeper groups", iters, sms, sink, cycles, traffic);
  run<128, false, 12, 0>("SS", iters, sms, sink, cycles, traffic);
  run<256, true, 12, 0>("RS", iters, sms, sink, cycles, traffic);
  run<256, false, 12, 0>("SS", iters, sms, sink, cycles, traffic);
  run<128, true, 12, 1>("RS + shared traffic", iters, sms, sink, cycles, traffic);
  run<128, true, 12, 2>("RS + shared traffic", iters, sms, sink, cycles, traffic);
  run<128, true, 12, 4>("RS + shared traffic", iters, sms, sink, cycles, traffic);
  run<128, false, 12, 2>("SS + shared traffic", iters, sms, sink, cycles, traffic);
  run<256, true, 12, 2>("RS + shared traffic", iters, sms, sink, cycles, traffic);
  run<128, false, 4, 0, 2, kBf16KMajorB>("bf16 SS, B K-major", iters, sms, sink, cycles, traffic);
  run<128, false, 4, 0, 2, kBf16NMajorB>("bf16 SS, B N-major", iters, sms, sink, cycles, traffic);
  run<128, false, 4, 0, 2, kBf16KMajorB, 1>("bf16 SS, B K-major", iters, sms, sink, cycles,
                                            traffic);
  run<128, false, 4, 0, 2, kBf16NMajorB, 1>("bf16 SS, B N-major (sm90_16bit)", iters, sms, sink,
                                            cycles, traffic);
  run<128, false, 4, 0, 1, kBf16NMajorB, 1>("bf16 SS, B N-major", iters, sms, sink, cycles,
                                            traffic);
  run<128, false, 8, 0, 2, kBf16NMajorB, 1>("bf16 SS, B N-major, deeper", iters, sms, sink,
                                             cycles, traffic);
  PROBE_CHECK(cudaFree(sink));
  PROBE_CHECK(cudaFree(cycles));
  PROBE_CHECK(cudaFree(traffic));
  return 0;
}
