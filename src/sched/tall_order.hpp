// sm90_16bit's tall units (docs/sm90_16bit_wide_plan.md, option C): the upper triangle of C in
// units of `rows` × `cols` (192 × 128), three consumer warpgroups of 64 rows each, so that a
// stage of 40 KB carries 1.5× the multiply-adds of a 128×128 stage (0.83× the bytes a flop). Row
// blocks start on multiples of `rows` and column blocks on multiples of `cols`, so the two grids
// do not meet as a square scheduler's tiles do: no mirror tiles, and the first unit of a row
// block may hold columns wholly below the diagonal (the kernel's masks and its store write them
// as zeros). The last row block may reach past n (TMA fills those rows of A with zeros and clips
// them from C).
//
// Unit (rb, cb), cb >= first_col(rb): rows [rows·rb, rows·rb + rows), columns [cols·cb, cols·cb +
// cols), band k ∈ [rows·rb, min(cols·(cb + 1), n)) (Upper: A(m, k) is zero below k = m, B(k, c)
// past k = c). C's other triangle left of a row block's first unit is no unit's: the kernel's
// helper warps zero it, row by row over the grid.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "sched/dispatch_order.hpp"
#include "sched/pair_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {

struct TallSchedule {
  int64_t n;
  int rows, cols, k_step;

  TRIMM_HD int row_blocks() const { return int((n + rows - 1) / rows); }
  TRIMM_HD int col_blocks() const { return int((n + cols - 1) / cols); }
  // The first column block of row block rb: the one that holds its first row's diagonal element.
  TRIMM_HD int first_col(int rb) const { return int(int64_t(rb) * rows / cols); }
  // The columns of C's other triangle left of row block rb's units, in every one of its rows.
  TRIMM_HD int64_t zero_cols(int rb) const { return int64_t(first_col(rb)) * cols; }
  TRIMM_HD WorkUnit whole_unit(int rb, int cb) const {
    const int64_t end = int64_t(cb + 1) * cols;
    return {UnitKind::Whole, rb, cb, int64_t(rb) * rows, end < n ? end : n};
  }
  TRIMM_HD int steps(const WorkUnit& u) const {
    return int((u.k_end - u.k_begin + k_step - 1) / k_step);
  }
  int64_t num_units() const {
    int64_t c = 0;
    for (int rb = 0; rb < row_blocks(); ++rb) c += col_blocks() - first_col(rb);
    return c;
  }
};

// The units of s, each a PairLayout entry (pack_tile(rb, cb)), packed onto at most `slots`
// blocks as persistent_order packs a square schedule's (packed_lists, weights cost(s, u)):
// entry i · blocks + b holds block b's i-th unit, heaviest first, and kHole once its list has
// ended. None (blocks 0) where the units fit the slots at once or outgrow the table.
template <class Cost>
PairLayout tall_order(const TallSchedule& s, int64_t slots, Cost&& cost) {
  PairLayout d{};
  std::vector<WorkUnit> units;
  for (int rb = 0; rb < s.row_blocks(); ++rb)
    for (int cb = s.first_col(rb); cb < s.col_blocks(); ++cb) units.push_back(s.whole_unit(rb, cb));
  if (int64_t(units.size()) <= slots || units.size() > size_t(PairLayout::kMaxEntries) ||
      s.row_blocks() > PairLayout::kMaxTiles || s.col_blocks() > PairLayout::kMaxTiles)
    return d;
  std::stable_sort(units.begin(), units.end(),
                   [&](const WorkUnit& x, const WorkUnit& y) { return cost(s, x) > cost(s, y); });
  std::vector<double> w(units.size());
  std::transform(units.begin(), units.end(), w.begin(),
                 [&](const WorkUnit& u) { return cost(s, u); });
  const auto bins = packed_lists(w, slots);
  const int64_t blocks = int64_t(bins.size()), levels = int64_t(bins.front().size());
  if (blocks * levels > PairLayout::kMaxEntries) return d;
  d.blocks = int(blocks);
  d.count = int(blocks * levels);
  for (int64_t i = 0; i < levels; ++i)
    for (int64_t b = 0; b < blocks; ++b) {
      const auto& bin = bins[size_t(b)];
      d.tile[i * blocks + b] = size_t(i) < bin.size() ? pack_tile(units[size_t(bin[size_t(i)])].bi,
                                                                  units[size_t(bin[size_t(i)])].bj)
                                                      : PairLayout::kHole;
    }
  return d;
}

}  // namespace trimm::sched
