"""trimm.triu_matmul / tril_matmul against torch.triu / torch.tril of torch.matmul.

Skips, with the reason, where torch or the built trimm package is missing.
"""
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
trimm = pytest.importorskip("trimm", reason="the trimm package is not built "
                                            "(pip install --no-build-isolation .)")

OPS = [(trimm.triu_matmul, torch.triu), (trimm.tril_matmul, torch.tril)]
SIZES = [1, 2, 3, 17, 127, 129, 300]


def reference(op_ref, A, B):
    return op_ref(torch.matmul(A, B))


def assert_same(C, R, atol=1e-4, rtol=1e-4):
    """NaN and Inf exactly where the reference has them; allclose elsewhere."""
    assert C.shape == R.shape and C.dtype == R.dtype
    assert torch.equal(torch.isnan(C), torch.isnan(R)), "NaN in other places"
    inf = torch.isinf(R)
    assert torch.equal(C[inf], R[inf]), "Inf in other places"
    fin = torch.isfinite(R)
    torch.testing.assert_close(C[fin], R[fin], atol=atol, rtol=rtol)


def same_bits(x, y):
    """Bit for bit (torch.equal is False for NaN, even against itself)."""
    return torch.equal(x.view(torch.int32), y.view(torch.int32))


def upper(n, gen=None, dtype=torch.float32):
    return torch.triu(torch.rand(n, n, generator=gen, dtype=dtype))


@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", SIZES)
def test_triangular_inputs(op, op_ref, n):
    fill = torch.triu if op_ref is torch.triu else torch.tril
    A, B = fill(torch.rand(n, n)), fill(torch.rand(n, n))
    A0, B0 = A.clone(), B.clone()
    assert_same(op(A, B), reference(op_ref, A, B))
    assert same_bits(A, A0) and same_bits(B, B0), "inputs modified"


@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", SIZES)
def test_noise_below_the_diagonal_counts(op, op_ref, n):
    A = torch.triu(torch.rand(n, n)) + 1e-2 * torch.tril(torch.rand(n, n), -1)
    B = torch.triu(torch.rand(n, n)) + 1e-2 * torch.tril(torch.rand(n, n), -1)
    assert_same(op(A, B), reference(op_ref, A, B))


@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [1, 17, 129])
def test_dense_and_signed_inputs(op, op_ref, n):
    A, B = torch.randn(n, n), torch.randn(n, n)
    assert_same(op(A, B), reference(op_ref, A, B))


@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [3, 64, 200])
def test_nan_and_inf_land_where_torch_puts_them(op, op_ref, n):
    g = torch.Generator().manual_seed(n)
    A, B = upper(n, g), upper(n, g)
    for M, v in ((A, float("inf")), (B, float("-inf")), (A, float("nan")), (B, float("inf"))):
        i, j = torch.randint(n, (2,), generator=g).tolist()
        M[min(i, j), max(i, j)] = v  # inside the triangle: the dense product multiplies it by zeros
    assert_same(op(A, B), reference(op_ref, A, B))


@pytest.mark.parametrize("op,op_ref", OPS)
def test_views_and_transposes(op, op_ref):
    n = 130
    big = torch.rand(2 * n, 2 * n)
    A = big[:n, 3:n + 3]           # a view with row stride 2n
    B = torch.rand(n, n).t()        # a transpose: column-major
    assert_same(op(A, B), reference(op_ref, A, B))
    assert_same(op(B, A), reference(op_ref, B, A))


@pytest.mark.parametrize("op,op_ref", OPS)
def test_batched_and_broadcast(op, op_ref):
    A = torch.rand(2, 1, 33, 33)
    B = torch.rand(3, 33, 33)
    C = op(A, B)
    assert C.shape == (2, 3, 33, 33)
    assert_same(C, reference(op_ref, A, B))


@pytest.mark.parametrize("op,op_ref", OPS)
def test_broadcast_one_matrix_against_a_batch(op, op_ref):
    A, B = torch.rand(40, 40), torch.rand(4, 40, 40)
    assert_same(op(A, B), reference(op_ref, A, B))
    assert_same(op(B, A), reference(op_ref, B, A))


@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float16, 2e-2),
                                       (torch.bfloat16, 5e-2)])
@pytest.mark.parametrize("op,op_ref", OPS)
def test_dtypes(op, op_ref, dtype, tol):
    n = 65
    A = torch.triu(torch.rand(n, n, dtype=torch.float64)).to(dtype)
    B = torch.triu(torch.rand(n, n, dtype=torch.float64)).to(dtype)
    C = op(A, B)
    assert C.dtype == dtype
    R = op_ref(torch.matmul(A.double(), B.double()))  # the exact product of the given inputs
    torch.testing.assert_close(C.double(), R, atol=tol, rtol=tol)


def test_empty_and_zero_batch():
    assert trimm.triu_matmul(torch.rand(0, 0), torch.rand(0, 0)).shape == (0, 0)
    assert trimm.triu_matmul(torch.rand(0, 5, 5), torch.rand(5, 5)).shape == (0, 5, 5)


@pytest.mark.parametrize("A,B,match", [
    (torch.rand(5), torch.rand(5, 5), "at least 2 dimensions"),
    (torch.rand(4, 5), torch.rand(5, 4), "square"),
    (torch.rand(5, 5), torch.rand(4, 4), "square"),
    (torch.rand(5, 5), torch.rand(5, 5, dtype=torch.float64), "same dtype"),
    (torch.rand(2, 5, 5), torch.rand(3, 5, 5), "size"),
    (torch.randint(0, 3, (5, 5)), torch.randint(0, 3, (5, 5)), "float32"),
])
def test_bad_arguments_raise_like_torch(A, B, match):
    with pytest.raises(RuntimeError, match=match):
        trimm.triu_matmul(A, B)


@pytest.mark.parametrize("A,B,match", [
    (torch.rand(4, 5), torch.rand(5, 4), "square"),
    (torch.randint(0, 3, (5, 5)), torch.randint(0, 3, (5, 5)), "float32"),
])
def test_bad_arguments_raise_in_the_operator_too(A, B, match):
    """The C++ operator checks for itself (torch.ops.trimm.* called directly)."""
    with pytest.raises(RuntimeError, match=match):
        torch.ops.trimm.triu_matmul(A, B)


def test_opcheck_and_compile():
    A, B = torch.rand(3, 20, 20), torch.rand(20, 20)
    torch.library.opcheck(torch.ops.trimm.triu_matmul.default, (A, B),
                          test_utils=("test_schema", "test_faketensor"))
    f = torch.compile(trimm.tril_matmul, fullgraph=True)
    assert_same(f(A, B), torch.tril(A @ B))


@pytest.mark.parametrize("op,op_ref", OPS)
def test_gradcheck_fp64(op, op_ref):
    A = torch.randn(2, 7, 7, dtype=torch.float64, requires_grad=True)
    B = torch.randn(7, 7, dtype=torch.float64, requires_grad=True)  # broadcast over the batch
    assert torch.autograd.gradcheck(op, (A, B))


@pytest.mark.parametrize("op,op_ref", OPS)
def test_fp32_gradients_match_torch(op, op_ref):
    A = torch.triu(torch.rand(3, 40, 40)).requires_grad_()
    B = torch.triu(torch.rand(40, 40)).requires_grad_()
    G = torch.randn(3, 40, 40)
    dA, dB = torch.autograd.grad(op(A, B), (A, B), G)
    rA, rB = torch.autograd.grad(op_ref(A @ B), (A, B), G)
    torch.testing.assert_close(dA, rA, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(dB, rB, atol=1e-4, rtol=1e-4)


def test_opcheck_with_autograd():
    A = torch.rand(2, 9, 9, requires_grad=True)
    B = torch.rand(9, 9, requires_grad=True)
    torch.library.opcheck(torch.ops.trimm.triu_matmul.default, (A, B))


needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [1, 17, 129, 1000])
@pytest.mark.parametrize("kind", ["triangular", "noisy", "dense", "nonfinite"])
def test_cuda_any_input(op, op_ref, n, kind):
    fill = torch.triu if op_ref is torch.triu else torch.tril
    g = torch.Generator().manual_seed(n)
    A, B = (fill(torch.rand(n, n, generator=g)) for _ in range(2))
    if kind == "noisy":
        A = A + 1e-2 * (torch.rand(n, n, generator=g) - fill(torch.rand(n, n, generator=g)))
    if kind in ("dense", "nonfinite"):
        A, B = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
    if kind == "nonfinite":
        A[n // 2, n // 3], B[n // 3, n // 2], A[0, n - 1] = float("inf"), float("-inf"), float("nan")
    A, B = A.cuda(), B.cuda()
    A0, B0 = A.clone(), B.clone()
    assert_same(op(A, B), op_ref(A @ B))
    assert same_bits(A, A0) and same_bits(B, B0), "inputs modified"


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_batched_broadcast_views_dtypes(op, op_ref):
    A = torch.rand(2, 1, 130, 130, device="cuda")
    B = torch.rand(3, 130, 130, device="cuda").transpose(-1, -2)
    assert_same(op(A, B), op_ref(A @ B))
    for dtype, tol in ((torch.float16, 2e-2), (torch.bfloat16, 5e-2)):
        a, b = torch.rand(65, 65, device="cuda").to(dtype), torch.rand(65, 65, device="cuda").to(dtype)
        torch.testing.assert_close(op(a, b).double(), op_ref(a.double() @ b.double()),
                                   atol=tol, rtol=tol)


@needs_cuda
def test_cuda_compile_and_graph_capture():
    A, B = torch.rand(256, 256, device="cuda"), torch.rand(256, 256, device="cuda")
    f = torch.compile(trimm.triu_matmul, fullgraph=True)
    assert_same(f(A, B), torch.triu(A @ B))
    trimm.triu_matmul(A, B)  # warm-up outside the capture
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = trimm.triu_matmul(A, B)
    A.copy_(torch.rand_like(A))
    graph.replay()
    torch.cuda.synchronize()
    assert_same(out, torch.triu(A @ B))


@needs_cuda
def test_cuda_not_yet_float64_nor_backward():
    A = torch.rand(8, 8, device="cuda", dtype=torch.float64)
    with pytest.raises(NotImplementedError, match="float64"):
        trimm.triu_matmul(A, A)
    A = torch.rand(8, 8, device="cuda", requires_grad=True)
    with pytest.raises(NotImplementedError, match="backward"):
        trimm.triu_matmul(A, A).sum().backward()
