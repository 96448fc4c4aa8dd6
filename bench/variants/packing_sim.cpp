// The persistent packing on the host (session 18): for n, k-step and a per-unit weight, each
// block's units, stages and diagonal units under sched::persistent_order on 132 slots, and the
// largest / mean / smallest block time under a model (a µs a stage, u µs a unit). Build and run:
//   g++ -std=c++17 -O2 -Isrc -Iinclude bench/variants/packing_sim.cpp -o /tmp/packing_sim
//   /tmp/packing_sim 4096 64 0.413 4.35 3 5 7      (n, k-step, a, u, weights...)
//   /tmp/packing_sim 4096 64 0.413 4.35 -7         (a negative weight: print each block's list)
// Session 18's fit from the per-block probe (bench/2026-12-01-h200-s18-call5-tailb.txt):
// sm90_16bit a = 0.413, u = 4.35; sm90_tf32x3 (k-step 32) a = 0.987, u = 5.06.
#include <algorithm>
#include <cstdio>
#include <string>

#include "sched/dispatch_order.hpp"
#include "sched/triangle_scheduler.hpp"

using namespace trimm::sched;

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s n k_step a u weight...\n", argv[0]);
    return 2;
  }
  const int64_t n = std::stoll(argv[1]);
  const int k_step = std::stoi(argv[2]);
  const double a = std::stod(argv[3]), ut = std::stod(argv[4]);
  const TriangleSchedule s = make_schedule(n, 128, k_step, 1, false, false);
  auto stages = [&](const WorkUnit& u) { return int((u.k_end - u.k_begin + k_step - 1) / k_step); };
  for (int i = 5; i < argc; ++i) {
    const double w = std::stod(argv[i]);
    const bool list = w < 0;
    auto cost = [&](const WorkUnit& u) { return double(stages(u)) + (list ? -w : w); };
    const DispatchOrder d = persistent_order(s, 132, cost);
    if (d.blocks == 0) {
      std::printf("n %lld weight %g: no persistent layout\n", (long long)n, w);
      continue;
    }
    const int levels = d.count / d.blocks;
    double most = 0, sum = 0, least = 1e30;
    for (int b = 0; b < d.blocks; ++b) {
      int units = 0, st = 0, diag = 0;
      for (int l = 0; l < levels; ++l) {
        const int x = d.at(int64_t(l) * d.blocks + b);
        if (x < 0) break;
        const WorkUnit u = s.unit(x);
        ++units, st += stages(u), diag += u.bi == u.bj;
      }
      const double t = a * st + ut * units;
      most = std::max(most, t), least = std::min(least, t), sum += t;
      if (list)
        std::printf("block %d units %d stages %d diagonal %d model %.2f\n", b, units, st, diag,
                    t);
    }
    std::printf("n %lld weight %g: %d blocks, model max %.2f mean %.2f min %.2f\n", (long long)n,
                w, d.blocks, most, sum / d.blocks, least);
  }
}
