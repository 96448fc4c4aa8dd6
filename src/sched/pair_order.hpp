// A persistent layout for clusters of two blocks that share one operand (sm90_16bit's pairs).
// Two tiles of the same scheduler row bi have the same band start, bi · tile, so for the stages
// they both run they read the same rows of A (Upper: C's rows bi) or columns of B (Lower: the
// scheduler's coordinates are Cᵀ's, so C's columns bi): each block of the cluster loads half of
// that operand and multicasts it to both. The two run in step (one ring position, one stage at a
// time), so the shorter band of a pair waits out the longer one's last stages.
//
// Pairs: in each row the tiles two by two along the row (adjacent columns: bands two stages of
// 64 apart at tile 128); a row with an odd count leaves its diagonal tile out, and those pair
// with each other (bands of equal length, nothing shared, unless two share a row: never). An
// odd one left pairs with itself: both blocks compute it, and rank 1 stores nothing.
// The layout: the pairs packed onto `clusters` slots as persistent_order packs units (weight:
// the cost of the longer tile), entry i · blocks + 2c + r holding rank r's tile of cluster c's
// i-th pair (blocks = 2 · clusters), holes at the same levels for both ranks.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <utility>
#include <vector>

#include "sched/dispatch_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {

// Tile (bi, bj)'s index in unit_unsplit's order (diagonals from the longest, top to bottom).
inline int unsplit_index(const TriangleSchedule& s, int bi, int bj) {
  int64_t idx = bi;
  for (int d = s.tiles - 1; d > bj - bi; --d) idx += s.diag_count(d);
  return int(idx);
}

// The schedule's tiles as pairs of unsplit indices (second == first: a tile alone).
inline std::vector<std::pair<int, int>> tile_pairs(const TriangleSchedule& s) {
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> loose;  // diagonal tiles of rows with an odd count
  for (int bi = 0; bi < s.tiles; ++bi) {
    int j = bi;
    if ((s.tiles - bi) % 2 == 1) loose.push_back(unsplit_index(s, bi, j++));
    for (; j + 1 < s.tiles; j += 2)
      pairs.emplace_back(unsplit_index(s, bi, j), unsplit_index(s, bi, j + 1));
  }
  for (size_t t = 0; t < loose.size(); t += 2)
    pairs.emplace_back(loose[t], t + 1 < loose.size() ? loose[t + 1] : loose[t]);
  return pairs;
}

// The pair layout for `clusters` clusters of two under cost(unit), or none (count 0) for a dense
// or split schedule, where the pairs fit the clusters at once, where the layout outgrows the
// table, or where a pair's bands differ by more than max_lag stages (the kernel's bound: the
// shorter one's consumers hold their last slot while they wait out the difference).
template <class Cost>
DispatchOrder pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {
  DispatchOrder d{};
  if (s.dense || s.split_d < s.tiles || clusters < 1) return d;
  std::vector<std::pair<int, int>> pairs = tile_pairs(s);
  if (int64_t(pairs.size()) <= clusters || 2 * pairs.size() > size_t(DispatchOrder::kMaxUnits))
    return d;
  for (const auto& [a, b] : pairs)
    if (std::abs(s.steps(s.unit_unsplit(a)) - s.steps(s.unit_unsplit(b))) > max_lag) return d;
  auto weight = [&](const std::pair<int, int>& p) {
    return std::max(cost(s.unit_unsplit(p.first)), cost(s.unit_unsplit(p.second)));
  };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const auto& x, const auto& y) { return weight(x) > weight(y); });
  std::vector<double> w(pairs.size());
  std::transform(pairs.begin(), pairs.end(), w.begin(), weight);
  auto bins = improve_bins(lpt_bins(w, clusters), w);
  bins.erase(std::remove_if(bins.begin(), bins.end(), [](const auto& b) { return b.empty(); }),
             bins.end());
  std::stable_sort(bins.begin(), bins.end(),
                   [](const auto& x, const auto& y) { return x.size() > y.size(); });
  const int64_t blocks = 2 * int64_t(bins.size()), levels = int64_t(bins.front().size());
  if (blocks * levels > DispatchOrder::kMaxUnits) return d;
  d.blocks = int(blocks);
  d.count = int(blocks * levels);
  for (int64_t i = 0; i < levels; ++i)
    for (size_t c = 0; c < bins.size(); ++c) {
      const bool has = size_t(i) < bins[c].size();
      const std::pair<int, int> p = has ? pairs[size_t(bins[c][size_t(i)])] : std::pair{-1, -1};
      d.unit[i * blocks + 2 * int64_t(c)] = has ? uint16_t(p.first) : DispatchOrder::kHole;
      d.unit[i * blocks + 2 * int64_t(c) + 1] = has ? uint16_t(p.second) : DispatchOrder::kHole;
    }
  return d;
}

}  // namespace trimm::sched
