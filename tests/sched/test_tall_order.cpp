// sm90_16bit's tall layout (sched/tall_order.hpp), on the CPU: every element of C belongs to
// exactly one unit or to exactly one row block's zeroed columns, a unit holds an element of the
// upper triangle or lies on the diagonal, each band is where A's rows and B's columns can both
// be nonzero, every unit appears once, each block's list is heaviest first with holes only past
// its end, and the layout stays within the table (none where it would not).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sched/tall_order.hpp"

namespace trimm::sched {
namespace {

double cost(const TallSchedule& s, const WorkUnit& u) { return 1.25 * s.steps(u) + 8.0; }

TallSchedule tall(int64_t n) { return TallSchedule{n, 192, 128, 64}; }
// The wide units (session 57): 256 columns, so row blocks start inside a column block more often.
TallSchedule wide(int64_t n) { return TallSchedule{n, 192, 256, 64}; }

// Each element (m, c) of n × n: units holding it, and whether its row block zeroes it.
void expect_cover(const TallSchedule& s) {
  const int64_t n = s.n;
  std::vector<int> units(size_t(n * n), 0);
  for (int rb = 0; rb < s.row_blocks(); ++rb) {
    for (int cb = s.first_col(rb); cb < s.col_blocks(); ++cb) {
      const WorkUnit u = s.whole_unit(rb, cb);
      const int64_t r0 = int64_t(rb) * s.rows, c0 = int64_t(cb) * s.cols;
      ASSERT_LT(r0, n);
      ASSERT_GE(std::min<int64_t>(c0 + s.cols, n) - 1, r0)
          << "unit (" << rb << ", " << cb << ") holds no element of the upper triangle";
      // The band: A(m, k) for k >= m >= r0, B(k, c) for k <= c < c0 + cols, k < n.
      EXPECT_EQ(u.k_begin, r0);
      EXPECT_EQ(u.k_end, std::min<int64_t>(c0 + s.cols, n));
      EXPECT_GT(s.steps(u), 0);
      for (int64_t m = r0; m < std::min<int64_t>(r0 + s.rows, n); ++m)
        for (int64_t c = c0; c < std::min<int64_t>(c0 + s.cols, n); ++c) ++units[size_t(m * n + c)];
    }
  }
  for (int64_t m = 0; m < n; ++m) {
    const int64_t zero = s.zero_cols(int(m / s.rows));
    for (int64_t c = 0; c < n; ++c) {
      const int in_zero = c < zero ? 1 : 0;
      ASSERT_EQ(units[size_t(m * n + c)] + in_zero, 1)
          << "n " << n << " (" << m << ", " << c << ")";
      if (in_zero) ASSERT_GT(m, c) << "a zeroed element of the upper triangle";
    }
  }
}

TEST(TallOrder, UnitsAndZeroedColumnsCoverEveryElementOnce) {
  for (int64_t n : {1, 2, 64, 127, 128, 129, 191, 192, 193, 300, 384, 385, 1000, 1153})
    expect_cover(tall(n));
  for (int64_t n : {1, 64, 191, 192, 255, 256, 257, 384, 385, 640, 1000, 1153})
    expect_cover(wide(n));
}

TEST(TallOrder, CountsTheUnits) {
  // 4096: 22 row blocks of 192; row block rb starts at column block floor(1.5 rb) of 32.
  int64_t c = 0;
  for (int rb = 0; rb < 22; ++rb) c += 32 - (rb * 3) / 2;
  EXPECT_EQ(tall(4096).num_units(), c);
  EXPECT_EQ(tall(192).num_units(), 2);  // columns 0-127 and 128-191
  // 6144 wide: 32 row blocks of 192; row block rb starts at column block floor(0.75 rb) of 24.
  c = 0;
  for (int rb = 0; rb < 32; ++rb) c += 24 - (rb * 3) / 4;
  EXPECT_EQ(wide(6144).num_units(), c);
}

void expect_layout(const TallSchedule& s, int64_t slots) {
  const PairLayout d = tall_order(s, slots, cost);
  ASSERT_GT(d.blocks, 0) << "n " << s.n;
  ASSERT_LE(d.blocks, slots);
  ASSERT_EQ(d.count % d.blocks, 0);
  ASSERT_LE(d.count, PairLayout::kMaxEntries);
  std::vector<int> seen(size_t(s.row_blocks()) * size_t(s.col_blocks()), 0);
  int64_t listed = 0;
  for (int b = 0; b < d.blocks; ++b) {
    double prev = 1e300;
    bool ended = false;
    for (int i = 0; i * d.blocks < d.count; ++i) {
      const uint16_t t = d.at(b, i);
      if (t == PairLayout::kHole) {
        ended = true;
        continue;
      }
      ASSERT_FALSE(ended) << "block " << b << ": a unit after a hole";
      const int rb = packed_bi(t), cb = packed_bj(t);
      ASSERT_LT(rb, s.row_blocks());
      ASSERT_GE(cb, s.first_col(rb));
      ASSERT_LT(cb, s.col_blocks());
      const double w = cost(s, s.whole_unit(rb, cb));
      EXPECT_LE(w, prev) << "block " << b << ": heaviest first";
      prev = w;
      ++seen[size_t(rb) * size_t(s.col_blocks()) + size_t(cb)];
      ++listed;
    }
    EXPECT_EQ(d.at(b, d.count / d.blocks), PairLayout::kHole) << "past the table";
  }
  EXPECT_EQ(listed, s.num_units());
  for (int rb = 0; rb < s.row_blocks(); ++rb)
    for (int cb = s.first_col(rb); cb < s.col_blocks(); ++cb)
      EXPECT_EQ(seen[size_t(rb) * size_t(s.col_blocks()) + size_t(cb)], 1)
          << "unit (" << rb << ", " << cb << ")";
}

TEST(TallOrder, EveryUnitOnceHeaviestFirstOnEachBlock) {
  for (int64_t n : {4096, 4097, 4160, 5000, 6144, 8192}) expect_layout(tall(n), 132);
  expect_layout(tall(4096), 78);
  expect_layout(tall(8192), 114);
  for (int64_t n : {6144, 6208, 7000, 8192, 10240, 12288}) expect_layout(wide(n), 132);
}

// Where the units fit the slots at once, or outgrow the table, there is no layout.
TEST(TallOrder, NoneWhereItCannotHelpOrFit) {
  EXPECT_EQ(tall_order(tall(1000), 132, cost).blocks, 0);   // 33 units
  EXPECT_EQ(tall_order(tall(16384), 132, cost).blocks, 0);  // > 4096 units
}

}  // namespace
}  // namespace trimm::sched
