// The order blocks take the schedule's units in. The hardware hands blocks out in index order,
// each to the first slot that frees, so listing units longest first is a greedy LPT schedule.
// LPT ends coarse: at n = 4096 on 132 slots its slowest slot carries 45 tile-k blocks against an
// average of 43.3 (+3.8 %), because the last units (bands of 1 to 5 k blocks) are too few to level
// 132 slots. A better packing of the units into slots (LPT, then moves and swaps out of the
// fullest slot) is turned back into an index order by replaying it: the order in which the
// packed slots would ask for their next unit. Built on the host once per shape, passed by value
// (2 KB) in the launch, read once per block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "common/hd.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {

struct DispatchOrder {
  static constexpr int kMaxUnits = 1024;
  static constexpr uint16_t kHole = 0xFFFF;  // a persistent layout's "no more units"
  int count = 0;   // entries in `unit`; 0: the schedule's own order
  int blocks = 0;  // > 0: a persistent layout for a grid of that many blocks (persistent_order)
  // With count 0, for a schedule without split tiles: > 0 takes the units in bands of that many
  // diagonals (TriangleSchedule::unit_banded, for L2), 0 diagonal by diagonal (unit_unsplit).
  int band = 0;
  uint16_t unit[kMaxUnits] = {};
  // Entry x: the unit of block x in an index order; in a persistent layout, entry i·blocks + b is
  // block b's i-th unit, or -1 where block b has fewer (its holes come last).
  TRIMM_HD int at(int64_t x) const {
    return count == 0 ? int(x) : unit[x] == kHole ? -1 : int(unit[x]);
  }
  TRIMM_HD int64_t extent(int64_t units) const { return count == 0 ? units : count; }
  // The launch's blocks per problem: one per unit, or the persistent layout's.
  TRIMM_HD int64_t grid(int64_t units) const { return blocks > 0 ? blocks : units; }
};
// Passed by value beside two 128-byte tensor maps and the problem: CUDA's classic 4 KB of kernel
// parameters must hold them all.
static_assert(sizeof(DispatchOrder) <= 2560, "kernel parameters: keep the order within 2.5 KB");

// Whether a launch takes schedule s's units in bands of `band` diagonals (TriangleSchedule::
// unit_banded, DispatchOrder::band) instead of its balanced or persistent order: a single
// problem (a batch's blocks interleave across problems) without split tiles or dense units, with
// more units than both the slots and the orders' table (below it, the packed or balanced order,
// or longest first where packing does not beat it), so that the blocks in flight share their
// operands in L2. band <= 0: never.
inline bool takes_bands(const TriangleSchedule& s, int64_t batch, int64_t slots, int band) {
  const int64_t units = s.num_units();
  return band > 0 && batch == 1 && !s.dense && s.split_d >= s.tiles && units > slots &&
         units > DispatchOrder::kMaxUnits;
}

// The unit of index x (BlockUnits') as the order decodes it: in bands where it says so (a
// schedule without split tiles), else the schedule's own order. kSplit = false, for a kernel
// whose schedules never split: unit_unsplit, which keeps unit()'s search (and its registers)
// out of the kernel.
template <bool kSplit = true>
TRIMM_HD WorkUnit ordered_unit(const TriangleSchedule& s, const DispatchOrder& o, int64_t x) {
  if (o.band > 0) return s.unit_banded(x, o.band);
  if constexpr (kSplit) return s.unit_quick(x);
  return s.unit_unsplit(x);
}

// The units block b of a grid of g blocks computes, in order: entries b, b + g, b + 2g, ... up to
// the order's extent or its first hole. One unit per block where g covers the units; a block's
// whole list in a persistent layout.
class BlockUnits {
 public:
  TRIMM_HD BlockUnits(const DispatchOrder& o, int64_t units, int64_t b, int64_t g)
      : o_(o), end_(o.extent(units)), x_(b), g_(g) {}
  TRIMM_HD bool next(int64_t& unit) {
    if (x_ >= end_) return false;
    const int u = o_.at(x_);
    if (u < 0) return false;
    unit = u;
    x_ += g_;
    return true;
  }

 private:
  const DispatchOrder& o_;
  int64_t end_, x_, g_;
};

// What the hardware does with units 0..w.size()-1 in index order (weights w, longest first) on
// `slots` slots: each unit to the slot that frees first (LPT). Each slot's units, in order.
inline std::vector<std::vector<int>> lpt_bins(const std::vector<double>& w, int64_t slots) {
  const int64_t m = std::max<int64_t>(1, slots);
  std::vector<std::vector<int>> bins(static_cast<size_t>(m));
  std::vector<double> load(static_cast<size_t>(m), 0.0);  // each slot's finish time
  using Slot = std::pair<double, int64_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> free_at;
  for (int64_t k = 0; k < m; ++k) free_at.push({0.0, k});
  for (int u = 0; u < int(w.size()); ++u) {  // w is longest first already
    const auto [t, k] = free_at.top();
    free_at.pop();
    bins[size_t(k)].push_back(u);
    load[size_t(k)] = t + w[size_t(u)];
    free_at.push({load[size_t(k)], k});
  }
  return bins;
}

// `bins` repacked: while a move of one unit, or a swap of two, out of the fullest slot lowers it
// below its load. Each slot's units, heaviest first.
inline std::vector<std::vector<int>> improve_bins(std::vector<std::vector<int>> bins,
                                                  const std::vector<double>& w) {
  std::vector<double> load(bins.size(), 0.0);
  for (size_t k = 0; k < bins.size(); ++k)
    for (int u : bins[k]) load[k] += w[size_t(u)];
  constexpr double kEps = 1e-9;
  for (int round = 0; round < 4 * int(w.size()); ++round) {
    const size_t hi = size_t(std::max_element(load.begin(), load.end()) - load.begin());
    double best = load[hi];
    size_t best_k = 0, best_a = 0, best_b = SIZE_MAX;  // best_b == SIZE_MAX: a move
    for (size_t a = 0; a < bins[hi].size(); ++a) {
      const double wa = w[size_t(bins[hi][a])];
      for (size_t k = 0; k < bins.size(); ++k) {
        if (k == hi) continue;
        const double move = std::max(load[hi] - wa, load[k] + wa);
        if (move < best - kEps) best = move, best_k = k, best_a = a, best_b = SIZE_MAX;
        for (size_t b = 0; b < bins[k].size(); ++b) {
          const double wb = w[size_t(bins[k][b])];
          if (wb >= wa) continue;
          const double swap = std::max(load[hi] - wa + wb, load[k] + wa - wb);
          if (swap < best - kEps) best = swap, best_k = k, best_a = a, best_b = b;
        }
      }
    }
    if (best >= load[hi] - kEps) break;
    const int ua = bins[hi][best_a];
    bins[hi].erase(bins[hi].begin() + std::ptrdiff_t(best_a));
    load[hi] -= w[size_t(ua)];
    if (best_b != SIZE_MAX) {
      const int ub = bins[best_k][best_b];
      bins[best_k].erase(bins[best_k].begin() + std::ptrdiff_t(best_b));
      load[best_k] -= w[size_t(ub)];
      bins[hi].push_back(ub);
      load[hi] += w[size_t(ub)];
    }
    bins[best_k].push_back(ua);
    load[best_k] += w[size_t(ua)];
  }
  for (auto& b : bins)
    std::sort(b.begin(), b.end(), [&](int x, int y) { return w[size_t(x)] > w[size_t(y)]; });
  return bins;
}

// The largest slot load of bins under weights w.
inline double makespan(const std::vector<std::vector<int>>& bins, const std::vector<double>& w) {
  double worst = 0;
  for (const auto& b : bins) {
    double l = 0;
    for (int u : b) l += w[size_t(u)];
    worst = std::max(worst, l);
  }
  return worst;
}

// The index order that replays `bins` on hardware that gives block x to the first free slot:
// every slot's first unit, then each next unit in the order its slot frees (modelled by w).
inline std::vector<int> replay_order(const std::vector<std::vector<int>>& bins,
                                     const std::vector<double>& w) {
  std::vector<int> order;
  using Slot = std::pair<double, size_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> free_at;
  std::vector<size_t> next(bins.size(), 0);
  for (size_t k = 0; k < bins.size(); ++k)
    if (!bins[k].empty()) {
      order.push_back(bins[k][0]);
      next[k] = 1;
      free_at.push({w[size_t(bins[k][0])], k});
    }
  while (!free_at.empty()) {
    const auto [t, k] = free_at.top();
    free_at.pop();
    if (next[k] == bins[k].size()) continue;
    const int u = bins[k][next[k]++];
    order.push_back(u);
    free_at.push({t + w[size_t(u)], k});
  }
  return order;
}

// Whether packing can help s's units on `slots` slots: not for a dense schedule (its units weigh
// the same), where the units fit the slots at once, or where they outnumber DispatchOrder. Where
// it cannot, launch_order is the schedule's own order (count 0), with nothing to build or cache.
inline bool packable(const TriangleSchedule& s, int64_t slots) {
  const int64_t units = s.num_units();
  return !s.dense && units > slots && units <= DispatchOrder::kMaxUnits;
}

// Each unit's weight cost(u) where packable, else none (empty).
template <class Cost>
std::vector<double> packable_weights(const TriangleSchedule& s, int64_t slots, Cost&& cost) {
  if (!packable(s, slots)) return {};
  const int64_t units = s.num_units();
  std::vector<double> w(static_cast<size_t>(units));
  for (int64_t u = 0; u < units; ++u) w[size_t(u)] = cost(s.unit(u));
  return w;
}

// A balanced order for one problem's units on `slots` slots, where unit u costs cost(u) (any
// consistent unit of time). The schedule's own order (count 0) for a dense schedule, where the
// units do not fit DispatchOrder, or where the packing gains nothing over it.
template <class Cost>
DispatchOrder balanced_order(const TriangleSchedule& s, int64_t slots, Cost&& cost) {
  DispatchOrder d{};
  const std::vector<double> w = packable_weights(s, slots, cost);
  if (w.empty()) return d;
  const auto lpt = lpt_bins(w, slots);
  const auto packed = improve_bins(lpt, w);
  if (makespan(packed, w) >= makespan(lpt, w) * (1 - 1e-6)) return d;
  const std::vector<int> order = replay_order(packed, w);
  d.count = int(order.size());
  for (size_t x = 0; x < order.size(); ++x) d.unit[x] = uint16_t(order[x]);
  return d;
}

// The packed slots of units weighing w (longest first) on `slots` slots, heaviest first in each,
// without the empty ones, the longest lists first (so that a table of levels is as short as it can
// be): the lists of a persistent layout.
inline std::vector<std::vector<int>> packed_lists(const std::vector<double>& w, int64_t slots) {
  auto bins = improve_bins(lpt_bins(w, slots), w);
  bins.erase(std::remove_if(bins.begin(), bins.end(), [](const auto& b) { return b.empty(); }),
             bins.end());
  std::stable_sort(bins.begin(), bins.end(),
                   [](const auto& x, const auto& y) { return x.size() > y.size(); });
  return bins;
}

// A persistent layout: one block per slot (at most), each running a fixed list of units, so that
// a block's producer loads the next unit while its consumers store the last, and no block pays a
// launch and a pipeline fill per unit. The lists are the packed slots of balanced_order, each
// heaviest first; entry i·blocks + b is a hole once block b's list has ended (the blocks are
// sorted by list length only so that the table is as short as it can be). Empty (count 0,
// blocks 0) for a dense schedule, where the units fit the slots at once, or where the layout
// outgrows the table: launch_order then takes balanced_order.
template <class Cost>
DispatchOrder persistent_order(const TriangleSchedule& s, int64_t slots, Cost&& cost) {
  DispatchOrder d{};
  const std::vector<double> w = packable_weights(s, slots, cost);
  if (w.empty()) return d;
  const auto bins = packed_lists(w, slots);
  const int64_t blocks = int64_t(bins.size()), levels = int64_t(bins.front().size());
  if (blocks * levels > DispatchOrder::kMaxUnits) return d;
  d.blocks = int(blocks);
  d.count = int(blocks * levels);
  for (int64_t i = 0; i < levels; ++i)
    for (int64_t b = 0; b < blocks; ++b)
      d.unit[i * blocks + b] = size_t(i) < bins[size_t(b)].size()
                                   ? uint16_t(bins[size_t(b)][size_t(i)])
                                   : DispatchOrder::kHole;
  return d;
}

// The order a launch takes: for a kernel that walks BlockUnits persistently, the persistent
// layout where there is one; otherwise (and for other kernels) the balanced index order.
template <class Cost>
DispatchOrder launch_order(const TriangleSchedule& s, int64_t slots, Cost&& cost,
                           bool persistent) {
  if (persistent) {
    const DispatchOrder d = persistent_order(s, slots, cost);
    if (d.blocks > 0) return d;
  }
  return balanced_order(s, slots, cost);
}

}  // namespace trimm::sched
