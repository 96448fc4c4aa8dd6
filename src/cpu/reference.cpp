// The fp64 yardstick. Loop order (rows in blocks of kRows, then k, then j) streams rows of B once
// a block and C's block stays in cache, so n = 4097 takes seconds; for each C[i][j] the terms are
// still summed in increasing k.
#include <algorithm>
#include <cstdint>

#include "common/validate.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cpu {
namespace {

// Rows of C a pass over B serves: 16 rows of fp64 at n = 4097 is 512 KiB, cache-resident, and
// B's traffic from memory drops 16-fold against one row a pass.
constexpr int64_t kRows = 16;

// dense = false: the band only, C[i][j] = sum over k = i..j (Upper) or j..i (Lower), so the
// other triangles of A and B are never read. dense = true: every k and j (the dense product),
// then the other triangle of C set to zero as triu/tril does, whatever it held (NaN included).
template <typename T>
void reference(const char* api, bool dense, Fill fill, int64_t n, const T* A, int64_t lda,
               const T* B, int64_t ldb, double* C, int64_t ldc) {
  detail::validate({api, fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, sizeof(T), sizeof(double)});
  const bool up = fill == Fill::Upper;
  for (int64_t i0 = 0; i0 < n; i0 += kRows) {
    const int64_t i1 = std::min(n, i0 + kRows);
    for (int64_t i = i0; i < i1; ++i) std::fill(C + i * ldc, C + i * ldc + n, 0.0);
    for (int64_t k = 0; k < n; ++k) {
      const T* b = B + k * ldb;  // (n)
      const int64_t j_begin = dense || !up ? 0 : k, j_end = dense || up ? n : k + 1;
      for (int64_t i = i0; i < i1; ++i) {
        if (!dense && (up ? k < i : k > i)) continue;  // row i's band: k in i..n (Upper), 0..i
        const double a = A[i * lda + k];
        double* c = C + i * ldc;  // (n)
        for (int64_t j = j_begin; j < j_end; ++j) c[j] += a * static_cast<double>(b[j]);
      }
    }
    if (dense)
      for (int64_t i = i0; i < i1; ++i)
        std::fill(C + i * ldc + (up ? 0 : i + 1), C + i * ldc + (up ? i : n), 0.0);
  }
}

}  // namespace

void reference_dense(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                     int64_t ldb, double* C, int64_t ldc) {
  reference("trimm::cpu::reference_dense", true, fill, n, A, lda, B, ldb, C, ldc);
}

void reference_dense(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                     int64_t ldb, double* C, int64_t ldc) {
  reference("trimm::cpu::reference_dense", true, fill, n, A, lda, B, ldb, C, ldc);
}

void reference_trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                      int64_t ldb, double* C, int64_t ldc) {
  reference("trimm::cpu::reference_trtrmm", false, fill, n, A, lda, B, ldb, C, ldc);
}

void reference_trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                      int64_t ldb, double* C, int64_t ldc) {
  reference("trimm::cpu::reference_trtrmm", false, fill, n, A, lda, B, ldb, C, ldc);
}

}  // namespace trimm::cpu
