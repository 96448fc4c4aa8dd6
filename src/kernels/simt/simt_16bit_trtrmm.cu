// simt_16bit: the 16-bit (bf16, fp16) yardstick on CUDA cores, run only when forced (dispatch
// takes sm90_16bit or sm80_16bit): the plain tiled product (kernels/simt/tiled_product.cuh)
// with fp32 sums, any alignment. Each element sums its band only (i ≤ k ≤ j for Upper), the
// operands' other triangles never loaded; tiles outside C's triangle are written with zeros; C is
// rounded to the type once, to nearest even. Plain and obviously right, not fast. Also
// Structure::Detect's exact path for 16-bit data (Path::Exact: every k of the operands as they
// are, so NaN and Inf land where the dense product puts them), gated on the scan's flags.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "kernels/simt/tiled_product.cuh"

namespace trimm::kernels {
namespace {

template <typename S>
void launch_16bit(const Problem16<S>& p, const DeviceInfo& dev, Stream stream) {
  using E = Elem16<S>;
  using namespace tiled;
  const bool upper = p.fill == Fill::Upper, dense = p.path != Path::Structured;
  Params<E> params{};
  params.n = p.n;
  params.batch = p.batch;
  params.prod[0] = {{reinterpret_cast<const E*>(p.A), p.lda, p.stride_a, false, Keep::All},
                    {reinterpret_cast<const E*>(p.B), p.ldb, p.stride_b, false, Keep::All},
                    reinterpret_cast<E*>(p.C),
                    p.ldc,
                    p.stride_c};
  if (!dense) params.prod[0].X.keep = params.prod[0].Y.keep = upper ? Keep::Upper : Keep::Lower;
  params.prod[1] = params.prod[0];  // unused: one product
  params.products = 1;
  params.triangle = true;
  params.upper = upper;
  params.band = !dense;
  params.gate = p.gate;
  params.epoch = p.epoch;
  params.path = p.path;
  // Structure::Detect's exact launch: a programmatic dependent of the general one.
  params.dependent = detect_dependent(p.gate, p.path, dev.cc);
  launch<E, float>(params, dev, stream);
}

}  // namespace

void launch_simt_16bit(const Problem16<half_t>& p, const DeviceInfo& dev, Stream stream) {
  launch_16bit(p, dev, stream);
}

void launch_simt_16bit(const Problem16<bfloat16_t>& p, const DeviceInfo& dev, Stream stream) {
  launch_16bit(p, dev, stream);
}

}  // namespace trimm::kernels
