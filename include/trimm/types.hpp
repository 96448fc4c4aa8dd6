// Vocabulary shared by every trimm backend: which triangle, which arithmetic, and the errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace trimm {

// Which product. Upper: C = triu(A·B) with A, B upper triangular. Lower: C = tril(A·B) with A, B
// lower triangular. As in BLAS, the other strict triangle of A and B never affects the result
// (whatever it holds, NaN included); C's other strict triangle is written with zeros.
// Non-finite values inside the triangles: the GPU kernels multiply whole tiles (the CPU backend
// whole row strips), structural zeros included, so a NaN or Inf there can also turn other
// elements of its output tile or strip into NaN (0·NaN, 0·Inf), and precision Fp32 may give NaN
// where a product is ±Inf and ±Inf where it is NaN (its split of each value into a TF32 big and
// small part cannot carry Inf: Inf − Inf is NaN). For the dense product's own NaN/Inf semantics
// use Structure::Detect.
enum class Fill { Upper, Lower };

// 16-bit storage types for the GPU API: the bits of an IEEE binary16 value (half_t) or a bfloat16
// value (bfloat16_t). Layout-compatible with CUDA's __half and __nv_bfloat16 and with PyTorch's
// torch.half / torch.bfloat16 storage: pass such arrays by reinterpret_cast. No arithmetic here
// (this header stays free of CUDA includes); the products are accumulated in fp32 and rounded to
// the type once, to nearest even, when C is stored.
struct half_t {
  uint16_t bits;
};
struct bfloat16_t {
  uint16_t bits;
};
static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2, "half_t is two bytes");
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2, "bfloat16_t is two bytes");

// The arithmetic. Auto picks the fastest kernel that is fp32-accurate on this device.
// Ieee: plain fp32 fused multiply-add on the CUDA cores (and the CPU's own fp32 BLAS).
// Fp32: fp32 accuracy on the tensor cores, by error-compensated TF32 (3xTF32: three TF32
// products per multiply-add). The CPU backend runs its fp32 BLAS for every precision.
// Tf32: one TF32 product per multiply-add on the tensor cores (opt-in, never Auto): about 10
// bits of precision per product, as cuBLAS's TF32 mode; fails fp32's allclose(1e-4).
enum class Precision { Auto, Ieee, Fp32, Tf32 };

// What the inputs are trusted to be.
// Triangular: BLAS semantics (see Fill): the other strict triangle of A and B is never read.
// Detect: C = triu(A·B) (or tril) of A and B exactly as they are, the dense product's semantics:
//   noise in the other triangle counts, and NaN and Inf land where the dense product puts them
//   (Inf·0 = NaN); where finite inputs overflow, ±Inf against NaN (Inf − Inf) follows the
//   order of the sums and fused multiply-adds, as in any BLAS. float: the structured product
//   runs first and checks, while it multiplies, what A and B hold outside their triangles and
//   whether its output is finite (at small n on the GPU: every k summed at once, or the
//   product's blocks read all of A and B beside it); 16-bit data: a pass over A and B checks
//   first (at small n, the product's blocks read them beside it; on small work on sm_90 every k
//   is summed at once, nothing checked). Inputs that are not triangular (or not finite) then
//   take a general path that computes only C's triangle over every k.
enum class Structure { Triangular, Detect };

const char* to_string(Fill fill);
const char* to_string(Precision precision);
const char* to_string(Structure structure);
// Parses "upper"/"lower" and "auto"/"ieee"/"fp32"/"tf32"; throws InvalidArgument naming `what`
// otherwise.
Fill parse_fill(const std::string& text, const char* what = "fill");
Precision parse_precision(const std::string& text, const char* what = "precision");

struct Options {
  Precision precision = Precision::Auto;
  // Forces one entry of the kernel table by name (`trimm kernels` lists them); empty = dispatch.
  std::string kernel;
  Structure structure = Structure::Triangular;
  // Device memory the call may overwrite (trtrmm_workspace_bytes says how much): for
  // Structure::Detect on the GPU, 4 bytes, 4-byte aligned (the flags that choose the path); for
  // the kernels sm90_fp16x3 and sm90_fp16x1, their split operands. Dispatch also takes those two
  // for one float problem (sm_90, n >= 3072 for fp32, n >= 4096 for tf32) when the workspace
  // holds what they need (256-byte aligned; under Structure::Detect, sm90_fp16x3's planes 256
  // bytes in, after the flags). Calls that may run at the same time need their own.
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
};

// The error convention: every failure is an exception derived from trimm::Error, thrown before
// anything is written when the arguments are at fault.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad argument. what() names the argument, its value and what was expected.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A CUDA runtime failure (no device, launch failure, ...). what() names the call and the error.
class CudaError : public Error {
 public:
  using Error::Error;
};

}  // namespace trimm
