// Structure::Detect's flag word tagged with the call's epoch (kernels/launch.hpp, kEpochShift):
// no memset before the first launch (the memset and a scan launch of their own cost ~8 µs of
// simt_small_fp32's Detect, 35 µs at n = 896 with them, 27 without: session 44).
#pragma once

#include <cstdint>

#include "kernels/launch.hpp"

namespace trimm::kernels {

// Adds `flags` to this call's flags in *gate: a word of another epoch is replaced, one of this
// epoch merged. Lock-free; a warp that finds its flags already there writes nothing.
__device__ inline void or_epoch_flags(uint32_t* gate, uint32_t epoch, uint32_t flags) {
  uint32_t old = *reinterpret_cast<volatile uint32_t*>(gate);
  for (;;) {
    const uint32_t mine = old >> kEpochShift == epoch ? old : epoch << kEpochShift;
    const uint32_t want = mine | flags;
    if (want == old) return;
    const uint32_t seen = atomicCAS(gate, old, want);
    if (seen == old) return;
    old = seen;
  }
}

// This call's flags in *gate (none where the word carries another epoch). Read once the grids
// that write it have completed.
__device__ inline uint32_t epoch_flags(const uint32_t* gate, uint32_t epoch) {
  const uint32_t w = *reinterpret_cast<const volatile uint32_t*>(gate);
  return w >> kEpochShift == epoch ? w & ((1u << kEpochShift) - 1u) : 0u;
}

}  // namespace trimm::kernels
