// TRIMM_HD marks functions shared by host code, device code and the CPU unit tests.
#pragma once

#if defined(__CUDACC__)
#define TRIMM_HD __host__ __device__ __forceinline__
#else
#define TRIMM_HD inline
#endif
