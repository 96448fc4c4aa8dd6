// `trimm bench`: correctness and timing of trimm against the anchors, one row per method.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trimm/types.hpp"

namespace trimm::cli {

struct BenchConfig {
  std::vector<int64_t> sizes;
  std::vector<Precision> precisions;  // trimm rows to time (concrete precisions)
  std::string kernel;                 // forced trimm kernel, or empty
  int runs = 30;                      // timed runs per method; the median is reported
  int warmup = 3;
  bool anchors = true;                // time the cuBLAS / OpenBLAS anchors too
  uint64_t seed = 0;
  // GPU: the inputs' other triangle. Triangular: zeros (KernelBench's problem); Noisy: uniform
  // [0, 0.01) noise (what stress suites add). Only Structure::Detect rows are right on noise.
  bool noisy = false;
  bool normal = false;  // GPU: N(0, 1) in the triangle instead of uniform [0, 1) (randn-style)
  std::vector<Structure> structures{Structure::Triangular};  // trimm rows per precision
  // GPU: the data type of A, B and C: fp32, or bf16 / fp16 (inputs rounded to the type, fp32
  // accumulation; anchored on cuBLAS's GemmEx in that type + triu).
  std::string dtype = "fp32";
  // GPU, 16-bit data: problems per call, copies of the same inputs in one strided batch (trimm's
  // trtrmm_strided_batched against cuBLAS's GemmStridedBatchedEx + triu).
  int64_t batch = 1;
  // GPU, fp32 data: unforced Triangular rows bring the workspace of their precision's kernel
  // that needs one (sm90_fp16x3 for fp32, sm90_fp16x1 for tf32), which dispatch then may take.
  bool workspace = false;
  // GPU: flush L2 before each timed run (KernelBench's protocol). Off (--warm-l2): the inputs
  // stay in L2 between runs, a diagnostic of what the cold start costs.
  bool flush_l2 = true;
};

struct Row {
  std::string backend;  // "cuda" or "cpu"
  std::string method;
  std::string precision;
  int64_t n = 0;
  double ms = 0;             // median
  double tflops = 0;         // useful flops n(n+1)(n+2)/3 over the median time
  double speedup = 0;        // reference-equivalent median over this median
  double max_violation = 0;  // max |c - ref| / (1e-4 + 1e-4·|ref|) against the reference-equivalent
  double rel_err = 0;        // ||C - C64||_F / ||C64||_F against the fp64 product
  std::string note;
  std::string dtype = "fp32";  // of A, B and C (16-bit rows: max_violation uses that type's
                               // torch.testing tolerances, rel_err the fp64 product of the
                               // 16-bit inputs)
};

double useful_flops(int64_t n);

// Each backend appends its rows for one size. GPU: `device` gets the GPU's name.
void bench_cuda(const BenchConfig& cfg, int64_t n, std::vector<Row>& rows, std::string& device);
void bench_cpu(const BenchConfig& cfg, int64_t n, std::vector<Row>& rows);

double median(std::vector<double> v);

}  // namespace trimm::cli
