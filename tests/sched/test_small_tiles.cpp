// sched::small_tile_of: every tile of the fill triangle exactly once, longest bands first.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>

#include "sched/small_tiles.hpp"

namespace trimm::sched {
namespace {

TEST(SmallTiles, EachTileOfTheTriangleOnceLongestBandsFirst) {
  for (bool upper : {true, false})
    for (int t = 1; t <= 40; ++t) {
      SCOPED_TRACE(std::string(upper ? "upper" : "lower") + ", t = " + std::to_string(t));
      std::set<std::pair<int, int>> seen;
      int last_d = t;
      for (int64_t idx = 0; idx < small_tiles(t); ++idx) {
        int I = -1, J = -1;
        small_tile_of(idx, t, upper, &I, &J);
        ASSERT_TRUE(I >= 0 && J >= 0 && I < t && J < t) << idx;
        ASSERT_TRUE(upper ? I <= J : I >= J) << "(" << I << ", " << J << ") outside the triangle";
        ASSERT_TRUE(seen.insert({I, J}).second) << "(" << I << ", " << J << ") twice";
        const int d = std::abs(J - I);
        ASSERT_LE(d, last_d) << "a longer band after a shorter one at " << idx;
        last_d = d;
      }
      EXPECT_EQ(int64_t(seen.size()), int64_t(t) * (t + 1) / 2);
    }
}

}  // namespace
}  // namespace trimm::sched
