// The allclose test of torch.allclose and KernelBench, as one number: how far |x - ref| is past
// atol + rtol·|ref|. A violation <= 1 passes; NaN anywhere is an infinite violation.
#pragma once

#include <cmath>

#include "common/hd.hpp"

namespace trimm {

TRIMM_HD double allclose_violation(double x, double ref, double atol = 1e-4, double rtol = 1e-4) {
  const double v = fabs(x - ref) / (atol + rtol * fabs(ref));
  return v != v ? INFINITY : v;
}

}  // namespace trimm
