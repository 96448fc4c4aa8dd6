// The GPU API: device pointers, row-major matrices as in PyTorch, a CUDA stream.
#pragma once

#include <cstddef>
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
// arithmetic: NaN there stays out of C); that part of C is written with zeros. n = 0 or batch = 0
// launches nothing, once the arguments have passed the same checks.
// The call is asynchronous on `stream`, allocates no device memory and never synchronizes. On
// the host, the first single problem of a size packs its units into a launch order (float: on
// sm_90; 16-bit data: any GPU; 0.1-0.4 ms on average, under 2 ms at any n, on a 2-core EPYC) and
// keeps it: up to 256 orders of ~2 KB and 256 pair layouts of ~8 KB, the least recently used
// dropped. Per device and process, the first call opts each kernel in to its shared memory;
// calls after a cudaDeviceReset are not supported. C must not overlap A or B (as spans: from an
// operand's first element to its last, padding and whole batches included).
void trtrmm(Fill fill, int64_t n, const float* A, int64_t lda, const float* B, int64_t ldb,
            float* C, int64_t ldc, Stream stream = nullptr, const Options& options = {});

// `batch` independent products; matrix b of X starts at X + b·stride_x. stride_a and stride_b may
// be 0 (one matrix shared by the batch); the C matrices must not overlap each other.
void trtrmm_strided_batched(Fill fill, int64_t n, const float* A, int64_t lda, int64_t stride_a,
                            const float* B, int64_t ldb, int64_t stride_b, float* C, int64_t ldc,
                            int64_t stride_c, int64_t batch, Stream stream = nullptr,
                            const Options& options = {});

// The bytes of device memory that trtrmm / trtrmm_strided_batched on float operands needs in
// options.workspace for `batch` problems of order n with these options: for options.kernel =
// "sm90_fp16x3", its prepass's planes (four fp16 copies of the operands' halves, some vectors of
// n and lists: ~8·n² bytes a problem, 134 MB at n = 4096), 256-byte aligned; for "sm90_fp16x1",
// two planes (~4·n² bytes); with Structure::Detect, 4 bytes for its flag word, or, with
// sm90_fp16x3, 256 + its planes (the flag word first, the planes 256 bytes in); 0 otherwise
// (dispatch's own choices need none; given sm90_fp16x3's or sm90_fp16x1's bytes, dispatch uses
// them where those kernels are faster: Options::workspace). Host only: no device is queried.
// Throws InvalidArgument for an unknown options.kernel, a negative n or batch, n past
// 2147483647 (as the calls), or a workspace of 2^62 bytes or more. For double operands (the
// fp64 kernels' names, or ''): 4 bytes with Structure::Detect, else 0. The workspace
// must not overlap A, B or C (the calls refuse it by name), and calls that may run at the same
// time need their own.
size_t trtrmm_workspace_bytes(int64_t n, int64_t batch = 1, const Options& options = {});

// The same on double operands, in fp64 on the fp64 tensor cores ("sm80_fp64": mma.sync, m16n8k8
// on sm_90 and m8n8k4 on sm_80; the default) or, by name, on the CUDA cores ("simt_fp64": a plain
// shared-memory-tiled product, the yardstick); "sm80_fp64_m8n8k4" runs sm80_fp64 with sm_80's
// instruction on any GPU (to test that path on sm_90); options.kernel may be '' or a name,
// options.precision Auto or Ieee. Structure::Triangular sums each element's band only (the other
// triangles of A and B are never read); Structure::Detect gives the dense product's triangle
// (noise, NaN, Inf as A·B has them). Detect needs no workspace: without one it sums every k of A
// and B as they are. With one (4 bytes, 4-byte aligned, disjoint from A, B and C: the flag word,
// as for float) sm80_fp64, past small n, first reads A's and B's other triangles, then sums the
// band alone where those hold only zeros and the band's sums are finite, every k otherwise (no host
// sync: both launches are gated on the flags on the device). Cost: about n³/6 multiply-adds per
// product for Triangular (and for Detect with a workspace on triangular, finite inputs, plus a read
// of half of A and B), n³/2 for Detect otherwise (C's triangle, every k).
void trtrmm(Fill fill, int64_t n, const double* A, int64_t lda, const double* B, int64_t ldb,
            double* C, int64_t ldc, Stream stream = nullptr, const Options& options = {});
void trtrmm_strided_batched(Fill fill, int64_t n, const double* A, int64_t lda, int64_t stride_a,
                            const double* B, int64_t ldb, int64_t stride_b, double* C,
                            int64_t ldc, int64_t stride_c, int64_t batch,
                            Stream stream = nullptr, const Options& options = {});

// The gradients of C = triu(A·B) (Fill::Upper) or tril(A·B) (Lower) for a gradient G of C, as
// trimm::cpu::trtrmm_backward computes them, on the GPU: dA = M(G)·Bᵀ and dB = Aᵀ·M(G), where M
// keeps G's `fill` triangle and zeroes the rest (never read: NaN there is dropped, as
// torch.triu's backward drops it). Both are dense products with the dense product's semantics
// (a zero of M(G) times an Inf of B is NaN, as in torch's autograd), computed by trimm's own
// tiled kernel in one launch: FMA in the element type (plain fp32 for float, whatever
// options.precision says; fp64 for double). Cost: 2·n³ FMA per batch entry. The same rules as
// trtrmm: asynchronous on `stream`, no allocation, no synchronization; every argument checked
// (named G, ldg, dA, ldda, ...) before anything is written; dA and dB must not overlap each
// other nor G, A, B. options.kernel must be empty; options.structure has no effect.
void trtrmm_backward(Fill fill, int64_t n, const float* G, int64_t ldg, const float* A,
                     int64_t lda, const float* B, int64_t ldb, float* dA, int64_t ldda, float* dB,
                     int64_t lddb, Stream stream = nullptr, const Options& options = {});
void trtrmm_backward(Fill fill, int64_t n, const double* G, int64_t ldg, const double* A,
                     int64_t lda, const double* B, int64_t ldb, double* dA, int64_t ldda,
                     double* dB, int64_t lddb, Stream stream = nullptr,
                     const Options& options = {});
// `batch` independent gradients; matrix b of X starts at X + b·stride_x. stride_g, stride_a and
// stride_b may be 0 (one matrix shared by the batch).
void trtrmm_backward_strided_batched(Fill fill, int64_t n, const float* G, int64_t ldg,
                                     int64_t stride_g, const float* A, int64_t lda,
                                     int64_t stride_a, const float* B, int64_t ldb,
                                     int64_t stride_b, float* dA, int64_t ldda, int64_t stride_da,
                                     float* dB, int64_t lddb, int64_t stride_db, int64_t batch,
                                     Stream stream = nullptr, const Options& options = {});
void trtrmm_backward_strided_batched(Fill fill, int64_t n, const double* G, int64_t ldg,
                                     int64_t stride_g, const double* A, int64_t lda,
                                     int64_t stride_a, const double* B, int64_t ldb,
                                     int64_t stride_b, double* dA, int64_t ldda,
                                     int64_t stride_da, double* dB, int64_t lddb,
                                     int64_t stride_db, int64_t batch, Stream stream = nullptr,
                                     const Options& options = {});

// The same products on 16-bit data (half_t or bfloat16_t; see types.hpp): A, B and C in that
// type, the products accumulated in fp32 on the tensor cores and rounded to the type once, when
// C is stored. Semantics, arguments and errors as for float. options.precision: Auto or Fp32
// (both mean fp32 accumulation; Ieee and Tf32 are refused). The wgmma kernel (sm_90) needs
// 16-byte aligned A, B, C, leading dimensions and batch strides that are multiples of 8
// elements, each batch stride at least ld·n (A's and B's may be 0); other operands, other GPUs from
// sm_80 and small n take mma.sync kernels (README: the 16-bit kernel table). options.structure =
// Detect (with options.workspace, as for float): on small work on sm_90 one launch over every k of
// A and B as they are (the flag word untouched); otherwise a first pass reads A and B and sets the
// flags (before sm90_16bit, which flags its own non-finite outputs, only their other triangles;
// the small-n kernel reads them beside its product instead); then the chosen kernel
// runs where they are triangular and finite, a tensor-core launch over every k where they are
// finite but not triangular (sm90_16bit's or sm80_16bit's), and plain fp32 FMA over every k
// (simt_16bit) where anything is NaN or Inf, each launch gated on the flags on the device (no host
// sync).
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

// The name of the kernel that trtrmm on float operands would run for this size and options
// (options.workspace included) on the current device, for one problem whose operands have
// 16-byte aligned pointers and leading dimensions that are multiples of 4 (other operands skip
// the TMA kernels, see README); options.structure only says where a kernel's share of the
// workspace starts (Detect: 256 bytes in, after the flags). For both float overloads a
// null options.workspace with options.workspace_bytes set stands for an aligned workspace of that
// size, so a caller can ask what a workspace would buy before allocating it.
const char* selected_kernel(int64_t n, const Options& options = {});
// The same for these very operands, whose alignment decides whether TMA kernels can take them,
// and for options.structure (Detect may run another kernel than Triangular; where trtrmm would
// refuse Detect for this device, size and precision, this throws the same InvalidArgument).
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
// The same for double operands: "sm80_fp64", or the name options.kernel gives.
const char* selected_kernel(Fill fill, int64_t n, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc, const Options& options = {});
// And for a strided batch of 16-bit problems, as trtrmm_strided_batched would run it (dispatch's
// choice at small n depends on the batch's size).
const char* selected_kernel_strided_batched(Fill fill, int64_t n, const half_t* A, int64_t lda,
                                            int64_t stride_a, const half_t* B, int64_t ldb,
                                            int64_t stride_b, const half_t* C, int64_t ldc,
                                            int64_t stride_c, int64_t batch,
                                            const Options& options = {});
const char* selected_kernel_strided_batched(Fill fill, int64_t n, const bfloat16_t* A,
                                            int64_t lda, int64_t stride_a, const bfloat16_t* B,
                                            int64_t ldb, int64_t stride_b, const bfloat16_t* C,
                                            int64_t ldc, int64_t stride_c, int64_t batch,
                                            const Options& options = {});

// Whether this process has a CUDA device that trimm's kernels run on (sm_80 or later).
bool cuda_available();

}  // namespace trimm
