#include <algorithm>
#include <vector>

#include "bench.hpp"

namespace trimm::cli {

double useful_flops(int64_t n) {
  const double x = double(n);
  return x * (x + 1) * (x + 2) / 3.0;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace trimm::cli
