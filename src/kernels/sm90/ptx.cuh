// The Hopper (sm_90a) instructions the sm90 kernels use, one thin wrapper each: mbarriers, TMA
// tensor loads, wgmma and its shared-memory descriptor, the async-proxy fence, setmaxnreg and the
// cluster's barrier and shared-memory stores.
// Device code for the sm_90a pass only (callers guard with TRIMM_SM90_DEVICE).
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/shared_address.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TRIMM_SM90_DEVICE 1
#else
#define TRIMM_SM90_DEVICE 0
#endif

#if TRIMM_SM90_DEVICE
namespace trimm::kernels::sm90::ptx {

// --- mbarrier --------------------------------------------------------------------------------
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count)
               : "memory");
}
// Makes the initialized barriers visible to the async proxy (TMA) and the other threads.
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
}
// Arrives and announces `bytes` of TMA traffic that will complete on this barrier.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ bool mbar_try_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
}
// Waits until the barrier's phase with this parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  while (!mbar_try_wait(bar, parity)) {
  }
}

// --- TMA -------------------------------------------------------------------------------------
// One box of a rank-3 tensor map into shared memory; completion counted on `bar` in bytes.
// Coordinates innermost first; out-of-range elements arrive as zeros.
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, uint64_t* bar,
                                            int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(bar))
      : "memory");
}
// tma_load_3d into the same offset of every block of the cluster in cta_mask (bit r: rank r),
// completing on the barrier at `bar`'s offset in each.
__device__ __forceinline__ void tma_load_3d_multicast(void* dst, const CUtensorMap* map,
                                                      uint64_t* bar, int c0, int c1, int c2,
                                                      uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(bar)),
      "h"(cta_mask)
      : "memory");
}
// One box of shared memory into a rank-3 tensor (out-of-range elements are not written), as a
// bulk async group of this thread: commit, then wait for the reads (the buffer is free) or for
// completion (the writes are done).
__device__ __forceinline__ void tma_store_3d(const CUtensorMap* map, const void* src, int c0,
                                             int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];\n" ::"l"(
          reinterpret_cast<uint64_t>(map)),
      "r"(c0), "r"(c1), "r"(c2), "r"(shared_address(src))
      : "memory");
}
__device__ __forceinline__ void bulk_commit() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void bulk_wait_read_all() {
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
__device__ __forceinline__ void bulk_wait_all() {
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
__device__ __forceinline__ void tma_prefetch_descriptor(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}
// Asks L2 for [p, p + bytes) (p 16-byte aligned, bytes a multiple of 16) ahead of the loads
// that read it, evict-first (read once): the fetch holds no register and no shared memory.
__device__ __forceinline__ void bulk_prefetch_l2_evict_first(const void* p, uint32_t bytes) {
  asm volatile(
      "{\n .reg .b64 policy;\n createpolicy.fractional.L2::evict_first.b64 policy, 1.0;\n"
      " cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, policy;\n}\n" ::"l"(p),
      "r"(bytes)
      : "memory");
}

// [src, src + bytes) into shared memory at dst by one 1D bulk copy (both 16-byte aligned, bytes a
// multiple of 16), evict-first in L2 (read once); completion counted on `bar` in bytes.
__device__ __forceinline__ void bulk_load_evict_first(void* dst, const void* src, uint32_t bytes,
                                                      uint64_t* bar) {
  asm volatile(
      "{\n .reg .b64 policy;\n createpolicy.fractional.L2::evict_first.b64 policy, 1.0;\n"
      " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1], %2, [%3], policy;\n}\n" ::"r"(shared_address(dst)),
      "l"(src), "r"(bytes), "r"(shared_address(bar))
      : "memory");
}

// Orders this thread's ordinary shared-memory accesses before later async-proxy ones (wgmma, a
// TMA store, a bulk copy into a buffer just read).
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// --- registers -------------------------------------------------------------------------------
// Moves registers between warpgroups (all four warps of the warpgroup execute it).
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

// --- wgmma -----------------------------------------------------------------------------------
// Descriptor of a K-major operand tile in the 128-byte swizzle TMA writes: rows of 128 bytes,
// 8-row groups 1024 bytes apart (SBO); the leading offset is unused for this layout. The tile
// must start 1024-byte aligned; moving along k inside the 128-byte row moves the start address.
__device__ __forceinline__ uint64_t desc_kmajor_sw128(const void* p) {
  const uint64_t addr = shared_address(p);
  return ((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62);
}

// desc_kmajor_sw128 as its low word (start address >> 4, LBO field 1) and the constant high word:
// another k offset or another buffer only adds (bytes >> 4) to the low word, one instruction
// (shared addresses are below 2^18: the 14-bit field never carries into the next).
__device__ __forceinline__ uint32_t desc_kmajor_sw128_lo(const void* p) {
  return (shared_address(p) >> 4) | (1u << 16);
}
__device__ __forceinline__ uint64_t desc_kmajor_sw128_from_lo(uint32_t lo) {
  return (uint64_t((1024 >> 4) | (1u << 30)) << 32) | lo;
}

// Descriptor of an MN-major operand (B of D = A·B with N contiguous, used with imm-trans-b = 1)
// in the 128-byte swizzle TMA writes: for 16-bit data, atoms of 64 N-elements (one 128-byte row)
// × 8 k-rows, 1024 bytes. SBO: the step between 8-row k groups (1024 bytes when the k-rows of a
// 64-element column block are contiguous); LBO: the step from one 64-element N block to the next
// (`n_block_bytes`, e.g. one TMA box further). Start 1024-byte aligned: k steps of 16 rows move it
// by 2048 bytes, a whole number of atoms.
__device__ __forceinline__ uint64_t desc_mnmajor_sw128(const void* p, uint32_t n_block_bytes) {
  const uint64_t addr = shared_address(p);
  return ((addr & 0x3FFFF) >> 4) | (uint64_t((n_block_bytes & 0x3FFFF) >> 4) << 16) |
         (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

// --- clusters (distributed shared memory) ---------------------------------------------------
// A cluster barrier of every thread (whole, converged warps: .aligned) that orders no memory
// access: for hand-offs whose accesses before it are already complete (the arrive's default
// release costs each thread a MEMBAR.ALL.GPU in the SASS).
__device__ __forceinline__ void cluster_sync_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.aligned;\n" :::
                   "memory");
}
// This block's shared-memory address `local` in cluster block `rank`'s shared memory.
__device__ __forceinline__ uint32_t map_shared_rank(uint32_t local, int rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}
// Arrives on another cluster block's mbarrier (`remote`: map_shared_rank's address), releasing
// this thread's prior accesses at cluster scope.
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t remote) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote)
               : "memory");
}
__device__ __forceinline__ void st_cluster(uint32_t remote, float4 v) {
  asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(remote), "f"(v.x),
               "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

// Waits at a named barrier (ids 1-15; 0 is __syncthreads') for `threads` threads, whole warps.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// Waits until at most kPending of this warpgroup's committed wgmma groups are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}
// Keeps the compiler from moving accesses of r across a wgmma fence or wait, and keeps r alive
// (a register operand of an in-flight wgmma must not be reused).
__device__ __forceinline__ void pin(float& r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ __forceinline__ void pin(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }

// d (64×128 per warpgroup) = a·b + (accumulate ? d : 0), one k8 step of TF32: a from registers
// (the m64k8 fragment: rows g and g+8 of the warp's 16, k t and t+4), b a K-major descriptor.
__device__ __forceinline__ void wgmma_m64n128k8_tf32_rs(float (&d)[64], const uint32_t (&a)[4],
                                                        uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
        "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]),
        "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
        "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
        "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]),
        "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(accumulate));
}

// d (64×128 per warpgroup) = a·b + (accumulate ? d : 0), one k16 step of 16-bit inputs (kBf16:
// bfloat16, else fp16) with fp32 accumulators, both operands in shared memory (SS): a the
// K-major descriptor (imm-trans-a 0), b the MN-major descriptor (imm-trans-b 1: B's rows, N
// contiguous, exactly as they lie in memory).
#define TRIMM_WGMMA_D64                                                                          \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                     \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "            \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "            \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define TRIMM_WGMMA_D64_OPERANDS(d)                                                              \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),          \
      "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),  \
      "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),            \
      "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),            \
      "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),            \
      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]),            \
      "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),            \
      "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),            \
      "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),            \
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]),            \
      "+f"(d[62]), "+f"(d[63])
// kTransB: B is N-major (imm-trans-b = 1, as sm90_16bit reads row-major B) or K-major (0).
template <bool kBf16, int kTransB = 1>
__device__ __forceinline__ void wgmma_m64n128k16_ss(float (&d)[64], uint64_t desc_a,
                                                    uint64_t desc_b, int accumulate) {
  static_assert(kTransB == 0 || kTransB == 1, "imm-trans-b is 0 or 1");
  if constexpr (kBf16)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " TRIMM_WGMMA_D64
                 ", %64, %65, p, 1, 1, 0, %67;\n}\n"
                 : TRIMM_WGMMA_D64_OPERANDS(d)
                 : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(kTransB));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " TRIMM_WGMMA_D64
                 ", %64, %65, p, 1, 1, 0, %67;\n}\n"
                 : TRIMM_WGMMA_D64_OPERANDS(d)
                 : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(kTransB));
}
#undef TRIMM_WGMMA_D64
#undef TRIMM_WGMMA_D64_OPERANDS

// The same with N = 256 (64×256 per warpgroup, 128 accumulators a thread): B's stage is four
// 64-column boxes, LBO apart.
#define TRIMM_WGMMA_D128                                                                           \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                        \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "               \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "               \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "               \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "               \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "               \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "   \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define TRIMM_WGMMA_D128_OPERANDS(d)                                                               \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),                          \
      "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),                    \
      "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),                \
      "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),                \
      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),                \
      "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),                \
      "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),                \
      "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),                \
      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),                \
      "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),                \
      "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),                \
      "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),                \
      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),                \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),                \
      "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),                \
      "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),                \
      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),              \
      "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),          \
      "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),          \
      "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),          \
      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),          \
      "+f"(d[126]), "+f"(d[127])
template <bool kBf16, int kTransB = 1>
__device__ __forceinline__ void wgmma_m64n256k16_ss(float (&d)[128], uint64_t desc_a,
                                                    uint64_t desc_b, int accumulate) {
  static_assert(kTransB == 0 || kTransB == 1, "imm-trans-b is 0 or 1");
  if constexpr (kBf16)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " TRIMM_WGMMA_D128
                 ", %128, %129, p, 1, 1, 0, %131;\n}\n"
                 : TRIMM_WGMMA_D128_OPERANDS(d)
                 : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(kTransB));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " TRIMM_WGMMA_D128
                 ", %128, %129, p, 1, 1, 0, %131;\n}\n"
                 : TRIMM_WGMMA_D128_OPERANDS(d)
                 : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(kTransB));
}
#undef TRIMM_WGMMA_D128
#undef TRIMM_WGMMA_D128_OPERANDS

// --- TF32 ------------------------------------------------------------------------------------
// The tensor cores read a TF32 operand's top 19 bits (sign, exponent, 10 mantissa bits) and
// ignore the rest: truncation. big is that truncation, made explicit; small = x − big is exact
// in fp32 and rounded to TF32 (its own dropped bits are below 2⁻²¹ of |x|).
__device__ __forceinline__ uint32_t tf32_trunc(float x) {
  return __float_as_uint(x) & 0xFFFFE000u;
}
__device__ __forceinline__ uint32_t tf32_round(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}
// Round to nearest (ties away) on the bits: half a TF32 ulp added, the 13 low bits cleared. Two
// integer instructions where cvt.rna.tf32.f32 takes three (a compare that guards NaN and Inf, a
// predicated add, the mask): the split is most of the consumers' instructions between two
// stages' wgmmas, and they bound the kernel (session 8: −12 % at n = 4096 with the uses below).
// As cvt, finite values past the largest TF32 round to Inf and Inf stays Inf; unlike it, a NaN
// whose payload lies in its 12 low bits becomes ±Inf, and one whose low bits carry into the sign
// (0x7fffffff, the GPU's own NaN) becomes a zero: callers keep x − result, which is NaN then.
__device__ __forceinline__ uint32_t tf32_round_bits(float x) {
  return (__float_as_uint(x) + 0x1000u) & 0xFFFFE000u;
}
// small = x − big for big = the tensor cores' truncation of x (the raw X tile): x − big is exact
// in fp32, then rounded to TF32 (its own dropped bits are below 2⁻²¹ of |x|). For a non-finite
// x, x − big is the GPU's NaN and small is a zero; big still reads as NaN or ±Inf (a NaN whose
// payload lies in its 13 low bits reads as ±Inf), so every product x takes part in comes out
// NaN or ±Inf, though not always the one the dense product has: non-finite, which is all
// Structure::Detect needs to route the call to its exact path.
__device__ __forceinline__ uint32_t tf32_small(float x) {
  return tf32_round_bits(x - __uint_as_float(tf32_trunc(x)));
}

}  // namespace trimm::kernels::sm90::ptx
#endif  // TRIMM_SM90_DEVICE
