// Structure::Detect's reading of A and B, row by row: which rows hold anything in the other
// triangle, and NaN or Inf anywhere (or in the other triangle alone: outside_row_flags) (the
// flags of kernels/launch.hpp). Used by the scan launch (simt/scan_operands.cu: 16-bit and fp64)
// and by the small kernels' structured launches (simt_small_fp32, sm80_16bit_small), which read
// their share beside their product (share_flags).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/common/epoch_flags.cuh"
#include "kernels/launch.hpp"

namespace trimm::kernels::scan {

// An element format as the scan sees it: its bits (Word) and its exponent field (all ones: Inf
// or NaN).
template <typename T>
struct Format;
template <>
struct Format<half_t> {
  using Word = uint16_t;
  static constexpr uint32_t kExp = 0x7C00u;
};
template <>
struct Format<bfloat16_t> {
  using Word = uint16_t;
  static constexpr uint32_t kExp = 0x7F80u;
};
template <>
struct Format<float> {
  using Word = uint32_t;
  static constexpr uint32_t kExp = 0x7F800000u;
};
template <>
struct Format<double> {
  using Word = uint64_t;
  static constexpr uint64_t kExp = 0x7FF0000000000000ull;
};

// What one lane has seen, a word at a time: two 16-bit elements, one fp32 or one fp64 (Bits:
// 32 bits, or 64 for fp64).
// nonfinite != 0 iff an exponent field was all ones. For a pair, both halves at once: a half's
// exponent bits plus (0x8000 - kExp) reach bit 15 only where they are all ones, and no carry
// crosses into the other half (three instructions instead of two compares a half: the scan
// before sm90_16bit was bound by its instructions, not by DRAM; session 48).
template <typename T>
struct Seen {
  using Bits = std::conditional_t<sizeof(typename Format<T>::Word) == 8, uint64_t, uint32_t>;
  static constexpr Bits kExp = Format<T>::kExp;
  static constexpr bool kPairs = sizeof(typename Format<T>::Word) == 2;
  static constexpr Bits kMagnitude = ~Bits(0) >> 1;  // all but the sign bit
  Bits magnitude = 0;
  uint32_t nonfinite = 0;
  __device__ __forceinline__ void absorb(Bits w) {
    if constexpr (kPairs) {
      static_assert(kExp < 0x8000u, "a 16-bit exponent field below the sign bit");
      constexpr uint32_t kExp2 = kExp | kExp << 16, kCarry2 = (0x8000u - kExp) * 0x10001u;
      magnitude |= w & 0x7FFF7FFFu;
      nonfinite |= ((w & kExp2) + kCarry2) & 0x80008000u;
    } else {
      magnitude |= w & kMagnitude;
      nonfinite |= uint32_t((w & kExp) == kExp);
    }
  }
};

// A lane's view of one row: the other triangle's elements (Upper: columns [0, split), Lower:
// [split, n)) and the triangle's, told apart by column.
template <typename T>
struct RowSeen {
  Seen<T> outside, inside;
  int64_t split;
  bool upper;
  __device__ __forceinline__ bool out(int64_t c) const { return upper ? c < split : c >= split; }
  // A word whose first element lies in column c (a lone 16-bit element comes zero-extended: its
  // empty high half is zero and finite on either side).
  __device__ __forceinline__ void take(typename Seen<T>::Bits w, int64_t c) {
    if constexpr (Seen<T>::kPairs) {
      const uint32_t mask = (out(c) ? 0x0000FFFFu : 0u) | (out(c + 1) ? 0xFFFF0000u : 0u);
      outside.absorb(w & mask);
      inside.absorb(w & ~mask);
    } else if (out(c)) {
      outside.absorb(w);
    } else {
      inside.absorb(w);
    }
  }
};

// The n elements of a row in one pass, each told apart by its column: the 16-byte vectors
// between the row's first and last 16-byte boundaries, kUnroll a lane issued before any is used,
// and the elements before and after them, one a lane, loaded with the first round (the two
// ranges one vector a lane at a time before: ~1 µs more of Detect's ~12 at n = 896, session 44).
// Vectors wholly in the other triangle are read evict-first (no product reads them); the rest
// with ordinary loads, which may leave the triangle in L2 for the product. kAllOutside: every
// column is the other triangle's (outside_row_flags), so no column is told apart.
template <typename T, bool kAllOutside = false>
__device__ __forceinline__ void scan_row(const typename Format<T>::Word* row, int64_t n,
                                         RowSeen<T>& seen, int lane) {
  using Word = typename Format<T>::Word;
  using Bits = typename Seen<T>::Bits;
  // A 16-byte vector as the scan's words: four of 32 bits, or two of 64 (fp64).
  constexpr int64_t kPerVec = 16 / sizeof(Word), kWordsPerVec = 16 / sizeof(Bits);
  constexpr int kUnroll = 8;
  // Elements before the first 16-byte boundary (elements are aligned to their size).
  const int64_t to_boundary =
      int64_t((16 - (reinterpret_cast<uintptr_t>(row) & 15)) & 15) / int64_t(sizeof(Word));
  const int64_t head = std::min<int64_t>(n, to_boundary);
  const int64_t vecs = (n - head) / kPerVec, tail0 = head + kPerVec * vecs;
  static_assert(2 * (16 / sizeof(Word)) <= 32, "the head and the tail take one element a lane");
  // This lane's lone element (head, then tail), if any.
  const int64_t lone = lane < head ? lane : tail0 + (lane - head);
  const bool has_lone = lone < n && (lane < head || lone >= tail0);
  const Bits lone_word = has_lone ? Bits(row[lone]) : Bits(0);
  const auto* v = reinterpret_cast<const uint4*>(row + head);
  for (int64_t base = 0; base < vecs; base += 32 * kUnroll) {
    uint4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t c = base + lane + 32 * u, col = head + kPerVec * c;
      if (c >= vecs)
        x[u] = make_uint4(0u, 0u, 0u, 0u);
      else if (kAllOutside || (seen.out(col) && seen.out(col + kPerVec - 1)))
        x[u] = __ldcs(v + c);
      else
        x[u] = __ldg(v + c);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if constexpr (kWordsPerVec == 2) {
        // fp64: two elements a vector, x the low half of the first (little-endian).
        const Bits w0 = Bits(x[u].x) | Bits(x[u].y) << 32;
        const Bits w1 = Bits(x[u].z) | Bits(x[u].w) << 32;
        if constexpr (kAllOutside) {  // (vectors past the row were loaded as zeros)
          seen.outside.absorb(w0);
          seen.outside.absorb(w1);
          continue;
        }
        const int64_t col = head + kPerVec * (base + lane + 32 * u);
        if (col >= tail0) continue;
        seen.take(w0, col);
        seen.take(w1, col + 1);
      } else {
        if constexpr (kAllOutside) {  // (vectors past the row were loaded as zeros)
          seen.outside.absorb(x[u].x);
          seen.outside.absorb(x[u].y);
          seen.outside.absorb(x[u].z);
          seen.outside.absorb(x[u].w);
          continue;
        }
        const int64_t col = head + kPerVec * (base + lane + 32 * u);
        if (col >= tail0) continue;
        constexpr int64_t kStep = kPerVec / kWordsPerVec;  // elements a word
        seen.take(x[u].x, col);
        seen.take(x[u].y, col + kStep);
        seen.take(x[u].z, col + 2 * kStep);
        seen.take(x[u].w, col + 3 * kStep);
      }
    }
  }
  if (kAllOutside) {
    seen.outside.absorb(lone_word);  // zero where the lane has none
  } else if (has_lone) {
    seen.take(lone_word, lone);
  }
}

// The flags of row i of an n×n operand (Upper: other triangle [0, i), triangle [i, n); Lower:
// triangle [0, i], other (i, n)): kOutsideA or kOutsideB (`outside_flag`) for a nonzero in the
// other triangle, kNonFiniteOutside / kNonFiniteInside for a NaN or Inf there / in the triangle.
// Every lane of the warp calls it; each returns what its own elements showed.
template <typename T>
__device__ __forceinline__ uint32_t row_flags(const typename Format<T>::Word* row, int64_t n,
                                              int64_t i, bool upper, uint32_t outside_flag,
                                              int lane) {
  RowSeen<T> seen{{}, {}, upper ? i : i + 1, upper};
  scan_row(row, n, seen, lane);
  return (seen.outside.magnitude != 0u ? outside_flag : 0u) |
         (seen.outside.nonfinite != 0u ? kNonFiniteOutside : 0u) |
         (seen.inside.nonfinite != 0u ? kNonFiniteInside : 0u);
}

// row_flags of the other triangle's elements alone (no kNonFiniteInside): the row from its
// first such column, every column of it outside (RowSeen's split taken relative to that start).
template <typename T>
__device__ __forceinline__ uint32_t outside_row_flags(const typename Format<T>::Word* row,
                                                      int64_t n, int64_t i, bool upper,
                                                      uint32_t outside_flag, int lane) {
  const int64_t lo = upper ? 0 : i + 1, len = upper ? i : n - i - 1;
  RowSeen<T> seen{{}, {}, upper ? len : 0, upper};
  scan_row<T, true>(row + lo, len, seen, lane);
  return (seen.outside.magnitude != 0u ? outside_flag : 0u) |
         (seen.outside.nonfinite != 0u ? kNonFiniteOutside : 0u);
}

// The flags of the rows r = first, first + step, ... below 2n of one batch entry's A and B (A's
// rows, then B's; A and B offset to the entry), ORed over the warp; `skip_a` / `skip_b` leave out
// an operand another entry already covers (a shared operand: stride 0); `outside_only`: the
// other triangles alone (outside_row_flags). Every lane of the warp calls it with the same rows.
template <typename T>
__device__ __forceinline__ uint32_t entry_flags(bool upper, int64_t n,
                                                const typename Format<T>::Word* A, int64_t lda,
                                                bool skip_a, const typename Format<T>::Word* B,
                                                int64_t ldb, bool skip_b, int64_t first,
                                                int64_t step, int lane, bool outside_only = false) {
  uint32_t flags = 0;
  for (int64_t r = first; r < 2 * n; r += step) {
    const bool is_a = r < n;
    if (is_a ? skip_a : skip_b) continue;
    const int64_t i = is_a ? r : r - n;
    const auto* row = is_a ? A + i * lda : B + i * ldb;
    const uint32_t outside = is_a ? kOutsideA : kOutsideB;
    flags |= outside_only ? outside_row_flags<T>(row, n, i, upper, outside, lane)
                          : row_flags<T>(row, n, i, upper, outside, lane);
  }
  return __reduce_or_sync(0xFFFFFFFFu, flags);
}

// Structure::Detect beside a product (the launch's p.epoch nonzero): this block's share of the
// rows of A and B of batch entry b (A and B already offset to it; a warp a row, strided over the
// grid's x; a shared operand by entry 0 only), their flags added to this call's
// (epoch_flags.cuh). Every thread of the block calls it.
template <typename T>
__device__ void share_flags(const GatedProblem<T>& p, const T* A, const T* B, int64_t b) {
  using Word = typename Format<T>::Word;
  const int warps = int(blockDim.x) / 32, lane = int(threadIdx.x) % 32;
  const uint32_t flags = entry_flags<T>(
      p.fill == Fill::Upper, p.n, reinterpret_cast<const Word*>(A), p.lda, b > 0 && p.stride_a == 0,
      reinterpret_cast<const Word*>(B), p.ldb, b > 0 && p.stride_b == 0,
      int64_t(blockIdx.x) * warps + threadIdx.x / 32, int64_t(gridDim.x) * warps, lane);
  if (lane == 0 && flags != 0u) or_epoch_flags(p.gate, p.epoch, flags);
}

}  // namespace trimm::kernels::scan
