// The pair layout (sched/pair_order.hpp), on the CPU: every tile once (one tile at most twice,
// as both ranks of one level), pairs that share a row differ by at most the lag, the others are
// diagonal tiles, holes at the same levels for both ranks; and decode_pair's partner entries
// (kernels/common/unit_list.cuh) against the partner's own list. The pair queue: every tile once
// in pairs of the same kinds, each entry's levels (queued_word, queued_level) as both ranks see them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <vector>

#include "kernels/common/unit_list.cuh"
#include "sched/pair_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {
namespace {

double stage_cost(const WorkUnit& u) { return double(u.k_end - u.k_begin) / 64.0 + 7.0; }

void expect_layout(const TriangleSchedule& s, const DispatchOrder& d, int max_lag) {
  ASSERT_GT(d.blocks, 0);
  ASSERT_EQ(d.blocks % 2, 0);
  ASSERT_EQ(d.count % d.blocks, 0);
  std::vector<int> seen(size_t(s.num_units()), 0);
  int twice = 0;
  for (int x = 0; x < d.count; x += 2) {
    const int a = d.at(x), b = d.at(x + 1);
    ASSERT_EQ(a < 0, b < 0) << "entry " << x << ": a hole for one rank only";
    if (a < 0) {
      for (int y = x; y < d.count; y += d.blocks) ASSERT_LT(d.at(y), 0) << "a unit after a hole";
      continue;
    }
    ++seen[size_t(a)];
    if (a == b) {
      ++twice;
    } else {
      ++seen[size_t(b)];
    }
    const WorkUnit u = s.unit_unsplit(a), v = s.unit_unsplit(b);
    if (u.bi == v.bi) {
      EXPECT_EQ(u.k_begin, v.k_begin);
      EXPECT_LE(std::abs(s.steps(u) - s.steps(v)), max_lag);
    } else {
      EXPECT_TRUE(u.bi == u.bj && v.bi == v.bj) << "unshared pairs are diagonal tiles";
    }
  }
  EXPECT_LE(twice, 1);
  for (size_t t = 0; t < seen.size(); ++t) EXPECT_EQ(seen[t], 1) << "tile " << t;
}

TEST(PairOrder, EveryTileOnceInPairsThatShareARowOrAreDiagonal) {
  int built = 0;
  for (int64_t n : {1000, 1500, 2048, 3071, 3072, 4096, 4097, 5120, 5632})
    for (int64_t clusters : {8, 33, 64, 66}) {
      SCOPED_TRACE(testing::Message() << "n " << n << " clusters " << clusters);
      const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
      const DispatchOrder d = pair_order(s, clusters, 4, stage_cost);
      if (d.blocks == 0) continue;
      ++built;
      EXPECT_LE(d.blocks, 2 * clusters);
      expect_layout(s, d, 4);
    }
  EXPECT_GT(built, 20);
}

TEST(PairOrder, NoneWhereThePairsFitAtOnceOrTheLagIsTooLong) {
  const TriangleSchedule s = make_schedule(4096, 128, 64, 1, false, /*split=*/false);
  EXPECT_EQ(pair_order(s, 300, 4, stage_cost).blocks, 0);  // 272 pairs
  EXPECT_EQ(pair_order(s, 66, 1, stage_cost).blocks, 0);   // adjacent tiles differ by 2 stages
  EXPECT_GT(pair_order(s, 66, 2, stage_cost).blocks, 0);
  const TriangleSchedule dense = make_schedule(4096, 128, 64, 1, true, /*split=*/false);
  EXPECT_EQ(pair_order(dense, 66, 4, stage_cost).blocks, 0);
}

// Each block's decoded partner entries describe the unit its partner decodes at that level.
TEST(PairOrder, DecodePairDescribesThePartnersList) {
  for (int64_t n : {2048, 4096, 4097}) {
    const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
    const DispatchOrder d = pair_order(s, 66, 4, stage_cost);
    ASSERT_GT(d.blocks, 0);
    using kernels::unit_list::kMaxLevels;
    std::vector<kernels::unit_list::Entry> own(kMaxLevels), other(kMaxLevels);
    std::vector<uint32_t> info(kMaxLevels, 0xDEADu), unused(kMaxLevels);
    for (int64_t b = 0; b < d.blocks; ++b) {
      kernels::unit_list::decode_pair(own.data(), info.data(), s, d, b, d.blocks, 0, 1);
      kernels::unit_list::decode_pair(other.data(), unused.data(), s, d, b ^ 1, d.blocks, 0, 1);
      // Three threads (run in turn) share the decode: the same lists as one thread's.
      std::vector<kernels::unit_list::Entry> own3(kMaxLevels);
      std::vector<uint32_t> info3(kMaxLevels, 0xDEADu);
      for (int tid = 0; tid < 3; ++tid)
        kernels::unit_list::decode_pair(own3.data(), info3.data(), s, d, b, d.blocks, tid, 3);
      for (int i = 0; i < kMaxLevels; ++i) {
        ASSERT_EQ(own3[size_t(i)].bi, own[size_t(i)].bi) << "block " << b << " level " << i;
        ASSERT_EQ(own3[size_t(i)].bj, own[size_t(i)].bj) << "block " << b << " level " << i;
        ASSERT_EQ(info3[size_t(i)], info[size_t(i)]) << "block " << b << " level " << i;
      }
      kernels::unit_list::PairWalk walk(own.data(), info.data(), s);
      kernels::unit_list::PairLevel l;
      int level = 0;
      for (; walk.next(l); ++level) {
        const WorkUnit p = s.whole_unit(other[size_t(level)].bi, other[size_t(level)].bj);
        ASSERT_GE(p.bi, 0) << "block " << b << " level " << level << ": the partner has none";
        EXPECT_EQ(l.partner_steps, int((p.k_end - p.k_begin + 63) / 64));
        EXPECT_EQ(l.shared, p.bi == l.u.bi);
        EXPECT_EQ(l.same, p.bi == l.u.bi && p.bj == l.u.bj);
        EXPECT_LE(std::abs(l.common_steps() - l.steps), 4);
      }
      EXPECT_EQ(other[size_t(level)].bi, -1) << "block " << b << ": the partner has more levels";
    }
  }
}

TEST(PairQueue, EveryTileOnceAndEachEntrysLevelsAgree) {
  using kernels::unit_list::PairLevel;
  using kernels::unit_list::queued_level;
  using kernels::unit_list::queued_word;
  for (int64_t n : {3072, 3584, 4096, 4097, 5120, 5632})
    for (int64_t clusters : {33, 66}) {
      SCOPED_TRACE(testing::Message() << "n " << n << " clusters " << clusters);
      const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
      const DispatchOrder q = pair_queue(s, clusters, 2, stage_cost);
      ASSERT_EQ(q.blocks, 2 * clusters);
      ASSERT_EQ(q.count % 2, 0);
      ASSERT_GT(q.count / 2, clusters) << "every cluster starts on an entry of its own";
      std::vector<int> seen(size_t(s.tiles) * size_t(s.tiles), 0);
      int twice = 0;
      for (int x = 0; x < q.count / 2; ++x) {
        const uint32_t w0 = queued_word(q, uint32_t(x), 0), w1 = queued_word(q, uint32_t(x), 1);
        ASSERT_NE(w0, kernels::unit_list::kLevelUnset);
        ASSERT_NE(w0, kernels::unit_list::kLevelEnd);
        const PairLevel l0 = queued_level(w0, s), l1 = queued_level(w1, s);
        ASSERT_GE(l0.u.bi, 0);
        ASSERT_LE(l0.u.bi, l0.u.bj);
        ASSERT_LT(l1.u.bj, s.tiles);
        ++seen[size_t(l0.u.bi * s.tiles + l0.u.bj)];
        if (l0.same) {
          ++twice;
          EXPECT_TRUE(l1.same);
        } else {
          ++seen[size_t(l1.u.bi * s.tiles + l1.u.bj)];
        }
        EXPECT_EQ(l0.steps, s.steps(l0.u));
        EXPECT_EQ(l0.partner_steps, l1.steps);
        EXPECT_EQ(l1.partner_steps, l0.steps);
        EXPECT_EQ(l0.shared, l0.u.bi == l1.u.bi);
        EXPECT_EQ(l1.shared, l0.shared);
        EXPECT_EQ(l0.common_steps(), l1.common_steps());
        if (l0.shared) {
          EXPECT_EQ(l0.u.k_begin, l1.u.k_begin);
          EXPECT_LE(std::abs(l0.steps - l1.steps), 2);
        } else {
          EXPECT_TRUE(l0.u.bi == l0.u.bj && l1.u.bi == l1.u.bj) << "unshared pairs are diagonal";
        }
      }
      EXPECT_LE(twice, 1);
      for (int bi = 0; bi < s.tiles; ++bi)
        for (int bj = 0; bj < s.tiles; ++bj)
          EXPECT_EQ(seen[size_t(bi * s.tiles + bj)], bj >= bi ? 1 : 0) << bi << "," << bj;
    }
}

TEST(PairQueue, NoneWhereThePairsFitAtOnceOrOutgrowTheTable) {
  const TriangleSchedule s = make_schedule(4096, 128, 64, 1, false, /*split=*/false);
  EXPECT_EQ(pair_queue(s, 300, 2, stage_cost).count, 0);  // 272 pairs
  EXPECT_EQ(pair_queue(s, 66, 1, stage_cost).count, 0);   // adjacent tiles differ by 2 stages
  const TriangleSchedule big = make_schedule(5760, 128, 64, 1, false, /*split=*/false);
  EXPECT_EQ(pair_queue(big, 66, 2, stage_cost).count, 0);  // 45 tiles: 1035 in 518 pairs
}

}  // namespace
}  // namespace trimm::sched
