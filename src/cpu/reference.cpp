// The fp64 yardstick. Loop order (i, k, j) streams rows of B and C, so even n = 4097 takes seconds;
// for each C[i][j] the terms are still summed in increasing k.
#include <algorithm>
#include <cstdint>

#include "common/validate.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cpu {
namespace {

// dense = false: the band only, C[i][j] = sum over k = i..j (Upper) or j..i (Lower), so the
// other triangles of A and B are never read. dense = true: every k and j (the dense product),
// then the other triangle of C set to zero as triu/tril does, whatever it held (NaN included).
template <typename T>
void reference(const char* api, bool dense, Fill fill, int64_t n, const T* A, int64_t lda,
               const T* B, int64_t ldb, double* C, int64_t ldc) {
  detail::validate({api, fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1, sizeof(T), sizeof(double)});
  const bool up = fill == Fill::Upper;
  for (int64_t i = 0; i < n; ++i) {
    double* c = C + i * ldc;  // (n)
    std::fill(c, c + n, 0.0);
    const int64_t k_begin = dense || !up ? 0 : i, k_end = dense || up ? n : i + 1;
    for (int64_t k = k_begin; k < k_end; ++k) {
      const double a = A[i * lda + k];
      const T* b = B + k * ldb;  // (n)
      const int64_t j_begin = dense || !up ? 0 : k, j_end = dense || up ? n : k + 1;
      for (int64_t j = j_begin; j < j_end; ++j) c[j] += a * static_cast<double>(b[j]);
    }
    if (dense) std::fill(c + (up ? 0 : i + 1), c + (up ? i : n), 0.0);
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
