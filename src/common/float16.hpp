// Host conversions between fp32 and the 16-bit storage types (trimm/types.hpp), for the CPU
// backend's 16-bit overloads. Widening is exact (NaN payloads kept, signalling ones too);
// narrowing rounds to nearest even once, as the GPU kernels' conversions do for every non-NaN
// value: overflow goes to ±Inf, tiny values to subnormals or ±0. A NaN stays a quiet NaN with its
// sign and leading payload (CUDA's conversions give their one canonical NaN instead).
#pragma once

#include <cstdint>
#include <cstring>

#include "trimm/types.hpp"

namespace trimm::detail {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline float widen(bfloat16_t x) { return bits_float(uint32_t(x.bits) << 16); }

inline float widen(half_t x) {
  const uint32_t sign = uint32_t(x.bits & 0x8000u) << 16;
  const uint32_t e = (x.bits >> 10) & 0x1Fu, m = x.bits & 0x3FFu;
  if (e == 0x1F) return bits_float(sign | 0x7F800000u | m << 13);  // Inf, NaN (payload kept)
  if (e != 0) return bits_float(sign | (e + 112) << 23 | m << 13);  // rebias 15 → 127
  // Subnormal or zero: m·2^-24, exact in fp32.
  const float v = float(m) * 0x1p-24f;
  return sign ? -v : v;
}

template <typename T>
T narrow(float f);

template <>
inline bfloat16_t narrow<bfloat16_t>(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return {uint16_t(u >> 16 | 0x0040u)};  // NaN, quiet
  u += 0x7FFFu + (u >> 16 & 1u);  // to nearest, ties to even; carries into the exponent (Inf)
  return {uint16_t(u >> 16)};
}

template <>
inline half_t narrow<half_t>(float f) {
  const uint32_t u = float_bits(f), x = u & 0x7FFFFFFFu;
  const uint16_t sign = uint16_t(u >> 16 & 0x8000u);
  if (x > 0x7F800000u) return {uint16_t(sign | 0x7E00u | (x >> 13 & 0x3FFu))};  // NaN, quiet
  if (x >= 0x477FF000u) return {uint16_t(sign | 0x7C00u)};  // >= 65520: rounds to Inf
  // Keeps q, the bits above `shift`, rounded to nearest even by the bits below.
  auto round = [](uint32_t v, int shift) {
    const uint32_t q = v >> shift, rem = v & ((1u << shift) - 1), half = 1u << (shift - 1);
    return q + (rem > half || (rem == half && (q & 1u)) ? 1u : 0u);
  };
  if (x < 0x38800000u) {  // below 2^-14: a subnormal (or zero) of the half grid, m·2^-24
    if (x < 0x33000000u) return {sign};  // below 2^-25 (2^-25 itself ties to the even 0)
    const uint32_t e = x >> 23, m = (x & 0x7FFFFFu) | 0x800000u;  // x = m·2^(e-150)
    return {uint16_t(sign | round(m, int(126 - e)))};  // 14 ≤ shift ≤ 24
  }
  // Normal: exponent rebiased 127 → 15; a carry out of the mantissa moves the exponent up.
  return {uint16_t(sign | round((x - (112u << 23)), 13))};
}

}  // namespace trimm::detail
