// The fp64 yardstick. Loop order (i, k, j) streams rows of B and C, so even n = 4097 takes seconds;
// for each C[i][j] the terms are still summed in increasing k.
#include <algorithm>
#include <cstdint>

#include "common/validate.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cpu {
namespace {

template <typename T>
void reference(Fill fill, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, double* C,
               int64_t ldc) {
  detail::validate({"trimm::cpu::reference_trtrmm", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1,
                    sizeof(T), sizeof(double)});
  for (int64_t i = 0; i < n; ++i) {
    double* c = C + i * ldc;  // (n)
    std::fill(c, c + n, 0.0);
    // Upper: C[i][j] = sum_{k=i..j} A[i][k]·B[k][j]. Lower: C[i][j] = sum_{k=j..i} A[i][k]·B[k][j].
    const int64_t k_begin = fill == Fill::Upper ? i : 0;
    const int64_t k_end = fill == Fill::Upper ? n : i + 1;
    for (int64_t k = k_begin; k < k_end; ++k) {
      const double a = A[i * lda + k];
      const T* b = B + k * ldb;  // (n)
      const int64_t j_begin = fill == Fill::Upper ? k : 0;
      const int64_t j_end = fill == Fill::Upper ? n : k + 1;
      for (int64_t j = j_begin; j < j_end; ++j) c[j] += a * static_cast<double>(b[j]);
    }
  }
}

template <typename T>
void dense(Fill fill, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb, double* C,
           int64_t ldc) {
  detail::validate({"trimm::cpu::reference_dense", fill, n, A, lda, 0, B, ldb, 0, C, ldc, 0, 1,
                    sizeof(T), sizeof(double)});
  for (int64_t i = 0; i < n; ++i) {
    double* c = C + i * ldc;  // (n)
    std::fill(c, c + n, 0.0);
    for (int64_t k = 0; k < n; ++k) {
      const double a = A[i * lda + k];
      const T* b = B + k * ldb;  // (n)
      for (int64_t j = 0; j < n; ++j) c[j] += a * static_cast<double>(b[j]);
    }
    // triu/tril set the other triangle to zero, whatever the product held there (NaN included).
    const int64_t z_begin = fill == Fill::Upper ? 0 : i + 1, z_end = fill == Fill::Upper ? i : n;
    std::fill(c + z_begin, c + z_end, 0.0);
  }
}

}  // namespace

void reference_dense(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                     int64_t ldb, double* C, int64_t ldc) {
  dense(fill, n, A, lda, B, ldb, C, ldc);
}

void reference_dense(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                     int64_t ldb, double* C, int64_t ldc) {
  dense(fill, n, A, lda, B, ldb, C, ldc);
}

void reference_trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                      int64_t ldb, double* C, int64_t ldc) {
  reference(fill, n, A, lda, B, ldb, C, ldc);
}

void reference_trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                      int64_t ldb, double* C, int64_t ldc) {
  reference(fill, n, A, lda, B, ldb, C, ldc);
}

}  // namespace trimm::cpu
