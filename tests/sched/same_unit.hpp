// Whether two work units are the same unit: kind, tile and k range (the sched tests' equality).
#pragma once

#include "sched/triangle_scheduler.hpp"

namespace trimm::sched {

inline bool same_unit(const WorkUnit& a, const WorkUnit& b) {
  return a.kind == b.kind && a.bi == b.bi && a.bj == b.bj && a.k_begin == b.k_begin &&
         a.k_end == b.k_end;
}

}  // namespace trimm::sched
