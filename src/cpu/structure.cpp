#include "cpu/structure.hpp"

#include <algorithm>
#include <cmath>

namespace trimm::cpu {

bool Found::triangular(Fill fill) const {
  const int64_t n = int64_t(a_lo.size());
  for (int64_t i = 0; i < n; ++i) {
    const bool a_empty = a_lo[i] >= a_hi[i], b_empty = b_lo[i] >= b_hi[i];
    if (fill == Fill::Upper) {
      if (!a_empty && a_lo[i] < i) return false;      // A(i, k) != 0 with k < i
      if (!b_empty && b_hi[i] > i + 1) return false;  // B(k, i) != 0 with k > i
    } else {
      if (!a_empty && a_hi[i] > i + 1) return false;
      if (!b_empty && b_lo[i] < i) return false;
    }
  }
  return true;
}

namespace {

template <typename T>
Found scan(int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb) {
  Found f;
  f.a_lo.assign(size_t(n), n);
  f.a_hi.assign(size_t(n), 0);
  f.b_lo.assign(size_t(n), n);
  f.b_hi.assign(size_t(n), 0);
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) {
    const T* a = A + i * lda;  // (n)
    for (int64_t k = 0; k < n; ++k) {
      finite &= std::isfinite(a[k]);
      if (a[k] != T(0) || std::isnan(a[k])) {
        f.a_lo[i] = std::min(f.a_lo[i], k);
        f.a_hi[i] = k + 1;
      }
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const T* b = B + k * ldb;  // (n)
    for (int64_t j = 0; j < n; ++j) {
      finite &= std::isfinite(b[j]);
      if (b[j] != T(0) || std::isnan(b[j])) {
        f.b_lo[j] = std::min(f.b_lo[j], k);
        f.b_hi[j] = k + 1;
      }
    }
  }
  f.finite = finite;
  return f;
}

}  // namespace

Found find_structure(int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb) {
  return scan(n, A, lda, B, ldb);
}
Found find_structure(int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb) {
  return scan(n, A, lda, B, ldb);
}

}  // namespace trimm::cpu
