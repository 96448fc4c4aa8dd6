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
#include "sched/triangle_scheduler.hpp"
#include "trimm/types.hpp"

namespace trimm::kernels::unit_list {

// Levels a block's list holds: a persistent layout's are at most DispatchOrder::kMaxUnits /
// blocks, so layouts are used only where that fits (fits, checked by check_fits).
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

// Block first_block's units (of a grid of `blocks` per problem) into list[0, kMaxLevels), as
// sched::BlockUnits and ordered_unit<false> give them. Threads [0, threads) share the levels;
// the caller synchronizes before any reads the list. Host-callable for the tests.
TRIMM_HD void decode(Entry* list, const sched::TriangleSchedule& s,
                     const sched::DispatchOrder& order, int64_t first_block, int64_t blocks,
                     int tid, int threads) {
  const int64_t end = order.extent(s.num_units());
  for (int i = tid; i < kMaxLevels; i += threads) {
    const int64_t x = first_block + int64_t(i) * blocks;
    const int u = x < end ? order.at(x) : -1;
    Entry v{-1, -1};
    if (u >= 0) {
      const sched::WorkUnit wu = sched::ordered_unit<false>(s, order, u);
      v = Entry{wu.bi, wu.bj};
    }
    list[i] = v;
  }
}

// A pair's level for one block: its unit and stages, the partner's stages, and whether the two
// share the operand or compute the same tile.
struct PairLevel {
  sched::WorkUnit u;
  int steps, partner_steps;
  bool shared, same;
  TRIMM_HD int common_steps() const { return steps > partner_steps ? steps : partner_steps; }
};

// The list's units in order (its tiles as whole units of s).
class Walk {
 public:
  TRIMM_HD Walk(const Entry* list, const sched::TriangleSchedule& s) : list_(list), s_(s) {}
  TRIMM_HD bool next(sched::WorkUnit& u) {
    if (i_ == kMaxLevels || list_[i_].bi < 0) return false;
    const Entry v = list_[i_++];
    u = s_.whole_unit(v.bi, v.bj);
    return true;
  }
  // The same, as a level of a block without a partner.
  TRIMM_HD bool next(PairLevel& l) {
    if (!next(l.u)) return false;
    l.steps = l.partner_steps = int((l.u.k_end - l.u.k_begin + s_.k_step - 1) / s_.k_step);
    l.shared = l.same = false;
    return true;
  }

 private:
  const Entry* list_;
  const sched::TriangleSchedule& s_;
  int i_ = 0;
};

// A cluster pair's level (sched/pair_order.hpp), as the partner block's entry at the same level
// describes it: its stages (bits 0-15), whether it shares this block's band start (the same
// scheduler row: bit 16) and whether it is this block's own tile, computed twice (bit 17).
constexpr uint32_t kPairShared = 1u << 16, kPairSame = 1u << 17;

// decode, and in partner[] each level's partner entry (block ^ 1's) as above. Each thread
// compares the partner's tile with the entries it decoded itself (the same levels i in both
// loops), so no barrier is needed between them. A pair layout is never banded: its entries are
// unit_unsplit's tiles.
TRIMM_HD void decode_pair(Entry* list, uint32_t* partner, const sched::TriangleSchedule& s,
                          const sched::DispatchOrder& order, int64_t block, int64_t blocks,
                          int tid, int threads) {
  decode(list, s, order, block, blocks, tid, threads);
  const int64_t end = order.extent(s.num_units());
  for (int i = tid; i < kMaxLevels; i += threads) {
    const int64_t x = (block ^ 1) + int64_t(i) * blocks;
    const int u = x < end ? order.at(x) : -1;
    const Entry own = list[i];
    uint32_t info = 0;
    if (u >= 0 && own.bi >= 0) {
      const sched::WorkUnit p = s.unit_unsplit(u);
      const bool row = p.bi == own.bi;
      info = uint32_t((p.k_end - p.k_begin + s.k_step - 1) / s.k_step) |
             (row ? kPairShared : 0u) | (row && p.bj == own.bj ? kPairSame : 0u);
    }
    partner[i] = info;
  }
}

// A pair layout's list in order (decode_pair's).
class PairWalk {
 public:
  TRIMM_HD PairWalk(const Entry* list, const uint32_t* partner, const sched::TriangleSchedule& s)
      : walk_(list, s), partner_(partner) {}
  TRIMM_HD bool next(PairLevel& l) {
    if (!walk_.next(l)) return false;  // the unit and its stages
    const uint32_t info = partner_[i_++];
    l.partner_steps = int(info & 0xFFFFu);
    l.shared = (info & kPairShared) != 0;
    l.same = (info & kPairSame) != 0;
    return true;
  }

 private:
  Walk walk_;
  const uint32_t* partner_;
  int i_ = 0;
};

}  // namespace trimm::kernels::unit_list
