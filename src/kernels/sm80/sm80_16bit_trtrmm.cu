// sm80_16bit: C = triu(A·B) (or tril) for 16-bit data, bf16 or fp16, on the tensor cores of any
// GPU from sm_80 with mma.sync m16n8k16 and fp32 sums; C rounded to the type once, at the store.
//
// The 16-bit kernel for operands TMA cannot address (rows that are not 16-byte aligned: odd
// leading dimensions, offset views) and for GPUs without wgmma. Loads need no alignment: 16-byte
// vectors where every row start is 16-byte aligned, aligned 4-byte words otherwise (2-byte loads
// where a vector reaches past n).
//
// One block per work unit of the triangle scheduler, never split (a split tile's partial would
// reach C in 16 bits: a second rounding). 128×128 tiles, 32 k per stage, 8 warps of 64×32, a
// register-staged double buffer as in sm80_tf32x3. Each operand's stage is stored as the operand
// lies in memory (k- or x-contiguous, x = m for A' and n for B'), so that a slice comes in with
// coalesced loads and 16-byte stores, and goes out to the m16n8k16 fragments with ldmatrix
// (.trans for the x-contiguous one). The triangle is masked as a slice goes from registers to
// shared memory: the inputs' other triangle, NaN included, never reaches the arithmetic.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "config/tile_config.hpp"
#include "kernels/common/elem16.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm80/mma_block.cuh"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::sm80_16bit {
namespace {

constexpr config::MmaTile Cfg = config::kSm80_16bit;
constexpr int kTile = Cfg.bm, kStep = Cfg.bk, kThreads = Cfg.threads();
constexpr int kMi = Cfg.warp_m() / 16, kNi = Cfg.warp_n() / 8;  // m16 and n8 tiles per warp
static_assert(Cfg.bm == Cfg.bn, "the scheduler's mirror trick needs square tiles");
static_assert(Cfg.warp_m() % 16 == 0 && Cfg.warp_n() % 8 == 0, "warps hold whole m16n8 tiles");
static_assert(kStep % 16 == 0 && kTile % kStep == 0,
              "stages hold whole k16 steps, bands whole stages");

// One operand's stage, stored as the operand lies in memory, so that a slice goes in with
// 16-byte stores: k-contiguous, (x 128, k 32), or x-contiguous (kContigX), (k 32, x 128); x is m
// for A' and n for B'. Rows are padded by 16 bytes: the 8 rows of 16 bytes an ldmatrix reads
// are then an odd multiple of 4 words apart, in 8 distinct groups of 4 banks.
template <bool kContigX>
struct alignas(16) Stage {
  static constexpr int kRows = kContigX ? kStep : kTile, kCols = (kContigX ? kTile : kStep) + 8;
  static_assert((kCols / 2) % 8 == 4, "a row stride of an odd multiple of 4 banks");
  uint16_t v[kRows][kCols];
  __device__ uint16_t* at(int x, int k) { return kContigX ? &v[k][x] : &v[x][k]; }
  __device__ const uint16_t* at(int x, int k) const { return kContigX ? &v[k][x] : &v[x][k]; }
};
// kTrans (the Lower product): A' = Bᵀ is x-contiguous and B' = Aᵀ k-contiguous; else the other
// way round.
template <bool kTrans>
struct SharedStorage {
  Stage<kTrans> a[2];
  Stage<!kTrans> b[2];
};
static_assert(sizeof(SharedStorage<false>) <= 48 * 1024, "static shared memory");

// --- loads: global → registers → shared, the triangle masked --------------------------------
// Moves kTile×kStep slices of one operand into Stages, k advancing by kStep per slice. Element
// (x, k) of the operand is p[k·ld + x] when kContigX (x is the contiguous index) and p[x·ld + k]
// otherwise; each thread moves vectors of 8 elements along the contiguous index, the lanes of a
// warp along it too (coalesced), into a Stage laid out the same way. kKAtLeastX: A'
// keeps k >= x (x = row), B' keeps k <= x (x = column). kVec: every row start is 16-byte
// aligned, so whole vectors load at once. Coordinates are 32-bit (the host checks n < 2^31).
template <bool kContigX, bool kKAtLeastX, bool kVec>
struct Loader {
  static constexpr int kVecs = kTile * kStep / (8 * kThreads);  // vectors per thread per slice
  static_assert(kVecs >= 1 && kVecs * 8 * kThreads == kTile * kStep,
                "the threads move the slice in whole 8-element vectors");
  const uint16_t* src[kVecs];  // each vector's first element in the next slice
  int X[kVecs], K[kVecs];      // its global coordinates
  int64_t advance;             // pointer step per slice
  // The vector in flight, packed only at commit: packing at the load would make the thread wait
  // for its loads before it multiplies the previous stage (30 % of the stall samples at
  // n = 4097, session 10). kVec, or shifted[q] false: element e in the (e % 2) half of word
  // w[q][e / 2]. shifted[q]: the vector starts 2 bytes into a 4-byte word (an odd leading
  // dimension gives every other row such a start), and w[q][0..4] are the five aligned words
  // that cover elements -1 … 8, so that 5 4-byte loads replace 8 2-byte ones.
  uint32_t w[kVecs][kVec ? 4 : 5];
  bool shifted[kVecs];

  __device__ Loader(int tid, const uint16_t* p, int64_t ld, int x0, int k0)
      : advance(kContigX ? kStep * ld : kStep) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int idx = tid + q * kThreads;
      const int xs = kContigX ? (idx % (kTile / 8)) * 8 : idx / (kStep / 8);
      const int ks = kContigX ? idx / (kTile / 8) : (idx % (kStep / 8)) * 8;
      X[q] = x0 + xs;
      K[q] = k0 + ks;
      src[q] = kContigX ? p + int64_t(K[q]) * ld + X[q] : p + int64_t(X[q]) * ld + K[q];
    }
  }

  // Issues the current slice's loads; elements past n become 0. Nothing here uses the values,
  // so the loads stay in flight while the previous stage is multiplied.
  __device__ void load(int n) {
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      const int c = kContigX ? X[q] : K[q], o = kContigX ? K[q] : X[q];  // contiguous / strided
      if constexpr (kVec) {
        if (o < n && c + 7 < n) {
          const uint4 t = __ldg(reinterpret_cast<const uint4*>(src[q]));
          w[q][0] = t.x, w[q][1] = t.y, w[q][2] = t.z, w[q][3] = t.w;
        } else {
          load_edge(q, c, o, n);
        }
      } else {
        const bool odd = reinterpret_cast<uintptr_t>(src[q]) & 2;
        // Interior: every word lies inside the row (element -1 exists where the vector starts
        // a row: the previous row's padding or last element).
        const bool interior = o < n && (odd ? c + 8 < n && (c > 0 || o > 0) : c + 7 < n);
        shifted[q] = odd && interior;
        if (interior) {
          const uint32_t* base = reinterpret_cast<const uint32_t*>(src[q] - (odd ? 1 : 0));
#pragma unroll
          for (int i = 0; i < 4; ++i) w[q][i] = __ldg(base + i);
          w[q][4] = odd ? __ldg(base + 4) : 0u;
        } else {
          load_edge(q, c, o, n);
        }
      }
    }
  }

  // A vector that reaches past n (or lies past it: o >= n), element by element, packed at once:
  // these wait for their loads (deferring them too, with 8 registers a vector, measured +18 % at
  // n = 4097, session 10).
  __device__ void load_edge(int q, int c, int o, int n) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const uint32_t lo = o < n && c + 2 * i < n ? __ldg(src[q] + 2 * i) : 0u;
      const uint32_t hi = o < n && c + 2 * i + 1 < n ? __ldg(src[q] + 2 * i + 1) : 0u;
      w[q][i] = lo | hi << 16;
    }
  }

  // Masks the triangle (+0 for every element outside it), stores the slice as (x, k) into s,
  // whose slice starts at global (x0, k0), and moves on to the next slice. Only slices that
  // reach across the diagonal (the first k block of A', the last of B') need the mask.
  __device__ void commit(Stage<kContigX>& s, int x0, int k0) {
    const bool crosses = kKAtLeastX ? k0 < x0 + kTile - 1 : k0 + kStep - 1 > x0;
#pragma unroll
    for (int q = 0; q < kVecs; ++q) {
      uint32_t v[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        if constexpr (kVec)
          v[i] = w[q][i];
        else  // shifted: the high half of word i and the low half of word i + 1
          v[i] = shifted[q] ? __funnelshift_r(w[q][i], w[q][i + 1], 16) : w[q][i];
      }
      if (crosses) {
#pragma unroll
        for (int e = 0; e < 8; ++e) {
          const int xe = X[q] + (kContigX ? e : 0), ke = K[q] + (kContigX ? 0 : e);
          const bool keep = kKAtLeastX ? ke >= xe : ke <= xe;
          if (!keep) v[e / 2] &= e % 2 ? 0x0000FFFFu : 0xFFFF0000u;
        }
      }
      *reinterpret_cast<uint4*>(s.at(X[q] - x0, K[q] - k0)) = make_uint4(v[0], v[1], v[2], v[3]);
      src[q] += advance;
      K[q] += kStep;
    }
  }
};

// --- multiply ---------------------------------------------------------------------------------
template <bool kBf16>
__device__ __forceinline__ void mma16(float (&d)[4], const uint32_t (&a)[4],
                                      const uint32_t (&b)[2]) {
  if constexpr (kBf16)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8×8 matrices of a stage into fragment registers: lane l gives the address of row l % 8
// of matrix l / 8, whose first element is (x, k) here; thread (g, t) receives elements
// (x + g, k + 2t) and (x + g, k + 2t + 1) of each, in register l / 8. A row runs along k in a
// k-contiguous stage (plain ldmatrix) and along x in an x-contiguous one (.trans).
template <bool kContigX>
__device__ __forceinline__ void load_matrices(uint32_t (&r)[4], const Stage<kContigX>& s, int x,
                                              int k, int row) {
  const uint32_t a = static_cast<uint32_t>(
      __cvta_generic_to_shared(s.at(x + (kContigX ? 0 : row), k + (kContigX ? row : 0))));
  if constexpr (kContigX)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
}

// acc += A'·B' over one stage. Per the PTX fragment layout of m16n8k16, lane (g, t) holds A rows
// g and g + 8 at k = 2t, 2t + 1 and 2t + 8, 2t + 9 (matrices: rows +0/+8 × k +0/+8), B column g
// at the same k (two n8 tiles a load: columns +0/+8 × k +0/+8), accumulators at rows g, g + 8
// and columns 2t, 2t + 1. Six ldmatrix.x4 per k16 for the warp's 16 mmas.
template <bool kBf16, bool kTrans>
__device__ __forceinline__ void multiply_stage(const Stage<kTrans>& As, const Stage<!kTrans>& Bs,
                                               int wm, int wn, int lane,
                                               float (&acc)[kMi][kNi][4]) {
  static_assert(kNi % 2 == 0, "B's n8 tiles two at a time");
  const int mat = lane / 8, row = lane % 8;
#pragma unroll
  for (int kk = 0; kk < kStep; kk += 16) {
    uint32_t b[kNi][2];
#pragma unroll
    for (int j = 0; j < kNi; j += 2) {
      uint32_t r[4];
      load_matrices(r, Bs, wn + 8 * j + 8 * (mat / 2), kk + 8 * (mat % 2), row);
      b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
    }
#pragma unroll
    for (int i = 0; i < kMi; ++i) {
      uint32_t a[4];
      load_matrices(a, As, wm + 16 * i + 8 * (mat % 2), kk + 8 * (mat / 2), row);
#pragma unroll
      for (int j = 0; j < kNi; ++j) mma16<kBf16>(acc[i][j], a, b[j]);
    }
  }
}

// --- epilogue ---------------------------------------------------------------------------------
// Stores the warp's accumulators, rounded to nearest even, to C'(row0 + r, col0 + c): C'(r, c) is
// C[r·ldc + c] for the Upper product, C[c·ldc + r] for the Lower one (kColwise, C' = Cᵀ). diag:
// the tile straddles the diagonal, so r > c is written as zero (its sum could be 0·Inf).
template <bool kColwise, typename E>
__device__ void store_tile(E* C, int64_t ldc, int64_t n, bool diag, int64_t row0, int64_t col0,
                           int wm, int wn, int g, int t, const float (&acc)[kMi][kNi][4]) {
#pragma unroll
  for (int i = 0; i < kMi; ++i)
#pragma unroll
    for (int j = 0; j < kNi; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t r = row0 + wm + 16 * i + g + 8 * h, c = col0 + wn + 8 * j + 2 * t;
        if (r >= n || c >= n) continue;
        const E v0 = narrow<E>(diag && r > c ? 0.f : acc[i][j][2 * h]);
        const E v1 = narrow<E>(diag && r > c + 1 ? 0.f : acc[i][j][2 * h + 1]);
        if (kColwise) {
          C[c * ldc + r] = v0;
          if (c + 1 < n) C[(c + 1) * ldc + r] = v1;
        } else {
          E* out = C + r * ldc + c;
          if (c + 1 < n && reinterpret_cast<uintptr_t>(out) % 4 == 0) {
            *reinterpret_cast<uint32_t*>(out) =
                uint32_t(*reinterpret_cast<const uint16_t*>(&v0)) |
                uint32_t(*reinterpret_cast<const uint16_t*>(&v1)) << 16;
          } else {
            out[0] = v0;
            if (c + 1 < n) out[1] = v1;
          }
        }
      }
}

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (see simt_fp32). kVec: every
// row start of A, B and C is 16-byte aligned.
template <bool kTrans, bool kVec, typename S>
__global__ void __launch_bounds__(kThreads, Cfg.min_blocks)
    sm80_16bit_trtrmm_kernel(Problem16<S> p, sched::TriangleSchedule s, int64_t batch_offset,
                             const __grid_constant__ sched::DispatchOrder order) {
  using E = Elem16<S>;
  __shared__ SharedStorage<kTrans> smem;
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  E* C = reinterpret_cast<E*>(p.C + b * p.stride_c);
  const sched::WorkUnit u = s.unit(order.at(blockIdx.x));

  const mma::UnitOperands<kTrans, S> op(p, b);
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;
  const int n = int(p.n), k_begin = int(u.k_begin), m0 = int(row0), j0 = int(col0);
  // A'(m, k): row-major A is k-contiguous; its transpose (Bᵀ) is m-contiguous. B' the other way.
  Loader<kTrans, true, kVec> la(tid, reinterpret_cast<const uint16_t*>(op.a), op.lda, m0,
                                k_begin);
  Loader<!kTrans, false, kVec> lb(tid, reinterpret_cast<const uint16_t*>(op.b), op.ldb, j0,
                                  k_begin);

  const mma::WarpCoords w(tid, Cfg.warps_n, Cfg.warp_m(), Cfg.warp_n());
  float acc[kMi][kNi][4];
  mma::zero(acc);

  const int steps = int((u.k_end - u.k_begin + kStep - 1) / kStep);
  la.load(n);
  lb.load(n);
  // The mirror tile, in C's other triangle, is this block's to zero: the stores go out while the
  // first stage's loads are in flight.
  if (sched::TriangleSchedule::zeroes_mirror(u))
    zero_mirror<kVec, uint16_t>(reinterpret_cast<uint16_t*>(C), p.ldc, p.n, u.bi, u.bj, kTrans,
                                kTile, tid, kThreads);
  la.commit(smem.a[0], m0, k_begin);
  lb.commit(smem.b[0], j0, k_begin);
  __syncthreads();
  for (int it = 0; it < steps; ++it) {
    const int cur = it & 1;
    const bool more = it + 1 < steps;
    const int k_next = k_begin + (it + 1) * kStep;
    if (more) {
      la.load(n);
      lb.load(n);
    }
    multiply_stage<std::is_same_v<S, bfloat16_t>, kTrans>(smem.a[cur], smem.b[cur], w.wm, w.wn,
                                                          tid % 32, acc);
    if (more) {
      la.commit(smem.a[cur ^ 1], m0, k_next);
      lb.commit(smem.b[cur ^ 1], j0, k_next);
    }
    __syncthreads();
  }

  store_tile<kTrans>(C, p.ldc, p.n, u.bi == u.bj, row0, col0, w.wm, w.wn, w.g, w.t, acc);
}

// A unit's time in stages, plus one for its epilogue, for the balanced dispatch order (a guess:
// not measured against longest first for this kernel).
double unit_cost(const sched::WorkUnit& u) {
  return double((u.k_end - u.k_begin + kStep - 1) / kStep) + 1.0;
}

template <bool kTrans, bool kVec, typename S>
void launch(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr auto kernel = sm80_16bit_trtrmm_kernel<kTrans, kVec, S>;
  const int64_t slots = int64_t(dev.sms) * blocks_per_sm<kernel>(dev.ordinal, kThreads, 0);
  // Never split (see the top of this file).
  launch_unsplit(p.n, p.batch, kTile, kStep, slots, unit_cost, /*persistent=*/false,
                 [&](dim3 grid, const sched::TriangleSchedule& s, int64_t b0,
                     const sched::DispatchOrder& order) {
                   kernel<<<grid, kThreads, 0, stream>>>(p, s, b0, order);
                 });
}

template <typename S>
void launch_any(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  const bool trans = p.fill == Fill::Lower, vec = rows_16b_aligned(p);
  if (trans)
    vec ? launch<true, true>(p, dev, stream) : launch<true, false>(p, dev, stream);
  else
    vec ? launch<false, true>(p, dev, stream) : launch<false, false>(p, dev, stream);
}

}  // namespace
}  // namespace trimm::kernels::sm80_16bit

namespace trimm::kernels {

void launch_sm80_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  sm80_16bit::launch_any(p, dev, stream);
}

void launch_sm80_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream) {
  sm80_16bit::launch_any(p, dev, stream);
}

}  // namespace trimm::kernels
