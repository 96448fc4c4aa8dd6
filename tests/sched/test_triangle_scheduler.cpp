// The scheduler's maths, on the CPU: every tile on or above the diagonal is computed over exactly
// its k band, once; every strictly lower tile is zeroed exactly once; work runs longest-first.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {
namespace {

struct Case {
  int64_t n;
  int tile, k_step;
  int64_t slots;
};

class TriangleScheduleTest : public ::testing::TestWithParam<Case> {};

TEST_P(TriangleScheduleTest, CoversEveryTileExactlyOnceAndZeroesEveryLowerTileOnce) {
  const Case c = GetParam();
  const TriangleSchedule s = make_schedule(c.n, c.tile, c.k_step, c.slots);
  ASSERT_EQ(s.tiles, (c.n + c.tile - 1) / c.tile);
  ASSERT_GE(s.split_d, 1) << "diagonal tiles must never split";

  // For each tile: the k ranges computed into it, and how often it is written as zero.
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> ranges;
  std::map<std::pair<int, int>, int> zeroed, chunk_kinds;
  int prev_work = INT32_MAX;
  for (int64_t idx = 0; idx < s.num_units(); ++idx) {
    const WorkUnit u = s.unit(idx);
    ASSERT_GE(u.bi, 0);
    ASSERT_LT(u.bi, s.tiles);
    ASSERT_GE(u.bj, 0);
    ASSERT_LT(u.bj, s.tiles);
    ASSERT_LE(u.bi, u.bj) << "unit below the diagonal";
    ASSERT_LT(u.k_begin, u.k_end) << "empty band at unit " << idx;
    EXPECT_EQ((u.k_begin - s.band_begin(u.bi)) % c.k_step, 0) << "chunk off the step grid";
    ranges[{u.bi, u.bj}].push_back({u.k_begin, u.k_end});
    const int d = u.bj - u.bi;
    EXPECT_EQ(u.kind == UnitKind::Whole, !s.is_split(d));
    if (u.kind != UnitKind::Whole) chunk_kinds[{u.bi, u.bj}] |= u.kind == UnitKind::Chunk0 ? 1 : 2;
    if (TriangleSchedule::zeroes_mirror(u)) ++zeroed[{u.bj, u.bi}];
    // Longest-first by nominal weight in tiles of k: whole d+1, chunk 0 ceil((d+1)/2),
    // chunk 1 floor((d+1)/2). (A ragged last tile makes a band shorter, not its weight.)
    const int w = u.kind == UnitKind::Whole    ? d + 1
                  : u.kind == UnitKind::Chunk0 ? (d + 2) / 2
                                               : (d + 1) / 2;
    EXPECT_LE(w, prev_work) << "unit " << idx << " is heavier than the one before it";
    prev_work = w;
  }
  int64_t fixups = 0;
  for (int64_t f = 0; f < s.num_fixup_tiles(); ++f) {
    int bi, bj;
    s.fixup_tile(f, &bi, &bj);
    ASSERT_LT(bi, bj);
    EXPECT_TRUE(s.is_split(bj - bi));
    EXPECT_EQ(chunk_kinds[std::make_pair(bi, bj)], 3) << "fix-up of a tile without both chunks";
    ++zeroed[{bj, bi}];  // the fix-up zeroes the mirror
    ++fixups;
  }
  for (int bi = 0; bi < s.tiles; ++bi)
    for (int bj = 0; bj < s.tiles; ++bj) {
      if (bi > bj) {
        EXPECT_EQ(zeroed[std::make_pair(bi, bj)], 1) << "lower tile (" << bi << "," << bj << ")";
        continue;
      }
      auto r = ranges[{bi, bj}];
      ASSERT_FALSE(r.empty()) << "tile (" << bi << "," << bj << ") never computed";
      std::sort(r.begin(), r.end());
      // The chunks tile the band [bi·tile, min(n, (bj+1)·tile)) with no gap or overlap.
      EXPECT_EQ(r.front().first, int64_t(bi) * c.tile);
      EXPECT_EQ(r.back().second, std::min<int64_t>(c.n, int64_t(bj + 1) * c.tile));
      for (size_t q = 1; q < r.size(); ++q) EXPECT_EQ(r[q - 1].second, r[q].first);
      EXPECT_LE(r.size(), 2u);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, TriangleScheduleTest,
    ::testing::Values(Case{1, 128, 16, 132}, Case{2, 128, 16, 132}, Case{127, 128, 16, 132},
                      Case{129, 128, 16, 132}, Case{1000, 128, 16, 132},
                      Case{2048, 128, 16, 132}, Case{4096, 128, 16, 132},
                      Case{4097, 128, 16, 132}, Case{8192, 128, 16, 132},
                      Case{3000, 128, 16, 1}, Case{3000, 128, 16, 100000},
                      Case{777, 64, 8, 7}),
    [](const auto& info) {
      return "n" + std::to_string(info.param.n) + "_tile" + std::to_string(info.param.tile) +
             "_slots" + std::to_string(info.param.slots);
    });

// The order unit() must produce, written as the plain walk over levels and groups that defines
// it: the closed-form search must agree with it on every index.
WorkUnit unit_by_walk(const TriangleSchedule& s, int64_t idx) {
  const auto level_diag = [](int w, int g) {
    return g == 0 ? w - 1 : g == 1 ? 2 * w - 2 : g <= 3 ? 2 * w - 1 : 2 * w;
  };
  for (int w = s.tiles; w >= 1; --w)
    for (int g = 0; g < 5; ++g) {
      const int d = level_diag(w, g);
      if (d < 0 || d >= s.tiles || (g == 0) == s.is_split(d)) continue;
      if (idx < s.diag_count(d)) {
        const int bi = int(idx), bj = bi + d;
        const UnitKind kind = g == 0 ? UnitKind::Whole : g <= 2 ? UnitKind::Chunk0 : UnitKind::Chunk1;
        int64_t b = s.band_begin(bi), e = s.band_end(bj);
        if (kind == UnitKind::Chunk0) e = s.band_mid(bi, bj);
        if (kind == UnitKind::Chunk1) b = s.band_mid(bi, bj);
        return {kind, bi, bj, b, e};
      }
      idx -= s.diag_count(d);
    }
  return {UnitKind::Whole, -1, -1, 0, 0};
}

TEST(TriangleSchedule, ClosedFormDecodeMatchesTheWalkEverywhere) {
  for (int tiles = 1; tiles <= 70; ++tiles)
    for (int split_d = 1; split_d <= tiles + 1; ++split_d) {
      const TriangleSchedule s{int64_t(tiles) * 128 - 5, 128, 32, tiles, split_d};
      int64_t walked = 0;
      for (int64_t idx = 0;; ++idx) {
        const WorkUnit want = unit_by_walk(s, idx);
        const WorkUnit got = s.unit(idx);
        if (want.bi >= 0) {
          const WorkUnit quick = s.unit_quick(idx);
          ASSERT_EQ(quick.bi, want.bi) << tiles << " " << split_d << " " << idx;
          ASSERT_EQ(quick.bj, want.bj) << tiles << " " << split_d << " " << idx;
          ASSERT_EQ(quick.k_begin, want.k_begin) << tiles << " " << split_d << " " << idx;
          ASSERT_EQ(quick.k_end, want.k_end) << tiles << " " << split_d << " " << idx;
          ASSERT_EQ(int(quick.kind), int(want.kind)) << tiles << " " << split_d << " " << idx;
        }
        ASSERT_EQ(int(got.kind), int(want.kind)) << tiles << " " << split_d << " " << idx;
        ASSERT_EQ(got.bi, want.bi) << tiles << " " << split_d << " " << idx;
        ASSERT_EQ(got.bj, want.bj) << tiles << " " << split_d << " " << idx;
        ASSERT_EQ(got.k_begin, want.k_begin) << tiles << " " << split_d << " " << idx;
        ASSERT_EQ(got.k_end, want.k_end) << tiles << " " << split_d << " " << idx;
        if (want.bi < 0) break;
        ++walked;
      }
      ASSERT_EQ(walked, s.num_units()) << tiles << " " << split_d;
    }
}

TEST(TriangleSchedule, DenseScheduleRunsEveryUpperTileOverAllOfKUnsplit) {
  for (const int64_t n : {1, 127, 129, 1000, 4097}) {
    const TriangleSchedule s = make_schedule(n, 128, 32, 132, /*dense=*/true);
    ASSERT_EQ(s.split_d, s.tiles) << n;
    std::map<std::pair<int, int>, int> seen;
    for (int64_t idx = 0; idx < s.num_units(); ++idx) {
      const WorkUnit u = s.unit(idx);
      ASSERT_LE(u.bi, u.bj);
      EXPECT_EQ(u.kind, UnitKind::Whole);
      EXPECT_EQ(u.k_begin, 0);
      EXPECT_EQ(u.k_end, n);
      // No split: no fix-up pass, so every off-diagonal tile zeroes its own mirror.
      EXPECT_EQ(TriangleSchedule::zeroes_mirror(u), u.bi != u.bj);
      ++seen[{u.bi, u.bj}];
    }
    EXPECT_EQ(int64_t(seen.size()), int64_t(s.tiles) * (s.tiles + 1) / 2) << n;
    EXPECT_EQ(s.num_fixup_tiles(), 0) << n;
    for (const auto& [tile, count] : seen) EXPECT_EQ(count, 1);
  }
}

// split = false (16-bit C): the structured bands, whole tiles only, however many slots.
TEST(TriangleSchedule, UnsplitScheduleKeepsEveryTileWhole) {
  for (const int64_t n : {1, 129, 2048, 4097})
    for (const int64_t slots : {1, 132, 100000}) {
      const TriangleSchedule s = make_schedule(n, 128, 64, slots, /*dense=*/false, /*split=*/false);
      ASSERT_EQ(s.split_d, s.tiles) << n;
      EXPECT_EQ(s.num_fixup_tiles(), 0) << n;
      EXPECT_EQ(s.num_units(), int64_t(s.tiles) * (s.tiles + 1) / 2) << n;
      for (int64_t idx = 0; idx < s.num_units(); ++idx) {
        const WorkUnit u = s.unit(idx);
        ASSERT_EQ(u.kind, UnitKind::Whole) << n << " " << idx;
        EXPECT_EQ(u.k_begin, s.band_begin(u.bi));
        EXPECT_EQ(u.k_end, s.band_end(u.bj));
      }
    }
}

// steps(u): a band's k range in steps of k_step, the last one partial where n is off the grid.
TEST(TriangleSchedule, StepsCountABandsPartialLastStep) {
  const TriangleSchedule s = make_schedule(4097, 128, 64, 1, /*dense=*/false, /*split=*/false);
  EXPECT_EQ(s.steps(s.whole_unit(0, 0)), 2);
  EXPECT_EQ(s.steps(s.whole_unit(0, 1)), 4);
  EXPECT_EQ(s.steps(s.whole_unit(0, 32)), 65);   // k in [0, 4097)
  EXPECT_EQ(s.steps(s.whole_unit(32, 32)), 1);   // k in [4096, 4097)
  EXPECT_EQ(s.steps(s.whole_unit(31, 32)), 3);   // k in [3968, 4097)
}

TEST(TriangleSchedule, UnsplitDecodeMatchesTheSearch) {
  for (int tiles = 1; tiles <= 70; ++tiles)
    for (const bool dense : {false, true}) {
      const TriangleSchedule s =
          make_schedule(int64_t(tiles) * 128 - 5, 128, 64, 132, dense, /*split=*/false);
      ASSERT_EQ(s.split_d, s.tiles);
      for (int64_t idx = 0; idx < s.num_units(); ++idx) {
        const WorkUnit want = s.unit(idx), got = s.unit_unsplit(idx);
        ASSERT_EQ(int(got.kind), int(want.kind)) << tiles << " " << dense << " " << idx;
        ASSERT_EQ(got.bi, want.bi) << tiles << " " << dense << " " << idx;
        ASSERT_EQ(got.bj, want.bj) << tiles << " " << dense << " " << idx;
        ASSERT_EQ(got.k_begin, want.k_begin) << tiles << " " << dense << " " << idx;
        ASSERT_EQ(got.k_end, want.k_end) << tiles << " " << dense << " " << idx;
      }
    }
}

// unit_banded: every tile exactly once with unit_unsplit's band of k; bands of diagonals,
// longest first; within a band, rows top to bottom and each row longest first; band 1 is
// unit_unsplit's order.
TEST(TriangleSchedule, BandedDecodeCoversEveryTileOnceBandByBand) {
  for (int tiles = 1; tiles <= 60; ++tiles)
    for (int band = 1; band <= 20; ++band) {
      const TriangleSchedule s =
          make_schedule(int64_t(tiles) * 128 - 3, 128, 64, 132, false, /*split=*/false);
      std::vector<int> seen(size_t(tiles) * size_t(tiles), 0);
      int last_band = INT_MAX, last_bi = -1, last_d = INT_MAX;
      for (int64_t idx = 0; idx < s.num_units(); ++idx) {
        const WorkUnit u = s.unit_banded(idx, band);
        ASSERT_TRUE(u.bi >= 0 && u.bi <= u.bj && u.bj < tiles)
            << tiles << " " << band << " " << idx;
        ASSERT_EQ(int(u.kind), int(UnitKind::Whole));
        ASSERT_EQ(u.k_begin, s.band_begin(u.bi));
        ASSERT_EQ(u.k_end, s.band_end(u.bj));
        ++seen[size_t(u.bi) * size_t(tiles) + size_t(u.bj)];
        const int d = u.bj - u.bi, b = (tiles - 1 - d) / band;  // the band holding diagonal d
        ASSERT_GE(b, last_band == INT_MAX ? 0 : last_band) << tiles << " " << band << " " << idx;
        if (b == last_band) {
          ASSERT_GE(u.bi, last_bi) << tiles << " " << band << " " << idx;
          if (u.bi == last_bi) ASSERT_LT(d, last_d) << tiles << " " << band << " " << idx;
        }
        last_band = b, last_bi = u.bi, last_d = d;
        if (band == 1) {
          const WorkUnit w = s.unit_unsplit(idx);
          ASSERT_EQ(w.bi, u.bi) << tiles << " " << idx;
          ASSERT_EQ(w.bj, u.bj) << tiles << " " << idx;
        }
      }
      for (int i = 0; i < tiles; ++i)
        for (int j = 0; j < tiles; ++j)
          ASSERT_EQ(seen[size_t(i) * size_t(tiles) + size_t(j)], j >= i ? 1 : 0)
              << tiles << " " << band << " tile " << i << "," << j;
    }
}

TEST(TriangleSchedule, SplitsOnlyWhenTheLongestBandExceedsTheAverage) {
  // N = 4096, 128-tiles, 132 SMs: 5984 tile-blocks of work, 45 per SM > 32 tiles: no split.
  EXPECT_EQ(total_tile_work(32), 5984);
  EXPECT_EQ(choose_split_d(32, 132), 32);
  // N = 2048: 816 / 132 = 6 per SM < 16: tiles with d >= 6 (band >= 7 > 6.2) split.
  EXPECT_EQ(choose_split_d(16, 132), 6);
  // Tiny problems split everything off the diagonal, never the diagonal itself.
  EXPECT_EQ(choose_split_d(8, 1000), 1);
  EXPECT_EQ(choose_split_d(1, 132), 1);
}

TEST(TriangleSchedule, BandMidSplitsOnTheStepGridAndLeavesBothChunksNonEmpty) {
  const TriangleSchedule s = make_schedule(1000, 128, 16, 132);
  for (int bi = 0; bi < s.tiles; ++bi)
    for (int bj = bi + 1; bj < s.tiles; ++bj) {
      const int64_t mid = s.band_mid(bi, bj);
      EXPECT_GT(mid, s.band_begin(bi));
      EXPECT_LT(mid, s.band_end(bj));
      EXPECT_EQ((mid - s.band_begin(bi)) % 16, 0);
      // Chunk 0 takes the larger half of an odd count (the weights the order packs assume).
      const int64_t steps = (s.band_end(bj) - s.band_begin(bi) + 15) / 16;
      EXPECT_EQ((mid - s.band_begin(bi)) / 16, (steps + 1) / 2) << bi << ", " << bj;
    }
}

// HalfStages against brute force over every unit of many schedules (whole and split tiles): a
// stage before top_end meets only zeros in A' rows [m0 + half, m0 + 2·half) (k < m for each of
// its k), one from right_begin on only zeros in B' columns [j0, j0 + half) (k > j); the stages
// just outside either range do not (the ranges are as long as they can be); they never meet.
TEST(TriangleSchedule, HalfStagesAreExactlyTheStagesThatMeetAZeroHalf) {
  for (const int k_step : {16, 32})
    for (int64_t n = 1; n <= 1400; n += (n < 300 ? 1 : 37))
      for (const int64_t slots : {1, 7, 132}) {
        const TriangleSchedule s = make_schedule(n, 128, k_step, slots);
        const int half = 64;
        for (int64_t x = 0; x < s.num_units(); ++x) {
          const WorkUnit u = s.unit(x);
          const int m0 = u.bi * 128, j0 = u.bj * 128, kb = int(u.k_begin);
          const int steps = int((u.k_end - u.k_begin + k_step - 1) / k_step);
          const HalfStages h(m0, j0, kb, steps, k_step, half);
          ASSERT_LE(0, h.top_end);
          ASSERT_LE(h.top_end, h.right_begin) << "n " << n << " unit " << x;
          ASSERT_LE(h.right_begin, steps);
          // Every k of stage `it` (the whole stage, as the kernel multiplies it).
          auto top_zero = [&](int it) {  // k < m for every k of the stage and m >= m0 + half
            return kb + (it + 1) * k_step - 1 < m0 + half;
          };
          auto right_zero = [&](int it) {  // k > j for every k of the stage and j < j0 + half
            return kb + it * k_step > j0 + half - 1;
          };
          for (int it = 0; it < steps; ++it) {
            ASSERT_EQ(it < h.top_end, top_zero(it)) << "n " << n << " unit " << x << " it " << it;
            ASSERT_EQ(it >= h.right_begin, right_zero(it))
                << "n " << n << " unit " << x << " it " << it;
          }
        }
      }
}

}  // namespace
}  // namespace trimm::sched
