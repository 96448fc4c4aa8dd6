// sched::RankShare on the CPU: the ranks of a cluster split a band of k stages into contiguous
// shares, in rank order, that cover it exactly once.
#include <gtest/gtest.h>

#include <algorithm>

#include "sched/rank_share.hpp"

namespace trimm::sched {
namespace {

TEST(RankShare, SharesCoverTheBandOnceInRankOrder) {
  for (int ranks : {1, 2, 3, 4, 5, 8})
    for (int all = 0; all <= 300; ++all) {
      int next = 0, longest = 0;
      for (int r = 0; r < ranks; ++r) {
        const RankShare s(all, r, ranks);
        ASSERT_GE(s.steps, 0) << all << " " << r << "/" << ranks;
        ASSERT_EQ(s.first, next) << all << " " << r << "/" << ranks;
        // Whole shares of ceil(all / ranks) first, then the rest, then nothing.
        ASSERT_LE(s.steps, (all + ranks - 1) / ranks);
        if (r > 0 && s.steps > 0) ASSERT_GE(longest, s.steps);
        longest = std::max(longest, s.steps);
        next += s.steps;
      }
      ASSERT_EQ(next, all) << all << " over " << ranks;
    }
}

// Under the launchers' rule (cluster_ranks: the band keeps at least 2 stages a rank), rank 0
// gets a full share of at least 2, and at most 2 of 8 ranks (1 of 4, none of 2) get nothing:
// 17 stages over 8 ranks are 5 shares of 3 and one of 2. Idle ranks cost their SMs, not time: the
// longest share is ceil(stages / ranks) either way.
TEST(RankShare, FewRanksIdleWhenTheBandHasTwoStagesARank) {
  for (int ranks : {2, 4, 8}) {
    int most_idle = 0;
    for (int all = 2 * ranks; all <= 300; ++all) {
      EXPECT_GE(RankShare(all, 0, ranks).steps, 2) << all << "/" << ranks;
      int idle = 0;
      for (int r = 0; r < ranks; ++r) idle += RankShare(all, r, ranks).steps == 0;
      most_idle = std::max(most_idle, idle);
    }
    EXPECT_EQ(most_idle, ranks == 8 ? 2 : ranks == 4 ? 1 : 0) << ranks;
  }
}

}  // namespace
}  // namespace trimm::sched
