// A work unit's band of k stages shared by the `ranks` blocks of a thread-block cluster
// (kernels/common/cluster_split.cuh): rank r takes whole stages [first, first + steps), the ranks
// in band order, the last ranks' shares possibly empty. Host and device code; CPU-tested.
#pragma once

#include <algorithm>

#include "common/hd.hpp"

namespace trimm::sched {

struct RankShare {
  int first, steps;
  TRIMM_HD RankShare(int all_steps, int rank, int ranks) {
    const int share = (all_steps + ranks - 1) / ranks;
    first = std::min(rank * share, all_steps);
    steps = std::min(share, all_steps - first);
  }
};

}  // namespace trimm::sched
