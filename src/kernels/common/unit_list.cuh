// A persistent block's list of units, decoded once in its prologue rather than at each unit's
// turn: every level's entry read from the DispatchOrder table (a kernel parameter) and decoded at
// once, a thread each, into shared memory, and the block's roles walk that list instead of
// sched::BlockUnits. Measured at n = 4096 (bench/RESULTS.md, session 34): sm90_fp16x3 and
// sm90_fp16x1 gain 2-4 µs; sm90_16bit nothing by itself, but its prologue can then issue the
// first unit's loads before the warps split (-1.7 µs). For kernels whose schedules never split a
// tile (units are whole tiles).
#pragma once

#include <cstdint>
#include <string>

#include "common/hd.hpp"
#include "sched/dispatch_order.hpp"
#include "sched/pair_order.hpp"
#include "sched/triangle_scheduler.hpp"
#include "trimm/types.hpp"

namespace trimm::kernels::unit_list {

// Levels a block's list holds: a persistent layout's are at most DispatchOrder::kMaxUnits /
// blocks, so layouts are used only where that fits (fits, checked by check_fits); a pair
// layout's (sched::PairLayout) are checked where it is launched.
constexpr int kMaxLevels = 128;

// Whether a grid of `slots` blocks may take a persistent layout (one block per slot).
inline bool fits(int64_t slots) {
  return slots * kMaxLevels >= sched::DispatchOrder::kMaxUnits;
}

// Throws where a layout's lists would not fit (fits should have kept it from being built).
inline void check_fits(const sched::DispatchOrder& order, const char* kernel) {
  if (order.blocks > 0 && order.count > order.blocks * kMaxLevels)
    throw Error(std::string("trimm: ") + kernel + "'s persistent layout has more than " +
                std::to_string(kMaxLevels) + " units a block");
}

// One entry of a list: a tile's (bi, bj); bi = -1 past the last. 8 bytes, one load.
struct alignas(8) Entry {
  int bi, bj;
};

// Level i of block first_block's list (of a grid of `blocks` per problem), as
// sched::BlockUnits and ordered_unit<false> give it: its tile, or {-1, -1} at a hole or past
// `end` (the order's extent).
TRIMM_HD Entry entry_at(const sched::TriangleSchedule& s, const sched::DispatchOrder& order,
                        int64_t end, int64_t first_block, int64_t blocks, int i) {
  const int64_t x = first_block + int64_t(i) * blocks;
  const int u = x < end ? order.at(x) : -1;
  if (u < 0) return Entry{-1, -1};
  const sched::WorkUnit wu = sched::ordered_unit<false>(s, order, u);
  return Entry{wu.bi, wu.bj};
}

// Block first_block's units into list[0, kMaxLevels). Threads [0, threads) share the levels;
// the caller synchronizes before any reads the list. Host-callable for the tests.
TRIMM_HD void decode(Entry* list, const sched::TriangleSchedule& s,
                     const sched::DispatchOrder& order, int64_t first_block, int64_t blocks,
                     int tid, int threads) {
  const int64_t end = order.extent(s.num_units());
  for (int i = tid; i < kMaxLevels; i += threads)
    list[i] = entry_at(s, order, end, first_block, blocks, i);
}

// A pair's level for one block: its unit and stages, the partner's stages, and whether the two
// share the operand or compute the same tile.
struct PairLevel {
  sched::WorkUnit u;
  int steps, partner_steps;
  bool shared, same;
  TRIMM_HD int common_steps() const { return steps > partner_steps ? steps : partner_steps; }
};

// The list's units in order (its tiles as whole units of s: a sched::TriangleSchedule, or a
// sched::TallSchedule's row and column blocks).
template <class Schedule>
class Walk {
 public:
  TRIMM_HD Walk(const Entry* list, const Schedule& s) : list_(list), s_(s) {}
  TRIMM_HD bool next(sched::WorkUnit& u) {
    if (i_ == kMaxLevels || list_[i_].bi < 0) return false;
    const Entry v = list_[i_++];
    u = s_.whole_unit(v.bi, v.bj);
    return true;
  }
  // The same, as a level of a block without a partner.
  TRIMM_HD bool next(PairLevel& l) {
    if (!next(l.u)) return false;
    l.steps = l.partner_steps = s_.steps(l.u);
    l.shared = l.same = false;
    return true;
  }

 private:
  const Entry* list_;
  const Schedule& s_;
  int i_ = 0;
};

// Block `block`'s list of a pair layout into list[0, kMaxLevels), and in partner[] the partner
// block's (block ^ 1's) tile at each level (pack_tile'd, PairLayout::kHole past its list). Both
// lists are one pass of 2·kMaxLevels entries over the threads, so that each of 256 threads or
// more decodes a single entry: the decode delays a block's first loads. sm90_16bit at 4096,
// session 36 (bench/RESULTS.md): three entries a thread 51.4-52.4 µs, two 50.4-51.2, one
// 49.6-49.9.
TRIMM_HD void decode_pair(Entry* list, uint16_t* partner, const sched::PairLayout& layout,
                          int64_t block, int tid, int threads) {
  for (int j = tid; j < 2 * kMaxLevels; j += threads) {
    if (j < kMaxLevels) {
      const uint16_t t = layout.at(block, j);
      list[j] = t == sched::PairLayout::kHole ? Entry{-1, -1}
                                              : Entry{sched::packed_bi(t), sched::packed_bj(t)};
    } else {
      partner[j - kMaxLevels] = layout.at(block ^ 1, j - kMaxLevels);
    }
  }
}

// A pair layout's list in order (decode_pair's), each level with its partner's stages and
// whether the two share their band start (the same scheduler row) or compute the same tile.
class PairWalk {
 public:
  TRIMM_HD PairWalk(const Entry* list, const uint16_t* partner, const sched::TriangleSchedule& s)
      : walk_(list, s), partner_(partner), s_(s) {}
  TRIMM_HD bool next(PairLevel& l) {
    if (!walk_.next(l)) return false;  // the unit and its stages
    const uint16_t p = partner_[i_++];
    l.partner_steps = 0;
    l.shared = l.same = false;
    if (p != sched::PairLayout::kHole) {
      const sched::WorkUnit u = s_.whole_unit(sched::packed_bi(p), sched::packed_bj(p));
      l.partner_steps = s_.steps(u);
      l.shared = u.bi == l.u.bi;
      l.same = l.shared && u.bj == l.u.bj;
    }
    return true;
  }

 private:
  Walk<sched::TriangleSchedule> walk_;
  const uint16_t* partner_;
  const sched::TriangleSchedule& s_;
  int i_ = 0;
};

}  // namespace trimm::kernels::unit_list
