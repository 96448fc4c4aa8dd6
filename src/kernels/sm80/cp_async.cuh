// cp.async (sm_80+): global → shared copies that need no registers, so that a kernel can keep
// several k slices in flight. Each thread's copies complete in the groups it commits; other
// threads see them after its wait and a barrier (a warp barrier among the warp's lanes).
#pragma once

#include <cstdint>

namespace trimm::kernels::cp_async {

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 4 bytes (both addresses 4-byte aligned); only the first src_bytes (0, 2 or 4) are read, the
// rest of the word is written as zero.
__device__ __forceinline__ void copy4(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(dst)),
               "l"(src), "r"(src_bytes)
               : "memory");
}

// 16 bytes (both addresses 16-byte aligned), bypassing L1; bytes past src_bytes become zero.
__device__ __forceinline__ void copy16(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)),
               "l"(src), "r"(src_bytes)
               : "memory");
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

}  // namespace trimm::kernels::cp_async
