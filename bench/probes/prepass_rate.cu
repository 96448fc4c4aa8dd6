// Probe: how close can sm90_fp16x3's pass over A's rows come to DRAM's rate, and what holds it?
//
// ncu (bench/RESULTS.md, session 28) has both prepass launches at ~48 % of DRAM's peak with
// ~46 % of an SM's warps resident, and neither asking L2 for the next wave's rows ahead of time
// nor two rows a block moved them. This times the same traffic in simpler forms, each after an
// L2 flush like the bench's, so that the gap between the kernel's form and the shape's ceiling
// is measured rather than argued:
//   copy      n × n floats into n × n floats (float4, grid-stride): the device's copy rate
//   read      n × n floats, max only (float4, grid-stride): the read rate
//   tiles128  n × n floats read as launch 1's column-maxima tiles: 128 × 128 a block, a warp a row
//             (512 bytes of each row a tile), eight rows a warp in flight: DRAM's pages opened
//             for 512 bytes each
//   tiles256  the same with 256 columns a tile (1 KB of each row, launch 2's width)
//   planes    n × n floats into two fp16 planes (scale 1, float4 in, 8 bytes out a plane a lane,
//             grid-stride): the prepass's bytes without its row structure
//   rows      A's upper triangle a block a row, the row in registers, the block's max, then the
//             scaled split into two planes from the diagonal 128-block (launch 1's form, but
//             with registers for four float4s a thread: eight blocks an SM)
//   rows4     the same held to four blocks an SM by unused shared memory (the kernel's 63
//             registers allow four: its occupancy)
//   rows128   rows with 128 threads a row (twice the loads in flight a thread)
//   rowsP     rows, persistent: SMs × resident blocks, each looping over rows
// Each row: milliseconds (median of 20) and TB/s counting bytes read plus written.
//
// Usage: probe_prepass_rate [n=4096] (a multiple of 256)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "probe_check.hpp"

namespace {

constexpr int kTile = 128;  // the product's tile: rows start at their diagonal block

__global__ void fill_upper(float* a, int n) {
  const int64_t count = int64_t(n) * n;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int i = int(e / n), j = int(e % n);
    uint32_t h = uint32_t(e) * 2654435761u;
    h ^= h >> 15;
    a[e] = j >= i ? float(h & 0xffffff) * 0x1p-24f : 0.f;
  }
}

__global__ void copy(const float4* src, float4* dst, int64_t count4) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count4;
       e += int64_t(gridDim.x) * blockDim.x)
    dst[e] = src[e];
}

// sink: a float a thread. Its max is stored unconditionally: ptxas drops loads whose value
// reaches only an empty asm (session 29 measured "read" at 19 TB/s so), and a store under a
// test that never holds lets the compiler sink them into it.
__global__ void read_max(const float4* src, int64_t count4, float* sink) {
  float m = 0.f;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count4;
       e += int64_t(gridDim.x) * blockDim.x) {
    const float4 v = src[e];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  sink[blockIdx.x * int64_t(blockDim.x) + threadIdx.x] = m;
}

// Column maxima of kCols-wide tiles of 128 rows (a block a tile, a warp a row, kCols / 128
// float4s a lane), the rows of a warp eight at a time, as launch 1's tile_maxima.
template <int kCols>
__global__ void __launch_bounds__(256) tiles(const float* a, int n, float* sink) {
  constexpr int kRows = 128, kVec = kCols / 128;
  const int tiles_x = n / kCols, rt = blockIdx.x / tiles_x, ct = blockIdx.x % tiles_x;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  float m[4 * kVec] = {};
  for (int rr = 0; rr < kRows / 8; rr += 8) {
    float4 v[8][kVec];
#pragma unroll
    for (int q = 0; q < 8; ++q)
#pragma unroll
      for (int c = 0; c < kVec; ++c)
        v[q][c] = *reinterpret_cast<const float4*>(
            a + int64_t(rt * kRows + w + 8 * (rr + q)) * n + ct * kCols + 4 * (lane + 32 * c));
#pragma unroll
    for (int q = 0; q < 8; ++q)
#pragma unroll
      for (int c = 0; c < kVec; ++c) {
        m[4 * c] = fmaxf(m[4 * c], v[q][c].x);
        m[4 * c + 1] = fmaxf(m[4 * c + 1], v[q][c].y);
        m[4 * c + 2] = fmaxf(m[4 * c + 2], v[q][c].z);
        m[4 * c + 3] = fmaxf(m[4 * c + 3], v[q][c].w);
      }
  }
  float r = 0.f;
#pragma unroll
  for (int e = 0; e < 4 * kVec; ++e) r = fmaxf(r, m[e]);
  sink[blockIdx.x * 256 + threadIdx.x] = r;  // as read_max's
}

__device__ __forceinline__ void split_store(float4 v, float s, __half* p0, __half* p1) {
  const float x[4] = {v.x * s, v.y * s, v.z * s, v.w * s};
  __half h0[4], h1[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    h0[e] = __float2half_rn(x[e]);
    h1[e] = __float2half_rn((x[e] - __half2float(h0[e])) * 2048.f);
  }
  *reinterpret_cast<uint2*>(p0) = *reinterpret_cast<const uint2*>(h0);
  *reinterpret_cast<uint2*>(p1) = *reinterpret_cast<const uint2*>(h1);
}

__global__ void planes(const float4* src, int64_t count4, __half* x0, __half* x1) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count4;
       e += int64_t(gridDim.x) * blockDim.x)
    split_store(src[e], 1.f, x0 + 4 * e, x1 + 4 * e);
}

// Launch 1's row form: kThreads a row, up to kVecs float4s a thread held, the block's max, then
// the split of the held values; rows i = first, first + stride, ... (stride = gridDim.x).
template <int kThreads, int kVecs>
__global__ void __launch_bounds__(kThreads) rows(const float* a, int n, __half* x0, __half* x1) {
  __shared__ float part[kThreads / 32];
  for (int i = blockIdx.x; i < n; i += gridDim.x) {
    const int c0 = i / kTile * kTile;
    const float* row = a + int64_t(i) * n;
    float4 v[kVecs];
    float m = 0.f;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + kThreads * q);
      v[q] = k < n ? *reinterpret_cast<const float4*>(row + k) : float4{};
      m = fmaxf(m, fmaxf(fmaxf(v[q].x, v[q].y), fmaxf(v[q].z, v[q].w)));
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = m;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kThreads / 32; ++q) m = fmaxf(m, part[q]);
    __syncthreads();  // part is rewritten by the next row
    const float s = m > 0.f ? 8.f / m : 1.f;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int k = c0 + 4 * (int(threadIdx.x) + kThreads * q);
      if (k < n) split_store(v[q], s, x0 + int64_t(i) * n + k, x1 + int64_t(i) * n + k);
    }
  }
}

float median_ms(const std::function<void()>& run, char* flush, size_t flush_bytes) {
  cudaEvent_t t0, t1;
  PROBE_CHECK(cudaEventCreate(&t0));
  PROBE_CHECK(cudaEventCreate(&t1));
  std::vector<float> ms;
  for (int r = 0; r < 23; ++r) {
    PROBE_CHECK(cudaMemsetAsync(flush, r, flush_bytes));
    PROBE_CHECK(cudaEventRecord(t0));
    run();
    PROBE_CHECK(cudaEventRecord(t1));
    PROBE_CHECK(cudaEventSynchronize(t1));
    float t = 0.f;
    PROBE_CHECK(cudaEventElapsedTime(&t, t0, t1));
    if (r >= 3) ms.push_back(t);  // three warm-ups
  }
  PROBE_CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  PROBE_CHECK(cudaEventDestroy(t0));
  PROBE_CHECK(cudaEventDestroy(t1));
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n < 256 || n % 256 != 0 || n > 16384) {
    std::fprintf(stderr, "n: a multiple of 256 in [256, 16384], got %d\n", n);
    return 1;
  }
  int dev = 0, sms = 0, l2 = 0;
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  const int64_t count = int64_t(n) * n;
  float *a = nullptr, *b = nullptr;
  __half *x0 = nullptr, *x1 = nullptr;
  char* flush = nullptr;
  const size_t flush_bytes = 2 * size_t(l2);
  PROBE_CHECK(cudaMalloc(&a, count * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&b, count * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&x0, count * sizeof(__half)));
  PROBE_CHECK(cudaMalloc(&x1, count * sizeof(__half)));
  PROBE_CHECK(cudaMalloc(&flush, flush_bytes));
  fill_upper<<<4 * sms, 256>>>(a, n);
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaDeviceSynchronize());

  auto resident = [&](const void* kernel, int threads) {
    int v = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, threads, 0));
    return v * sms;
  };
  const int64_t count4 = count / 4;
  const double dense = double(count) * 4, upper_elems = double(n) * (n + 1) / 2;
  // A's rows from their diagonal blocks: elements read, and written twice as halves.
  double rows_elems = 0;
  for (int i = 0; i < n; ++i) rows_elems += n - i / kTile * kTile;
  struct Row {
    const char* name;
    double bytes;
    std::function<void()> run;
  };
  const int stream_grid = resident(reinterpret_cast<const void*>(copy), 256);
  float* sink = nullptr;
  PROBE_CHECK(cudaMalloc(&sink, size_t(std::max<int64_t>(stream_grid, (n / 128) * (n / 128))) *
                                    256 * sizeof(float)));
  constexpr int kVecs256 = 4, kVecs128 = 8;  // n up to 4096 held whole
  const bool held = n <= 4 * 256 * kVecs256;
  std::vector<Row> table = {
      {"copy", 2 * dense,
       [&] { copy<<<stream_grid, 256>>>((const float4*)a, (float4*)b, count4); }},
      {"read", dense, [&] { read_max<<<stream_grid, 256>>>((const float4*)a, count4, sink); }},
      {"tiles128", dense,
       [&] { tiles<128><<<(n / 128) * (n / 128), 256>>>(a, n, sink); }},
      {"tiles256", dense,
       [&] { tiles<256><<<(n / 128) * (n / 256), 256>>>(a, n, sink); }},
      {"planes", 2 * dense,
       [&] { planes<<<stream_grid, 256>>>((const float4*)a, count4, x0, x1); }},
  };
  if (held) {
    const int persistent = resident(reinterpret_cast<const void*>(rows<256, kVecs256>), 256);
    table.push_back(
        {"rows", rows_elems * 8, [&] { rows<256, kVecs256><<<n, 256>>>(a, n, x0, x1); }});
    int smem_sm = 0;
    PROBE_CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    const int four = smem_sm / 4 - 2048;  // > smem_sm / 5 with the blocks' reserve
    PROBE_CHECK(cudaFuncSetAttribute(rows<256, kVecs256>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, four));
    table.push_back({"rows4", rows_elems * 8,
                     [&] { rows<256, kVecs256><<<n, 256, four>>>(a, n, x0, x1); }});
    table.push_back(
        {"rows128", rows_elems * 8, [&] { rows<128, kVecs128><<<n, 128>>>(a, n, x0, x1); }});
    table.push_back({"rowsP", rows_elems * 8,
                     [&] { rows<256, kVecs256><<<std::min(n, persistent), 256>>>(a, n, x0, x1); }});
  }
  std::printf("n = %d, %d SMs, L2 %d MB flushed by a memset of %zu MB before each run; upper "
              "elements %.0f\n",
              n, sms, l2 >> 20, flush_bytes >> 20, upper_elems);
  if (!held) std::printf("(the row forms hold a row of up to 4096 in registers: not run)\n");
  std::printf("%-8s %10s %8s %8s\n", "form", "ms", "MB", "TB/s");
  for (const Row& r : table) {
    const float ms = median_ms(r.run, flush, flush_bytes);
    std::printf("%-8s %10.4f %8.1f %8.2f\n", r.name, ms, r.bytes / 1e6, r.bytes / (ms * 1e9));
  }
  PROBE_CHECK(cudaFree(a));
  PROBE_CHECK(cudaFree(b));
  PROBE_CHECK(cudaFree(x0));
  PROBE_CHECK(cudaFree(x1));
  PROBE_CHECK(cudaFree(flush));
  PROBE_CHECK(cudaFree(sink));
  return 0;
}
