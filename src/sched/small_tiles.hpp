// The order of the small-n kernels' tiles (simt_small_fp32, sm80_16bit_small): one block per
// tile of C's triangle on a grid of t tiles a side, longest bands first. Block x takes the x-th
// tile of diagonal d = t-1, t-2, ..., 0 (d = |J - I|: its band is d + 1 tiles of k), each
// diagonal from its first tile on.
#pragma once

#include <cstdint>

#include "common/hd.hpp"

namespace trimm::sched {

// The triangle's tile count: t(t + 1) / 2.
TRIMM_HD int64_t small_tiles(int64_t t) { return t * (t + 1) / 2; }

// Tile (I, J) of block idx < small_tiles(t), in C's fill triangle (I <= J when upper).
TRIMM_HD void small_tile_of(int64_t idx, int t, bool upper, int* I, int* J) {
  int d = t - 1;
  while (idx >= t - d) idx -= t - d, --d;
  const int i = int(idx);
  *I = upper ? i : i + d;
  *J = upper ? i + d : i;
}

}  // namespace trimm::sched
