// What the host API hands a kernel family's launcher. Plain C++: dispatch and the tests see it
// without CUDA.
#pragma once

#include <cstddef>
#include <cstdint>

#include "trimm/cuda.hpp"

namespace trimm::kernels {

// Which computation a launch does. Structured: the triangular product. Dense: every k, no
// triangle masks, on the tensor cores. Exact: every k in plain fp32 FMA (3xTF32's split cannot
// carry Inf: its cross terms with a zero small part are NaN; a triangular kernel's masked zeros
// cannot give the NaN of 0·Inf outside its band). Under Structure::Detect, fp32: the structured
// launch always runs and sets the flags below; Dense and Exact are gated on them (simt_small_fp32:
// AnyFlag alone). 16-bit: on small work (dispatch::dense_detect16) one Dense launch, ungated, is
// the whole call (sm90_16bit's, sm80_16bit_small's or sm80_16bit's); otherwise the small kernel's
// structured launch sets them beside its product, as fp32's, and AnyFlag follows, or a scan sets
// them first (launch_scan_16bit) and all three launches are gated. Fallback: the triangular product
// again, gated on kLostBits (sm90_fp16x3 under Structure::Triangular, when its prepass finds more
// lost elements than its lists hold). AnyFlag: Exact's computation, gated on any flag at all: the
// one launch after a structured launch that flags beside its product (the small kernels), serving
// the general and the exact needs alike.
enum class Path : uint8_t { Structured, Dense, Exact, Fallback, AnyFlag };

// Structure::Detect's flags, ORed into *gate (zeroed before the first launch, or tagged with the
// call's epoch: kEpochShift). fp32: the structured
// launch's spare warps (sm90_fp16x3: its helper warps) read the triangles of A and B that
// should be zero (kOutside*: a nonzero there, NaN included; kNonFiniteOutside: a NaN or Inf there),
// and the structured and dense launches flag an output they computed that is not finite
// (kNonFiniteOut: a NaN or Inf inside the triangles reached it, as every element of A's and B's
// triangles reaches C's diagonal block; or a sum overflowed). 16-bit, and simt_small_fp32's
// structured launch: all of A and B are read, the other triangles as above and the triangles for
// NaN and Inf (kNonFiniteInside), except before sm90_16bit, whose structured launch flags its
// outputs as fp32's do (kNonFiniteOut): there the scan reads the other triangles alone, and the
// dense launch (sm90_16bit's or sm80_16bit's) flags its own outputs (kNonFiniteDense: a bit of
// its own, which only the exact launch reads, so that the word a launch is gated on never changes
// while it runs: a cluster's blocks must all run or all return). kLostBits: sm90_fp16x3 found more
// elements its fp16 planes cannot hold than it can correct (docs/sm90_fp16x3_plan.md): under Detect
// the general launch recomputes, as for kOutside*.
constexpr uint32_t kOutsideA = 1u, kOutsideB = 2u, kNonFiniteOutside = 4u, kNonFiniteOut = 8u,
                   kNonFiniteInside = 16u, kLostBits = 32u, kNonFiniteDense = 64u;

// A flag word that no memset clears (GatedProblem::epoch nonzero): the call's epoch in the bits
// from kEpochShift up, its flags below; a word whose epoch is not this call's holds no flags of
// it (kernels/common/epoch_flags.cuh). Under stream capture the word is zeroed first and the
// epoch is one reserved for capture (a graph replays its epoch). A stale word with the same
// epoch (a workspace last used kMaxEpoch calls ago, or dirty) can only add flags: a slower path,
// never a wrong one.
constexpr int kEpochShift = 8;
constexpr uint32_t kMaxEpoch = (1u << (32 - kEpochShift)) - 1u;
static_assert(kNonFiniteDense < (1u << kEpochShift), "every flag below the epoch");

// One (possibly batched) problem on elements T, already validated. Element (i, j) of matrix b
// of X is X[b·stride_x + i·ldx + j].
template <typename T>
struct MatrixProblem {
  Fill fill;
  int64_t n;
  const T* A;
  int64_t lda, stride_a;
  const T* B;
  int64_t ldb, stride_b;
  T* C;
  int64_t ldc, stride_c;
  int64_t batch;
};

// A problem with Structure::Detect's flags and the path a launch computes.
template <typename T>
struct GatedProblem : MatrixProblem<T> {
  // Structure::Detect: the device word of flags (kOutsideA ...) that the launches are gated on
  // (gated_off); without, every launch runs.
  uint32_t* gate = nullptr;
  // Nonzero: *gate is tagged with this epoch (1 ... kMaxEpoch, see kEpochShift) and the
  // structured launch flags beside its product (simt_small_fp32, sm80_16bit_small); under stream
  // capture the word is also zeroed first (a graph replays one epoch). 0: zeroed, untagged.
  uint32_t epoch = 0;
  Path path = Path::Structured;
  // The kernel's own share of options.workspace (sm90_fp16x3's and sm90_fp16x1's planes), which
  // the host API has checked against the kernel table's KernelEntry::workspace (attach_workspace).
  void* workspace = nullptr;
};

// fp32, the kernel table's problem.
using Problem = GatedProblem<float>;

// 16-bit data (T: half_t or bfloat16_t).
template <typename T>
using Problem16 = GatedProblem<T>;

// Devices a process may use; per-device caches are arrays of this size.
constexpr int kMaxDevices = 64;

// What the launchers may know of the device, queried once per device by the host API.
struct DeviceInfo {
  int ordinal;
  int cc;   // compute capability, 10·major + minor
  int sms;  // multiprocessors
};


void launch_simt_fp32(const Problem& p, const DeviceInfo& dev, Stream stream);
void launch_simt_small_fp32(const Problem& p, const DeviceInfo& dev, Stream stream);
void launch_sm80_tf32x3(const Problem& p, const DeviceInfo& dev, Stream stream);
void launch_sm90_tf32x3(const Problem& p, const DeviceInfo& dev, Stream stream);
void launch_sm90_tf32(const Problem& p, const DeviceInfo& dev, Stream stream);
// sm90_fp16x3: its prepass writes p.workspace, fp16x3_workspace_bytes(n, batch) bytes (SIZE_MAX
// past 2^62), 256-byte aligned (the host API checks it before anything is launched, from the
// kernel table's entry). It zeroes *p.gate itself (KernelEntry::zeroes_gate), in one memset with
// its workspace: the gate must lie at most kGateReach bytes before p.workspace (the host API's
// layout; else it throws).
constexpr size_t kGateReach = 256;
void launch_sm90_fp16x3(const Problem& p, const DeviceInfo& dev, Stream stream);
size_t fp16x3_workspace_bytes(int64_t n, int64_t batch);
// sm90_fp16x1 (precision tf32): the same with one plane an operand, fp16x1_workspace_bytes.
void launch_sm90_fp16x1(const Problem& p, const DeviceInfo& dev, Stream stream);
size_t fp16x1_workspace_bytes(int64_t n, int64_t batch);
// Whether TMA can address p's operands: 16-byte aligned bases, leading dimensions and batch
// strides, and batch entries that do not overlap. sm90_tf32x3 needs it; dispatch checks.
bool tma_compatible(const Problem& p);

// 16-bit data (sm90_bf16_trtrmm.cu, sm80_16bit_trtrmm.cu, sm80_16bit_small_trtrmm.cu,
// simt_16bit_trtrmm.cu). Whether TMA can address p's operands: 16-byte aligned A, B, C, leading
// dimensions and batch strides multiples of 8 elements, batch entries that do not overlap (or a
// shared operand).
template <typename T>
bool tma_compatible_16bit(const Problem16<T>& p);
// sm90_16bit and sm80_16bit: the triangular product (Path::Structured) or, as Structure::Detect's
// general path, every k with nothing masked (Path::Dense).
void launch_sm90_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream);
void launch_sm90_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream);
void launch_sm80_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream);
void launch_sm80_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream);
void launch_sm80_16bit_small(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream);
void launch_sm80_16bit_small(const Problem16<bfloat16_t>& p, const DeviceInfo& dev,
                             Stream stream);
// How many of sm80_16bit_small's blocks for p a multiprocessor of dev holds at once (its turn's
// shared memory, the registers of the form p's alignment takes), queried once per device, form
// and turn length. dev.cc >= 80.
int sm80_16bit_small_blocks_per_sm(const Problem16<half_t>& p, const DeviceInfo& dev);
int sm80_16bit_small_blocks_per_sm(const Problem16<bfloat16_t>& p, const DeviceInfo& dev);
// simt_16bit: the band (Path::Structured) or, as Structure::Detect's exact path, every k
// (Path::Exact).
void launch_simt_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream);
void launch_simt_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream);
// Structure::Detect for 16-bit data: adds to the call's flags in *p.gate (through p.epoch, as
// epoch_flags.cuh; epoch 0: a zeroed word) kOutsideA / kOutsideB for
// a nonzero in A's / B's other triangle, kNonFiniteOutside / kNonFiniteInside for a NaN or Inf
// there / in the triangles. Reads every element of A and B once (`outside_only`: the other
// triangles alone, for a structured launch that flags its own outputs); writes nothing else.
void launch_scan_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream,
                       bool outside_only);
void launch_scan_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream,
                       bool outside_only);

void launch_naive_fp32(const Problem& p, const DeviceInfo& dev, Stream stream);

// trtrmm on double operands (no kernel table: sm80_fp64 on the fp64 tensor cores, the default,
// or simt_fp64, kernels/simt/tiled_product.cuh's plain tiled product in fp64 FMA, by name).
using ProblemFp64 = GatedProblem<double>;
// dense: C = M(A·B) over every k (Structure::Detect's semantics); else over the band only.
// m8n8k4: sm_80's instruction on any GPU (the "sm80_fp64_m8n8k4" name: that path tested on sm_90).
// Gated (p.gate, Structure::Detect after launch_scan_fp64): the band launch (path Structured)
// runs where A's and B's other triangles are all zero and finite, and flags kNonFiniteOut where
// a stored sum is not finite; the dense launch (path AnyFlag) where anything was flagged.
// simt_fp64 is never gated.
void launch_sm80_fp64(const ProblemFp64& p, bool dense, bool m8n8k4, const DeviceInfo& dev,
                      Stream stream);
void launch_simt_fp64(const ProblemFp64& p, bool dense, const DeviceInfo& dev, Stream stream);
// fp64 Structure::Detect's scan (simt/scan_operands.cu): A's and B's other triangles alone, into
// p.gate tagged with p.epoch (kOutsideA / kOutsideB, kNonFiniteOutside).
void launch_scan_fp64(const ProblemFp64& p, const DeviceInfo& dev, Stream stream);

// trtrmm_backward's two dense products, dA = M(G)·Bᵀ and dB = Aᵀ·M(G), in one launch of the same
// tiled kernel (FMA in T).
template <typename T>
struct BackwardProblem {
  Fill fill;
  int64_t n;
  const T* G;
  int64_t ldg, stride_g;
  const T* A;
  int64_t lda, stride_a;
  const T* B;
  int64_t ldb, stride_b;
  T* dA;
  int64_t ldda, stride_da;
  T* dB;
  int64_t lddb, stride_db;
  int64_t batch;
};
void launch_simt_backward(const BackwardProblem<float>& p, const DeviceInfo& dev, Stream stream);
void launch_simt_backward(const BackwardProblem<double>& p, const DeviceInfo& dev, Stream stream);

// The yardstick in fp64: C64 = triu(A·B) (or tril) accumulated in double, for the benchmark and
// the GPU tests. ldc64 is C64's leading dimension; not batched. dense: over every k (the dense
// product's triangle, Structure::Detect's semantics), else over the band.
void launch_naive_fp64_reference(Fill fill, int64_t n, const float* A, int64_t lda,
                                 const float* B, int64_t ldb, double* C64, int64_t ldc64,
                                 Stream stream, bool dense = false);

}  // namespace trimm::kernels
