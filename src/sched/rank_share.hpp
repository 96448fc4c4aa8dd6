// A work unit's band of k stages shared by the `ranks` blocks of a thread-block cluster
// (kernels/common/cluster_split.cuh), and how many ranks a launch takes. CPU-tested.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/hd.hpp"

namespace trimm::sched {

constexpr int kMaxClusterRanks = 8;  // the portable thread-block cluster size

// Rank r takes whole stages [first, first + steps), the ranks in band order, the last ranks'
// shares possibly empty. Host and device code.
struct RankShare {
  int first, steps;
  TRIMM_HD RankShare(int all_steps, int rank, int ranks) {
    const int share = (all_steps + ranks - 1) / ranks;
    first = std::min(rank * share, all_steps);
    steps = std::min(share, all_steps - first);
  }
};

// How a kernel family splits: each rank keeps at least min_share stages of the longest band, and
// the blocks may take up to `waves` waves of slots (a second wave takes the shortest units); but
// one wave where that alone reaches one_wave_ranks ranks (0: never). any_count: clusters of any
// size (3 included), not only powers of two.
struct SplitPolicy {
  int min_share, waves, one_wave_ranks = 0;
  bool any_count = false;
};

// Blocks per unit for a k split over clusters: a power of two (any count, policy.any_count) up to
// max_ranks, while units · ranks ≤ waves · slots, the longest band (`longest` stages) keeps
// min_share stages a rank, and fits(ranks) says the device can hold such a cluster. 1 where the
// units alone fill the slots. Host code.
template <class Fits>
int split_ranks(int64_t units, int64_t slots, int64_t longest, SplitPolicy policy, int max_ranks,
                Fits&& fits) {
  auto most = [&](int waves) {
    int r = 1;
    for (int next = 2; next <= max_ranks && units * next <= waves * slots &&
                       longest >= int64_t(policy.min_share) * next && fits(next);
         next = policy.any_count ? next + 1 : 2 * next)
      r = next;
    return r;
  };
  if (policy.one_wave_ranks > 0) {
    const int one_wave = most(1);
    if (one_wave >= policy.one_wave_ranks) return one_wave;
  }
  return most(policy.waves);
}

}  // namespace trimm::sched
