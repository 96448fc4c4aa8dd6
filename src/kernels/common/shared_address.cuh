// The 32-bit shared-state-space address of a pointer into shared memory: the operand form of
// PTX's .shared instructions (cp.async, ldmatrix, mbarrier, TMA, wgmma descriptors).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace trimm::kernels {

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

}  // namespace trimm::kernels
