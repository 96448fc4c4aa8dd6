// CUDA's types for trimm's 16-bit storage types, and the conversions every kernel family uses
// between an element and its accumulator type (16-bit: fp32, rounded back to nearest even).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "trimm/types.hpp"

namespace trimm::kernels {

// __nv_bfloat16 for bfloat16_t, __half for half_t (layout-compatible: sm90_bf16_trtrmm.cu).
template <typename S>
using Elem16 = std::conditional_t<std::is_same_v<S, bfloat16_t>, __nv_bfloat16, __half>;

template <typename Acc, typename T>
__device__ __forceinline__ Acc widen(T x) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(x);
  else return Acc(x);
}
template <typename T, typename Acc>
__device__ __forceinline__ T narrow(Acc x) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(x);
  else return T(x);
}

}  // namespace trimm::kernels
