// CPU rows of `trimm bench`: OpenBLAS SGEMM + triu (the reference-equivalent) against trimm's CPU
// backend, medians of wall-clock runs after warm-up, both checked against the fp64 reference.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "bench.hpp"
#include "common/tolerance.hpp"
#include "trimm/cpu.hpp"

namespace trimm::cli {
namespace {

double time_ms(const BenchConfig& cfg, const std::function<void()>& fn) {
  for (int w = 0; w < cfg.warmup; ++w) fn();
  std::vector<double> ms;
  for (int r = 0; r < cfg.runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                     .count());
  }
  return median(ms);
}

void check(const std::vector<float>& c, const std::vector<float>& ref32,
           const std::vector<double>& ref64, Row& row) {
  double viol = 0, err = 0, ref = 0;
  for (size_t e = 0; e < c.size(); ++e) {
    const double x = c[e];
    viol = std::max(viol, allclose_violation(x, ref32[e]));
    const double d = x - ref64[e];
    err += d * d;
    ref += ref64[e] * ref64[e];
  }
  row.max_violation = viol;
  row.rel_err = ref > 0 ? std::sqrt(err / ref) : std::sqrt(err);
}

}  // namespace

void bench_cpu(const BenchConfig& cfg, int64_t n, std::vector<Row>& rows) {
  const size_t nn = size_t(n) * size_t(n);
  std::vector<float> A(nn, 0.f), B(nn, 0.f), tmp(nn), ref32(nn), C(nn);
  std::mt19937_64 rng(cfg.seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) A[i * n + j] = u(rng), B[i * n + j] = u(rng);
  std::vector<double> ref64(nn);
  cpu::reference_trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, ref64.data(), n);

  Row ref_row{"cpu", "reference-equivalent (OpenBLAS SGEMM + triu)", "fp32", n};
  ref_row.ms = time_ms(cfg, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.f, A.data(),
                int(n), B.data(), int(n), 0.f, tmp.data(), int(n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) ref32[i * n + j] = j >= i ? tmp[i * n + j] : 0.f;
  });
  auto finish = [&](Row row, const std::vector<float>& out) {
    check(out, ref32, ref64, row);
    row.tflops = useful_flops(n) / (row.ms * 1e-3) / 1e12;
    row.speedup = ref_row.ms / row.ms;
    rows.push_back(row);
  };
  finish(ref_row, ref32);

  for (const Precision p : cfg.precisions) {
    Options o;
    o.precision = p;
    o.kernel = cfg.kernel;
    Row row{"cpu", "trimm cpu_openblas_strips", to_string(p), n};
    std::fill(C.begin(), C.end(), NAN);
    row.ms = time_ms(cfg, [&] { cpu::trtrmm(Fill::Upper, n, A.data(), n, B.data(), n, C.data(), n, o); });
    finish(row, C);
  }
}

}  // namespace trimm::cli
