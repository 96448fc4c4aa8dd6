// The order of the small-n kernels' tiles (simt_small_fp32, sm80_16bit_small; sm80_fp64's units
// too, unit_tile): one block per tile of C's triangle on a grid of t tiles a side, longest bands
// first. Block x takes the x-th tile of diagonal d = t-1, t-2, ..., 0 (d = |J - I|: its band is
// d + 1 tiles of k), each diagonal from its first tile on.
#pragma once

#include <cmath>
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

// The largest m with m(m + 1)/2 ≤ u.
TRIMM_HD int64_t triangular_root(int64_t u) {
  int64_t m = int64_t((sqrt(8.0 * double(u) + 1.0) - 1.0) / 2.0);
  while (m * (m + 1) / 2 > u) --m;
  while ((m + 1) * (m + 2) / 2 <= u) ++m;
  return m;
}

// Unit u < tiles² of a whole grid (sm80_fp64's): first C's triangle in small_tile_of's order,
// in closed form (no loop over the diagonals), then the tiles(tiles − 1)/2 tiles outside it.
// Returns whether tile (I, J) is outside.
TRIMM_HD bool unit_tile(int64_t u, int64_t tiles, bool upper, int64_t& I, int64_t& J) {
  const int64_t inside = tiles * (tiles + 1) / 2;
  const bool outside = u >= inside;
  const int64_t v = outside ? u - inside : u, m = triangular_root(v), i = v - m * (m + 1) / 2;
  const int64_t a = outside ? m + 1 : i, b = outside ? i : i + (tiles - 1 - m);  // a ≤ b inside
  I = upper ? a : b;
  J = upper ? b : a;
  return outside;
}

}  // namespace trimm::sched
