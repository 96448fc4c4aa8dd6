// The GPU API: device pointers, row-major matrices as in PyTorch, a CUDA stream.
#pragma once

#include <cstdint>

#include "trimm/types.hpp"

// The CUDA runtime spells its stream `typedef struct CUstream_st* cudaStream_t`; naming the same
// type here keeps this header free of CUDA includes.
struct CUstream_st;

namespace trimm {

using Stream = CUstream_st*;

// C = triu(A·B) (Fill::Upper) or tril(A·B) (Fill::Lower) for n×n row-major matrices with
// leading dimensions lda, ldb, ldc >= max(1, n). The strictly lower (upper) parts of A and B never
// affect the result (kernels may load them in diagonal blocks, but mask them out before any
// arithmetic: NaN there stays out of C); that part of C is written with zeros. n = 0 does nothing. The call is asynchronous
// on `stream`, allocates nothing and never synchronizes. C must not overlap A or B.
void trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb,
            float* C, int64_t ldc, Stream stream = nullptr, const Options& options = {});

// `batch` independent products; matrix b of X starts at X + b·stride_x. stride_a and stride_b may
// be 0 (one matrix shared by the batch); the C matrices must not overlap each other.
void trtrmm_strided_batched(Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                            const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, Stream stream = nullptr,
                            const Options& options = {});

// The same products on 16-bit data (half_t or bfloat16_t; see types.hpp): A, B and C in that
// type, the products accumulated in fp32 on the tensor cores and rounded to the type once, when
// C is stored. Semantics, arguments and errors as for float. options.precision: Auto or Fp32
// (both mean fp32 accumulation; Ieee and Tf32 are refused). options.structure: Triangular only
// (Detect is refused for 16-bit data). The fast kernel (sm_90) needs 16-byte aligned A, B, C,
// leading dimensions and batch strides that are multiples of 8 elements; other operands, and
// other GPUs, take a plain fp32 CUDA-core kernel.
void trtrmm(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B, int64_t ldb,
            half_t* C, int64_t ldc, Stream stream = nullptr, const Options& options = {});
void trtrmm(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda, const bfloat16_t* B,
            int64_t ldb, bfloat16_t* C, int64_t ldc, Stream stream = nullptr,
            const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda, int64_t stride_a,
                            const half_t* B, int64_t ldb, int64_t stride_b, half_t* C,
                            int64_t ldc, int64_t stride_c, int64_t batch, Stream stream = nullptr,
                            const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            int64_t stride_a, const bfloat16_t* B, int64_t ldb, int64_t stride_b,
                            bfloat16_t* C, int64_t ldc, int64_t stride_c, int64_t batch,
                            Stream stream = nullptr, const Options& options = {});

// The name of the kernel that trtrmm would run for this size and options on the current device,
// for operands with 16-byte aligned pointers and leading dimensions that are multiples of 4
// (other operands skip the TMA kernels, see README).
const char* selected_kernel(int64_t n, const Options& options = {});
// The same for these very operands, whose alignment decides whether TMA kernels can take them.
const char* selected_kernel(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                            int64_t ldb, const float* C, int64_t ldc,
                            const Options& options = {});

// The same for 16-bit operands (TMA: 16-byte aligned pointers, lds multiples of 8).
const char* selected_kernel(Fill fill, int64_t n, const half_t* A, int64_t lda, const half_t* B,
                            int64_t ldb, const half_t* C, int64_t ldc,
                            const Options& options = {});
const char* selected_kernel(Fill fill, int64_t n, const bfloat16_t* A, int64_t lda,
                            const bfloat16_t* B, int64_t ldb, const bfloat16_t* C, int64_t ldc,
                            const Options& options = {});

// Whether this process has a CUDA device that trimm's kernels run on (sm_80 or later).
bool cuda_available();

}  // namespace trimm
