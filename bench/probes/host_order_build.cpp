// The host's time to build a launch order at each n (sched::launch_order for sm90_tf32x3's
// persistent layout, sched::pair_order for sm90_16bit's cluster pairs): the cost a call pays at
// the first single problem of a size, before the order is kept (sched/order_cache.hpp). CPU only.
// Usage: probe_host_order_build [slots] (132: the H200's SMs)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "sched/dispatch_order.hpp"
#include "sched/pair_order.hpp"
#include "sched/triangle_scheduler.hpp"

namespace {

using trimm::sched::WorkUnit;
// The form of each family's unit_cost: its k stages plus its epilogue's weight.
double tf32x3_cost(const WorkUnit& u) { return double((u.k_end - u.k_begin + 31) / 32) + 1.0; }
double bf16_cost(const WorkUnit& u) { return double((u.k_end - u.k_begin + 63) / 64) + 7.0; }

template <class Build>
void sweep(const char* what, int64_t n0, int64_t n1, Build&& build) {
  double total = 0, worst = 0;
  int64_t worst_n = 0, count = 0;
  for (int64_t n = n0; n <= n1; ++n) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!build(n)) continue;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    total += ms, ++count;
    if (ms > worst) worst = ms, worst_n = n;
  }
  std::printf("%-34s n %5lld..%5lld: %5lld orders, mean %.3f ms, worst %.3f ms (n = %lld)\n",
              what, (long long)n0, (long long)n1, (long long)count, count ? total / count : 0.0,
              worst, (long long)worst_n);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace trimm::sched;
  const int64_t slots = argc > 1 ? std::max(1, std::atoi(argv[1])) : 132;
  sweep("launch_order (sm90_tf32x3 form)", 1217, 6000, [&](int64_t n) {
    const TriangleSchedule s = make_schedule(n, 128, 32, slots, false, true);
    if (!packable(s, slots)) return false;
    volatile int count = launch_order(s, slots, tf32x3_cost, /*persistent=*/true).count;
    (void)count;
    return true;
  });
  sweep("pair_order (sm90_16bit form)", 3072, 8192, [&](int64_t n) {
    const TriangleSchedule s = make_schedule(n, 128, 64, 1, false, false);
    volatile int blocks = pair_order(s, slots / 2, 4, bf16_cost).blocks;
    (void)blocks;
    return true;
  });
}
