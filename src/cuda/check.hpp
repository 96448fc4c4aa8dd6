// Every CUDA runtime call goes through TRIMM_CUDA_CHECK: a failure becomes trimm::CudaError
// naming the call, the error and where it happened.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "trimm/types.hpp"

namespace trimm::detail {

[[noreturn]] inline void throw_cuda(cudaError_t err, const char* call, const char* file, int line) {
  throw CudaError(std::string(call) + " failed: " + cudaGetErrorName(err) + " (" +
                  cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace trimm::detail

#define TRIMM_CUDA_CHECK(call)                                                   \
  do {                                                                           \
    const cudaError_t trimm_err_ = (call);                                       \
    if (trimm_err_ != cudaSuccess)                                               \
      ::trimm::detail::throw_cuda(trimm_err_, #call, __FILE__, __LINE__);        \
  } while (0)
