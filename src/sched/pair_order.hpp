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
// i-th pair (blocks = 2 · clusters), holes at the same levels for both ranks. The longer tile of
// a pair goes to whichever rank has run fewer stages so far, so that the wait falls on the two
// ranks in turn and each runs ahead of the other by at most one pair's difference (the ring's
// slack covers it): 4096 −0.3 µs, 6144 −1 µs against rank 0 always the shorter (session 40).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/hd.hpp"
#include "sched/dispatch_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {

// Two tiles of a cluster's level, as whole units (second == first: a tile alone).
using TilePair = std::pair<WorkUnit, WorkUnit>;

// The schedule's tiles in pairs.
inline std::vector<TilePair> tile_pairs(const TriangleSchedule& s) {
  std::vector<TilePair> pairs;
  std::vector<WorkUnit> loose;  // diagonal tiles of rows with an odd count
  for (int bi = 0; bi < s.tiles; ++bi) {
    int j = bi;
    if ((s.tiles - bi) % 2 == 1) loose.push_back(s.whole_unit(bi, j++));
    for (; j + 1 < s.tiles; j += 2)
      pairs.emplace_back(s.whole_unit(bi, j), s.whole_unit(bi, j + 1));
  }
  for (size_t t = 0; t < loose.size(); t += 2)
    pairs.emplace_back(loose[t], t + 1 < loose.size() ? loose[t + 1] : loose[t]);
  return pairs;
}

// A tile in a layout entry: bi in the high byte, bj in the low one (tiles < 255 a side, so that
// no tile packs to PairLayout::kHole).
TRIMM_HD constexpr uint16_t pack_tile(int bi, int bj) { return uint16_t(bi << 8 | bj); }
TRIMM_HD constexpr int packed_bi(uint16_t t) { return t >> 8; }
TRIMM_HD constexpr int packed_bj(uint16_t t) { return t & 0xFF; }

// A pair layout as the kernel takes it, by value: entry i · blocks + 2c + r holds rank r's tile
// of cluster c's i-th pair (pack_tile'd: the kernel decodes no unit index), kHole once cluster c's
// list has ended (the same level for both ranks). 4096 entries (8 KB of kernel parameters, past
// CUDA's classic 4 KB: CUDA 12.1 or later) hold the pairs up to n = 11392 on 132 SMs, where
// DispatchOrder's 1024 ended them at 5376.
struct PairLayout {
  static constexpr int kMaxEntries = 4096;
  static constexpr int kMaxTiles = 254;  // tiles a side that pack_tile holds apart from kHole
  static constexpr uint16_t kHole = 0xFFFF;
  int count = 0;   // entries in `tile`: blocks × the longest list
  int blocks = 0;  // 2 · the clusters that have pairs; 0: no layout
  uint16_t tile[kMaxEntries] = {};
  // Block b's i-th tile (pack_tile'd), or kHole past its list.
  TRIMM_HD uint16_t at(int64_t b, int i) const {
    const int64_t x = b + int64_t(i) * blocks;
    return x < count ? tile[x] : kHole;
  }
};
// Beside three 128-byte tensor maps, the problem and the schedule: CUDA 12.1's 32764 bytes of
// kernel parameters hold them.
static_assert(sizeof(PairLayout) <= 8400, "kernel parameters: the pair layout within 8.2 KB");
static_assert(pack_tile(PairLayout::kMaxTiles - 1, PairLayout::kMaxTiles - 1) < PairLayout::kHole,
              "no tile packs to the hole");

// The schedule's pairs heaviest first under cost(unit) (a pair weighs its longer tile), with
// their weights; none for a dense or split schedule, where the pairs fit `clusters` clusters at
// once, where two pairs' tiles would outgrow the table, or where a pair's bands differ by more
// than max_lag stages (the kernel's bound: the shorter one's consumers hold their last slot while
// they wait out the difference).
template <class Cost>
std::vector<TilePair> weighed_pairs(const TriangleSchedule& s, int64_t clusters, int max_lag,
                                    Cost&& cost, std::vector<double>& w) {
  w.clear();
  if (s.dense || s.split_d < s.tiles || clusters < 1) return {};
  std::vector<TilePair> pairs = tile_pairs(s);
  if (int64_t(pairs.size()) <= clusters || 2 * pairs.size() > size_t(PairLayout::kMaxEntries) ||
      s.tiles > PairLayout::kMaxTiles)
    return {};
  for (const auto& [a, b] : pairs)
    if (std::abs(s.steps(a) - s.steps(b)) > max_lag) return {};
  auto weight = [&](const TilePair& p) { return std::max(cost(p.first), cost(p.second)); };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const auto& x, const auto& y) { return weight(x) > weight(y); });
  w.resize(pairs.size());
  std::transform(pairs.begin(), pairs.end(), w.begin(), weight);
  return pairs;
}

// The pair layout for `clusters` clusters of two under cost(unit), or none (blocks 0) where
// weighed_pairs gives none or the layout outgrows the table.
template <class Cost>
PairLayout pair_order(const TriangleSchedule& s, int64_t clusters, int max_lag, Cost&& cost) {
  PairLayout d{};
  std::vector<double> w;
  const std::vector<TilePair> pairs = weighed_pairs(s, clusters, max_lag, cost, w);
  if (pairs.empty()) return d;
  const auto bins = packed_lists(w, clusters);
  const int64_t blocks = 2 * int64_t(bins.size()), levels = int64_t(bins.front().size());
  if (blocks * levels > PairLayout::kMaxEntries) return d;
  d.blocks = int(blocks);
  d.count = int(blocks * levels);
  std::vector<int64_t> ahead(bins.size(), 0);  // rank 0's stages minus rank 1's, by cluster
  for (int64_t i = 0; i < levels; ++i)
    for (size_t c = 0; c < bins.size(); ++c) {
      uint16_t* entry = d.tile + i * blocks + 2 * int64_t(c);
      if (size_t(i) < bins[c].size()) {
        const TilePair& p = pairs[size_t(bins[c][size_t(i)])];
        // Rank 0 takes the longer tile exactly when it is behind.
        const bool swap = (s.steps(p.first) > s.steps(p.second)) != (ahead[c] < 0);
        const WorkUnit& r0 = swap ? p.second : p.first;
        const WorkUnit& r1 = swap ? p.first : p.second;
        entry[0] = pack_tile(r0.bi, r0.bj);
        entry[1] = pack_tile(r1.bi, r1.bj);
        ahead[c] += s.steps(r0) - s.steps(r1);
      } else {
        entry[0] = entry[1] = PairLayout::kHole;
      }
    }
  return d;
}

}  // namespace trimm::sched
