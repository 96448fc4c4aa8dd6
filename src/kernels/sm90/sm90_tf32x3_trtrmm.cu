// sm90_tf32x3: C = triu(A·B) at fp32 accuracy on Hopper's warpgroup tensor cores (wgmma,
// sm_90a), by error-compensated TF32 as in sm80_tf32x3. First version, kept simple: the same
// register-staged slice loader feeds shared memory (no TMA, no warp specialization yet); two
// warpgroups each own 64 rows of a 128×128 tile and issue m64n128k8 wgmmas.
//
// tf32 wgmma reads both operands K-major, so the loader's commit writes each operand, already
// split into big and small TF32 planes, as K-major core matrices: that is where B (N-major in
// memory) gets transposed, at no cost in global traffic and with no workspace.
//
// Not yet run on a GPU (see bench/NOTES.md and docs/sm90_tf32x3_plan.md): forced only.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/launch_triangle.cuh"
#include "kernels/common/slice_loader.cuh"
#include "kernels/common/tile_store.cuh"
#include "kernels/launch.hpp"
#include "sched/triangle_scheduler.hpp"

namespace trimm::kernels::sm90 {
namespace {

constexpr int kTile = 128;     // output tile, square for the scheduler's mirror trick
constexpr int kStep = 16;      // k per pipeline stage: two k8 wgmma steps
constexpr int kThreads = 256;  // two warpgroups
constexpr int kWgRows = 64;    // rows of the tile per warpgroup (wgmma M)
static_assert(kThreads / 128 * kWgRows == kTile, "the warpgroups cover the tile's rows");

// One operand's plane for one stage: kTile rows (m or n) × kStep k, K-major, as core matrices of
// 8 rows × 4 k (8 rows of 16 bytes, 128 contiguous bytes). Core matrix (row / 8, k / 4) sits at
// ((row / 8) · kCoresK + k / 4) · 128 bytes: neighbours in k are kLbo bytes apart, neighbours in
// rows kSbo.
struct Plane {
  float v[kTile * kStep];
};
// Both operands, big and small, two stages: 64 KB.
struct SharedStorage {
  Plane a_big[2], a_small[2], b_big[2], b_small[2];
};

// The device helpers exist in the sm_90a pass only: the other targets build the kernel as a trap.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
constexpr int kCoresK = kStep / 4;
constexpr uint32_t kLbo = 128, kSbo = kCoresK * 128;

__device__ __forceinline__ int plane_index(int row, int k) {
  return ((row / 8) * kCoresK + k / 4) * 32 + (row % 8) * 4 + k % 4;
}

__device__ __forceinline__ float tf32_round(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

// The wgmma shared-memory descriptor, no swizzle: start address, leading (k) and stride (row)
// byte offsets, each in 16-byte units.
__device__ __forceinline__ uint64_t descriptor(const float* smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return uint64_t((addr >> 4) & 0x3FFF) | uint64_t((kLbo >> 4) & 0x3FFF) << 16 |
         uint64_t((kSbo >> 4) & 0x3FFF) << 32;
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// Keeps the compiler from moving accesses of r across a wgmma fence or wait.
__device__ __forceinline__ void pin(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// d (this warpgroup's 64×128 accumulators) = a·b + (scale_d ? d : 0) for one k8 step, both
// operands in shared memory, named by their descriptors.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], uint64_t desc_a,
                                                     uint64_t desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]),
        "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
        "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
        "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]),
        "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// Splits a masked 4-vector from the slice loader into the big and small planes. The 4 elements
// run along k (!kContigX: one 16-byte row of a core matrix) or along rows (kContigX).
template <bool kContigX>
__device__ __forceinline__ void store_split(Plane& big, Plane& small, int row, int k,
                                            const float (&v4)[4]) {
  float b[4], s[4];
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    b[e] = tf32_round(v4[e]);
    s[e] = tf32_round(v4[e] - b[e]);
  }
  if constexpr (!kContigX) {
    const int i = plane_index(row, k);  // k is a multiple of 4: a whole 16-byte row
    *reinterpret_cast<float4*>(&big.v[i]) = make_float4(b[0], b[1], b[2], b[3]);
    *reinterpret_cast<float4*>(&small.v[i]) = make_float4(s[0], s[1], s[2], s[3]);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int i = plane_index(row + e, k);
      big.v[i] = b[e];
      small.v[i] = s[e];
    }
  }
}

#endif  // sm_90a

// kTrans: the Lower product, run as the upper product C'ᵀ = Bᵀ·Aᵀ (see simt_fp32).
template <bool kTrans, bool kVec>
__global__ void __launch_bounds__(kThreads, 1)
    sm90_tf32x3_trtrmm_kernel(Problem p, sched::TriangleSchedule s, int64_t batch_offset) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ __align__(128) unsigned char smem_bytes[];
  SharedStorage& smem = *reinterpret_cast<SharedStorage*>(smem_bytes);
  const int tid = threadIdx.x;
  const int64_t b = batch_offset + blockIdx.y;
  float* C = p.C + b * p.stride_c;
  const sched::WorkUnit u = s.unit(blockIdx.x);

  if (u.kind == sched::UnitKind::Zero) {
    const int64_t r0 = int64_t(kTrans ? u.bj : u.bi) * kTile;
    const int64_t c0 = int64_t(kTrans ? u.bi : u.bj) * kTile;
    zero_region<kVec>(C, p.ldc, p.n, r0, c0, kTile, kTile, tid, kThreads);
    return;
  }

  const float* Ap = kTrans ? p.B + b * p.stride_b : p.A + b * p.stride_a;
  const float* Bp = kTrans ? p.A + b * p.stride_a : p.B + b * p.stride_b;
  const int64_t lda = kTrans ? p.ldb : p.lda, ldb = kTrans ? p.lda : p.ldb;
  const int64_t row0 = int64_t(u.bi) * kTile, col0 = int64_t(u.bj) * kTile;
  const int n = int(p.n), k_begin = int(u.k_begin), m0 = int(row0), j0 = int(col0);
  // The loaders' Stage type is unused here (commit_to writes the planes); padding 0.
  SliceLoader<kStep, kTile, 0, kThreads, kTrans, true, kVec> la(tid, Ap, lda, m0, k_begin);
  SliceLoader<kStep, kTile, 0, kThreads, !kTrans, false, kVec> lb(tid, Bp, ldb, j0, k_begin);
  auto commit = [&](int buf, int k0) {
    la.commit_to(m0, k0, [&](int, int x, int k, const float (&v4)[4]) {
      store_split<kTrans>(smem.a_big[buf], smem.a_small[buf], x, k, v4);
    });
    lb.commit_to(j0, k0, [&](int, int x, int k, const float (&v4)[4]) {
      store_split<!kTrans>(smem.b_big[buf], smem.b_small[buf], x, k, v4);
    });
    // The planes were written by ordinary stores and are read next by wgmma (the async proxy).
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  };

  const int wg = tid / 128;
  float acc[64], part[64];
#pragma unroll
  for (int r = 0; r < 64; ++r) acc[r] = part[r] = 0.f;

  const int steps = int((u.k_end - u.k_begin + kStep - 1) / kStep);
  la.load(n, m0, k_begin);
  lb.load(n, j0, k_begin);
  commit(0, k_begin);
  __syncthreads();
  for (int it = 0; it < steps; ++it) {
    const int cur = it & 1;
    const bool more = it + 1 < steps;
    const int k_next = k_begin + (it + 1) * kStep;
    if (more) {
      la.load(n, m0, k_next);
      lb.load(n, j0, k_next);
    }
    // Three products per k8 step, small ones first, into fresh accumulators (the first wgmma
    // of the stage overwrites them): the tensor cores' fp32 accumulation must never add the
    // small products to a large running sum (bench/NOTES.md, sm80_tf32x3).
#pragma unroll
    for (int r = 0; r < 64; ++r) pin(part[r]);
    wgmma_fence();
#pragma unroll
    for (int k8 = 0; k8 < kStep / 8; ++k8) {
      const int a_off = (wg * kWgRows / 8 * kCoresK + 2 * k8) * 32, b_off = 2 * k8 * 32;
      const uint64_t a_big = descriptor(&smem.a_big[cur].v[a_off]);
      const uint64_t a_small = descriptor(&smem.a_small[cur].v[a_off]);
      const uint64_t b_big = descriptor(&smem.b_big[cur].v[b_off]);
      const uint64_t b_small = descriptor(&smem.b_small[cur].v[b_off]);
      wgmma_m64n128k8_tf32(part, a_small, b_big, k8 > 0);
      wgmma_m64n128k8_tf32(part, a_big, b_small, 1);
      wgmma_m64n128k8_tf32(part, a_big, b_big, 1);
    }
    wgmma_commit();
    if (more) commit(cur ^ 1, k_next);  // the other buffer, while the wgmmas run
    wgmma_wait_all();
#pragma unroll
    for (int r = 0; r < 64; ++r) {
      pin(part[r]);
      acc[r] += part[r];
    }
    __syncthreads();
  }

  // Accumulator r of thread (warp w of the warpgroup, lane = 4g + t) holds row 16w + g + 8·(r/2 % 2)
  // and column 8·(r/4) + 2t + r % 2 of the warpgroup's 64×128 block.
  const int w = (tid % 128) / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const OutView o{C, p.ldc, p.n};
  const bool diag = u.bi == u.bj;
  // A chunk-1 partial goes to the mirror tile, transposed: C'(c, r) instead of C'(r, c).
  const bool colwise = kTrans != (u.kind == sched::UnitKind::Chunk1);
#pragma unroll
  for (int r = 0; r < 64; ++r) {
    const int64_t row = row0 + wg * kWgRows + 16 * w + g + 8 * ((r / 2) % 2);
    const int64_t col = col0 + 8 * (r / 4) + 2 * t + r % 2;
    if (row >= o.n || col >= o.n) continue;
    const float v = diag && row > col ? 0.f : acc[r];
    o.C[colwise ? col * o.ldc + row : row * o.ldc + col] = v;
  }
#else
  __trap();  // built for sm_90a only; dispatch never launches it elsewhere
#endif
}

}  // namespace
}  // namespace trimm::kernels::sm90

namespace trimm::kernels {

namespace {

struct Sm90Family {
  static constexpr int kTile = sm90::kTile, kThreads = sm90::kThreads, kStep = sm90::kStep;
  static constexpr int kSmem = sizeof(sm90::SharedStorage);
  template <bool kTrans, bool kVec>
  static constexpr auto tag() {
    return std::integral_constant<TriangleKernel, sm90::sm90_tf32x3_trtrmm_kernel<kTrans, kVec>>{};
  }
};

}  // namespace

void launch_sm90_tf32x3(const Problem& p, const DeviceInfo& dev, Stream stream) {
  launch_family<Sm90Family>(p, dev, stream);
}

}  // namespace trimm::kernels
