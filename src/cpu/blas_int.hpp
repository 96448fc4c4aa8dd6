// OpenBLAS's sizes are its 32-bit int (blasint): the calls refuse larger ones by name.
#pragma once

#include <cblas.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

#include "trimm/types.hpp"

namespace trimm::cpu {

// Throws InvalidArgument ("api: lda = ..., expected <= 2147483647 (OpenBLAS's int)") for the
// first of `sizes` (name, value) past blasint.
inline void check_blas_ints(const char* api,
                            std::initializer_list<std::pair<const char*, int64_t>> sizes) {
  constexpr int64_t max_int = std::numeric_limits<blasint>::max();
  for (const auto& [name, value] : sizes)
    if (value > max_int)
      throw InvalidArgument(std::string(api) + ": " + name + " = " + std::to_string(value) +
                            ", expected <= " + std::to_string(max_int) + " (OpenBLAS's int)");
}

}  // namespace trimm::cpu
