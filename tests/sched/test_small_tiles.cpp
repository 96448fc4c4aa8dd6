// sched::small_tile_of: every tile of the fill triangle exactly once, longest bands first; and
// sched::unit_tile, its closed form over a whole grid (sm80_fp64).
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

TEST(SmallTiles, TriangularRootIsTheLargestMWithinU) {
  for (int64_t u = 0; u < 100000; ++u) {
    const int64_t m = triangular_root(u);
    ASSERT_TRUE(m * (m + 1) / 2 <= u && (m + 1) * (m + 2) / 2 > u) << u;
  }
  // Far past where the double square root rounds (u ~ 2^60).
  for (int64_t m : {int64_t(1) << 20, int64_t(1) << 26, int64_t(1) << 29, int64_t(1518500249)}) {
    const int64_t base = m * (m + 1) / 2;
    for (int64_t du : {int64_t(-1), int64_t(0), int64_t(1), m, m + 1}) {
      const int64_t u = base + du, r = triangular_root(u);
      ASSERT_TRUE(r * (r + 1) / 2 <= u && (r + 1) * (r + 2) / 2 > u) << u;
    }
  }
}

// sm80_fp64's units: the triangle in small_tile_of's order, then each tile outside it once.
TEST(SmallTiles, UnitTileIsSmallTileOfThenTheOtherTriangle) {
  for (bool upper : {true, false})
    for (int t = 1; t <= 70; ++t) {
      SCOPED_TRACE(std::string(upper ? "upper" : "lower") + ", t = " + std::to_string(t));
      std::set<std::pair<int64_t, int64_t>> seen;
      for (int64_t u = 0; u < int64_t(t) * t; ++u) {
        int64_t I = -1, J = -1;
        const bool outside = unit_tile(u, t, upper, I, J);
        ASSERT_TRUE(I >= 0 && J >= 0 && I < t && J < t) << u;
        ASSERT_EQ(outside, u >= small_tiles(t)) << u;
        ASSERT_EQ(outside, upper ? I > J : I < J) << "(" << I << ", " << J << ")";
        if (!outside) {
          int si = -1, sj = -1;
          small_tile_of(u, t, upper, &si, &sj);
          ASSERT_TRUE(I == si && J == sj)
              << u << ": (" << I << ", " << J << ") against (" << si << ", " << sj << ")";
        }
        ASSERT_TRUE(seen.insert({I, J}).second) << "(" << I << ", " << J << ") twice";
      }
      EXPECT_EQ(int64_t(seen.size()), int64_t(t) * t);
    }
}

}  // namespace
}  // namespace trimm::sched
