// The unit list (kernels/common/unit_list.cuh), on the CPU: each block's decoded list walks the
// units sched::BlockUnits and ordered_unit<false> give that block, whatever the threads sharing
// the decode, for every order a launch of an unsplit kernel takes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/common/unit_list.cuh"
#include "sched/dispatch_order.hpp"
#include "sched/same_unit.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::unit_list {
namespace {

using sched::BlockUnits;
using sched::DispatchOrder;
using sched::TriangleSchedule;
using sched::WorkUnit;

double band_cost(const WorkUnit& u) { return double(u.k_end - u.k_begin) / 64.0 + 0.1; }

// Every block of the launch: its list, decoded by `threads` threads, against BlockUnits' walk.
void expect_lists_match(const TriangleSchedule& s, const DispatchOrder& order, int threads,
                        const char* what) {
  const int64_t units = s.num_units(), blocks = order.grid(units);
  std::vector<Entry> list(kMaxLevels, Entry{-7, -7});  // poison: every slot must be written
  for (int64_t b = 0; b < blocks; ++b) {
    for (int tid = 0; tid < threads; ++tid) decode(list.data(), s, order, b, blocks, tid, threads);
    Walk walk(list.data(), s);
    WorkUnit got;
    int64_t x, listed = 0;
    for (BlockUnits want(order, units, b, blocks); want.next(x); ++listed) {
      ASSERT_TRUE(walk.next(got)) << what << ": block " << b << " stops after " << listed;
      ASSERT_TRUE(sched::same_unit(got, sched::ordered_unit<false>(s, order, x)))
          << what << ": block " << b << " unit " << listed;
    }
    EXPECT_FALSE(walk.next(got)) << what << ": block " << b << " walks past its last unit";
    for (int i = int(listed); i < kMaxLevels; ++i)
      ASSERT_EQ(list[size_t(i)].bi, -1) << what << ": block " << b << " level " << i;
  }
}

TEST(UnitList, DecodesEveryBlocksUnitsForEveryOrder) {
  for (int64_t n : {1, 127, 129, 1000, 2048, 3071, 4096, 5632, 5760})
    for (int64_t slots : {8, 66, 132, 264}) {
      const TriangleSchedule s = sched::make_schedule(n, 128, 64, 1, false, /*split=*/false);
      ASSERT_GE(s.split_d, s.tiles);
      if (!fits(slots)) continue;
      const DispatchOrder persistent = sched::launch_order(s, slots, band_cost, true);
      check_fits(persistent, "test");
      for (int threads : {1, 3, 384}) {
        SCOPED_TRACE(testing::Message()
                     << "n " << n << " slots " << slots << " threads " << threads);
        expect_lists_match(s, persistent, threads, "launch order");
        expect_lists_match(s, DispatchOrder{}, threads, "longest first");
        DispatchOrder banded{};
        banded.band = 12;
        expect_lists_match(s, banded, threads, "banded");
      }
    }
}

// whole_unit(bi, bj), the list's decode of a tile, is unit_unsplit's unit for that tile.
TEST(UnitList, WholeUnitIsTheUnsplitDecode) {
  for (int tiles = 1; tiles <= 50; ++tiles) {
    const TriangleSchedule s =
        sched::make_schedule(int64_t(tiles) * 128 - 5, 128, 64, 1, false, /*split=*/false);
    for (int64_t idx = 0; idx < s.num_units(); ++idx) {
      const WorkUnit want = s.unit_unsplit(idx);
      ASSERT_TRUE(sched::same_unit(s.whole_unit(want.bi, want.bj), want)) << tiles << " " << idx;
    }
  }
}

// A layout with more levels a block than the list holds is refused on the host, naming the
// kernel; fits() admits only grids whose lists cannot exceed it.
TEST(UnitList, RefusesALayoutPastItsLevels) {
  DispatchOrder d{};
  d.blocks = 4;
  d.count = 4 * kMaxLevels;
  EXPECT_NO_THROW(check_fits(d, "k"));
  d.count = 4 * kMaxLevels + 4;
  try {
    check_fits(d, "sm90_16bit");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sm90_16bit"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fits(DispatchOrder::kMaxUnits / kMaxLevels));
  EXPECT_FALSE(fits(DispatchOrder::kMaxUnits / kMaxLevels - 1));
}

}  // namespace
}  // namespace trimm::kernels::unit_list
