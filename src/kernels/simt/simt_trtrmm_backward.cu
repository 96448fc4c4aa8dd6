// simt backward: the gradients of C = M(A·B), dA = M(G)·Bᵀ and dB = Aᵀ·M(G) with M = triu (Upper)
// or tril (Lower), as two dense products in one launch of the plain tiled kernel
// (kernels/simt/tiled_product.cuh), FMA in the element type. M(G)'s other triangle is read as
// zero (never loaded: NaN there is dropped, as torch.triu's backward drops it) and multiplied like
// any zero, so a zero of M(G) times an Inf of B is NaN, as in torch's autograd. Cost: 2·n³ FMA
// per batch entry (the dense products' n³ each; the structural zeros are not skipped, since the
// dense semantics needs them).
#include "kernels/simt/tiled_product.cuh"

namespace trimm::kernels {
namespace {

template <typename T>
void launch_backward(const BackwardProblem<T>& p, const DeviceInfo& dev, Stream stream) {
  using namespace tiled;
  const Keep m = p.fill == Fill::Upper ? Keep::Upper : Keep::Lower;
  Params<T> params{};
  params.n = p.n;
  params.batch = p.batch;
  // dA(i, j) = Σ_k M(G)(i, k)·B(j, k): X = M(G), Y = Bᵀ.
  params.prod[0] = {{p.G, p.ldg, p.stride_g, false, m},
                    {p.B, p.ldb, p.stride_b, true, Keep::All},
                    p.dA,
                    p.ldda,
                    p.stride_da};
  // dB(i, j) = Σ_k A(k, i)·M(G)(k, j): X = Aᵀ, Y = M(G).
  params.prod[1] = {{p.A, p.lda, p.stride_a, true, Keep::All},
                    {p.G, p.ldg, p.stride_g, false, m},
                    p.dB,
                    p.lddb,
                    p.stride_db};
  params.products = 2;
  params.triangle = false;
  params.upper = p.fill == Fill::Upper;
  params.band = false;
  launch(params, dev, stream);
}

}  // namespace

void launch_simt_backward(const BackwardProblem<float>& p, const DeviceInfo& dev, Stream stream) {
  launch_backward(p, dev, stream);
}
void launch_simt_backward(const BackwardProblem<double>& p, const DeviceInfo& dev, Stream stream) {
  launch_backward(p, dev, stream);
}

}  // namespace trimm::kernels
