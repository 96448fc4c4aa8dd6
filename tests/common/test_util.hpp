// Helpers shared by the CPU and GPU test suites: seeded inputs, NaN poisoning, and comparisons
// that name the first bad element. Host-only: the GPU tests copy to and from the device themselves.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/tolerance.hpp"
#include "trimm/types.hpp"

namespace trimm {

// Lets GoogleTest print "upper"/"lower" for parameters (found by argument-dependent lookup).
inline void PrintTo(Fill fill, std::ostream* os) { *os << to_string(fill); }

}  // namespace trimm

namespace trimm::test {

template <typename T>
constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();

// TRIMM_TEST_SEED replays a failed run; otherwise every run draws fresh inputs.
inline uint64_t seed() {
  if (const char* env = std::getenv("TRIMM_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  std::random_device device;
  return (uint64_t{device()} << 32) | device();
}

// For SCOPED_TRACE, so that a failure prints how to replay it.
inline std::string seed_note(uint64_t s) {
  return "seed = " + std::to_string(s) + " (replay with TRIMM_TEST_SEED=" + std::to_string(s) + ")";
}

// Whether element (i, j) is in the `fill` triangle, diagonal included.
inline bool in_triangle(Fill fill, int64_t i, int64_t j) {
  return fill == Fill::Upper ? j >= i : j <= i;
}

// Integers in [-range, range]. With range 4 every partial sum of a problem with n < 2^20 is an
// integer of magnitude < 2^24, so fp32 computes it exactly in any order.
inline auto integers(std::mt19937_64& rng, int range = 4) {
  return [&rng, range] {
    return static_cast<double>(std::uniform_int_distribution<int>(-range, range)(rng));
  };
}

inline auto uniform(std::mt19937_64& rng) {
  return [&rng] { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); };
}

// torch.rand: uniform on [0, 1), all positive, sums that never cancel.
inline auto uniform01(std::mt19937_64& rng) {
  return [&rng] { return std::uniform_real_distribution<double>(0.0, 1.0)(rng); };
}

// torch.randn: signs, so sums cancel.
inline auto normal(std::mt19937_64& rng) {
  return [&rng] { return std::normal_distribution<double>(0.0, 1.0)(rng); };
}

// A test fixture's fresh generator, seeded from seed() (see seed_note for replaying).
class Seeded {
 protected:
  Seeded() { rng_.seed(seed_); }
  const uint64_t seed_ = seed();
  std::mt19937_64 rng_;
};

// An n×n row-major matrix in n·ld elements: the `fill` triangle from gen(), everything else (the
// other strict triangle and the ld padding) NaN, so that any read of it shows in the result.
template <typename T, typename Gen>
std::vector<T> make_triangular(Fill fill, int64_t n, int64_t ld, Gen&& gen) {
  std::vector<T> x(static_cast<size_t>(n * ld), kNaN<T>);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (in_triangle(fill, i, j)) x[i * ld + j] = static_cast<T>(gen());
  return x;
}

template <typename T>
void poison(std::vector<T>& x) {
  std::fill(x.begin(), x.end(), kNaN<T>);
}

// Bitwise equality (NaN-safe): inputs unchanged, C untouched after an error.
template <typename T>
::testing::AssertionResult same_bits(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure() << "sizes differ: " << expected.size() << " vs "
                                         << actual.size();
  for (size_t e = 0; e < expected.size(); ++e)
    if (std::memcmp(&expected[e], &actual[e], sizeof(T)) != 0)
      return ::testing::AssertionFailure() << "element " << e << " changed from " << expected[e]
                                           << " to " << actual[e];
  return ::testing::AssertionSuccess();
}

// Exactly zero (either sign) outside the `fill` triangle of an n×n matrix.
template <typename T>
::testing::AssertionResult zero_outside(Fill fill, int64_t n, const T* C, int64_t ldc) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (!in_triangle(fill, i, j) && !(C[i * ldc + j] == T(0)))
        return ::testing::AssertionFailure()
               << "C[" << i << "][" << j << "] = " << C[i * ldc + j] << " outside the "
               << to_string(fill) << " triangle, expected 0";
  return ::testing::AssertionSuccess();
}

// C equals the reference exactly on the triangle (after rounding the reference to T) and is zero
// outside it.
template <typename T>
::testing::AssertionResult equals_exactly(Fill fill, int64_t n, const T* C, int64_t ldc,
                                          const double* ref, int64_t ldr) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (in_triangle(fill, i, j) && !(C[i * ldc + j] == static_cast<T>(ref[i * ldr + j])))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = "
                                             << C[i * ldc + j] << ", expected exactly "
                                             << ref[i * ldr + j];
  return zero_outside(fill, n, C, ldc);
}

struct Tolerance {
  double normwise = 1e-6;  // ||C - ref||_F / ||ref||_F
  double atol = 1e-4;      // elementwise: |c - ref| <= atol + rtol·|ref|
  double rtol = 1e-4;
};

// C is close to the reference on the triangle, elementwise and normwise, and zero outside it.
template <typename T>
::testing::AssertionResult is_close(Fill fill, int64_t n, const T* C, int64_t ldc,
                                    const double* ref, int64_t ldr, Tolerance tol = {}) {
  double err2 = 0.0, ref2 = 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (!in_triangle(fill, i, j)) continue;
      const double c = C[i * ldc + j], r = ref[i * ldr + j];
      if (!(allclose_violation(c, r, tol.atol, tol.rtol) <= 1.0))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << c
                                             << ", expected " << r << " within " << tol.atol
                                             << " + " << tol.rtol << "·|ref|";
      err2 += (c - r) * (c - r);
      ref2 += r * r;
    }
  const double rel = ref2 > 0.0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (!(rel <= tol.normwise))
    return ::testing::AssertionFailure() << "normwise relative error " << rel << " > "
                                         << tol.normwise;
  return zero_outside(fill, n, C, ldc);
}

// Inputs for Structure::Detect (any input, the dense product's semantics), and the check.
enum class Kind { Triangular, Noisy, Dense, NonFinite, TriangularNonFinite };

inline const char* name(Kind k) {
  switch (k) {
    case Kind::Triangular: return "triangular";
    case Kind::Noisy: return "noisy";
    case Kind::Dense: return "dense";
    case Kind::NonFinite: return "nonfinite";
    case Kind::TriangularNonFinite: return "triangular_nonfinite";
  }
  return "?";
}

// An n×n operand in n·ld elements (padding NaN): the `fill` triangle from gen(); the other
// triangle exactly zero (Triangular), 1e-2-scale noise (Noisy, as KernelBench stress suites add),
// or gen() too (Dense, NonFinite). NonFinite then plants Inf, -Inf and NaN anywhere;
// TriangularNonFinite keeps the zeros and plants them inside the triangle, where the dense
// product multiplies them by those zeros (0·Inf = NaN) and a structured product would not.
template <typename T = float, typename Gen>
std::vector<T> make(Kind kind, Fill fill, int64_t n, int64_t ld, Gen&& gen,
                    std::mt19937_64& rng) {
  std::vector<T> x(static_cast<size_t>(n * ld), kNaN<T>);
  std::uniform_real_distribution<double> noise(-1e-2, 1e-2);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T v = static_cast<T>(gen());
      if (!in_triangle(fill, i, j)) {
        if (kind == Kind::Triangular || kind == Kind::TriangularNonFinite) v = T(0);
        if (kind == Kind::Noisy) v = static_cast<T>(noise(rng));
      }
      x[i * ld + j] = v;
    }
  if ((kind == Kind::NonFinite || kind == Kind::TriangularNonFinite) && n > 0) {
    const T inf = std::numeric_limits<T>::infinity();
    std::uniform_int_distribution<int64_t> pos(0, n - 1);
    const T planted[] = {inf, -inf, kNaN<T>, inf};
    for (const T v : planted) {
      int64_t i = pos(rng), j = pos(rng);
      if (kind == Kind::TriangularNonFinite && !in_triangle(fill, i, j)) std::swap(i, j);
      x[i * ld + j] = v;
    }
  }
  return x;
}

// C against the dense reference: exactly zero outside the triangle; NaN where the reference is
// NaN, the same infinity where it is infinite, and allclose (or exact) elsewhere.
// (T = double: tighter atol/rtol fit.)
template <typename T>
::testing::AssertionResult matches_dense(Fill fill, int64_t n, const T* C, int64_t ldc,
                                         const std::vector<double>& ref, bool exact,
                                         double atol = 1e-4, double rtol = 1e-4) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const T c = C[i * ldc + j];
      const T r = static_cast<T>(ref[size_t(i * n + j)]);
      bool ok;
      if (!in_triangle(fill, i, j)) ok = c == T(0);
      else if (std::isnan(r)) ok = std::isnan(c);
      else if (std::isinf(r)) ok = c == r;
      else if (exact) ok = c == r;
      else ok = allclose_violation(c, ref[size_t(i * n + j)], atol, rtol) <= 1.0;
      if (!ok)
        return ::testing::AssertionFailure()
               << "C[" << i << "][" << j << "] = " << c << ", dense reference " << r;
    }
  return ::testing::AssertionSuccess();
}

}  // namespace trimm::test
