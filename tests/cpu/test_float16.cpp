// The host conversions of common/float16.hpp against independent oracles: widening against the
// formats' definitions in double for every bit pattern, narrowing against a search for the
// nearest representable value (ties to even) over random floats of every magnitude.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "common/float16.hpp"
#include "common/test_util.hpp"

namespace trimm {
namespace {

// The value of a half bit pattern by its definition (IEEE binary16).
double half_value(uint16_t b) {
  const int e = (b >> 10) & 31, m = b & 1023;
  const double s = (b & 0x8000) ? -1.0 : 1.0;
  if (e == 31) return m ? std::nan("") : s * INFINITY;
  return s * (e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
}

// The value of a bfloat16 bit pattern: the top half of an fp32 pattern.
double bf16_value(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Half {
  using T = half_t;
  static double value(uint16_t b) { return half_value(b); }
  static constexpr uint16_t kInf = 0x7C00;
  static constexpr double kInfRounding = 65536.0;  // 2^(emax+1): where rounding meets Inf
};
struct Bf16 {
  using T = bfloat16_t;
  static double value(uint16_t b) { return bf16_value(b); }
  static constexpr uint16_t kInf = 0x7F80;
  static constexpr double kInfRounding = 0x1p128;
};

// Nearest representable value to x, ties to the even pattern: non-negative patterns 0 … kInf
// are ordered by value, so a binary search finds the two that bracket |x|.
template <class F>
uint16_t oracle(float x) {
  const double a = std::fabs(double(x));
  auto val = [](uint16_t b) { return b == F::kInf ? F::kInfRounding : F::value(b); };
  uint16_t lo = 0, hi = F::kInf;  // val(lo) <= a; find the largest such lo
  if (a >= F::kInfRounding) {
    lo = F::kInf;
  } else {
    while (hi - lo > 1) {
      const uint16_t mid = uint16_t((lo + hi) / 2);
      (val(mid) <= a ? lo : hi) = mid;
    }
    if (val(lo) != a) {
      const double dl = a - val(lo), dh = val(uint16_t(lo + 1)) - a;
      if (dh < dl || (dh == dl && ((lo + 1) & 1) == 0)) lo = uint16_t(lo + 1);
    }
  }
  return uint16_t(lo | (std::signbit(x) ? 0x8000 : 0));
}

bool is_nan16(uint16_t b, uint16_t inf) { return (b & inf) == inf && (b & 0x7FFF) != inf; }

template <class F>
class Float16 : public ::testing::Test, public test::Seeded {};
using Formats = ::testing::Types<Half, Bf16>;
TYPED_TEST_SUITE(Float16, Formats);

TYPED_TEST(Float16, WidenMatchesTheDefinitionForEveryPattern) {
  using F = TypeParam;
  for (uint32_t b = 0; b < 65536; ++b) {
    const float w = detail::widen(typename F::T{uint16_t(b)});
    const double v = F::value(uint16_t(b));
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(w)) << "pattern " << b;
    } else {
      ASSERT_EQ(double(w), v) << "pattern " << b;
      ASSERT_EQ(std::signbit(w), std::signbit(v)) << "pattern " << b;  // -0 stays -0
    }
  }
}

TYPED_TEST(Float16, NarrowOfWidenIsTheIdentity) {
  using F = TypeParam;
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t back = detail::narrow<typename F::T>(detail::widen(typename F::T{uint16_t(b)})).bits;
    if (is_nan16(uint16_t(b), F::kInf))
      EXPECT_TRUE(is_nan16(back, F::kInf)) << "NaN pattern " << b << " became " << back;
    else
      ASSERT_EQ(back, b);
  }
}

TYPED_TEST(Float16, NarrowRoundsToNearestEven) {
  using F = TypeParam;
  SCOPED_TRACE(test::seed_note(this->seed_));
  std::uniform_int_distribution<uint32_t> bits;
  for (int t = 0; t < 200000; ++t) {
    // A third every fp32 pattern; a third within 4096 fp32 ulps of a 16-bit value; a third the
    // midpoint of two neighbours (exact in fp32) or one fp32 ulp either side of it: every tie,
    // subnormal and the overflow boundary included.
    uint32_t u = bits(this->rng_);
    if (t % 3 != 0) {
      const uint16_t b = uint16_t(bits(this->rng_) & 0x7FFF);
      if (b >= F::kInf) continue;
      uint32_t ub;
      if (t % 3 == 1) {
        const float base = detail::widen(typename F::T{b});
        std::memcpy(&ub, &base, 4);
        ub += (bits(this->rng_) % 8192) - 4096;
      } else {
        const double next = b + 1 == F::kInf ? F::kInfRounding : F::value(uint16_t(b + 1));
        const float mid = float((F::value(b) + next) / 2);  // exact: one bit more than the type
        std::memcpy(&ub, &mid, 4);
        ub += int(bits(this->rng_) % 3) - 1;
      }
      u = ub | (bits(this->rng_) & 0x80000000u);
    }
    float x;
    std::memcpy(&x, &u, 4);
    if (std::isnan(x)) continue;
    ASSERT_EQ(detail::narrow<typename F::T>(x).bits, oracle<F>(x)) << "x = " << x << " (bits " << u << ")";
  }
}

TYPED_TEST(Float16, NarrowKeepsNaNAndInf) {
  using F = TypeParam;
  const float inf = INFINITY, nan = std::nanf("");
  EXPECT_EQ(detail::narrow<typename F::T>(inf).bits, F::kInf);
  EXPECT_EQ(detail::narrow<typename F::T>(-inf).bits, F::kInf | 0x8000);
  EXPECT_TRUE(is_nan16(detail::narrow<typename F::T>(nan).bits, F::kInf));
  EXPECT_TRUE(is_nan16(detail::narrow<typename F::T>(-nan).bits, F::kInf));
  EXPECT_EQ(detail::narrow<typename F::T>(-0.0f).bits, 0x8000);
  // A NaN keeps its sign and its leading payload bits and comes out quiet.
  for (const uint32_t nan_bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFA00000u, 0x7FE00000u}) {
    float x;
    std::memcpy(&x, &nan_bits, 4);
    const uint16_t b = detail::narrow<typename F::T>(x).bits;
    const int mant = F::kInf == 0x7C00 ? 10 : 7;  // the type's mantissa bits
    EXPECT_TRUE(is_nan16(b, F::kInf)) << std::hex << nan_bits;
    EXPECT_EQ(b >> 15, nan_bits >> 31) << "sign of " << std::hex << nan_bits;
    EXPECT_TRUE(b & (1u << (mant - 1))) << "quiet bit of " << std::hex << nan_bits;
    const uint32_t top = (nan_bits & 0x7FFFFFu) >> (23 - mant), quiet = 1u << (mant - 1);
    EXPECT_EQ(b & (quiet - 1), top & (quiet - 1)) << "payload of " << std::hex << nan_bits;
  }
}

TEST(Float16Edges, HalfBoundaries) {
  auto h = [](float x) { return detail::narrow<half_t>(x).bits; };
  EXPECT_EQ(h(65504.0f), 0x7BFF);
  EXPECT_EQ(h(65519.996f), 0x7BFF);
  EXPECT_EQ(h(65520.0f), 0x7C00);  // the tie between 65504 and 2^16 goes to the even Inf
  EXPECT_EQ(h(0x1p-24f), 0x0001);
  EXPECT_EQ(h(0x1p-25f), 0x0000);  // the tie between 0 and 2^-24 goes to the even 0
  EXPECT_EQ(h(0x1.8p-25f), 0x0001);
  EXPECT_EQ(h(0x1p-14f), 0x0400);
  EXPECT_EQ(h(1.0f), 0x3C00);
  EXPECT_EQ(h(1.0f + 0x1p-11f), 0x3C00);  // tie: to even
  EXPECT_EQ(h(1.0f + 0x1.8p-11f), 0x3C01);
}

TEST(Float16Edges, Bf16Boundaries) {
  auto b = [](float x) { return detail::narrow<bfloat16_t>(x).bits; };
  EXPECT_EQ(b(1.0f), 0x3F80);
  EXPECT_EQ(b(1.0f + 0x1p-8f), 0x3F80);  // tie: to even
  EXPECT_EQ(b(1.0f + 0x1.8p-8f), 0x3F81);
  EXPECT_EQ(b(0x1.fep127f), 0x7F7F);
  EXPECT_EQ(b(0x1.ffp127f), 0x7F80);  // the tie at the top goes to the even Inf
}

}  // namespace
}  // namespace trimm
