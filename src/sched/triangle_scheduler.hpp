// The triangle is the scheduler's business: which output tiles exist, the k band of each, the
// order they run in and how the longest are split. Everything here is __host__ __device__ and
// unit-tested on the CPU (tests/sched).
//
// Coordinates are those of the upper product C' = triu(A'·B') on a T×T grid of square tiles.
// Tile (bi, bj) with bj >= bi lies on diagonal d = bj - bi; its k band is
// [bi·tile, min(n, (bj+1)·tile)): A' is zero left of the diagonal and B' below it.
//
// Work is ordered longest-first (the hardware hands out blocks in index order, so this is a
// greedy longest-processing-time schedule). When the longest band is longer than the average
// work per SM, tiles with d >= split_d are computed as two k-chunks by two blocks: chunk 0 writes
// its partial sum into the tile, chunk 1 writes its partial, transposed, into the mirror tile
// (bj, bi) in C's strictly lower triangle, which must end up zero anyway. A fix-up pass then adds
// the mirror into the tile and zeroes the mirror: deterministic, and no workspace. The mirror of
// a whole (unsplit) off-diagonal tile is zeroed by that tile's own block (zeroes_mirror), while
// its multiply runs: C's other triangle costs no blocks of its own.
#pragma once

#include <cstdint>

#include "common/hd.hpp"

namespace trimm::sched {

enum class UnitKind : int {
  Whole,   // a whole tile on or above the diagonal
  Chunk0,  // first half of a split tile's band; writes the tile
  Chunk1,  // second half; writes the mirror tile, transposed
};

struct WorkUnit {
  UnitKind kind;
  int bi, bj;              // tile row and column, bi <= bj
  int64_t k_begin, k_end;  // the k range in elements
};

struct TriangleSchedule {
  int64_t n;    // matrix order
  int tile;     // square output tile (BM == BN)
  int k_step;   // k elements per mainloop step; chunk boundaries fall on multiples of it
  int tiles;    // T = ceil(n / tile)
  int split_d;  // tiles with bj - bi >= split_d run as two chunks; >= tiles means none
  bool dense = false;  // general inputs: every tile's band is all of k (see make_schedule)

  TRIMM_HD bool is_split(int d) const { return d >= split_d; }
  TRIMM_HD int64_t diag_count(int d) const { return tiles - d; }

  // The k band of tile (bi, bj), before any split: where A' and B' can both be nonzero.
  TRIMM_HD int64_t band_begin(int bi) const { return dense ? 0 : int64_t(bi) * tile; }
  TRIMM_HD int64_t band_end(int bj) const {
    if (dense) return n;
    const int64_t e = int64_t(bj + 1) * tile;
    return e < n ? e : n;
  }
  // Where chunk 0 ends and chunk 1 begins: half the mainloop steps, rounded up.
  TRIMM_HD int64_t band_mid(int bi, int bj) const {
    const int64_t b = band_begin(bi), steps = (band_end(bj) - b + k_step - 1) / k_step;
    return b + k_step * ((steps + 1) / 2);
  }

  TRIMM_HD int64_t num_units() const { return units_above(0); }
  // Unit u's k range in mainloop steps of k_step.
  TRIMM_HD int steps(const WorkUnit& u) const {
    return int((u.k_end - u.k_begin + k_step - 1) / k_step);
  }

  // Whether the block of unit u also zeroes the mirror tile (bj, bi): true for whole tiles off
  // the diagonal. (A diagonal tile's own store zeroes its lower half; a split tile's mirror is
  // the fix-up pass's.)
  TRIMM_HD static bool zeroes_mirror(const WorkUnit& u) {
    return u.kind == UnitKind::Whole && u.bi != u.bj;
  }

  // The whole (unsplit) tile (bi, bj) as a unit: for a kernel that keeps only a unit's tile.
  TRIMM_HD WorkUnit whole_unit(int bi, int bj) const {
    return compute_unit(UnitKind::Whole, bi, bj);
  }

  // Unit `idx` in longest-first order. Work is measured in tiles of k: a whole tile on diagonal d
  // weighs d+1; the chunks of a split one ceil((d+1)/2) and floor((d+1)/2). Level w lists, in
  // this order: whole tiles with d = w-1, chunk 0 of d = 2w-2 and 2w-1, chunk 1 of d = 2w-1 and
  // 2w. Within a diagonal, tiles go top to bottom. Every block decodes its own unit, so this is
  // a binary search over levels on closed-form counts (O(log tiles)), not a walk.
  TRIMM_HD WorkUnit unit(int64_t idx) const {
    if (idx < num_units()) {
      int lo = 0, hi = tiles;  // units_above(lo) > idx >= units_above(hi)
      while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (units_above(mid) > idx) lo = mid;
        else hi = mid;
      }
      const int w = hi;
      idx -= units_above(w);
      for (int g = 0; g < 5; ++g) {
        const int d = level_diag(w, g);
        if (d < 0 || d >= tiles || (g == 0) == is_split(d)) continue;
        if (idx < diag_count(d)) return compute_unit(level_kind(g), int(idx), int(idx) + d);
        idx -= diag_count(d);
      }
    }
    return {UnitKind::Whole, -1, -1, 0, 0};  // past the end: callers never ask
  }

  // unit(idx) for a schedule without split tiles (split_d >= tiles: dense, or the 16-bit
  // kernels'), by a walk down the diagonals, longest first. Far less code than unit()'s search: a
  // block decodes its unit once, at its start, from cold instruction memory (bench/NOTES.md,
  // session 16). At most tiles − 1 steps.
  TRIMM_HD WorkUnit unit_unsplit(int64_t idx) const {
    int d = tiles - 1;
    while (d > 0 && idx >= diag_count(d)) idx -= diag_count(d--);
    return compute_unit(UnitKind::Whole, int(idx), int(idx) + d);
  }

  // unit_unsplit's tiles in bands of `band` diagonals, the longest band first, and within a band
  // row by row, each row's tiles longest first (band = 1 is unit_unsplit's order). Blocks that
  // run at once then share rows of A (a row's tiles) and columns of B (a column meets a band in
  // `band` rows), and L2 keeps what the next ones read; diagonal by diagonal, neighbouring tiles
  // share neither. For schedules without split tiles; band >= 1. At most tiles / band + band
  // steps.
  TRIMM_HD WorkUnit unit_banded(int64_t idx, int band) const {
    int hi = tiles - 1;  // the band's longest diagonal
    for (;;) {
      const int lo = hi - band + 1 > 0 ? hi - band + 1 : 0;
      const int64_t count = diag_sum(lo, hi);
      if (idx < count || lo == 0) {
        // Rows 0 .. tiles-1-hi hold all w diagonals; the later ones w-1, w-2, ... 1.
        const int w = hi - lo + 1;
        const int64_t full = int64_t(tiles - hi) * w;
        int i, r;
        if (idx < full) {
          i = int(idx / w), r = int(idx % w);
        } else {
          idx -= full;
          i = tiles - hi;
          for (int c = w - 1; c > 0 && idx >= c; --c) idx -= c, ++i;
          r = int(idx);
        }
        const int top = hi < tiles - 1 - i ? hi : tiles - 1 - i;  // the row's longest diagonal
        return compute_unit(UnitKind::Whole, i, i + top - r);
      }
      idx -= count;
      hi = lo - 1;
    }
  }

  // unit(idx) by unit_unsplit's walk where nothing is split, else by unit()'s search.
  TRIMM_HD WorkUnit unit_quick(int64_t idx) const {
    return split_d >= tiles ? unit_unsplit(idx) : unit(idx);
  }

  // The split tiles, which the fix-up pass visits: f in [0, num_fixup_tiles()).
  TRIMM_HD int64_t num_fixup_tiles() const {
    int64_t c = 0;
    for (int d = split_d < 1 ? 1 : split_d; d < tiles; ++d) c += diag_count(d);
    return c;
  }
  TRIMM_HD void fixup_tile(int64_t f, int* bi, int* bj) const {
    for (int d = split_d < 1 ? 1 : split_d; d < tiles; ++d) {
      if (f < diag_count(d)) {
        *bi = int(f);
        *bj = int(f) + d;
        return;
      }
      f -= diag_count(d);
    }
    *bi = *bj = -1;
  }

 private:
  // Diagonals below this are never split: min(tiles, split_d).
  TRIMM_HD int unsplit_end() const { return split_d < tiles ? split_d : tiles; }
  // Σ_{d=a}^{b} diag_count(d) for 0 <= a, b < tiles; 0 when a > b.
  TRIMM_HD int64_t diag_sum(int a, int b) const {
    return a > b ? 0 : int64_t(b - a + 1) * (2 * int64_t(tiles) - a - b) / 2;
  }
  // Units in levels w+1 .. tiles, i.e. listed before level w. Whole tiles: d = w .. unsplit_end-1.
  // Split diagonals: d = 2w has only its chunk 0 above (in level w+1); every split d > 2w has
  // both chunks there.
  TRIMM_HD int64_t units_above(int w) const {
    int64_t c = diag_sum(w, unsplit_end() - 1);
    if (is_split(2 * w) && 2 * w < tiles) c += diag_count(2 * w);
    const int lo = 2 * w + 1 > split_d ? 2 * w + 1 : split_d;
    return c + 2 * diag_sum(lo, tiles - 1);
  }

  // Group g of level w: its diagonal and kind (see unit()). Arithmetic, not a table, so that
  // device code keeps it in registers.
  TRIMM_HD static int level_diag(int w, int g) {
    return g == 0 ? w - 1 : g == 1 ? 2 * w - 2 : g <= 3 ? 2 * w - 1 : 2 * w;
  }
  TRIMM_HD static UnitKind level_kind(int g) {
    return g == 0 ? UnitKind::Whole : g <= 2 ? UnitKind::Chunk0 : UnitKind::Chunk1;
  }

  TRIMM_HD WorkUnit compute_unit(UnitKind kind, int bi, int bj) const {
    int64_t b = band_begin(bi), e = band_end(bj);
    if (kind == UnitKind::Chunk0) e = band_mid(bi, bj);
    if (kind == UnitKind::Chunk1) b = band_mid(bi, bj);
    return {kind, bi, bj, b, e};
  }
};

// The stages of a unit that meet a structural zero in half of its tile: before top_end, every k
// of the stage lies before the tile's middle row (A' is upper triangular, so its rows from the
// middle on are zero there); from right_begin on, every k lies past the middle column (B' is
// upper triangular, so its columns before the middle are zero there). For a tile at rows m0 and
// columns j0 whose k runs from k_begin in `steps` stages of k_step; `half` is half the tile.
// Stages [0, top_end) and [right_begin, steps) never meet (k_begin >= m0 and j0 >= m0).
struct HalfStages {
  int top_end, right_begin;
  TRIMM_HD HalfStages(int m0, int j0, int k_begin, int steps, int k_step, int half) {
    const int top_gap = m0 + half - k_begin, right_gap = j0 + half - k_begin;
    const int top = top_gap / k_step, right = (right_gap + k_step - 1) / k_step;
    top_end = top_gap < k_step ? 0 : top < steps ? top : steps;
    right_begin = right_gap <= 0 ? 0 : right < steps ? right : steps;
  }
};

// Work in tile-sized k blocks, summed over every tile on or above the diagonal.
inline int64_t total_tile_work(int tiles) {
  int64_t w = 0;
  for (int d = 0; d < tiles; ++d) w += int64_t(tiles - d) * (d + 1);
  return w;
}

// Split where a single tile's band exceeds what each of `slots` concurrent blocks gets on
// average: then the longest tile, not the total, would set the run time. Never split diagonal
// tiles (their mirror is themselves).
inline int choose_split_d(int tiles, int64_t slots) {
  if (tiles <= 1 || slots <= 0) return tiles;
  const int64_t avg = total_tile_work(tiles) / slots;  // floor: ties go to splitting
  if (avg >= tiles) return tiles;
  return avg < 1 ? 1 : int(avg);
}

// dense: the general-input schedule (Structure::Detect on inputs that are not triangular): the
// same tiles on or above the diagonal, each over every k, none split (they weigh the same).
// split = false: no tile is split whatever the balance (kernels whose output type cannot carry a
// partial sum through the fix-up pass without losing accuracy: 16-bit C).
inline TriangleSchedule make_schedule(int64_t n, int tile, int k_step, int64_t slots,
                                      bool dense = false, bool split = true) {
  const int tiles = int((n + tile - 1) / tile);
  return {n, tile, k_step, tiles, dense || !split ? tiles : choose_split_d(tiles, slots), dense};
}

}  // namespace trimm::sched
