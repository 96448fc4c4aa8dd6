// The driver's tensor-map encoder (TMA descriptors), found once per process through the runtime,
// so that libtrimm needs no link against libcuda, and the one map layout the sm90 kernels use.
// Host code.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "cuda/check.hpp"
#include "trimm/types.hpp"

namespace trimm::kernels::sm90 {

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
    TRIMM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                      cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || f == nullptr)
      throw CudaError("trimm: the CUDA driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12+)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// A row-major n×n operand of T (float, bfloat16_t or half_t; rows `ld` elements apart, batch
// entries `stride` apart, or one matrix for the whole batch where stride is 0) in boxes of
// box_cols × box_rows elements, 128-byte swizzled. Rank 3: the batch is the outer dimension.
// Out-of-range elements (past n) arrive as zeros.
template <typename T>
CUtensorMap make_map(const T* base, int64_t n, int64_t ld, int64_t stride, int64_t batch,
                     uint32_t box_cols, uint32_t box_rows) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> ||
                    std::is_same_v<T, half_t>,
                "a tensor map of fp32, bf16 or fp16 elements");
  constexpr CUtensorMapDataType kType = std::is_same_v<T, float>
                                            ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                        : std::is_same_v<T, bfloat16_t>
                                            ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  const bool shared = batch <= 1 || stride == 0;
  const cuuint64_t dims[3] = {cuuint64_t(n), cuuint64_t(n), cuuint64_t(shared ? 1 : batch)};
  const cuuint64_t strides[2] = {cuuint64_t(ld) * sizeof(T),
                                 cuuint64_t(shared ? ld * n : stride) * sizeof(T)};
  const cuuint32_t box[3] = {box_cols, box_rows, 1}, elem[3] = {1, 1, 1};
  CUtensorMap map;
  const CUresult r = encode_tiled()(&map, kType, 3, const_cast<T*>(base), dims, strides, box, elem,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError("trimm: cuTensorMapEncodeTiled failed (CUresult " + std::to_string(int(r)) +
                    ") for n = " + std::to_string(n) + ", ld = " + std::to_string(ld));
  return map;
}

}  // namespace trimm::kernels::sm90
