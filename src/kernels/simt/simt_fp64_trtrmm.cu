// simt_fp64: trtrmm on double operands, the plain tiled product (kernels/simt/tiled_product.cuh)
// in fp64 FMA. Structure::Triangular sums each element's band only (i ≤ k ≤ j for Upper), its
// operands' other triangles never loaded; Structure::Detect sums every k of the operands as they
// are (the dense product's triangle: noise, NaN and Inf count), which in fp64 needs no detection
// pass. Either way, tiles outside C's triangle are written with zeros and nothing else.
#include "kernels/simt/tiled_product.cuh"

namespace trimm::kernels {

void launch_simt_fp64(const ProblemFp64& p, bool dense, const DeviceInfo& dev, Stream stream) {
  using namespace tiled;
  const bool upper = p.fill == Fill::Upper;
  const Keep keep = dense ? Keep::All : upper ? Keep::Upper : Keep::Lower;
  Params<double> params{};
  params.n = p.n;
  params.batch = p.batch;
  params.prod[0] = {{p.A, p.lda, p.stride_a, false, keep},
                    {p.B, p.ldb, p.stride_b, false, keep},
                    p.C,
                    p.ldc,
                    p.stride_c};
  params.prod[1] = params.prod[0];  // unused: one product
  params.products = 1;
  params.triangle = true;
  params.upper = upper;
  params.band = !dense;
  launch(params, dev, stream);
}

}  // namespace trimm::kernels
