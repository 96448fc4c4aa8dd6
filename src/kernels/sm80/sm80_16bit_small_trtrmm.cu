// sm80_16bit_small: C = triu(A·B) (or tril) for 16-bit data at small n, on mma.sync m16n8k16
// with fp32 sums (any GPU from sm_80); C rounded to the type once, at the store.
//
// At n up to a few hundred the 128×128-tile kernels run a handful of blocks, each a chain of
// k slices (sm80_16bit shares a band over a cluster and then spends ~4 µs meeting the ranks'
// sums in distributed shared memory: bench/NOTES.md, session 13). Here every 32×32 tile of C's
// triangle is a block of its own (sched::small_tile_of: longest bands first) that loads its whole
// band at once, up to Cfg.band k (one round trip to memory for 16-byte rows, one per 256 k for
// others), multiplies it, and zeroes its mirror tile in C's other triangle. Longer bands (n >
// Cfg.band) go in turns of Cfg.band k: correct at every n, meant for small ones. Path::Dense
// (16-bit Structure::Detect on small work): every tile's band is all of k, nothing masked.
//
// Loads: rows whose starts are all 16-byte aligned by cp.async, 8 elements a copy; rows of any
// alignment element by element through registers, a batch of vectors in flight per thread.
// Elements past n arrive as zeros; the triangle's other side (NaN included) is overwritten with
// zeros in shared memory before anything is multiplied (but for Path::Dense). Operands stay as they
// lie in memory: A (m, k) k-contiguous, B (k, n) n-contiguous (ldmatrix .trans for B's fragments),
// so one code path serves both fills.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

#include "config/tile_config.hpp"
#include "cuda/check.hpp"
#include "kernels/common/elem16.cuh"
#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/scan_rows.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "kernels/sm80/cp_async.cuh"
#include "kernels/sm80/mma16.cuh"
#include "sched/small_tiles.hpp"

namespace trimm::kernels::sm80_16bit_small {
namespace {

constexpr config::SmallMmaTile Cfg = config::kSm80_16bitSmall;
constexpr int kT = Cfg.tile, kBand = Cfg.band, kThreads = Cfg.threads;
constexpr int kQuarters = 4;  // 16×16 quarters of the tile, one m16 × two n8 mma tiles each
static_assert(kT == 32 && kThreads == 32 * 2 * kQuarters,
              "8 warps: each quarter of the 32×32 tile summed by two warps over halves of k");
// Turns of whole 32-k tiles: a diagonal block never straddles two turns, and a turn's k16 steps
// (an even number) split into two equal halves.
static_assert(kBand % kT == 0 && kT % 32 == 0, "turns of whole tiles, an even number of k16 steps");
constexpr int kBatch = 8;  // vectors a thread has in flight when loading element by element

// Shared memory, in 16-bit elements, for turns of `band` k (the launch's: a multiple of kT, at
// most kBand): A's turn (m kT, k band) with rows band + 8 long, then B's (k band, n kT) with rows
// kT + 8 long. The 8-element pad puts the 8 rows an ldmatrix reads in distinct groups of 4 banks
// (a row pitch of an odd multiple of 16 bytes: band / 8 + 1 with band a multiple of 16). Before
// them, the second half-band's fp32 sums on their way to the first: 8 a lane, lanes adjacent.
constexpr int kBPitch = kT + 8;
static_assert(kT % 16 == 0 && (kBPitch / 8) % 2 == 1,
              "row pitches of an odd number of 16-byte chunks");
constexpr int kPartialBytes = kQuarters * 8 * 32 * int(sizeof(float));
__host__ __device__ constexpr int a_pitch(int band) { return band + 8; }
constexpr int smem_bytes(int band) {
  return kPartialBytes + 2 * (kT * a_pitch(band) + band * kBPitch);
}
constexpr int kMaxSmem = smem_bytes(kBand);
static_assert(kMaxSmem <= 99 * 1024, "fits the opt-in shared memory of every sm_80+ GPU");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// One operand's part of a turn: rows [0, rows) × columns [0, cols) (cols a multiple of 8) of
// the matrix whose element (r, c) is src[(r0 + r)·ld + c0 + c], into shared memory at dst with
// row pitch `pitch`.
struct Block {
  uint16_t* dst;
  int pitch;
  const uint16_t* src;
  int64_t ld;
  int r0, c0, rows, cols;
};

// Vector v (of 8 elements) of a turn, A's first (va of them), then B's: its element (gr, gc)
// of the matrix, where it comes from and where it goes.
struct TurnVector {
  const uint16_t* src;
  uint16_t* dst;
  int gr, gc;
};

__device__ TurnVector turn_vector(const Block& a, const Block& b, int va, int v) {
  const Block& o = v < va ? a : b;
  const int w = v < va ? v : v - va;
  const int per_row = o.cols / 8, r = w / per_row, c = (w % per_row) * 8;
  const int gr = o.r0 + r, gc = o.c0 + c;
  return {o.src + int64_t(gr) * o.ld + gc, o.dst + r * o.pitch + c, gr, gc};
}

// Both operands' parts of a turn, in vectors of 8 elements; elements at row or column >= n as
// zeros, never read. kVec: every row start 16-byte aligned (and c0 a multiple of 8): cp.async,
// in this thread's group, in one pass (it needs no registers: 46-47 a thread instead of the
// batches' 115-117, aligned n = 512 9.3 → 8.7 µs, session 15). Otherwise element by element
// through registers, kBatch vectors a thread at a time, A's and B's in the same batches (one
// round trip for both at 256 k).
template <bool kVec>
__device__ void load_turn(const Block& a, const Block& b, int n, int tid) {
  const int va = a.rows * (a.cols / 8), vecs = va + b.rows * (b.cols / 8);
  if constexpr (kVec) {
    for (int v = tid; v < vecs; v += kThreads) {
      const TurnVector t = turn_vector(a, b, va, v);
      if (t.gr < n && t.gc + 7 < n) {
        cp_async::copy16(t.dst, t.src, 16);
        continue;
      }
      uint32_t e[4];  // a vector reaching past n: element by element
      mma::load_vector_by_elements(e, t.src, t.gc, t.gr, n);
      *reinterpret_cast<uint4*>(t.dst) = make_uint4(e[0], e[1], e[2], e[3]);
    }
  } else {
    for (int base = 0; base < vecs; base += kThreads * kBatch) {
      uint32_t w[kBatch][4];
      uint16_t* at[kBatch];  // where the vector goes, or null (none)
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        at[u] = nullptr;
        const int v = base + u * kThreads + tid;
        if (v >= vecs) continue;
        const TurnVector t = turn_vector(a, b, va, v);
        mma::load_vector_by_elements(w[u], t.src, t.gc, t.gr, n);
        at[u] = t.dst;
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u)
        if (at[u] != nullptr)
          *reinterpret_cast<uint4*>(at[u]) = make_uint4(w[u][0], w[u][1], w[u][2], w[u][3]);
    }
  }
}

// Zeros over the part of a turn that lies across the diagonal: A (m, k) for k on the other
// side of m, B (k, n) for k on the other side of n. The diagonal kT×kT block of A is at columns
// m0 - k_lo, B's at rows n0 - k_lo of the turn starting at k_lo, if the turn holds them.
__device__ void mask_turn(uint16_t* As, int ap, uint16_t* Bs, bool upper, int m0, int n0,
                          int k_lo, int band, int tid) {
  for (int e = tid; e < kT * kT; e += kThreads) {
    const int i = e / kT, j = e % kT;  // i: A's row or B's column in the tile; j: k in the block
    const int ca = m0 - k_lo + j, rb = n0 - k_lo + j;
    if (ca >= 0 && ca < band && (upper ? j < i : j > i)) As[i * ap + ca] = 0;
    if (rb >= 0 && rb < band && (upper ? j > i : j < i)) Bs[rb * kBPitch + i] = 0;
  }
}

// acc (the warp's 16×16 quarter at rows wm, columns wn: two n8 tiles) += A·B over k16 steps
// [s0, s1) of the turn in shared memory. Lane l addresses row l % 8 of matrix l / 8: A's
// matrices are rows +0/+8 × k +0/+8, B's k +0/+8 × columns +0/+8 (as in sm80_16bit).
template <bool kBf16>
__device__ void multiply(const uint16_t* As, int ap, const uint16_t* Bs, int wm, int wn, int s0,
                         int s1, int lane, float (&acc)[2][4]) {
  const int mat = lane / 8, row = lane % 8;
  const uint32_t a_addr =
      shared_address(As + (wm + row + 8 * (mat % 2)) * ap + 8 * (mat / 2));
  const uint32_t b_addr =
      shared_address(Bs + (row + 8 * (mat % 2)) * kBPitch + wn + 8 * (mat / 2));
  // Unrolled so that the next steps' ldmatrix are in flight while this step's mmas wait.
#pragma unroll 4
  for (int s = s0; s < s1; ++s) {
    uint32_t a[4], b[4];
    mma::ldmatrix_x4<false>(a, a_addr + uint32_t(s * 16 * 2));
    mma::ldmatrix_x4<true>(b, b_addr + uint32_t(s * 16 * kBPitch * 2));
    const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
    mma::mma16<kBf16>(acc[0], a, b0);
    mma::mma16<kBf16>(acc[1], a, b1);
  }
}

#endif  // __CUDA_ARCH__ >= 800

// Block x: tile sched::small_tile_of(x) of batch entry batch_offset + blockIdx.y. band: the k a
// turn holds (the smaller of the longest band and kBand), which sized shared memory.
template <typename S, bool kVec>
__global__ void __launch_bounds__(kThreads)
    sm80_16bit_small_kernel(Problem16<S> p, int64_t batch_offset, int band) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using E = Elem16<S>;
  constexpr bool kBf16 = std::is_same_v<S, bfloat16_t>;
  allow_dependent_launch();  // 16-bit Structure::Detect's next launch (gated, usually off)
  // Structure::Detect: with the call's epoch (the host API's only way) this launch always runs and
  // flags A and B beside its product (scan::share_flags); with a zeroed word (epoch 0, as
  // GpuDetect16Gate presets one) it is gated like the other structured launches.
  if (p.epoch == 0 && gated_off(p.gate, Path::Structured)) return;
  extern __shared__ __align__(16) unsigned char smem[];
  float* partial = reinterpret_cast<float*>(smem);  // (quarter 4, value 8, lane 32)
  uint16_t* As = reinterpret_cast<uint16_t*>(smem + kPartialBytes);  // (m kT, k band)
  const int ap = a_pitch(band);
  uint16_t* Bs = As + kT * ap;  // (k band, n kT)

  const bool upper = p.fill == Fill::Upper;
  const int n = int(p.n), t = (n + kT - 1) / kT, tid = threadIdx.x;
  int I, J;
  sched::small_tile_of(blockIdx.x, t, upper, &I, &J);
  const int64_t b = batch_offset + blockIdx.y;
  const auto* A = reinterpret_cast<const uint16_t*>(p.A + b * p.stride_a);
  const auto* B = reinterpret_cast<const uint16_t*>(p.B + b * p.stride_b);
  E* C = reinterpret_cast<E*>(p.C + b * p.stride_c);
  const int m0 = I * kT, n0 = J * kT;
  // Path::Dense (16-bit Structure::Detect on small work, ungated: dispatch never passes it a
  // gate): every k of the operands as they are, nothing masked but C's other triangle. The
  // launch's turn (turn_of) holds it too; past one turn (n > kBand) it is slow (bench/RESULTS.md,
  // session 47, call 6), so dispatch does not take it there.
  const bool dense = p.path == Path::Dense;
  const int k_begin = dense ? 0 : std::min(I, J) * kT;
  const int k_end = dense ? n : std::min(n, (std::max(I, J) + 1) * kT);

  // The mirror tile (J, I), in C's other triangle, is this block's to zero (stores the loads
  // below do not wait for).
  if (I != J)
    zero_region<false, uint16_t>(reinterpret_cast<uint16_t*>(C), p.ldc, p.n, n0, m0, kT, kT, tid,
                                 kThreads);

  // Structure::Detect beside the product: the block's share of A and B (here, not beside the
  // first turn's copies: there its registers spilled).
  if (p.gate != nullptr && p.epoch != 0)
    scan::share_flags(p, reinterpret_cast<const S*>(A), reinterpret_cast<const S*>(B), b);

  const int warp = tid / 32, lane = tid % 32, quarter = warp % kQuarters, half = warp / kQuarters;
  const int wm = 16 * (quarter / 2), wn = 16 * (quarter % 2);
  float acc[2][4] = {};
  for (int k_lo = k_begin; k_lo < k_end; k_lo += band) {
    const int k_turn = std::min(band, (k_end - k_lo + kT - 1) / kT * kT);  // whole tiles
    if (k_lo > k_begin) __syncthreads();  // the previous turn has been multiplied
    load_turn<kVec>({As, ap, A, p.lda, m0, k_lo, kT, k_turn},
                    {Bs, kBPitch, B, p.ldb, k_lo, n0, k_turn, kT}, n, tid);
    cp_async::commit();
    cp_async::wait<0>();
    __syncthreads();
    if (!dense) {
      mask_turn(As, ap, Bs, upper, m0, n0, k_lo, k_turn, tid);
      __syncthreads();
    }
    const int steps = k_turn / 16;  // even: k_turn is whole tiles of 32
    multiply<kBf16>(As, ap, Bs, wm, wn, half * steps / 2, (half + 1) * steps / 2, lane, acc);
  }

  // The second half's sums meet the first's, which stores the quarter.
  float* mine = partial + quarter * 8 * 32 + lane;  // (quarter 4, value 8, lane 32)
  if (half == 1)
#pragma unroll
    for (int e = 0; e < 8; ++e) mine[32 * e] = acc[e / 4][e % 4];
  __syncthreads();
  if (half == 1) return;
#pragma unroll
  for (int e = 0; e < 8; ++e) acc[e / 4][e % 4] += mine[32 * e];

  // Lane (g, t) holds rows g, g + 8 and columns 2t, 2t + 1 of each n8 tile. The diagonal tile's
  // other side is written as zero (its sum could be 0·Inf).
  const int g = lane / 4, tq = lane % 4;
  const bool diag = I == J;
#pragma unroll
  for (int j = 0; j < 2; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int64_t r = m0 + wm + g + 8 * h, c = n0 + wn + 8 * j + 2 * tq;
      if (r >= p.n || c >= p.n) continue;
      auto out = [&](float v, int64_t col) {
        return narrow<E>(diag && (upper ? r > col : r < col) ? 0.f : v);
      };
      const E v0 = out(acc[j][2 * h], c), v1 = out(acc[j][2 * h + 1], c + 1);
      E* dst = C + r * p.ldc + c;
      if (c + 1 < p.n && reinterpret_cast<uintptr_t>(dst) % 4 == 0) {
        *reinterpret_cast<uint32_t*>(dst) = uint32_t(*reinterpret_cast<const uint16_t*>(&v0)) |
                                            uint32_t(*reinterpret_cast<const uint16_t*>(&v1)) << 16;
      } else {
        dst[0] = v0;
        if (c + 1 < p.n) dst[1] = v1;
      }
    }
#else
  __trap();  // dispatch never launches it below sm_80
#endif
}

// The launch's turn for order n: the whole band up to kBand k, in whole tiles.
int turn_of(int64_t n) { return int(std::min<int64_t>(kBand, (n + kT - 1) / kT * kT)); }

template <typename S, bool kVec>
void launch(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr auto kernel = sm80_16bit_small_kernel<S, kVec>;
  // Opted in once per device to the most a turn takes; each launch asks for what it needs.
  blocks_per_sm<kernel>(dev.ordinal, kThreads, kMaxSmem);
  const int64_t t = (p.n + kT - 1) / kT, tiles = sched::small_tiles(t);
  if (tiles > INT32_MAX)  // (then n < 2^21: the kernel's int coordinates hold)
    throw InvalidArgument("kernel = 'sm80_16bit_small': n = " + std::to_string(p.n) +
                          " has more tiles than one grid holds");
  const int band = turn_of(p.n);
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t b0 = 0; b0 < p.batch; b0 += kMaxGridY) {
    const dim3 grid(unsigned(tiles), unsigned(std::min(kMaxGridY, p.batch - b0)));
    kernel<<<grid, kThreads, smem_bytes(band), stream>>>(p, b0, band);
    TRIMM_CUDA_CHECK(cudaGetLastError());
  }
}

template <typename S, bool kVec>
int blocks_per_sm_at(const Problem16<S>& p, const DeviceInfo& dev) {
  constexpr auto kernel = sm80_16bit_small_kernel<S, kVec>;
  blocks_per_sm<kernel>(dev.ordinal, kThreads, kMaxSmem);  // opts it in, as launch does
  const int band = std::max(kT, turn_of(p.n));  // (n = 0 launches nothing: any turn)
  static std::atomic<int> cache[kMaxDevices][kBand / kT + 1] = {};  // by turn length / kT
  return cached(cache[dev.ordinal][band / kT], [&] {
    int v = 0;
    TRIMM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, kThreads, smem_bytes(band)));
    return v;
  });
}

// Vectors for A and B where their row starts are all 16-byte aligned (C is stored in pairs
// whatever its alignment).
template <typename S>
bool vectors(const Problem16<S>& p) {
  return rows_16b_aligned(p.A, p.lda, p.stride_a, p.batch) &&
         rows_16b_aligned(p.B, p.ldb, p.stride_b, p.batch);
}

template <typename S>
void launch_any(const Problem16<S>& p, const DeviceInfo& dev, cudaStream_t stream) {
  vectors(p) ? launch<S, true>(p, dev, stream) : launch<S, false>(p, dev, stream);
}

template <typename S>
int blocks_per_sm_any(const Problem16<S>& p, const DeviceInfo& dev) {
  return vectors(p) ? blocks_per_sm_at<S, true>(p, dev) : blocks_per_sm_at<S, false>(p, dev);
}

}  // namespace
}  // namespace trimm::kernels::sm80_16bit_small

namespace trimm::kernels {

void launch_sm80_16bit_small(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  sm80_16bit_small::launch_any(p, dev, stream);
}

void launch_sm80_16bit_small(const Problem16<bfloat16_t>& p, const DeviceInfo& dev,
                             Stream stream) {
  sm80_16bit_small::launch_any(p, dev, stream);
}

int sm80_16bit_small_blocks_per_sm(const Problem16<half_t>& p, const DeviceInfo& dev) {
  return sm80_16bit_small::blocks_per_sm_any(p, dev);
}

int sm80_16bit_small_blocks_per_sm(const Problem16<bfloat16_t>& p, const DeviceInfo& dev) {
  return sm80_16bit_small::blocks_per_sm_any(p, dev);
}

}  // namespace trimm::kernels
