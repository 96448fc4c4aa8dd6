// The dispatch order (sched/dispatch_order.hpp), on the CPU: a permutation of the units, and on
// the hardware's model (each block to the first free slot) never slower than longest first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include "sched/dispatch_order.hpp"
#include "sched/same_unit.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {
namespace {

double band_cost(const WorkUnit& u) { return double(u.k_end - u.k_begin) / 128.0 + 0.1; }

// The hardware's model: blocks in index order, each to the slot that frees first.
double greedy_makespan(const TriangleSchedule& s, const DispatchOrder& d, int64_t slots) {
  using Slot = std::pair<double, int64_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> free_at;
  for (int64_t k = 0; k < slots; ++k) free_at.push({0.0, k});
  double end = 0;
  for (int64_t x = 0; x < s.num_units(); ++x) {
    auto [t, k] = free_at.top();
    free_at.pop();
    t += band_cost(s.unit(d.at(int(x))));
    end = std::max(end, t);
    free_at.push({t, k});
  }
  return end;
}

struct Case {
  int64_t n, slots;
};
class DispatchOrderTest : public ::testing::TestWithParam<Case> {};

TEST_P(DispatchOrderTest, PermutesTheUnitsAndNeverLosesToLongestFirst) {
  const auto [n, slots] = GetParam();
  const TriangleSchedule s = make_schedule(n, 128, 32, slots);
  const DispatchOrder d = balanced_order(s, slots, band_cost);
  const int64_t units = s.num_units();
  if (d.count != 0) {
    ASSERT_EQ(d.count, units);
    std::vector<int> seen(size_t(units), 0);
    for (int x = 0; x < d.count; ++x) {
      ASSERT_LT(int64_t(d.unit[x]), units);
      ++seen[d.unit[x]];
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  }
  const double lpt = greedy_makespan(s, DispatchOrder{}, slots);
  const double balanced = greedy_makespan(s, d, slots);
  EXPECT_LE(balanced, lpt + 1e-9);
  if (d.count == 0) EXPECT_EQ(balanced, lpt);
}

INSTANTIATE_TEST_SUITE_P(Shapes, DispatchOrderTest,
                         ::testing::Values(Case{100, 132}, Case{1000, 132}, Case{2048, 132},
                                           Case{3000, 132}, Case{4096, 132}, Case{4096, 114},
                                           Case{4096, 264}, Case{5000, 132}, Case{8192, 132}));

// The case it is for: n = 4096 on an H200's 132 slots, where longest first leaves its slowest
// slot 3.8 % above the average and the packing comes within about 1.5 %.
TEST(DispatchOrder, BalancesTheH200Triangle) {
  const TriangleSchedule s = make_schedule(4096, 128, 32, 132);
  const DispatchOrder d = balanced_order(s, 132, band_cost);
  ASSERT_NE(d.count, 0);
  double total = 0;
  for (int64_t u = 0; u < s.num_units(); ++u) total += band_cost(s.unit(u));
  const double avg = total / 132;
  EXPECT_GT(greedy_makespan(s, DispatchOrder{}, 132), 1.03 * avg);
  EXPECT_LT(greedy_makespan(s, d, 132), 1.02 * avg);
}

// Where the units outnumber DispatchOrder's table, fit the slots at once, or weigh the same (a
// dense schedule), nothing changes.
TEST(DispatchOrder, KeepsLongestFirstWhereItCannotHelp) {
  EXPECT_EQ(balanced_order(make_schedule(16384, 128, 32, 132), 132, band_cost).count, 0);
  EXPECT_EQ(balanced_order(make_schedule(1024, 128, 32, 132), 132, band_cost).count, 0);
  EXPECT_EQ(balanced_order(make_schedule(4096, 128, 32, 132, true), 132, band_cost).count, 0);
  // 44 tiles a side: 990 units, the most that fit; 45: 1035, too many.
  const TriangleSchedule fits = make_schedule(44 * 128, 128, 32, 132);
  const TriangleSchedule over = make_schedule(45 * 128, 128, 32, 132);
  ASSERT_EQ(fits.num_units(), 990);
  ASSERT_EQ(over.num_units(), 1035);
  EXPECT_EQ(balanced_order(fits, 132, band_cost).count, 990);
  EXPECT_EQ(balanced_order(over, 132, band_cost).count, 0);
}

// Where packable is false, launch_order is the schedule's own order (what problem_order then
// takes without building or caching one); where it is true, orders are built (most shapes).
TEST(DispatchOrder, LaunchOrderBuildsOnlyWherePackable) {
  int built = 0, packable_shapes = 0;
  for (int64_t n = 1; n <= 64 * 128; n += 61)
    for (const int64_t slots : {1, 66, 132, 264})
      for (const bool dense : {false, true})
        for (const bool persistent : {false, true}) {
          const TriangleSchedule s = make_schedule(n, 128, 32, slots, dense);
          const DispatchOrder d = launch_order(s, slots, band_cost, persistent);
          const bool own_order = d.count == 0 && d.blocks == 0 && d.band == 0;
          // Its rule: units of different weights, more than the slots, few enough for the table.
          EXPECT_EQ(packable(s, slots),
                    !dense && s.num_units() > slots && s.num_units() <= DispatchOrder::kMaxUnits)
              << "n " << n << " slots " << slots;
          if (!packable(s, slots)) {
            EXPECT_TRUE(own_order) << "n " << n << " slots " << slots << " dense " << dense;
          } else {
            ++packable_shapes;
            built += !own_order;
          }
        }
  EXPECT_GT(packable_shapes, 100);
  EXPECT_GT(built, packable_shapes / 2) << "packable shapes that built an order";
}

// A persistent layout: block b's list is entries b, b + blocks, ... up to its first hole; every
// unit once; no more blocks than slots; each list heaviest first; its makespan that of the
// packing (never above longest first's on the hardware's model).
class PersistentOrderTest : public ::testing::TestWithParam<Case> {};

TEST_P(PersistentOrderTest, ListsEveryUnitOnceInAtMostOneBlockPerSlot) {
  const auto [n, slots] = GetParam();
  const TriangleSchedule s = make_schedule(n, 128, 32, slots);
  const DispatchOrder d = persistent_order(s, slots, band_cost);
  const int64_t units = s.num_units();
  if (d.blocks == 0) {
    EXPECT_EQ(d.count, 0);
    // No layout: the units fit the slots at once, outnumber the table, or their lists do; in
    // the last case the launch still gets the balanced order.
    if (units > slots && units <= DispatchOrder::kMaxUnits)
      EXPECT_EQ(launch_order(s, slots, band_cost, true).count,
                balanced_order(s, slots, band_cost).count);
    return;
  }
  ASSERT_LE(d.blocks, slots);
  ASSERT_EQ(d.count % d.blocks, 0);
  std::vector<int> seen(size_t(units), 0);
  double worst = 0;
  for (int64_t b = 0; b < d.blocks; ++b) {
    BlockUnits walk(d, units, b, d.blocks);
    int64_t u, listed = 0;
    double load = 0, last = 1e300;
    while (walk.next(u)) {
      ASSERT_LT(u, units);
      ++seen[size_t(u)];
      const double c = band_cost(s.unit(u));
      EXPECT_LE(c, last) << "block " << b << " is not heaviest first";
      last = c;
      load += c;
      ++listed;
    }
    EXPECT_GT(listed, 0) << "block " << b << " has nothing to do";
    // Past the first hole, only holes.
    for (int64_t x = b + listed * d.blocks; x < d.count; x += d.blocks) EXPECT_EQ(d.at(x), -1);
    worst = std::max(worst, load);
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  // The launch takes this layout.
  const DispatchOrder l = launch_order(s, slots, band_cost, true);
  EXPECT_EQ(l.blocks, d.blocks);
  EXPECT_TRUE(std::equal(l.unit, l.unit + l.count, d.unit));
  // Never worse than the hardware's longest first, and within 3 % of a perfect split wherever
  // the units are many and small beside the average load.
  double total = 0;
  for (int64_t u = 0; u < units; ++u) total += band_cost(s.unit(u));
  EXPECT_LE(worst, greedy_makespan(s, DispatchOrder{}, slots) + 1e-9);
  if (units >= 4 * slots) EXPECT_LT(worst, 1.03 * total / double(slots));
}

INSTANTIATE_TEST_SUITE_P(Shapes, PersistentOrderTest,
                         ::testing::Values(Case{100, 132}, Case{1000, 132}, Case{2048, 132},
                                           Case{3000, 132}, Case{4096, 132}, Case{4096, 114},
                                           Case{4096, 264}, Case{5000, 132}, Case{5632, 132},
                                           Case{8192, 132}));

// The H200's n = 4096 has a layout (660 entries for 528 units on 132 blocks); a schedule whose
// layout outgrows the table, or a dense one, keeps one block per unit.
TEST(PersistentOrder, CoversTheH200TriangleAndStepsAsideElsewhere) {
  const DispatchOrder d = persistent_order(make_schedule(4096, 128, 32, 132), 132, band_cost);
  EXPECT_EQ(d.blocks, 132);
  EXPECT_EQ(d.count, 660);  // 528 units, at most 5 a block
  // 44 tiles a side: 990 units fit the table, their lists do not (8 a block): balanced order.
  const TriangleSchedule wide = make_schedule(44 * 128, 128, 32, 132);
  EXPECT_EQ(persistent_order(wide, 132, band_cost).blocks, 0);
  const DispatchOrder l = launch_order(wide, 132, band_cost, true);
  EXPECT_EQ(l.blocks, 0);
  EXPECT_EQ(l.count, 990);
  EXPECT_EQ(persistent_order(make_schedule(8192, 128, 32, 132), 132, band_cost).blocks, 0);
  EXPECT_EQ(persistent_order(make_schedule(4096, 128, 32, 132, true), 132, band_cost).blocks, 0);
  EXPECT_EQ(persistent_order(make_schedule(1024, 128, 32, 132), 132, band_cost).blocks, 0);
}

// Without a layout, a block walks one unit where the grid covers the units (in the index
// order, if there is one), and every g-th unit where a grid of g blocks does not (Mode::Dense).
TEST(BlockUnits, WalksOneUnitPerBlockOrEveryGridthUnit) {
  const DispatchOrder none{};
  for (int64_t b : {0, 5, 99}) {
    BlockUnits walk(none, 100, b, 100);
    int64_t u = -1;
    ASSERT_TRUE(walk.next(u));
    EXPECT_EQ(u, b);
    EXPECT_FALSE(walk.next(u));
  }
  DispatchOrder index{};
  index.count = 3;
  index.unit[0] = 2, index.unit[1] = 0, index.unit[2] = 1;
  int64_t u = -1;
  BlockUnits first(index, 3, 0, 3);
  ASSERT_TRUE(first.next(u));
  EXPECT_EQ(u, 2);
  EXPECT_FALSE(first.next(u));
  std::vector<int64_t> walked;
  for (BlockUnits strided(none, 10, 3, 4); strided.next(u);) walked.push_back(u);
  EXPECT_EQ(walked, (std::vector<int64_t>{3, 7}));
}

// ordered_unit: a banded order's units by unit_banded; otherwise the schedule's own, through
// unit() where tiles are split (kSplit) and unit_unsplit where none is.
TEST(DispatchOrder, OrderedUnitDecodesTheOrdersForm) {
  const TriangleSchedule split = make_schedule(2048, 128, 32, 132);
  ASSERT_LT(split.split_d, split.tiles) << "the case needs split tiles";
  const TriangleSchedule whole = make_schedule(6144, 128, 32, 132);
  ASSERT_GE(whole.split_d, whole.tiles);
  DispatchOrder plain{}, banded{};
  banded.band = 12;
  for (int64_t x = 0; x < split.num_units(); ++x)
    EXPECT_TRUE(same_unit(ordered_unit(split, plain, x), split.unit(x))) << x;
  for (int64_t x = 0; x < whole.num_units(); ++x) {
    EXPECT_TRUE(same_unit(ordered_unit(whole, plain, x), whole.unit(x))) << x;
    EXPECT_TRUE(same_unit(ordered_unit<false>(whole, plain, x), whole.unit(x))) << x;
    EXPECT_TRUE(same_unit(ordered_unit(whole, banded, x), whole.unit_banded(x, 12))) << x;
    EXPECT_TRUE(same_unit(ordered_unit<false>(whole, banded, x), whole.unit_banded(x, 12))) << x;
  }
}

// takes_bands: only a single problem without split tiles or dense units whose units outnumber
// both the slots and the orders' table; never below the table, where the balanced order (or
// longest first, where packing does not beat it) stands.
TEST(DispatchOrder, BandsOnlyPastTheTable) {
  const TriangleSchedule past = make_schedule(5760, 128, 64, 132, false, false);  // 45 tiles
  ASSERT_GT(past.num_units(), DispatchOrder::kMaxUnits);
  EXPECT_TRUE(takes_bands(past, 1, 132, 12));
  EXPECT_FALSE(takes_bands(past, 1, 132, 0)) << "band 0: never";
  EXPECT_FALSE(takes_bands(past, 2, 132, 12)) << "a batch";
  EXPECT_FALSE(takes_bands(past, 1, past.num_units(), 12)) << "one wave of blocks";
  const TriangleSchedule at = make_schedule(5632, 128, 64, 132, false, false);  // 44 tiles
  ASSERT_LE(at.num_units(), DispatchOrder::kMaxUnits);
  EXPECT_FALSE(takes_bands(at, 1, 132, 12)) << "within the table";
  EXPECT_FALSE(takes_bands(make_schedule(3073, 128, 32, 132, false, false), 1, 132, 12));
  EXPECT_FALSE(takes_bands(make_schedule(5760, 128, 32, 132, true), 1, 132, 12)) << "dense";
  // Split tiles need the fix-up pass's order: a schedule for more slots than it has units.
  const TriangleSchedule split = make_schedule(5760, 128, 32, 4096);
  ASSERT_LT(split.split_d, split.tiles) << "the case needs split tiles";
  EXPECT_FALSE(takes_bands(split, 1, 132, 12));
}

}  // namespace
}  // namespace trimm::sched
