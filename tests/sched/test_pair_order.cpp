// The pair layout (sched/pair_order.hpp), on the CPU: every tile once (one tile at most twice,
// as both ranks of one level), pairs that share a row differ by at most the lag, the others are
// diagonal tiles, holes at the same levels for both ranks, up to the table's 4096 entries and
// none past them; and decode_pair's lists (kernels/common/unit_list.cuh) against the layout and
// the partner's own list.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "kernels/common/unit_list.cuh"
#include "sched/pair_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {
namespace {

double stage_cost(const WorkUnit& u) { return double(u.k_end - u.k_begin) / 64.0 + 7.0; }

// Entry x's tile as a whole unit of s; bi = -1 at a hole.
WorkUnit tile_at(const TriangleSchedule& s, const PairLayout& d, int x) {
  if (d.tile[x] == PairLayout::kHole) return WorkUnit{UnitKind::Whole, -1, -1, 0, 0};
  return s.whole_unit(packed_bi(d.tile[x]), packed_bj(d.tile[x]));
}

void expect_layout(const TriangleSchedule& s, const PairLayout& d, int max_lag) {
  ASSERT_GT(d.blocks, 0);
  ASSERT_EQ(d.blocks % 2, 0);
  ASSERT_EQ(d.count % d.blocks, 0);
  ASSERT_LE(d.count, PairLayout::kMaxEntries);
  std::vector<int> seen(size_t(s.tiles) * size_t(s.tiles), 0);
  int twice = 0;
  for (int x = 0; x < d.count; x += 2) {
    const WorkUnit u = tile_at(s, d, x), v = tile_at(s, d, x + 1);
    ASSERT_EQ(u.bi < 0, v.bi < 0) << "entry " << x << ": a hole for one rank only";
    if (u.bi < 0) {
      for (int y = x; y < d.count; y += d.blocks)
        ASSERT_EQ(d.tile[y], PairLayout::kHole) << "a tile after a hole";
      continue;
    }
    ASSERT_LE(u.bi, u.bj);
    ASSERT_LE(v.bi, v.bj);
    ASSERT_LT(std::max(u.bj, v.bj), s.tiles);
    ++seen[size_t(u.bi * s.tiles + u.bj)];
    if (u.bi == v.bi && u.bj == v.bj) {
      ++twice;
    } else {
      ++seen[size_t(v.bi * s.tiles + v.bj)];
    }
    if (u.bi == v.bi) {
      EXPECT_EQ(u.k_begin, v.k_begin);
      EXPECT_LE(std::abs(s.steps(u) - s.steps(v)), max_lag);
    } else {
      EXPECT_TRUE(u.bi == u.bj && v.bi == v.bj) << "unshared pairs are diagonal tiles";
    }
  }
  EXPECT_LE(twice, 1);
  for (int bi = 0; bi < s.tiles; ++bi)
    for (int bj = 0; bj < s.tiles; ++bj)
      EXPECT_EQ(seen[size_t(bi * s.tiles + bj)], bj >= bi ? 1 : 0) << bi << "," << bj;
}

TEST(PairOrder, EveryTileOnceInPairsThatShareARowOrAreDiagonal) {
  int built = 0;
  for (int64_t n : {1000, 1500, 2048, 3071, 3072, 4096, 4097, 5120, 5632, 5889, 6144, 8192})
    for (int64_t clusters : {8, 33, 64, 66}) {
      SCOPED_TRACE(testing::Message() << "n " << n << " clusters " << clusters);
      const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
      const PairLayout d = pair_order(s, clusters, 4, stage_cost);
      if (d.blocks == 0) continue;
      ++built;
      EXPECT_LE(d.blocks, 2 * clusters);
      expect_layout(s, d, 4);
    }
  EXPECT_GT(built, 25);
}

TEST(PairOrder, NoneWhereThePairsFitAtOnceOrTheLagIsTooLong) {
  const TriangleSchedule s = make_schedule(4096, 128, 64, 1, false, /*split=*/false);
  EXPECT_EQ(pair_order(s, 300, 4, stage_cost).blocks, 0);  // 272 pairs
  EXPECT_EQ(pair_order(s, 66, 1, stage_cost).blocks, 0);   // adjacent tiles differ by 2 stages
  EXPECT_GT(pair_order(s, 66, 2, stage_cost).blocks, 0);
  const TriangleSchedule dense = make_schedule(4096, 128, 64, 1, true, /*split=*/false);
  EXPECT_EQ(pair_order(dense, 66, 4, stage_cost).blocks, 0);
}

// The longer tile of each pair goes to the rank behind: at every level, neither rank of a cluster
// has run more than one pair's difference (two stages here) beyond the other, and both ranks
// take the longer tile somewhere.
TEST(PairOrder, TheLongerTileGoesToTheRankBehind) {
  for (int64_t n : {3072, 4096, 4097, 6144, 8192}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
    const PairLayout d = pair_order(s, 66, 2, stage_cost);
    ASSERT_GT(d.blocks, 0);
    int longer_on[2] = {0, 0};
    for (int c = 0; c < d.blocks / 2; ++c) {
      int64_t ahead = 0;  // rank 0's stages minus rank 1's
      for (int x = 2 * c; x < d.count; x += d.blocks) {
        const WorkUnit u = tile_at(s, d, x), v = tile_at(s, d, x + 1);
        if (u.bi < 0) break;
        if (s.steps(u) != s.steps(v)) ++longer_on[s.steps(u) > s.steps(v) ? 0 : 1];
        ahead += s.steps(u) - s.steps(v);
        ASSERT_LE(std::abs(ahead), 2) << "cluster " << c << " entry " << x;
      }
    }
    EXPECT_GT(longer_on[0], 0);
    EXPECT_GT(longer_on[1], 0);
  }
}

// 132 SMs: 66 clusters. The table's 4096 entries hold 8192 (64 tiles: 2080 in 1040 pairs) and
// not 16384 (8256 tiles); in between, the last n with a layout has fewer than 4096 entries and
// the next has none.
TEST(PairOrder, TheTableHoldsPairsPast8192AndNone16384) {
  auto layout = [](int64_t n) {
    return pair_order(make_schedule(n, 128, 64, 1, false, /*split=*/false), 66, 2, stage_cost);
  };
  EXPECT_GT(layout(8192).blocks, 0);
  EXPECT_EQ(layout(16384).blocks, 0);
  int64_t last = 0;
  for (int64_t n = 8192; n <= 16384; n += 128)
    if (layout(n).blocks > 0) last = n;
  ASSERT_GT(last, 0);
  EXPECT_LE(layout(last).count, PairLayout::kMaxEntries);
  EXPECT_EQ(layout(last + 128).blocks, 0);
  for (int64_t n = 8192; n < last; n += 128) EXPECT_GT(layout(n).blocks, 0) << "n " << n;
}

// Each block's decoded list is its column of the layout, and its partner entries describe the
// unit its partner decodes at that level.
TEST(PairOrder, DecodePairDescribesThePartnersList) {
  for (int64_t n : {2048, 4096, 4097, 6144}) {
    const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, /*split=*/false);
    const PairLayout d = pair_order(s, 66, 4, stage_cost);
    ASSERT_GT(d.blocks, 0);
    using kernels::unit_list::kMaxLevels;
    std::vector<kernels::unit_list::Entry> own(kMaxLevels), other(kMaxLevels);
    std::vector<uint16_t> info(kMaxLevels, 0xDEADu), unused(kMaxLevels);
    for (int64_t b = 0; b < d.blocks; ++b) {
      kernels::unit_list::decode_pair(own.data(), info.data(), d, b, 0, 1);
      kernels::unit_list::decode_pair(other.data(), unused.data(), d, b ^ 1, 0, 1);
      for (int i = 0; i < kMaxLevels; ++i) {
        const int64_t x = b + int64_t(i) * d.blocks;
        const WorkUnit u =
            x < d.count ? tile_at(s, d, int(x)) : WorkUnit{UnitKind::Whole, -1, -1, 0, 0};
        ASSERT_EQ(own[size_t(i)].bi, u.bi) << "block " << b << " level " << i;
        if (u.bi >= 0) ASSERT_EQ(own[size_t(i)].bj, u.bj) << "block " << b << " level " << i;
      }
      // Three threads (run in turn) share the decode: the same lists as one thread's.
      std::vector<kernels::unit_list::Entry> own3(kMaxLevels);
      std::vector<uint16_t> info3(kMaxLevels, 0xDEADu);
      for (int tid = 0; tid < 3; ++tid)
        kernels::unit_list::decode_pair(own3.data(), info3.data(), d, b, tid, 3);
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

}  // namespace
}  // namespace trimm::sched
