// The installed-package check: trimm's public headers and trimm::trimm, used from outside the
// trimm build. One 3×3 upper product on the CPU backend, compared exactly (small integers are
// exact in fp32), and the GPU probe, which must answer (not throw) on a machine without a GPU.
#include <cstdio>

#include "trimm/trimm.hpp"

#if TRIMM_VERSION_MAJOR != 0 || TRIMM_VERSION_MINOR != 1
#error "the installed trimm headers are not version 0.1"
#endif

int main() {
  constexpr int n = 3;
  // Row-major, upper triangular. The strictly lower parts hold 99: trtrmm must not read them.
  const float A[n * n] = {1, 2, 3,
                          99, 4, 5,
                          99, 99, 6};
  const float B[n * n] = {7, 8, 9,
                          99, 10, 11,
                          99, 99, 12};
  // triu(A·B) by hand: c01 = 1·8 + 2·10, c02 = 1·9 + 2·11 + 3·12, c12 = 4·11 + 5·12.
  const float expected[n * n] = {7, 28, 67,
                                 0, 40, 104,
                                 0, 0, 72};
  float C[n * n];
  for (float& c : C) c = -1.0f;  // trtrmm writes the lower part of C with zeros

  try {
    trimm::cpu::trtrmm(trimm::Fill::Upper, n, A, n, B, n, C, n);
  } catch (const trimm::Error& e) {
    std::fprintf(stderr, "FAILED: trimm::cpu::trtrmm threw: %s\n", e.what());
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (C[i * n + j] != expected[i * n + j]) {
        std::fprintf(stderr, "FAILED: C[%d][%d] = %g, expected %g\n", i, j, C[i * n + j],
                     expected[i * n + j]);
        ++wrong;
      }
  if (wrong) return 1;
  std::printf("trimm::cpu::trtrmm 3x3 upper: exact\n");

  const bool gpu = trimm::cuda_available();
  std::printf("trimm::cuda_available(): %s\n", gpu ? "true" : "false");
  return 0;
}
