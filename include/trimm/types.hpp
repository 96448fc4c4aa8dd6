// Vocabulary shared by every trimm backend: which triangle, which arithmetic, and the errors.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace trimm {

// Which product. Upper: C = triu(A·B) with A, B upper triangular. Lower: C = tril(A·B) with A, B
// lower triangular. As in BLAS, the other strict triangle of A and B never affects the result
// (whatever it holds, NaN included); C's other strict triangle is written with zeros.
enum class Fill { Upper, Lower };

// The arithmetic. Auto picks the fastest kernel that is fp32-accurate on this device.
// Ieee: plain fp32 fused multiply-add on the CUDA cores (and the CPU's own fp32 BLAS).
// Fp32: fp32 accuracy on the tensor cores, by error-compensated TF32 (3xTF32: three TF32
// products per multiply-add). The CPU backend runs its fp32 BLAS for every precision.
enum class Precision { Auto, Ieee, Fp32 };

const char* to_string(Fill fill);
const char* to_string(Precision precision);
// Parses "upper"/"lower" and "auto"/"ieee"/"fp32"; throws InvalidArgument naming `what` otherwise.
Fill parse_fill(const std::string& text, const char* what = "fill");
Precision parse_precision(const std::string& text, const char* what = "precision");

struct Options {
  Precision precision = Precision::Auto;
  // Forces one entry of the kernel table by name (`trimm kernels` lists them); empty = dispatch.
  std::string kernel;
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
