// Probe: how many bytes a second an SM takes in from L2, and through which path (bench/NOTES.md,
// session 45). Sessions 43-44 found every loads-bound form of sm90_16bit at ~60 GB/s into each
// SM (~33 B a cycle), flat from 4 ring slots up, multicast or not. Session 33's writer rows had
// 1D bulk copies from a 4 MB source reach 37-58 B a cycle beside the wgmmas. Which is the cap:
// the SM's port, the TMA unit's box walk (a 2D box is one 128-byte row request at a time), or
// the footprint (a 32 MB working set spans both L2 partitions, a 4 MB one may not)?
//
// One block per SM, nothing consumes: each stage brings 32 KB into a ring slot and the slot is
// refilled once it has landed. Modes:
//   tma2d   sm90_16bit's stage: one 128 × 64 box of A and two 64 × 64 boxes of B (bf16, 128-byte
//           swizzle), from the upper triangles of two n × n matrices, thread 0 issuing;
//   bulk    one 32 KB cp.async.bulk (1D) from a source of F bytes, thread 0 issuing;
//   lsu     128 threads, cp.async.cg of 16 bytes, 32 KB a stage, 4 stages in flight;
//   tma2d+lsu, bulk+lsu  both at once: thread 0's TMA ring (4 slots) and warps 1-3's cp.async
//           (2 stages in flight) into their own slots, each path its own stream of stages.
// Prints each mode's bytes a cycle a SM (the median block, from clock64), GB/s a SM and the
// whole GPU's TB/s (CUDA events), for a 32 MB and a 4 MB working set. If a combined mode beats
// both of its parts, the cap is the path, not the port: sm90_16bit could split its loads.
//
// Session 45's first run (bench/RESULTS.md): every path ~35 B a cycle at 32 MB, none adds to
// another; at 2 MB bulk and cp.async reach 60, the 2D boxes 41. So the working set, not the
// path, sets the rate. --share G: blocks in groups of G (by blockIdx) read the same sources in
// the same order, at about the same time (do SMs that read the same bytes together get more?).
//
// --pattern pair: tma2d's A boxes shared by blocks 2g and 2g + 1, B's not (sm90_16bit's pairs);
// quad: blocks 4q + r as a 2 × 2 of tiles, A shared along a row, B along a column; far: blocks
// b and b + grid/2 share everything (not neighbours in blockIdx, so likely not one TPC).
//
// Usage: probe_sm90_ingest_rate [--stages S] [--share G] [--pattern pair|quad] [--modes all|tb]
//        [n ...]
//   (default 1024 stages: 32 MB a block; G 1; n 4096 1024: working sets of n² · 2 bytes)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/float16.hpp"
#include "kernels/sm80/cp_async.cuh"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.cuh"
#include "probe_check.hpp"

namespace {

using trimm::kernels::shared_address;

constexpr int kThreads = 128;
constexpr int kStage = 32 * 1024;         // one sm90_16bit stage: A 16 KB + B 2 × 8 KB
constexpr int kRingBytes = 6 * kStage;    // all the ring a mode may use
constexpr int kSmem = kRingBytes + 1024;  // + alignment slack
enum Mode { kTma2d, kBulk, kLsu, kTma2dLsu, kBulkLsu };
const char* const kModeNames[] = {"tma2d", "bulk", "lsu", "tma2d+lsu", "bulk+lsu"};

struct Src {
  const int2* a_boxes;  // (k, m) of A's 128 × 64 boxes inside its upper triangle
  int na;
  const int2* b_boxes;  // (n, k) of B's 128-column, 64-row box pairs inside its upper triangle
  int nb;
  const unsigned char* bytes;  // the 1D source
  int64_t chunks;              // of kStage bytes
  uint32_t share;              // blocks reading the same sequence of sources
  uint32_t pattern;  // tma2d: 0 share, 1 pairs (A shared by 2), 2 quads (A by 2, B by 2), 3 far
};

#if TRIMM_SM90_DEVICE
namespace ptx = trimm::kernels::sm90::ptx;
namespace cpa = trimm::kernels::cp_async;

// A stage's source: spread over the working set, different in every block.
__device__ __forceinline__ uint32_t mix(uint32_t block, uint32_t stage, uint32_t salt) {
  uint32_t h = block * 2654435761u ^ (stage + salt) * 40503u;
  h ^= h >> 15;
  return h * 2246822519u;
}

// The TMA path: `stages` stages into `slots` slots, each reissued once its bytes have landed.
template <bool k2d>
__device__ void tma_path(unsigned char* ring, uint64_t* full, int slots, int stages,
                         const CUtensorMap* ma, const CUtensorMap* mb, const Src& src) {
  for (int s = 0; s < stages; ++s) {
    const int slot = s % slots;
    if (s >= slots) ptx::mbar_wait(&full[slot], uint32_t(s / slots - 1) & 1u);
    ptx::mbar_arrive_expect_tx(&full[slot], kStage);
    unsigned char* dst = ring + slot * kStage;
    const uint32_t h = mix(blockIdx.x / src.share, uint32_t(s), 0u);
    if constexpr (k2d) {
      // --pattern: whose A (and B) boxes a block shares (see main).
      const uint32_t b4 = blockIdx.x / 4, r = blockIdx.x % 4;
      const uint32_t half = (gridDim.x + 1) / 2;
      const uint32_t key_a = src.pattern == 0   ? blockIdx.x / src.share
                             : src.pattern == 1 ? blockIdx.x / 2
                             : src.pattern == 2 ? 2 * b4 + r / 2
                                                : blockIdx.x % half;
      const uint32_t key_b = src.pattern == 0   ? blockIdx.x / src.share
                             : src.pattern == 1 ? blockIdx.x
                             : src.pattern == 2 ? 2 * b4 + r % 2
                                                : blockIdx.x % half;
      const int2 a = src.a_boxes[mix(key_a, uint32_t(s), 0u) % uint32_t(src.na)];
      const int2 b = src.b_boxes[mix(key_b, uint32_t(s), 5557u) % uint32_t(src.nb)];
      ptx::tma_load_3d(dst, ma, &full[slot], a.x, a.y, 0);
      ptx::tma_load_3d(dst + 16384, mb, &full[slot], b.x, b.y, 0);
      ptx::tma_load_3d(dst + 24576, mb, &full[slot], b.x + 64, b.y, 0);
    } else {
      const unsigned char* g = src.bytes + int64_t(h % uint64_t(src.chunks)) * kStage;
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
          "[%3];\n" ::"r"(shared_address(dst)),
          "l"(g), "r"(kStage), "r"(shared_address(&full[slot]))
          : "memory");
    }
  }
  for (int s = stages > slots ? stages - slots : 0; s < stages; ++s)
    ptx::mbar_wait(&full[s % slots], uint32_t(s / slots) & 1u);
}

// The load/store unit's path: `threads` threads (from `first`), kDepth stages in flight.
template <int kDepth>
__device__ void lsu_path(unsigned char* slots, int first, int threads, int stages, const Src& src) {
  const int me = int(threadIdx.x) - first;
  for (int s = 0; s < stages; ++s) {
    unsigned char* dst = slots + (s % kDepth) * kStage;
    const unsigned char* g =
        src.bytes +
        int64_t(mix(blockIdx.x / src.share, uint32_t(s), 977u) % uint64_t(src.chunks)) * kStage;
    for (int i = me; i < kStage / 16; i += threads) cpa::copy16(dst + 16 * i, g + 16 * i, 16);
    cpa::commit();
    cpa::wait<kDepth - 1>();
  }
  cpa::wait<0>();
}
#endif

// cycles[3·block + p]: the TMA path's end, the LSU path's (its last thread), the block's.
template <int kMode>
__global__ void __launch_bounds__(kThreads, 1)
    ingest(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, Src src,
           int stages, long long* cycles) {
#if TRIMM_SM90_DEVICE
  extern __shared__ __align__(1024) unsigned char raw[];
  unsigned char* ring = raw + ((1024u - (shared_address(raw) & 1023u)) & 1023u);
  __shared__ uint64_t full[6];
  __shared__ long long lsu_end;
  const int tid = int(threadIdx.x);
  constexpr bool kCombined = kMode == kTma2dLsu || kMode == kBulkLsu;
  const int slots = kCombined ? 4 : 6;
  if (tid == 0) {
    for (int i = 0; i < 6; ++i) ptx::mbar_init(&full[i], 1);
    ptx::mbar_init_fence();
    ptx::tma_prefetch_descriptor(&ma);
    ptx::tma_prefetch_descriptor(&mb);
    lsu_end = 0;
  }
  __syncthreads();
  const long long t0 = clock64();
  long long tma_end = 0;
  if constexpr (kMode == kLsu) {
    lsu_path<4>(ring, 0, kThreads, stages, src);
    atomicMax(reinterpret_cast<unsigned long long*>(&lsu_end),
              static_cast<unsigned long long>(clock64() - t0));
  } else {
    if (tid == 0) {
      tma_path<kMode == kTma2d || kMode == kTma2dLsu>(ring, full, slots, stages, &ma, &mb, src);
      tma_end = clock64() - t0;
    }
    if (kCombined && tid >= 32) {
      lsu_path<2>(ring + 4 * kStage, 32, kThreads - 32, stages, src);
      atomicMax(reinterpret_cast<unsigned long long*>(&lsu_end),
                static_cast<unsigned long long>(clock64() - t0));
    }
  }
  __syncthreads();
  if (tid == 0) {
    cycles[3 * blockIdx.x] = tma_end;
    cycles[3 * blockIdx.x + 1] = lsu_end;
    cycles[3 * blockIdx.x + 2] = clock64() - t0;
  }
#else
  __trap();
#endif
}

template <int kMode>
void run(int sms, const CUtensorMap& ma, const CUtensorMap& mb, const Src& src, int stages,
         long long* d_cycles, const char* footprint) {
  PROBE_CHECK(
      cudaFuncSetAttribute(ingest<kMode>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int rep = 0; rep < 3; ++rep) {  // the first run warms L2 with the working set
    PROBE_CHECK(cudaEventRecord(e0));
    ingest<kMode><<<sms, kThreads, kSmem>>>(ma, mb, src, stages, d_cycles);
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    PROBE_CHECK(cudaGetLastError());
    float ms = 0.f;
    PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (rep > 0) best = std::min(best, ms);
  }
  std::vector<long long> c(size_t(3 * sms));
  PROBE_CHECK(cudaMemcpy(c.data(), d_cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<double> rate;  // bytes a cycle a block, over the block's time
  const bool combined = kMode == kTma2dLsu || kMode == kBulkLsu;
  const double block_bytes = double(stages) * kStage * (combined ? 2 : 1);
  for (int b = 0; b < sms; ++b) rate.push_back(block_bytes / double(c[size_t(3 * b + 2)]));
  std::sort(rate.begin(), rate.end());
  double path_tma = 0, path_lsu = 0;  // the median block's paths alone, bytes a cycle
  if (combined) {
    std::vector<double> t, l;
    for (int b = 0; b < sms; ++b) {
      t.push_back(double(stages) * kStage / double(c[size_t(3 * b)]));
      l.push_back(double(stages) * kStage / double(c[size_t(3 * b + 1)]));
    }
    std::sort(t.begin(), t.end());
    std::sort(l.begin(), l.end());
    path_tma = t[t.size() / 2], path_lsu = l[l.size() / 2];
  }
  const double per_sm = block_bytes / (best * 1e-3) / 1e9;
  std::printf(
      "%-10s %-7s %8.3f ms  %6.1f GB/s a SM  %5.2f TB/s  B/cycle a SM: median %5.1f"
      " (min %5.1f, max %5.1f)",
      kModeNames[kMode], footprint, best, per_sm, per_sm * sms / 1e3, rate[rate.size() / 2],
      rate.front(), rate.back());
  if (combined) std::printf("  [tma path %5.1f, lsu path %5.1f]", path_tma, path_lsu);
  std::printf("\n");
  PROBE_CHECK(cudaEventDestroy(e0));
  PROBE_CHECK(cudaEventDestroy(e1));
}

// The boxes inside the upper triangle of an n × n matrix: A's 128 × 64 (k ≥ m), B's 128-column,
// 64-row pairs (n ≥ k).
void boxes(int n, std::vector<int2>& a, std::vector<int2>& b) {
  a.clear(), b.clear();
  for (int m = 0; m < n; m += 128)
    for (int k = m; k < n; k += 64) a.push_back({k, m});
  for (int k = 0; k < n; k += 64)
    for (int c = k / 128 * 128; c < n; c += 128) b.push_back({c, k});
}

}  // namespace

int main(int argc, char** argv) {
  int stages = 1024, share = 1, pattern = 0;
  bool all_modes = true;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--stages" && i + 1 < argc)
      stages = std::atoi(argv[++i]);
    else if (a == "--share" && i + 1 < argc)
      share = std::max(1, std::atoi(argv[++i]));
    else if (a == "--modes" && i + 1 < argc)
      all_modes = std::string(argv[++i]) == "all";
    else if (a == "--pattern" && i + 1 < argc)
      pattern = std::string(argv[i + 1]) == "pair"   ? 1
                : std::string(argv[i + 1]) == "quad" ? 2
                                                     : 3,
      ++i;
    else
      sizes.push_back(std::atoi(argv[i]) / 128 * 128);
  }
  if (sizes.empty()) sizes = {4096, 1024};
  int dev = 0, sms = 0, cc_major = 0;
  PROBE_CHECK(cudaGetDevice(&dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PROBE_CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, dev));
  if (cc_major != 9) {
    std::printf("probe_sm90_ingest_rate: needs sm_90 (this GPU is sm_%d x)\n", cc_major);
    return 0;
  }
  std::printf("# %d SMs, %d stages of %d bytes a block (a path), share %d, pattern %s\n", sms,
              stages, kStage, share,
              pattern == 0   ? "-"
              : pattern == 1 ? "pair"
              : pattern == 2 ? "quad"
                             : "far");
  long long* d_cycles = nullptr;
  PROBE_CHECK(cudaMalloc(&d_cycles, size_t(3 * sms) * sizeof(long long)));
  for (const int n : sizes) {  // working set: both triangles, n² · 2 bytes (the 1D source alike)
    const size_t elems = size_t(n) * n;
    trimm::bfloat16_t *A = nullptr, *B = nullptr;
    unsigned char* bytes = nullptr;
    const size_t source = elems * 2;
    PROBE_CHECK(cudaMalloc(&A, elems * 2));
    PROBE_CHECK(cudaMalloc(&B, elems * 2));
    PROBE_CHECK(cudaMalloc(&bytes, source));
    PROBE_CHECK(cudaMemset(A, 0x3c, elems * 2));
    PROBE_CHECK(cudaMemset(B, 0x3c, elems * 2));
    PROBE_CHECK(cudaMemset(bytes, 1, source));
    std::vector<int2> a, b;
    boxes(n, a, b);
    int2 *da = nullptr, *db = nullptr;
    PROBE_CHECK(cudaMalloc(&da, a.size() * sizeof(int2)));
    PROBE_CHECK(cudaMalloc(&db, b.size() * sizeof(int2)));
    PROBE_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(int2), cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(int2), cudaMemcpyHostToDevice));
    const CUtensorMap ma = trimm::kernels::sm90::make_map(A, n, n, 0, 1, 64, 128);
    const CUtensorMap mb = trimm::kernels::sm90::make_map(B, n, n, 0, 1, 64, 64);
    const Src src{da,
                  int(a.size()),
                  db,
                  int(b.size()),
                  bytes,
                  int64_t(source / kStage),
                  uint32_t(share),
                  uint32_t(pattern)};
    char fp[32];
    std::snprintf(fp, sizeof fp, "%.1fMB", double(source) / (1 << 20));
    run<kTma2d>(sms, ma, mb, src, stages, d_cycles, fp);
    run<kBulk>(sms, ma, mb, src, stages, d_cycles, fp);
    if (all_modes) {
      run<kLsu>(sms, ma, mb, src, stages, d_cycles, fp);
      run<kTma2dLsu>(sms, ma, mb, src, stages, d_cycles, fp);
      run<kBulkLsu>(sms, ma, mb, src, stages, d_cycles, fp);
    }
    PROBE_CHECK(cudaFree(A));
    PROBE_CHECK(cudaFree(B));
    PROBE_CHECK(cudaFree(bytes));
    PROBE_CHECK(cudaFree(da));
    PROBE_CHECK(cudaFree(db));
  }
  PROBE_CHECK(cudaFree(d_cycles));
  return 0;
}
