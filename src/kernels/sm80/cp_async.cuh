// cp.async (sm_80+): global → shared copies that need no registers, so that a kernel can keep
// several k slices in flight. Each thread's copies complete in the groups it commits; other
// threads see them after its wait and a barrier.
#pragma once

#include <cstdint>

#include "kernels/common/shared_address.cuh"

namespace trimm::kernels::cp_async {

// 16 bytes (both addresses 16-byte aligned), bypassing L1; bytes past src_bytes become zero
// (compute-sanitizer counts all 16 as read: a copy must not reach past the allocation even
// where src_bytes stops short of its end).
__device__ __forceinline__ void copy16(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)),
               "l"(src), "r"(src_bytes)
               : "memory");
}

// 8 bytes (both addresses 8-byte aligned), through L1; src_bytes 0 writes zeros and reads
// nothing (src must still be a valid global address).
__device__ __forceinline__ void copy8(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(shared_address(dst)),
               "l"(src), "r"(src_bytes)
               : "memory");
}

// 4 bytes (both addresses 4-byte aligned), through L1 (.cg takes 16-byte copies only).
__device__ __forceinline__ void copy4(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared_address(dst)), "l"(src)
               : "memory");
}

__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

}  // namespace trimm::kernels::cp_async
