// Structure::Detect on the CPU: where the nonzeros of A and B actually lie, and whether anything
// is non-finite. One pass over each operand, row by row.
#pragma once

#include <cstdint>
#include <vector>

#include "trimm/types.hpp"

namespace trimm::cpu {

struct Found {
  bool finite = true;  // no Inf or NaN anywhere in A or B
  // Row i of A is zero outside columns [a_lo[i], a_hi[i]); a_lo = n and a_hi = 0 for a zero row.
  std::vector<int64_t> a_lo, a_hi;
  // Column j of B is zero outside rows [b_lo[j], b_hi[j]); likewise for a zero column.
  std::vector<int64_t> b_lo, b_hi;

  // A and B are both zero outside their `fill` triangle (diagonal included in the triangle).
  bool triangular(Fill fill) const;
};

// NaN counts as nonzero (and as non-finite).
Found find_structure(int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb);
Found find_structure(int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb);

}  // namespace trimm::cpu
