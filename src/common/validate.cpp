#include "common/validate.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

namespace trimm::detail {
namespace {

[[noreturn]] void fail(const BatchedArgs& a, const std::string& message) {
  throw InvalidArgument(std::string(a.api) + ": " + message);
}

// (std::to_string, not a stream: this file is built into the torch extension too, where
// formatting through std::ostream crashed on the GPU machine: python/csrc/trimm_ops.cpp.)
std::string fmt(const char* name, int64_t value, const std::string& expected) {
  return std::string(name) + " = " + std::to_string(value) + ", expected " + expected;
}

// Byte range [lo, hi) covered by all matrices of one operand in the batch: the hull, so the
// overlap test below is conservative (an interleaved layout such as [A0 C0 A1 C1] is refused).
struct Span {
  uintptr_t lo, hi;
};

// The span of one operand, or fails naming `ld_name` / `stride_name` when it does not fit in the
// address space (a huge ld or stride would otherwise wrap around and pass the checks).
Span span_of(const BatchedArgs& a, const void* p, int64_t ld, int64_t stride, int64_t bytes,
             const char* ld_name, const char* stride_name) {
  int64_t extent = 0, extent_bytes = 0, last = 0, total = 0;
  // One matrix that does not fit is its leading dimension's fault; past it, the batch's (its stride
  // and count, both named).
  const auto lo = reinterpret_cast<uintptr_t>(p);
  uintptr_t hi = 0;
  if (__builtin_mul_overflow(a.n - 1, ld, &extent) ||
      __builtin_add_overflow(extent, a.n, &extent) ||
      __builtin_mul_overflow(extent, bytes, &extent_bytes) ||
      __builtin_add_overflow(lo, static_cast<uintptr_t>(extent_bytes), &hi))
    fail(a, fmt(ld_name, ld, "a matrix that fits in memory"));
  if (__builtin_mul_overflow(a.batch - 1, stride, &last) ||
      __builtin_add_overflow(last, extent, &last) || __builtin_mul_overflow(last, bytes, &total) ||
      __builtin_add_overflow(lo, static_cast<uintptr_t>(total), &hi))
    fail(a, std::string(stride_name) + " = " + std::to_string(stride) + " with batch = " +
                std::to_string(a.batch) + ", expected a batch that fits in memory");
  return {lo, hi};
}

bool overlap(Span x, Span y) { return x.lo < y.hi && y.lo < x.hi; }

// "ld" or "stride_" followed by an operand's name in lower case: lda, ldda, stride_g, ...
std::string lower_named(const char* prefix, const char* name) {
  std::string s = prefix;
  for (const char* c = name; *c != '\0'; ++c)
    s += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  return s;
}

}  // namespace

void validate(const BatchedArgs& a) {
  if (a.fill != Fill::Upper && a.fill != Fill::Lower)
    fail(a, "fill = " + std::to_string(static_cast<int>(a.fill)) +
                ", expected Fill::Upper or Fill::Lower");
  if (a.n < 0) fail(a, fmt("n", a.n, ">= 0"));
  // Kernels index rows and columns in 32 bits (an n this large would not fit in memory anyway).
  if (a.n > INT32_MAX) fail(a, fmt("n", a.n, "<= 2147483647"));
  if (a.batch < 0) fail(a, fmt("batch", a.batch, ">= 0"));
  const std::string lda = lower_named("ld", a.a_name), ldb = lower_named("ld", a.b_name),
                    ldc = lower_named("ld", a.c_name);
  const std::string stride_a = lower_named("stride_", a.a_name),
                    stride_b = lower_named("stride_", a.b_name),
                    stride_c = lower_named("stride_", a.c_name);
  const int64_t min_ld = std::max<int64_t>(1, a.n);
  auto check_ld = [&](const std::string& name, int64_t ld) {
    if (ld < min_ld) fail(a, fmt(name.c_str(), ld, ">= max(1, n) = " + std::to_string(min_ld)));
  };
  check_ld(lda, a.lda);
  check_ld(ldb, a.ldb);
  check_ld(ldc, a.ldc);
  if (a.stride_a < 0) fail(a, fmt(stride_a.c_str(), a.stride_a, ">= 0"));
  if (a.stride_b < 0) fail(a, fmt(stride_b.c_str(), a.stride_b, ">= 0"));
  if (a.stride_c < 0) fail(a, fmt(stride_c.c_str(), a.stride_c, ">= 0"));
  if (a.n == 0 || a.batch == 0) return;
  auto check_ptr = [&](const char* name, const void* p) {
    if (p == nullptr)
      fail(a, std::string(name) + " is null, expected a pointer to an n x n matrix (n = " +
                  std::to_string(a.n) + ")");
  };
  check_ptr(a.a_name, a.A);
  check_ptr(a.b_name, a.B);
  check_ptr(a.c_name, a.C);
  // C's span first: it refuses an ldc whose extent overflows, so extent_c below cannot.
  const int64_t c_bytes = a.c_elem_bytes != 0 ? a.c_elem_bytes : a.elem_bytes;
  const Span c = span_of(a, a.C, a.ldc, a.stride_c, c_bytes, ldc.c_str(), stride_c.c_str());
  const int64_t extent_c = matrix_extent(a.n, a.ldc);
  if (a.batch > 1 && a.stride_c < extent_c)
    fail(a, fmt(stride_c.c_str(), a.stride_c,
                ">= (n-1)*" + ldc + " + n = " + std::to_string(extent_c) + " so that the batch's " +
                    a.c_name + " matrices do not overlap"));
  const std::string overlaps = std::string(a.c_name) + " overlaps ";
  if (overlap(c, span_of(a, a.A, a.lda, a.stride_a, a.elem_bytes, lda.c_str(), stride_a.c_str())))
    fail(a, overlaps + a.a_name + ", expected disjoint memory (the inputs are never modified)");
  if (overlap(c, span_of(a, a.B, a.ldb, a.stride_b, a.elem_bytes, ldb.c_str(), stride_b.c_str())))
    fail(a, overlaps + a.b_name + ", expected disjoint memory (the inputs are never modified)");
}

void validate_workspace(const BatchedArgs& a, const void* workspace, size_t bytes) {
  if (workspace == nullptr || bytes == 0 || a.n == 0 || a.batch == 0) return;
  const auto lo = reinterpret_cast<uintptr_t>(workspace);
  uintptr_t hi = 0;
  if (__builtin_add_overflow(lo, static_cast<uintptr_t>(bytes), &hi))
    fail(a, "options.workspace_bytes = " + std::to_string(bytes) +
                ", expected a range that fits in memory");
  const Span ws{lo, hi};
  const int64_t c_bytes = a.c_elem_bytes != 0 ? a.c_elem_bytes : a.elem_bytes;
  const struct {
    const char* name;
    const void* p;
    int64_t ld, stride, elem;
  } operands[] = {{a.a_name, a.A, a.lda, a.stride_a, a.elem_bytes},
                  {a.b_name, a.B, a.ldb, a.stride_b, a.elem_bytes},
                  {a.c_name, a.C, a.ldc, a.stride_c, c_bytes}};
  for (const auto& o : operands) {
    const std::string ld = lower_named("ld", o.name), stride = lower_named("stride_", o.name);
    if (overlap(ws, span_of(a, o.p, o.ld, o.stride, o.elem, ld.c_str(), stride.c_str())))
      fail(a, std::string("options.workspace overlaps ") + o.name +
                  ", expected disjoint memory (the call writes the workspace)");
  }
}

void validate_precision(const char* api, Precision precision) {
  switch (precision) {
    case Precision::Auto:
    case Precision::Ieee:
    case Precision::Fp32:
    case Precision::Tf32: return;
  }
  throw InvalidArgument(std::string(api) + ": precision = " +
                        std::to_string(static_cast<int>(precision)) +
                        ", expected Precision::Auto, Ieee, Fp32 or Tf32");
}

void validate_structure(const char* api, Structure structure) {
  switch (structure) {
    case Structure::Triangular:
    case Structure::Detect: return;
  }
  throw InvalidArgument(std::string(api) + ": structure = " +
                        std::to_string(static_cast<int>(structure)) +
                        ", expected Structure::Triangular or Detect");
}

void validate_fp64_options(const char* api, const Options& options) {
  validate_precision(api, options.precision);
  validate_structure(api, options.structure);
  if (options.precision != Precision::Auto && options.precision != Precision::Ieee)
    throw InvalidArgument(std::string(api) + ": precision = " + to_string(options.precision) +
                          " with double operands, expected auto or ieee (fp64 runs plain fp64 "
                          "FMA)");
}

void validate_16bit_options(const char* api, const Options& options) {
  validate_precision(api, options.precision);
  validate_structure(api, options.structure);
  if (options.precision != Precision::Auto && options.precision != Precision::Fp32)
    throw InvalidArgument(std::string(api) + ": precision = " + to_string(options.precision) +
                          " for 16-bit data, expected Precision::Auto or Fp32 (fp32 accumulation)");
}

}  // namespace trimm::detail
