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

// The schedule's pairs heaviest first under cost(unit) (a pair weighs its longer tile), with
// their weights; none for a dense or split schedule, where the pairs fit `clusters` clusters at
// once, where two pairs' tiles would outgrow the table, or where a pair's bands differ by more
// than max_lag stages (the kernel's bound: the shorter one's consumers hold their last slot while
// they wait out the difference).
template <class Cost>
std::vector<std::pair<int, int>> weighed_pairs(const TriangleSchedule& s, int64_t clusters,
                                               int max_lag, Cost&& cost, std::vector<double>& w) {
  w.clear();
  if (s.dense || s.split_d < s.tiles || clusters < 1) return {};
  std::vector<std::pair<int, int>> pairs = tile_pairs(s);
  if (int64_t(pairs.size()) <= clusters || 2 * pairs.size() > size_t(DispatchOrder::kMaxUnits))
    return {};
  for (const auto& [a, b] : pairs)
    if (std::abs(s.steps(s.unit_unsplit(a)) - s.steps(s.unit_unsplit(b))) > max_lag) return {};
  auto weight = [&](const std::pair<int, int>& p) {
    return std::max(cost(s.unit_unsplit(p.first)), cost(s.unit_unsplit(p.second)));
  };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const auto& x, const auto& y) { return weight(x) > weight(y); });
  w.resize(pairs.size());
  std::transform(pairs.begin(), pairs.end(), w.begin(), weight);
  return pairs;
}

// The pair layout for `clusters` clusters of two under cost(unit), or none (count 0) where
// weighed_pairs gives none or the layout outgrows the table.
template <class Cost>
DispatchOrder pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {
  DispatchOrder d{};
  std::vector<double> w;
  const std::vector<std::pair<int, int>> pairs = weighed_pairs(s, clusters, max_lag, cost, w);
  if (pairs.empty()) return d;
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

// A tile packed into a queue entry: bi in the high byte, bj in the low one.
inline uint16_t pack_tile(int bi, int bj) { return uint16_t(bi << 8 | bj); }

// The pairs as a queue that clusters take from while they run: cluster c starts on entry c and
// takes each next one from a counter as its loads end, so that clusters on faster SMs take more
// (at n = 4096 blocks with equal work ended up to 20 % apart, by SM: bench/NOTES.md, session 35).
// The entries replay pair_order's packing (replay_order), so that clusters of equal speed take
// what the packing gives them. unit[2x + r]: entry x's rank-r tile, pack_tile'd; count =
// 2 · pairs, blocks = 2 · clusters. None (count 0) where weighed_pairs gives none. Where
// pair_order's layout exists the queue was 2-3 µs slower at n = 3584-5120 (bench/RESULTS.md,
// session 37), so sm90_16bit takes it only past that layout's table.
template <class Cost>
DispatchOrder pair_queue(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {
  DispatchOrder d{};
  std::vector<double> w;
  const std::vector<std::pair<int, int>> pairs = weighed_pairs(s, clusters, max_lag, cost, w);
  if (pairs.empty() || s.tiles > 254) return d;  // unit_list::kLevelUnset is no tile
  const std::vector<int> order = replay_order(improve_bins(lpt_bins(w, clusters), w), w);
  d.blocks = int(2 * clusters);
  d.count = int(2 * order.size());
  for (size_t x = 0; x < order.size(); ++x) {
    const std::pair<int, int>& p = pairs[size_t(order[x])];
    const WorkUnit a = s.unit_unsplit(p.first), b = s.unit_unsplit(p.second);
    d.unit[2 * x] = pack_tile(a.bi, a.bj);
    d.unit[2 * x + 1] = pack_tile(b.bi, b.bj);
  }
  return d;
}

}  // namespace trimm::sched
