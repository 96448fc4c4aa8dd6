// trtrmm_backward: the two products of C = M(A·B)'s gradient, M = triu or tril, as dense GEMMs
// (the dense product's semantics: a zero of M(G) times an Inf of B is NaN, as in torch).
#include <cblas.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/validate.hpp"
#include "cpu/blas_int.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cpu {
namespace {

void gemm(bool trans_a, bool trans_b, int64_t n, const float* A, int64_t lda, const float* B,
          int64_t ldb, float* C, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              blasint(n), blasint(n), blasint(n), 1.0f, A, blasint(lda), B, blasint(ldb), 0.0f, C,
              blasint(ldc));
}
void gemm(bool trans_a, bool trans_b, int64_t n, const double* A, int64_t lda, const double* B,
          int64_t ldb, double* C, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
              blasint(n), blasint(n), blasint(n), 1.0, A, blasint(lda), B, blasint(ldb), 0.0, C,
              blasint(ldc));
}

template <typename T>
void backward(Fill fill, int64_t n, const T* G, int64_t ldg, const T* A, int64_t lda, const T* B,
              int64_t ldb, T* dA, int64_t ldda, T* dB, int64_t lddb) {
  constexpr const char* api = "trimm::cpu::trtrmm_backward";
  // The forward call's rules, for each output against the inputs it must not overlap.
  constexpr int64_t e = sizeof(T);
  detail::validate({api, fill, n, A, lda, 0, B, ldb, 0, dA, ldda, 0, 1, e, 0, "A", "B", "dA"});
  detail::validate({api, fill, n, A, lda, 0, B, ldb, 0, dB, lddb, 0, 1, e, 0, "A", "B", "dB"});
  detail::validate({api, fill, n, G, ldg, 0, G, ldg, 0, dA, ldda, 0, 1, e, 0, "G", "G", "dA"});
  detail::validate({api, fill, n, G, ldg, 0, G, ldg, 0, dB, lddb, 0, 1, e, 0, "G", "G", "dB"});
  // ...and the two outputs disjoint.
  detail::validate({api, fill, n, dA, ldda, 0, dA, ldda, 0, dB, lddb, 0, 1, e, 0, "dA", "dA", "dB"});
  check_blas_ints(
      api, {{"n", n}, {"ldg", ldg}, {"lda", lda}, {"ldb", ldb}, {"ldda", ldda}, {"lddb", lddb}});
  if (n == 0) return;
  std::vector<T> M(static_cast<size_t>(n * n));  // (n, n): M(G)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const bool keep = fill == Fill::Upper ? j >= i : j <= i;
      M[size_t(i * n + j)] = keep ? G[i * ldg + j] : T(0);
    }
  gemm(false, true, n, M.data(), n, B, ldb, dA, ldda);  // dA = M(G)·Bᵀ
  gemm(true, false, n, A, lda, M.data(), n, dB, lddb);  // dB = Aᵀ·M(G)
}

}  // namespace

void trtrmm_backward(Fill fill, int64_t n, const float* G, int64_t ldg, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float* dA, int64_t ldda, float* dB,
                     int64_t lddb) {
  backward(fill, n, G, ldg, A, lda, B, ldb, dA, ldda, dB, lddb);
}

void trtrmm_backward(Fill fill, int64_t n, const double* G, int64_t ldg, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double* dA, int64_t ldda,
                     double* dB, int64_t lddb) {
  backward(fill, n, G, ldg, A, lda, B, ldb, dA, ldda, dB, lddb);
}

}  // namespace trimm::cpu
