// sched::RankShare and split_ranks on the CPU: the ranks of a cluster split a band of k stages
// into contiguous shares, in rank order, that cover it exactly once; a launch takes as many
// ranks as two waves of slots, the band and the device allow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "config/tile_config.hpp"
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

// The launches session 12 measured on the H200 (132 slots, sm80_16bit: 32-k stages, at least 2
// a rank, clusters of up to 8): n -> (units, stages of the corner band) -> ranks.
TEST(SplitRanks, TheMeasuredLaunches) {
  auto any = [](int) { return true; };
  auto tiles = [](int64_t n) { return (n + 127) / 128; };
  auto ranks = [&](int64_t n, int64_t batch) {
    const int64_t t = tiles(n);
    return split_ranks(t * (t + 1) / 2 * batch, 132, (n + 31) / 32, {2, 2}, 8, any);
  };
  EXPECT_EQ(ranks(127, 1), 2);    // 1 unit, 4 stages
  EXPECT_EQ(ranks(255, 1), 4);    // 3 units, 8 stages
  EXPECT_EQ(ranks(511, 1), 8);    // 10 units, 16 stages
  EXPECT_EQ(ranks(1023, 1), 4);   // 36 units: 144 blocks, two waves allowed; 288 are not
  EXPECT_EQ(ranks(1535, 1), 2);   // 78 units
  EXPECT_EQ(ranks(2047, 1), 1);   // 136 units fill the slots
  EXPECT_EQ(ranks(32, 1), 1);     // one stage
  EXPECT_EQ(ranks(300, 3), 4);    // 18 units of 10 stages
  EXPECT_EQ(ranks(33, 1000), 1);  // a batch fills the machine
}

// sm90_16bit's configured split (config::kSm90Bf16Split, up to kSm90Bf16SplitRanks) on 132 SMs:
// n -> (units, stages of 64 k in the corner band) -> ranks, as tile_config.hpp documents them
// (3 ranks at n = 897-1024, 4 below, 2 past).
TEST(SplitRanks, TheConfiguredSm90Bf16Split) {
  auto any = [](int) { return true; };
  auto ranks = [&](int64_t n) {
    const int64_t t = (n + 127) / 128;
    return split_ranks(t * (t + 1) / 2, 132, (n + 63) / 64, config::kSm90Bf16Split,
                       config::kSm90Bf16SplitRanks, any);
  };
  EXPECT_EQ(ranks(256), 2);   // 3 units, 4 stages: 2 a rank
  EXPECT_EQ(ranks(512), 4);   // 10 units, 8 stages
  EXPECT_EQ(ranks(896), 4);   // 28 units, 14 stages
  EXPECT_EQ(ranks(897), 3);   // 36 units
  EXPECT_EQ(ranks(1024), 3);  // 36 units, 16 stages
  EXPECT_EQ(ranks(1025), 2);  // 45 units
}

// One wave: 1023's 36 units take 2 ranks (72 blocks), 767's 21 take 4 (84).
TEST(SplitRanks, OneWave) {
  auto any = [](int) { return true; };
  EXPECT_EQ(split_ranks(36, 132, 32, {2, 1}, 8, any), 2);
  EXPECT_EQ(split_ranks(21, 132, 24, {2, 1}, 8, any), 4);
  EXPECT_EQ(split_ranks(15, 132, 20, {2, 1}, 8, any), 8);
}

// One wave where it reaches 4 ranks, else two (sm80_16bit's aligned rows, session 13): 767's 21
// units and 895's 28 take 4 ranks in one wave, 1023's 36 four in two (one wave has only 2).
TEST(SplitRanks, OneWaveWhereItKeepsFourRanks) {
  auto any = [](int) { return true; };
  EXPECT_EQ(split_ranks(21, 132, 24, {2, 2, 4}, 8, any), 4);
  EXPECT_EQ(split_ranks(28, 132, 28, {2, 2, 4}, 8, any), 4);
  EXPECT_EQ(split_ranks(15, 132, 20, {2, 2, 4}, 8, any), 8);
  EXPECT_EQ(split_ranks(36, 132, 32, {2, 2, 4}, 8, any), 4);
  EXPECT_EQ(split_ranks(1, 132, 4, {2, 2, 4}, 8, any), 2);  // too short a band for 4
  EXPECT_EQ(split_ranks(21, 132, 24, {2, 2}, 8, any), 8);   // without: two waves
}

// Any count (sm90_16bit): 1023's 36 units take 3 ranks in one wave (108 blocks) where powers of
// two stop at 2; 28 units take 4 (5 would be 140 blocks); the band's min_share still bounds it.
TEST(SplitRanks, AnyCountTakesThree) {
  auto any = [](int) { return true; };
  EXPECT_EQ(split_ranks(36, 132, 16, {2, 1, 0, true}, 4, any), 3);
  EXPECT_EQ(split_ranks(36, 132, 16, {2, 1}, 4, any), 2);
  EXPECT_EQ(split_ranks(28, 132, 14, {2, 1, 0, true}, 4, any), 4);
  EXPECT_EQ(split_ranks(10, 132, 8, {2, 1, 0, true}, 8, any), 4);  // 8 stages: 2 a rank
  EXPECT_EQ(split_ranks(45, 132, 18, {2, 1, 0, true}, 4, any), 2);
  EXPECT_EQ(split_ranks(36, 132, 16, {2, 1, 0, true}, 4, [](int r) { return r != 3; }), 2);
}

TEST(SplitRanks, StopsAtTheFirstClusterTheDeviceCannotHold) {
  int asked = 0;
  auto up_to_4 = [&](int r) {
    ++asked;
    return r <= 4;
  };
  EXPECT_EQ(split_ranks(1, 132, 100, {2, 2}, 8, up_to_4), 4);
  EXPECT_EQ(asked, 3);  // 2, 4, then 8 refused
  EXPECT_EQ(split_ranks(1, 132, 100, {2, 2}, 8, [](int) { return false; }), 1);
  EXPECT_EQ(split_ranks(1, 132, 100, {2, 2}, 2, [](int) { return true; }), 2);  // max_ranks
}

}  // namespace
}  // namespace trimm::sched
