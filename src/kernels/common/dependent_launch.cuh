// Programmatic dependent launch (sm_90): Structure::Detect queues the general and the exact
// launches behind the structured one, and most calls turn both off. Launched as dependents,
// their blocks are scheduled while the previous grid drains and wait in griddepcontrol.wait,
// instead of paying a full launch after it.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cuda/check.hpp"
#include "kernels/launch.hpp"

namespace trimm::kernels {

// Waits until the grids this one depends on have completed and their writes are visible. A
// no-op in a grid not launched as a dependent, and before sm_90. Every thread that reads what
// the previous grid wrote, or writes what it reads, calls it first.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next grid, if launched as a dependent, be scheduled before this one ends (it still
// waits for this grid's completion in wait_for_previous_grid).
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether a launch of Structure::Detect gated after another (any path but Structured) goes as
// that one's programmatic dependent: only where this binary's sm_90a code runs (cc 90), the
// only code with the gate's griddepcontrol.wait compiled in (later GPUs JIT the compute_80 PTX,
// which has no wait).
inline bool detect_dependent(const uint32_t* gate, Path path, int cc) {
  return gate != nullptr && path != Path::Structured && cc == 90;
}

// kernel<<<grid, block, smem, stream>>>(args...), as a programmatic dependent of the stream's
// previous work where `dependent` (the device must be sm_90 or later).
template <typename... Params, typename... Args>
void launch_maybe_dependent(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block,
                            size_t smem, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attr;
  config.numAttrs = dependent ? 1 : 0;
  TRIMM_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace trimm::kernels
