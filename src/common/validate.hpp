// Argument checks shared by every backend, so that the CPU and GPU entry points reject exactly the
// same calls with exactly the same messages, before anything is written.
#pragma once

#include <cstdint>

#include "trimm/types.hpp"

namespace trimm::detail {

struct BatchedArgs {
  const char* api;  // e.g. "trimm::trtrmm": prefixes every message
  Fill fill;
  int64_t n;
  const void* A;
  int64_t lda, stride_a;
  const void* B;
  int64_t ldb, stride_b;
  const void* C;
  int64_t ldc, stride_c;
  int64_t batch;
  int64_t elem_bytes;  // sizeof the element type, for the overlap checks
  int64_t c_elem_bytes = 0;  // sizeof C's element where it differs (the fp64 reference); 0: same
  // The operands' names in messages (the backward's "G", "dA", ...); their leading dimensions
  // and batch strides are named "ld" and "stride_" followed by the name in lower case.
  const char* a_name = "A";
  const char* b_name = "B";
  const char* c_name = "C";
};

// Throws InvalidArgument naming the first bad argument. Checks: fill is Upper or Lower, n >= 0,
// batch >= 0, ld >= max(1, n), non-null pointers when there is work, strides >= 0, every
// operand's span fits in the address space, C matrices of a batch disjoint
// (stride_c >= (n-1)·ldc + n when batch > 1), and C's span disjoint from A's and B's (spans are
// whole batches: interleaved batches are refused). Allocates nothing unless it throws.
void validate(const BatchedArgs& args);

// Throws InvalidArgument naming options.workspace when its bytes [workspace, workspace + bytes)
// overlap A, B or C (their spans as validate() takes them): the call writes the workspace, and
// never its inputs. Nothing to check without a workspace, or when there is no work.
void validate_workspace(const BatchedArgs& args, const void* workspace, size_t bytes);

// Throws InvalidArgument naming `precision` when it is not one of the enum's values.
void validate_precision(const char* api, Precision precision);
// Throws InvalidArgument naming `structure` when it is not one of the enum's values.
void validate_structure(const char* api, Structure structure);

// The options of the 16-bit overloads (GPU and CPU): precision Auto or Fp32 (both mean fp32
// accumulation) and a valid structure; throws InvalidArgument naming the option otherwise.
void validate_16bit_options(const char* api, const Options& options);

// The options of the fp64 overloads (GPU and CPU): precision Auto or Ieee (plain fp64
// arithmetic) and a valid structure; throws InvalidArgument naming the option otherwise.
void validate_fp64_options(const char* api, const Options& options);

// The extent in elements of one n×n matrix with leading dimension ld: (n-1)·ld + n.
constexpr int64_t matrix_extent(int64_t n, int64_t ld) { return n == 0 ? 0 : (n - 1) * ld + n; }

}  // namespace trimm::detail
