// Split k over a thread-block cluster (sm_90): where the units leave SMs idle (small n), a unit's
// chain of k stages is shared by the `ranks` blocks of one cluster, each summing a contiguous
// share of the band; their fp32 sums meet through distributed shared memory and are added in
// rank order before C is rounded, once (16-bit data: no partial tile ever reaches C).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace trimm::kernels::cluster_split {

constexpr int kMaxRanks = 8;  // the portable cluster size

// This block's place in its cluster: rank 0 of 1 off sm_90, or in a launch without clusters.
struct ClusterPlace {
  int rank = 0, ranks = 1;
  __device__ ClusterPlace() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
    rank = int(cluster.block_rank());
    ranks = int(cluster.num_blocks());
#endif
  }
};

// This rank's share of a band of `all_steps` k stages: whole stages from `first`, the last ranks'
// shares possibly empty.
struct RankShare {
  int first, steps;
  __device__ RankShare(int all_steps, const ClusterPlace& c) {
    const int share = (all_steps + c.ranks - 1) / c.ranks;
    first = min(c.rank * share, all_steps);
    steps = min(share, all_steps - first);
  }
};

// The cluster's sums of one unit, reduced and scattered. kThreads threads (whole warps, tid in
// [0, kThreads)) each hold N fp32 sums; every rank puts them in its shared memory `buf` (N ·
// kThreads floats, free once local_sync() has passed), then warp w of rank w % ranks adds up its
// own positions over all ranks, in rank order (the same sum wherever it runs). Returns whether
// this thread's acc now holds the unit's sums, to store. Every thread of the cluster that does
// not call this must call stand_by() instead: the two cluster barriers count all of them.
template <int kThreads, int N, typename LocalSync>
__device__ bool reduce(float (&acc)[N], void* buf, int tid, const ClusterPlace& c,
                       LocalSync&& local_sync) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(N % 4 == 0, "sums move as float4");
  static_assert(kThreads / 32 % kMaxRanks == 0, "every rank owns whole warps");
  if (c.ranks == 1) return true;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  float4* mine_out = static_cast<float4*>(buf);
  local_sync();  // the mainloop's last readers of buf are done
  // Position v of every thread at [v·kThreads + tid]: coalesced, conflict-free.
#pragma unroll
  for (int v = 0; v < N / 4; ++v)
    mine_out[v * kThreads + tid] =
        make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
  cluster.sync();  // every rank's sums are in place
  const bool mine = tid / 32 % c.ranks == c.rank;
  if (mine) {
#pragma unroll
    for (int i = 0; i < N; ++i) acc[i] = 0.f;
    for (int r = 0; r < c.ranks; ++r) {
      const float4* from = cluster.map_shared_rank(mine_out, r);
#pragma unroll
      for (int v = 0; v < N / 4; ++v) {
        const float4 x = from[v * kThreads + tid];
        acc[4 * v] += x.x, acc[4 * v + 1] += x.y, acc[4 * v + 2] += x.z, acc[4 * v + 3] += x.w;
      }
    }
  }
  cluster.sync();  // every rank has read: the blocks' shared memory may go
  return mine;
#else
  return true;
#endif
}

// The part in reduce() of a thread that holds no sums (a producer or helper warp).
__device__ inline void stand_by(const ClusterPlace& c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (c.ranks == 1) return;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  cluster.sync();
  cluster.sync();
#endif
}

}  // namespace trimm::kernels::cluster_split
