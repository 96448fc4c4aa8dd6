// The driver's tensor-map encoder (TMA descriptors), found once per process through the runtime,
// so that libtrimm needs no link against libcuda. Host code, shared by the sm90 kernels.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>

#include "cuda/check.hpp"

namespace trimm::kernels::sm90 {

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
    TRIMM_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || f == nullptr)
      throw CudaError("trimm: the CUDA driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12+)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

}  // namespace trimm::kernels::sm90
