// Split k over a thread-block cluster (sm_90): where the units leave SMs idle (small n), a unit's
// chain of k stages is shared by the `ranks` blocks of one cluster, each summing a contiguous
// share of the band (sched::RankShare); their fp32 sums meet through distributed shared memory
// and are added in rank order before C is rounded, once (16-bit data: no partial tile ever
// reaches C).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "sched/rank_share.hpp"

namespace trimm::kernels::cluster_split {

constexpr int kMaxRanks = sched::kMaxClusterRanks;

// A block's place in its cluster; by default a block of its own.
struct ClusterPlace {
  int rank = 0, ranks = 1;
  // This block's place: rank 0 of 1 off sm_90, or in a launch without clusters.
  __device__ static ClusterPlace of_this_block() {
    ClusterPlace c;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
    c.rank = int(cluster.block_rank());
    c.ranks = int(cluster.num_blocks());
#endif
    return c;
  }
};

// The cluster's sums of one unit, reduced and scattered over every thread of every rank (ranks
// > 1). kThreads threads (tid in [0, kThreads)) each hold N fp32 sums, N / 4 fragments of four;
// every rank puts them in its shared memory `buf` (N · kThreads floats, free once local_sync()
// has passed); then each thread of rank r adds up fragments v = o·ranks + r of its own position
// over all ranks, in rank order (the same sum wherever it runs), and calls store(v, sums) for
// each. All of a thread's loads are independent: one round trip of distributed shared memory.
// The second barrier is split: a thread arrives once its sums are in registers, and waits only
// before it leaves.
// (Warp w of rank w % ranks adding up all its fragments took 2.5 µs with 2 ranks and 7 with 8,
// at n = 127…511, session 12.) Every thread of the cluster that does not call this calls
// stand_by() instead: the two cluster barriers count all of them.
template <int R, int kThreads, int N, typename Store>
__device__ void gather_and_store(const float4* buf, int tid, int rank, Store& store) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(N / 4 % R == 0, "every rank owns as many fragments");
  constexpr int kOwned = N / 4 / R;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  float4 part[R][kOwned];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const float4* from = cluster.map_shared_rank(buf, q);
#pragma unroll
    for (int o = 0; o < kOwned; ++o) part[q][o] = from[(o * R + rank) * kThreads + tid];
  }
  float4 sum[kOwned];
#pragma unroll
  for (int o = 0; o < kOwned; ++o) {
    sum[o] = part[0][o];
#pragma unroll
    for (int q = 1; q < R; ++q)
      sum[o].x += part[q][o].x, sum[o].y += part[q][o].y, sum[o].z += part[q][o].z,
          sum[o].w += part[q][o].w;
  }
  // This thread's reads of the cluster's shared memory are done (the arrive releases them): the
  // blocks may exit once every thread has arrived (the wait in reduce_scatter). Arriving before
  // C's stores keeps the barrier from waiting for them (after them: 0.4-1.9 µs more at n =
  // 127…1023, session 13).
  cluster.barrier_arrive();
#pragma unroll
  for (int o = 0; o < kOwned; ++o) store(o * R + rank, sum[o]);
#endif
}

template <int kThreads, int N, typename LocalSync, typename Store>
__device__ void reduce_scatter(const float (&acc)[N], void* buf, int tid, const ClusterPlace& c,
                               LocalSync&& local_sync, Store&& store) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(N % 4 == 0, "sums move as float4");
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  float4* mine = static_cast<float4*>(buf);
  local_sync();  // the mainloop's last readers of buf are done
  // Fragment v of every thread at [v·kThreads + tid]: coalesced, conflict-free.
#pragma unroll
  for (int v = 0; v < N / 4; ++v)
    mine[v * kThreads + tid] =
        make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
  cluster.sync();  // every rank's sums are in place
  static_assert(kMaxRanks == 8, "the ranks below");
  if (c.ranks == 2)
    gather_and_store<2, kThreads, N>(mine, tid, c.rank, store);
  else if (c.ranks == 4)
    gather_and_store<4, kThreads, N>(mine, tid, c.rank, store);
  else
    gather_and_store<8, kThreads, N>(mine, tid, c.rank, store);
  cluster.barrier_wait();  // every rank has read: the blocks' shared memory may go
#endif
}

// The part in reduce_scatter() of a thread that holds no sums (a producer or helper warp).
__device__ inline void stand_by(const ClusterPlace& c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (c.ranks == 1) return;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  cluster.sync();
  cluster.sync();
#endif
}

}  // namespace trimm::kernels::cluster_split
