// The host side every triangle kernel shares: occupancy (queried once per device), the schedule
// for that many concurrent blocks, the launch over the batch, and the fix-up pass for split
// tiles. Included by each family's .cu, after its kernel.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "cuda/check.hpp"
#include "kernels/common/cluster_split.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "sched/dispatch_order.hpp"
#include "sched/order_cache.hpp"
#include "sched/pair_order.hpp"
#include "sched/rank_share.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels {

// 16-byte vectors need every row start 16-byte aligned: aligned bases, lds and batch strides.
// One operand's rows:
template <typename T>
bool rows_16b_aligned(const T* base, int64_t ld, int64_t stride, int64_t batch) {
  constexpr int64_t kPer = 16 / int64_t(sizeof(T));  // elements per 16 bytes
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld % kPer == 0 &&
         (batch <= 1 || stride % kPer == 0);
}
// A's, B's and C's:
template <typename T>
bool rows_16b_aligned(const MatrixProblem<T>& p) {
  return rows_16b_aligned(p.A, p.lda, p.stride_a, p.batch) &&
         rows_16b_aligned(p.B, p.ldb, p.stride_b, p.batch) &&
         rows_16b_aligned<T>(p.C, p.ldc, p.stride_c, p.batch);
}

// Every triangle kernel has this signature: one block per work unit of `s` (block x takes unit
// order.at(x)), batch entries batch_offset + blockIdx.y.
using TriangleKernel = void (*)(Problem, sched::TriangleSchedule, int64_t,
                                const sched::DispatchOrder);

// A per-device answer kept in `slot` (0: not yet known): compute() runs until one call has
// stored its answer, which must not be 0. Host-side queries: no allocation, no synchronization.
template <class Compute>
int cached(std::atomic<int>& slot, Compute&& compute) {
  int v = slot.load(std::memory_order_relaxed);
  if (v == 0) {
    v = compute();
    slot.store(v, std::memory_order_relaxed);
  }
  return v;
}

// Blocks of kKernel per SM with `smem` bytes of dynamic shared memory, queried once per device.
// Also opts the kernel in to that much dynamic shared memory, which above 48 KB is required,
// before its first launch on the device.
template <auto kKernel>
int blocks_per_sm(int device, int threads, int smem) {
  static std::atomic<int> cache[kMaxDevices] = {};  // the host API checked the ordinal
  return cached(cache[device], [&] {
    int v = 0;
    TRIMM_CUDA_CHECK(
        cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    TRIMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kKernel, threads, smem));
    if (v < 1)
      throw CudaError("trimm: a kernel's block (" + std::to_string(threads) + " threads, " +
                      std::to_string(smem) + " bytes of shared memory) does not fit on device " +
                      std::to_string(device));
    return v;
  });
}

// Whether kKernel runs from sm_90 code on `device` (a build without it JITs compute_80 PTX,
// which has no clusters), queried once per device.
template <auto kKernel>
bool has_clusters(int device) {
  static std::atomic<int> cache[kMaxDevices] = {};  // 1 no, 2 yes
  return cached(cache[device], [] {
           cudaFuncAttributes a{};
           TRIMM_CUDA_CHECK(cudaFuncGetAttributes(&a, kKernel));
           return a.binaryVersion >= 90 ? 2 : 1;
         }) == 2;
}

// Whether the driver takes kernel parameters past CUDA's classic 4 KB (up to 32764 bytes: a CUDA
// 12.1 driver, R530, or later), queried once; the toolkit is checked at build time.
inline bool driver_takes_large_params() {
  static const bool ok = [] {
    int version = 0;
    TRIMM_CUDA_CHECK(cudaDriverGetVersion(&version));
    return version >= 12010;
  }();
  return ok;
}

// A launch configuration of `grid` blocks in clusters of `ranks` blocks along x (sm_90).
struct ClusterLaunch {
  cudaLaunchAttribute attrs[2] = {};
  cudaLaunchConfig_t cfg = {};
  // dependent: a programmatic dependent of the stream's previous work (dependent_launch.cuh).
  ClusterLaunch(dim3 grid, int threads, int smem, int ranks, cudaStream_t stream,
                bool dependent = false) {
    attrs[0].id = cudaLaunchAttributeClusterDimension;
    attrs[0].val.clusterDim.x = unsigned(ranks);
    attrs[0].val.clusterDim.y = 1;
    attrs[0].val.clusterDim.z = 1;
    attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[1].val.programmaticStreamSerializationAllowed = 1;
    cfg.gridDim = grid;
    cfg.blockDim = dim3(unsigned(threads));
    cfg.dynamicSmemBytes = size_t(smem);
    cfg.stream = stream;
    cfg.attrs = attrs;
    cfg.numAttrs = dependent ? 2 : 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;  // cfg points into this object
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

// How many clusters of `blocks` blocks of kKernel (threads, smem bytes of dynamic shared memory
// each: the size blocks_per_sm opted it in to) the device holds at once, queried once per device
// and cluster size (1 to cluster_split::kMaxRanks blocks); 0 where none fits.
template <auto kKernel>
int max_clusters(const DeviceInfo& dev, int blocks, int threads, int smem) {
  static std::atomic<int> cache[kMaxDevices][cluster_split::kMaxRanks + 1] = {};  // count + 1
  if (blocks < 1 || blocks > cluster_split::kMaxRanks) return 0;
  return cached(cache[dev.ordinal][blocks], [&] {
           const ClusterLaunch launch(dim3(unsigned(blocks * dev.sms)), threads, smem, blocks,
                                      nullptr);
           int clusters = 0;
           TRIMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kKernel, &launch.cfg));
           return clusters + 1;
         }) - 1;
}

// Blocks per unit for a k split over a cluster (cluster_split.cuh): sched::split_ranks under
// the family's policy, with clusters of at most max_ranks blocks that the device can hold
// (threads, smem: the size blocks_per_sm opted kKernel in to); 1 off sm_90 and where kKernel
// runs from code without clusters. The sums' order, so C's last bit, thus depends on n, the batch
// and the SM count, never on the run.
template <auto kKernel>
int cluster_ranks(int64_t units, int64_t slots, int64_t longest, sched::SplitPolicy policy,
                  const DeviceInfo& dev, int threads, int smem,
                  int max_ranks = cluster_split::kMaxRanks) {
  if (dev.cc != 90 || !has_clusters<kKernel>(dev.ordinal)) return 1;
  return sched::split_ranks(units, slots, longest, policy, max_ranks,
                            [&](int ranks) {
                              return max_clusters<kKernel>(dev, ranks, threads, smem) > 0;
                            });
}

// sched::launch_order for schedule s on `slots` slots under cost (a function: each kernel
// family has its own), where sched::packable; built once per family and shape and kept in a
// bounded table (sched/order_cache.hpp: 256 entries of ~2 KB of host memory, every family's).
template <class Cost>
sched::DispatchOrder cached_order(const sched::TriangleSchedule& s, int64_t slots, const Cost& cost,
                                  bool persistent) {
  static_assert(std::is_function_v<Cost>, "the cache is keyed on the cost function's address");
  using Key = std::tuple<const void*, int64_t, int, int, int, bool, int64_t, bool>;
  static sched::OrderCache<Key, sched::DispatchOrder, 256> cache;
  return cache.get(Key(reinterpret_cast<const void*>(&cost), s.n, s.tile, s.k_step, s.split_d,
                       s.dense, slots, persistent),
                   [&] { return sched::launch_order(s, slots, cost, persistent); });
}

// sched::pair_order for schedule s on `clusters` clusters of two under cost, kept as
// cached_order's (256 entries of ~8 KB).
template <class Cost>
sched::PairLayout cached_pair_order(const sched::TriangleSchedule& s, int64_t clusters, int max_lag,
                                    const Cost& cost) {
  static_assert(std::is_function_v<Cost>, "the cache is keyed on the cost function's address");
  using Key = std::tuple<const void*, int64_t, int, int, int64_t, int>;
  static sched::OrderCache<Key, sched::PairLayout, 256> cache;
  return cache.get(
      Key(reinterpret_cast<const void*>(&cost), s.n, s.tile, s.k_step, clusters, max_lag),
      [&] { return sched::pair_order(s, clusters, max_lag, cost); });
}

// The order a launch over schedule s takes: in bands of `band` diagonals where
// sched::takes_bands says so (a kernel that decodes with sched::ordered_unit); else
// cached_order for a single problem whose units packing can help, given a cost; otherwise longest
// first (a batch's blocks interleave across problems). A built order is copied into `storage`.
template <class Cost>
const sched::DispatchOrder& problem_order(int64_t batch, const sched::TriangleSchedule& s,
                                          int64_t slots, const Cost& cost, bool persistent,
                                          int band, sched::DispatchOrder& storage) {
  if (sched::takes_bands(s, batch, slots, band)) {
    storage = sched::DispatchOrder{};
    storage.band = band;
    return storage;
  }
  static const sched::DispatchOrder kLongestFirst{};
  if constexpr (!std::is_same_v<Cost, std::nullptr_t>)
    if (batch == 1 && sched::packable(s, slots)) {
      storage = cached_order(s, slots, cost, persistent);
      return storage;
    }
  return kLongestFirst;
}

// Runs a triangle kernel over p: the schedule for the blocks that fit at once, one launch per
// 65535 batch entries (`launch(grid, schedule, first batch entry, dispatch order)`), and after
// each the fix-up pass for split tiles. `trans`: the kernel computes C' = Cᵀ (the Lower product).
// cost(unit), where given: a single problem's units go in a balanced order (dispatch_order.hpp);
// otherwise (a batch, whose blocks interleave across problems, or no cost) longest first.
// persistent (a kernel that walks sched::BlockUnits): a single problem's grid is one block per
// slot, each with its list of units, where sched::persistent_order has a layout for it (else
// the balanced order, one block per unit).
// band: see problem_order.
template <int kTile, class Launch, class Cost = std::nullptr_t>
void launch_over_triangle(const Problem& p, const DeviceInfo& dev, int blocks_per_sm, int k_step,
                          bool trans, Launch&& launch, cudaStream_t stream,
                          const Cost& cost = nullptr, bool persistent = false, int band = 0) {
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm;
  // A batch fills the machine by itself: split only what one problem's share cannot balance.
  const int64_t slots_per_problem = std::max<int64_t>(1, (slots + p.batch - 1) / p.batch);
  // Path::Fallback (a launch gated on a flag that is almost always clear) splits no tile: its
  // fix-up pass would run, ungated, after every call (sm90_fp16x3 at 2048: 0.098 ms with it,
  // 0.072 without; bench/RESULTS.md, session 24).
  const sched::TriangleSchedule s =
      sched::make_schedule(p.n, kTile, k_step, slots_per_problem, p.path == Path::Dense,
                           /*split=*/p.path != Path::Fallback);
  const int64_t units = s.num_units(), fixups = s.num_fixup_tiles();
  sched::DispatchOrder storage;
  const sched::DispatchOrder& order =
      problem_order(p.batch, s, slots_per_problem, cost, persistent, band, storage);
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const unsigned nb = unsigned(std::min(kMaxGridY, p.batch - b0));
    launch(dim3(unsigned(order.grid(units)), nb), s, b0, order);
    TRIMM_CUDA_CHECK(cudaGetLastError());
    if (fixups > 0) {
      constexpr int kSubTiles = (kTile / 32) * (kTile / 32);
      fixup_split_tiles<kTile><<<dim3(unsigned(fixups * kSubTiles), nb), dim3(32, 8), 0, stream>>>(
          p.C, p.ldc, p.stride_c, s, trans, b0);
      TRIMM_CUDA_CHECK(cudaGetLastError());
    }
  }
}

// The launch of a kernel whose tiles are never split (16-bit data: a split tile's partial would
// reach C in 16 bits, a second rounding), so no fix-up pass: the schedule (dense: every tile's
// band all of k, Structure::Detect's general path), the order (problem_order under cost), and
// `launch(grid, schedule, first batch entry, order)` once per 65535 batch entries. band: see
// problem_order.
template <class Cost, class Launch>
void launch_unsplit(int64_t n, int64_t batch, int tile, int k_step, int64_t slots,
                    const Cost& cost, bool persistent, bool dense, Launch&& launch, int band = 0) {
  const sched::TriangleSchedule s =
      sched::make_schedule(n, tile, k_step, /*slots=*/1, dense, /*split=*/false);
  sched::DispatchOrder storage;
  const sched::DispatchOrder& order =
      problem_order(batch, s, slots, cost, persistent, band, storage);
  const unsigned blocks = unsigned(order.grid(s.num_units()));
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < batch; b0 += kMaxGridY) {
    launch(dim3(blocks, unsigned(std::min(kMaxGridY, batch - b0))), s, b0, order);
    TRIMM_CUDA_CHECK(cudaGetLastError());
  }
}

// launch_over_triangle for a kernel with the plain TriangleKernel signature: one block per work
// unit, `threads` threads and `smem` bytes of dynamic shared memory each.
// The kernels read the dispatch order in their sm_90a code only (simt_fp32's sm_80 code has no
// register left for it): elsewhere (sm_80/89, and later GPUs, which JIT the compute_80 PTX)
// no order is built.
template <TriangleKernel kKernel, int kTile, class Cost>
void launch_triangle(const Problem& p, const DeviceInfo& dev, cudaStream_t stream, int threads,
                     int smem, int k_step, bool trans, const Cost& cost) {
  const int per_sm = blocks_per_sm<kKernel>(dev.ordinal, threads, smem);
  auto launch = [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
                    const sched::DispatchOrder& order) {
    kKernel<<<grid, threads, smem, stream>>>(p, s, b0, order);
  };
  if (dev.cc == 90)
    launch_over_triangle<kTile>(p, dev, per_sm, k_step, trans, launch, stream, cost);
  else
    launch_over_triangle<kTile>(p, dev, per_sm, k_step, trans, launch, stream);
}

// Launches the instantiation of a kernel family that fits p: the Lower product or the Upper one,
// 16-byte vectors or scalar accesses. Family provides kTile, kThreads, kSmem (dynamic shared
// bytes), kStep (k per stage), tag<kTrans, kVec>(), a std::integral_constant holding the
// kernel, and cost: nullptr, or unit -> its time in any consistent measure (for the dispatch
// order of launch_over_triangle).
template <class Family>
void launch_family(const Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  const bool trans = p.fill == Fill::Lower, vec = rows_16b_aligned(p);
  auto go = [&](auto tag) {
    launch_triangle<decltype(tag)::value, Family::kTile>(p, dev, stream, Family::kThreads,
                                                         Family::kSmem, Family::kStep, trans,
                                                         Family::cost);
  };
  if (trans)
    vec ? go(Family::template tag<true, true>()) : go(Family::template tag<true, false>());
  else
    vec ? go(Family::template tag<false, true>()) : go(Family::template tag<false, false>());
}

}  // namespace trimm::kernels
