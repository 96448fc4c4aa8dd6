#include "common/validate.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

namespace trimm::detail {
namespace {

[[noreturn]] void fail(const BatchedArgs& a, const std::string& message) {
  throw InvalidArgument(std::string(a.api) + ": " + message);
}

std::string fmt(const char* name, int64_t value, const std::string& expected) {
  std::ostringstream s;
  s << name << " = " << value << ", expected " << expected;
  return s.str();
}

// Byte range [lo, hi) covered by all matrices of one operand in the batch.
struct Span {
  uintptr_t lo, hi;
};

Span span_of(const void* p, int64_t n, int64_t ld, int64_t stride, int64_t batch, int64_t bytes) {
  const auto lo = reinterpret_cast<uintptr_t>(p);
  const int64_t last = (batch - 1) * stride + matrix_extent(n, ld);
  return {lo, lo + static_cast<uintptr_t>(last * bytes)};
}

bool overlap(Span x, Span y) { return x.lo < y.hi && y.lo < x.hi; }

}  // namespace

void validate(const BatchedArgs& a) {
  if (a.n < 0) fail(a, fmt("n", a.n, ">= 0"));
  // Kernels index rows and columns in 32 bits (an n this large would not fit in memory anyway).
  if (a.n > INT32_MAX) fail(a, fmt("n", a.n, "<= 2147483647"));
  if (a.batch < 0) fail(a, fmt("batch", a.batch, ">= 0"));
  const int64_t min_ld = std::max<int64_t>(1, a.n);
  const std::string ld_expect = ">= max(1, n) = " + std::to_string(min_ld);
  if (a.lda < min_ld) fail(a, fmt("lda", a.lda, ld_expect));
  if (a.ldb < min_ld) fail(a, fmt("ldb", a.ldb, ld_expect));
  if (a.ldc < min_ld) fail(a, fmt("ldc", a.ldc, ld_expect));
  if (a.stride_a < 0) fail(a, fmt("stride_a", a.stride_a, ">= 0"));
  if (a.stride_b < 0) fail(a, fmt("stride_b", a.stride_b, ">= 0"));
  if (a.n == 0 || a.batch == 0) return;
  if (a.A == nullptr) fail(a, "A is null, expected a pointer to an n x n matrix (n = " +
                                  std::to_string(a.n) + ")");
  if (a.B == nullptr) fail(a, "B is null, expected a pointer to an n x n matrix (n = " +
                                  std::to_string(a.n) + ")");
  if (a.C == nullptr) fail(a, "C is null, expected a pointer to an n x n matrix (n = " +
                                  std::to_string(a.n) + ")");
  const int64_t extent_c = matrix_extent(a.n, a.ldc);
  if (a.batch > 1 && a.stride_c < extent_c)
    fail(a, fmt("stride_c", a.stride_c,
                ">= (n-1)*ldc + n = " + std::to_string(extent_c) +
                    " so that the batch's C matrices do not overlap"));
  const int64_t c_bytes = a.c_elem_bytes != 0 ? a.c_elem_bytes : a.elem_bytes;
  const Span c = span_of(a.C, a.n, a.ldc, a.stride_c, a.batch, c_bytes);
  if (overlap(c, span_of(a.A, a.n, a.lda, a.stride_a, a.batch, a.elem_bytes)))
    fail(a, "C overlaps A, expected disjoint memory (the inputs are never modified)");
  if (overlap(c, span_of(a.B, a.n, a.ldb, a.stride_b, a.batch, a.elem_bytes)))
    fail(a, "C overlaps B, expected disjoint memory (the inputs are never modified)");
}

}  // namespace trimm::detail
