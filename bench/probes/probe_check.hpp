// The probes' CUDA error check: a failing call ends the probe with its name and CUDA's message.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define PROBE_CHECK(call)                                                                  \
  do {                                                                                     \
    const cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_));              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)
