// The CPU backend: the same contract as trimm/cuda.hpp on host pointers, plus the fp64 reference.
#pragma once

#include <cstdint>

#include "trimm/types.hpp"

namespace trimm::cpu {

// C = triu(A·B) or tril(A·B), exactly as trimm::trtrmm, on host memory. Built on OpenBLAS
// (multi-threaded): the product is decomposed into triangular-times-dense strips, never the
// dense product. Every precision runs fp32 BLAS (which is fp32-accurate); options.workspace is
// not used (nor checked).
// options.structure = Structure::Detect gives the dense product's semantics on any A and B (see
// trimm/types.hpp): one pass finds, per row of A and column of B, where the nonzeros lie and
// whether anything is non-finite; triangular finite inputs take the strips above, the rest
// strips of SGEMM over only the k that can contribute (all k where anything is non-finite).
void trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb,
            float* C, int64_t ldc, const Options& options = {});

void trtrmm_strided_batched(Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                            const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, const Options& options = {});

// The same in fp64 (OpenBLAS's dtrmm and dgemm); precision Auto or Ieee, as on the GPU.
void trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb,
            double* C, int64_t ldc, const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const double* A, int64_t lda, int64_t stride_a,
                            const double* B, int64_t ldb, int64_t stride_b, double* C,
                            int64_t ldc, int64_t stride_c, int64_t batch,
                            const Options& options = {});

// The same products on 16-bit data (half_t or bfloat16_t), as trimm::trtrmm's 16-bit overloads:
// the referenced triangles (all of A and B under Structure::Detect) widened to fp32 (exactly),
// multiplied as the fp32 overload does, and C rounded to the type once (to nearest even).
// Precision Auto or Fp32 (both mean fp32 accumulation). Allocates three n×n fp32 scratch
// matrices on the host per call.
void trtrmm(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B, int64_t ldb,
            half_t* C, int64_t ldc, const Options& options = {});
void trtrmm(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda, const bfloat16_t* B,
            int64_t ldb, bfloat16_t* C, int64_t ldc, const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda, int64_t stride_a,
                            const half_t* B, int64_t ldb, int64_t stride_b, half_t* C,
                            int64_t ldc, int64_t stride_c, int64_t batch,
                            const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            int64_t stride_a, const bfloat16_t* B, int64_t ldb, int64_t stride_b,
                            bfloat16_t* C, int64_t ldc, int64_t stride_c, int64_t batch,
                            const Options& options = {});

// The gradients of C = triu(A·B) (or tril) for the PyTorch operators' autograd, with the dense
// product's semantics: dA = M(G)·Bᵀ and dB = Aᵀ·M(G), where M keeps G's `fill` triangle and
// zeroes the rest (as torch.triu's backward does, NaN there included). n×n row-major, on host
// memory, through OpenBLAS; one n×n scratch matrix is allocated per call. dA and dB must not
// overlap each other nor G, A, B (checked; messages name G, ldg, dA, ldda, ...).
void trtrmm_backward(Fill fill, int64_t n, const float* G, int64_t ldg, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float* dA, int64_t ldda, float* dB,
                     int64_t lddb);
void trtrmm_backward(Fill fill, int64_t n, const double* G, int64_t ldg, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double* dA, int64_t ldda,
                     double* dB, int64_t lddb);

// The yardstick: plain loops in fp64 over the nonzero band only, C = triu(A·B) (or tril).
// Same argument rules as trtrmm. Single-threaded plain loops: it is obviously right.
void reference_trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                      int64_t ldb, double* C, int64_t ldc);
void reference_trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                      int64_t ldb, double* C, int64_t ldc);

// The yardstick for Structure::Detect: C = triu(A·B) (or tril) of the dense product, every k of
// every element summed in fp64 whatever A and B hold, as torch.triu(A @ B) does in fp32.
void reference_dense(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                     int64_t ldb, double* C, int64_t ldc);
void reference_dense(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                     int64_t ldb, double* C, int64_t ldc);

}  // namespace trimm::cpu
