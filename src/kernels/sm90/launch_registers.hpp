// The register budget of a kernel that moves registers between its warpgroups with setmaxnreg.
// Host code, shared by the sm90 kernels.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda/check.hpp"

namespace trimm::kernels::sm90 {

// setmaxnreg hands the consumers exactly what the other warpgroup gives up, which adds up only if
// the kernel was built with kRegs registers a thread; with fewer (another toolkit, -G,
// -maxrregcount), setmaxnreg.inc would wait forever. Checked once per process and kernel, before
// its first launch. `family` names the kernels in the error.
template <auto kKernel, int kRegs>
void check_launch_registers(const char* family) {
  static const int regs = [] {
    cudaFuncAttributes a{};
    TRIMM_CUDA_CHECK(cudaFuncGetAttributes(&a, kKernel));
    return a.numRegs;
  }();
  if (regs != kRegs)
    throw CudaError(std::string("trimm: the ") + family + " kernels were built with " +
                    std::to_string(regs) + " registers per thread, expected " +
                    std::to_string(kRegs) + " (its setmaxnreg budget depends on it)");
}

}  // namespace trimm::kernels::sm90
