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

// The name of the kernel that trtrmm would run for this size and options on the current device,
// for operands with 16-byte aligned pointers and leading dimensions that are multiples of 4
// (other operands skip the TMA kernels, see README).
const char* selected_kernel(int64_t n, const Options& options = {});
// The same for these very operands, whose alignment decides whether TMA kernels can take them.
const char* selected_kernel(Fill fill, int64_t n, const float* A, int64_t lda, const float* B,
                            int64_t ldb, const float* C, int64_t ldc,
                            const Options& options = {});

// Whether this process has a CUDA device that trimm's kernels run on (sm_80 or later).
bool cuda_available();

}  // namespace trimm
