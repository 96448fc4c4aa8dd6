"""trimm.triu_matmul / tril_matmul against torch.triu / torch.tril of torch.matmul.

Skips, with the reason, where torch or the built trimm package is missing.
"""
import os

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
    (torch.randint(0, 3, (4, 5)), torch.randint(0, 3, (5, 4)), "float32"),  # dtype first
    (torch.rand(2, 5, 5), torch.rand(3, 5, 5), "trimm.triu_matmul: the size of A's batch"),
])
def test_bad_arguments_raise_in_the_operator_too(A, B, match):
    """The C++ operator checks for itself (torch.ops.trimm.* called directly), in the order
    and with the messages of the fake implementation."""
    with pytest.raises(RuntimeError, match=match):
        torch.ops.trimm.triu_matmul(A, B)
    with pytest.raises(RuntimeError, match=match):
        torch.ops.trimm.triu_matmul(A.to("meta"), B.to("meta"))


@pytest.mark.parametrize("A,B", [
    (torch.rand(5), torch.rand(5, 5)),
    (torch.rand(4, 5), torch.rand(5, 4)),
    (torch.rand(5, 5), torch.rand(5, 5, dtype=torch.float64)),
    (torch.randint(0, 3, (5, 5)), torch.randint(0, 3, (5, 5))),
    (torch.rand(5, 5, dtype=torch.complex64), torch.rand(5, 5, dtype=torch.complex64)),
    (torch.rand(2, 5, 5), torch.rand(3, 5, 5)),
])
def test_operator_and_fake_raise_the_same_message(A, B):
    """The C++ operator (CPU tensors) and its fake implementation (meta tensors) refuse bad
    arguments in the same words, dtypes spelled as Python prints them."""
    messages = []
    for device in ("cpu", "meta"):
        with pytest.raises(RuntimeError) as raised:
            torch.ops.trimm.triu_matmul(A.to(device), B.to(device))
        messages.append(str(raised.value).splitlines()[0])
    assert messages[0] == messages[1]


def test_backward_operator_checks_its_arguments():
    n = 5
    ints = torch.randint(0, 3, (n, n))
    with pytest.raises(RuntimeError, match="float32"):
        torch.ops.trimm.triu_matmul_backward(ints, ints, ints)
    for device in ("cpu", "meta"):
        G, A = torch.rand(n + 1, n + 1, device=device), torch.rand(n, n, device=device)
        with pytest.raises(RuntimeError, match="backward: expected grad of shape"):
            torch.ops.trimm.triu_matmul_backward(G, A, A)
        # A grad of another dtype is refused, not converted (autograd never passes one).
        for g in (torch.ones(n, n, dtype=torch.long, device=device),
                  torch.ones(n, n, dtype=torch.float64, device=device)):
            with pytest.raises(RuntimeError, match="backward: expected grad of A's dtype"):
                torch.ops.trimm.triu_matmul_backward(g, A, A)


def test_none_is_refused_by_name():
    """None where a tensor goes is named as None, not read as a tensor of shape [0]."""
    A = torch.rand(3, 3)
    with pytest.raises(RuntimeError, match="expected tensors A and B, got None for A"):
        torch.ops.trimm.triu_matmul(None, A)
    with pytest.raises(RuntimeError, match="expected tensors A and B, got None for B"):
        torch.ops.trimm.tril_matmul(A, None)
    with pytest.raises(RuntimeError, match="backward: expected a tensor grad, got None"):
        torch.ops.trimm.triu_matmul_backward(None, A, A)


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


@pytest.mark.parametrize("op,op_ref", OPS)
def test_double_backward_fp64(op, op_ref):
    """Second derivatives: the backward operators are differentiable too (reverse over reverse
    and forward over reverse), through trimm.* and through torch.ops.trimm.* directly."""
    A = torch.randn(2, 6, 6, dtype=torch.float64, requires_grad=True)
    B = torch.randn(6, 6, dtype=torch.float64, requires_grad=True)
    name = "triu" if op_ref is torch.triu else "tril"
    for f in (op, getattr(torch.ops.trimm, f"{name}_matmul")):
        assert torch.autograd.gradgradcheck(f, (A, B), check_fwd_over_rev=True)
    gA, = torch.autograd.grad((op(A, B) ** 2).sum(), A, create_graph=True)
    rA, = torch.autograd.grad((op_ref(A @ B) ** 2).sum(), A, create_graph=True)
    d2, = torch.autograd.grad(gA.sum(), B)
    r2, = torch.autograd.grad(rA.sum(), B)
    torch.testing.assert_close(d2, r2)


@pytest.mark.parametrize("op,op_ref", OPS)
def test_forward_mode_ad(op, op_ref):
    import torch.autograd.forward_ad as fwAD
    A = torch.randn(2, 6, 6, dtype=torch.float64, requires_grad=True)
    B = torch.randn(6, 6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(op, (A, B), check_forward_ad=True, check_backward_ad=False,
                                    check_undefined_grad=False, check_batched_grad=False)
    tA, tB = torch.randn_like(A), torch.randn_like(B)
    with fwAD.dual_level():
        C = op(fwAD.make_dual(A.detach(), tA), fwAD.make_dual(B.detach(), tB))
        R = op_ref(fwAD.make_dual(A.detach(), tA) @ fwAD.make_dual(B.detach(), tB))
        torch.testing.assert_close(fwAD.unpack_dual(C).tangent, fwAD.unpack_dual(R).tangent)


@pytest.mark.parametrize("op,op_ref", OPS)
def test_func_transforms(op, op_ref):
    """torch.func: jacfwd, jacrev, hessian, grad under vmap, and vmap with batch dimensions that
    broadcast, against the same transforms of torch.triu(A @ B)."""
    ref = lambda a, b: op_ref(a @ b)  # noqa: E731
    A = torch.randn(3, 5, 5, dtype=torch.float64)
    B = torch.randn(5, 5, dtype=torch.float64)
    F = torch.func
    for t in (F.jacfwd, F.jacrev):
        for got, want in zip(t(op, argnums=(0, 1))(A, B), t(ref, argnums=(0, 1))(A, B)):
            torch.testing.assert_close(got, want)
    loss = lambda f: lambda a, b: (f(a, b) ** 2).sum()  # noqa: E731
    torch.testing.assert_close(F.hessian(loss(op))(A[0], B), F.hessian(loss(ref))(A[0], B))
    g = F.vmap(F.grad(loss(op), argnums=(0, 1)), in_dims=(0, None))(A, B)
    r = F.vmap(F.grad(loss(ref), argnums=(0, 1)), in_dims=(0, None))(A, B)
    for got, want in zip(g, r):
        torch.testing.assert_close(got, want)
    for a, b, dims in (((4, 2, 5, 5), (3, 1, 5, 5), (0, None)), ((5, 5), (4, 5, 5), (None, 0)),
                       ((2, 4, 5, 5), (4, 5, 5), (1, 0)), ((5, 5, 4), (5, 5), (2, None))):
        a, b = torch.randn(a, dtype=torch.float64), torch.randn(b, dtype=torch.float64)
        torch.testing.assert_close(F.vmap(op, in_dims=dims)(a, b), F.vmap(ref, in_dims=dims)(a, b))
    # The operator itself maps, but cannot be differentiated from inside a transform: it says so.
    name = "triu" if op_ref is torch.triu else "tril"
    raw = getattr(torch.ops.trimm, f"{name}_matmul")
    torch.testing.assert_close(F.vmap(raw, in_dims=(0, None))(A, B), ref(A, B))
    with pytest.raises(RuntimeError, match="torch.func's transforms need trimm's Python"):
        F.grad(loss(raw))(A[0], B)


@pytest.mark.parametrize("op,op_ref", OPS)
def test_autocast_casts_as_matmul_does(op, op_ref):
    """Under torch.autocast float32 operands are cast to the region's dtype, as torch.matmul's
    are (also one float32 against one already in that dtype), float64 is left alone, and the
    gradients reach the float32 leaves."""
    A = torch.rand(2, 24, 24, requires_grad=True)
    B = torch.rand(24, 24, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        C, R = op(A, B), op_ref(A @ B)
        assert C.dtype == R.dtype == torch.bfloat16
        # The same bf16 operands, fp32 sums in another order: a bf16 unit apart at most.
        torch.testing.assert_close(C.float(), R.float(), atol=1e-6, rtol=1e-2)
        assert op(A.bfloat16(), B).dtype == torch.bfloat16
        assert op(A.double(), B.double()).dtype == torch.float64
        (C.float() ** 2).sum().backward()
    assert A.grad.dtype == torch.float32 and B.grad.dtype == torch.float32
    rA, rB = torch.autograd.grad((op_ref(A.bfloat16() @ B.bfloat16()).float() ** 2).sum(), (A, B))
    torch.testing.assert_close(A.grad, rA, atol=5e-2, rtol=5e-2)
    torch.testing.assert_close(B.grad, rB, atol=5e-2, rtol=5e-2)


def test_opcheck_with_autograd():
    A = torch.rand(2, 9, 9, requires_grad=True)
    B = torch.rand(9, 9, requires_grad=True)
    torch.library.opcheck(torch.ops.trimm.triu_matmul.default, (A, B))
    G = torch.rand(2, 9, 9, requires_grad=True)
    torch.library.opcheck(torch.ops.trimm.tril_matmul_backward.default, (G, A, B))


# Where TRIMM_REQUIRE_GPU is set (scripts/device.sh), the CUDA tests run even if torch sees no
# GPU, and fail: a broken driver must not pass for a machine without one.
needs_cuda = pytest.mark.skipif(
    not torch.cuda.is_available() and not os.environ.get("TRIMM_REQUIRE_GPU"),
    reason="no CUDA device")


def any_input(n, kind, fill, seed):
    """Triangular torch.rand operands; noise in A's other triangle (noisy); N(0, 1) everywhere
    (dense); and Inf, -Inf and NaN planted in dense ones (nonfinite). On the CPU, float32."""
    g = torch.Generator().manual_seed(seed)
    A, B = (fill(torch.rand(n, n, generator=g)) for _ in range(2))
    if kind == "noisy":
        A = A + 1e-2 * (torch.rand(n, n, generator=g) - fill(torch.rand(n, n, generator=g)))
    if kind in ("dense", "nonfinite"):
        A, B = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
    if kind == "nonfinite":
        A[n // 2, n // 3], B[n // 3, n // 2], A[0, n - 1] = float("inf"), float("-inf"), float("nan")
    return A, B


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [1, 17, 129, 1000])
@pytest.mark.parametrize("kind", ["triangular", "noisy", "dense", "nonfinite"])
def test_cuda_any_input(op, op_ref, n, kind):
    fill = torch.triu if op_ref is torch.triu else torch.tril
    A, B = any_input(n, kind, fill, n)
    A, B = A.cuda(), B.cuda()
    A0, B0 = A.clone(), B.clone()
    assert_same(op(A, B), op_ref(A @ B))
    assert same_bits(A, A0) and same_bits(B, B0), "inputs modified"


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [1, 17, 129, 1000])
@pytest.mark.parametrize("kind", ["triangular", "noisy", "dense", "nonfinite"])
@pytest.mark.parametrize("dtype,tol", [(torch.float16, 2e-2), (torch.bfloat16, 5e-2)])
def test_cuda_any_input_half_precisions(op, op_ref, n, kind, dtype, tol):
    """float16/bfloat16 on trimm's 16-bit kernels under Detect: the dense product's triangle of
    the given values (fp32 sums, one rounding), NaN and Inf where it has them."""
    fill = torch.triu if op_ref is torch.triu else torch.tril
    A, B = any_input(n, kind, fill, n + 7)
    A, B = A.to(dtype).cuda(), B.to(dtype).cuda()
    A0, B0 = A.clone(), B.clone()
    C = op(A, B)
    assert C.dtype == dtype
    R = op_ref(A.double() @ B.double())
    assert torch.equal(torch.isnan(C), torch.isnan(R)), "NaN in other places"
    inf = torch.isinf(R)
    assert torch.equal(C.double()[inf], R[inf]), "Inf in other places"
    fin = torch.isfinite(R)
    torch.testing.assert_close(C.double()[fin], R[fin], atol=tol * max(1.0, n ** 0.5), rtol=tol)
    bits = lambda x: x.view(torch.int16)
    assert torch.equal(bits(A), bits(A0)) and torch.equal(bits(B), bits(B0)), "inputs modified"


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
def test_cuda_none_and_other_dtype_grads_are_refused_by_name():
    """The CUDA backward checks its grad before anything that reads it (its device)."""
    A = torch.rand(3, 3, device="cuda")
    with pytest.raises(RuntimeError, match="backward: expected a tensor grad, got None"):
        torch.ops.trimm.triu_matmul_backward(None, A, A)
    with pytest.raises(RuntimeError, match="backward: expected grad of A's dtype"):
        torch.ops.trimm.tril_matmul_backward(torch.ones(3, 3, device="cuda", dtype=torch.float64),
                                             A, A)


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
def test_cuda_graph_replays_the_gated_launches():
    """At n = 2048 on sm_90 the operator runs Structure::Detect's chain (the structured launch,
    then the general and exact launches gated on its flags, as programmatic dependents): one
    capture must give the right triangle for whatever the captured tensors hold at replay."""
    n, gen = 2048, torch.Generator().manual_seed(7)
    A, B = (x.cuda() for x in cuda_inputs("triangular", n, torch.triu, gen, torch.float32))
    trimm.triu_matmul(A, B)  # warm-up outside the capture
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = trimm.triu_matmul(A, B)
    for kind in ("triangular", "noisy", "dense", "nonfinite", "triangular"):
        a, b = cuda_inputs(kind, n, torch.triu, gen, torch.float32)
        A.copy_(a)
        B.copy_(b)
        graph.replay()
        torch.cuda.synchronize()
        ref = torch.triu(A.double() @ B.double()).float()
        assert_same(out, ref, atol=1e-3, rtol=1e-3)


def cuda_inputs(kind, n, fill, gen, dtype):
    """Operands of one kind (triangular, noisy, dense, nonfinite), made on the CPU from `gen`."""
    A, B = (fill(torch.rand(n, n, generator=gen, dtype=dtype)) for _ in range(2))
    if kind == "noisy":
        noise = torch.rand(n, n, generator=gen, dtype=dtype)
        A = A + 1e-2 * (noise - fill(noise))
        B = B + 1e-2 * (noise.t() - fill(noise.t()))
    if kind in ("dense", "nonfinite"):
        A, B = (torch.randn(n, n, generator=gen, dtype=dtype) for _ in range(2))
    if kind == "nonfinite":
        A[n // 2, n // 3], B[n // 3, n // 2], A[0, n - 1] = float("inf"), float("-inf"), float("nan")
    return A, B


def same_bits64(x, y):
    return torch.equal(x.view(torch.int64), y.view(torch.int64))


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [1, 2, 17, 129, 300])
@pytest.mark.parametrize("kind", ["triangular", "noisy", "dense", "nonfinite"])
def test_cuda_float64_any_input(op, op_ref, n, kind):
    fill = torch.triu if op_ref is torch.triu else torch.tril
    A, B = cuda_inputs(kind, n, fill, torch.Generator().manual_seed(n), torch.float64)
    A, B = A.cuda(), B.cuda()
    A0, B0 = A.clone(), B.clone()
    C = op(A, B)
    assert C.dtype == torch.float64 and C.device == A.device
    assert_same(C, op_ref(A @ B), atol=1e-10, rtol=1e-10)
    assert same_bits64(A, A0) and same_bits64(B, B0), "inputs modified"


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("n", [3072, 4097])
@pytest.mark.parametrize("kind", ["triangular", "noisy", "dense", "nonfinite"])
def test_cuda_float32_large_any_input(op, op_ref, n, kind):
    """From n = 3072 on sm_90 the operator brings sm90_fp16x3's planes and Detect runs that kernel
    (its helper warps scan the other triangles, gated launches redo the rest): torch's semantics on
    any input. 4097: the operands' rows padded to 16 bytes, C copied out."""
    fill = torch.triu if op_ref is torch.triu else torch.tril
    A, B = cuda_inputs(kind, n, fill, torch.Generator().manual_seed(n), torch.float32)
    A, B = A.cuda(), B.cuda()
    C = op(A, B)
    if kind == "triangular":  # KernelBench's criterion: torch's fp32 product at 1e-4
        assert_same(C, reference(op_ref, A, B))
    assert_same(C, op_ref(A.double() @ B.double()).float(), atol=1e-3, rtol=1e-3)


@needs_cuda
def test_cuda_float32_planes_that_do_not_fit_fall_back():
    """Where sm90_fp16x3's planes (~8 n^2 bytes) cannot be allocated, the operator runs with the
    flag word alone (sm90_tf32x3) instead of raising: the caching allocator is capped so that the
    operands, C and the flags fit and the planes (75 MB at 3072) do not."""
    n, gen = 3072, torch.Generator().manual_seed(3)
    A, B = (x.cuda() for x in cuda_inputs("triangular", n, torch.triu, gen, torch.float32))
    ref = reference(torch.triu, A, B)
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    total = torch.cuda.get_device_properties(0).total_memory
    room = torch.cuda.memory_reserved() + 4 * n * n + (16 << 20)  # C and some slack, no planes
    torch.cuda.set_per_process_memory_fraction(room / total)
    try:
        with pytest.raises(torch.cuda.OutOfMemoryError):  # the cap holds: the planes do not fit
            torch.empty(8 * n * n, dtype=torch.uint8, device="cuda")
        C = trimm.triu_matmul(A, B)
        torch.cuda.synchronize()
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)
    assert_same(C, ref)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_float64_integers_exact(op, op_ref):
    g = torch.Generator().manual_seed(7)
    A = torch.randint(-4, 5, (2, 200, 200), generator=g).double().cuda()
    B = torch.randint(-4, 5, (200, 200), generator=g).double().cuda()
    assert torch.equal(op(A, B), op_ref(A @ B))  # every sum an exact integer


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_float64_views_transposes_batched(op, op_ref):
    kw = dict(device="cuda", dtype=torch.float64)
    n = 130
    big = torch.rand(2 * n, 2 * n, **kw)
    A = big[:n, 3:n + 3]                     # a view with row stride 2n
    B = torch.rand(n, n, **kw).t()           # a transpose: column-major
    assert_same(op(A, B), op_ref(A @ B), atol=1e-10, rtol=1e-10)
    assert_same(op(B, A), op_ref(B @ A), atol=1e-10, rtol=1e-10)
    A, B = torch.rand(2, 1, 33, 33, **kw), torch.rand(3, 33, 33, **kw).transpose(-1, -2)
    C = op(A, B)
    assert C.shape == (2, 3, 33, 33)
    assert_same(C, op_ref(A @ B), atol=1e-10, rtol=1e-10)
    A, B = torch.rand(40, 40, **kw), torch.rand(4, 40, 40, **kw)  # one matrix against a batch
    assert_same(op(A, B), op_ref(A @ B), atol=1e-10, rtol=1e-10)
    assert_same(op(B, A), op_ref(B @ A), atol=1e-10, rtol=1e-10)
    assert op(torch.rand(0, 5, 5, **kw), torch.rand(5, 5, **kw)).shape == (0, 5, 5)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-4), (torch.float64, 1e-10)])
@pytest.mark.parametrize("n", [1, 17, 130])
def test_cuda_backward_matches_torch_autograd(op, op_ref, dtype, tol, n):
    """Gradients against torch's autograd of torch.triu(A @ B): dense signed inputs, a batch
    broadcast against one matrix (the gradient sums over it), views and transposes."""
    g = torch.Generator().manual_seed(n)
    kw = dict(dtype=dtype)
    A = torch.randn(3, n, n, generator=g, **kw).cuda().requires_grad_()
    Bbig = torch.randn(n + 5, n + 5, generator=g, **kw).cuda()
    B = Bbig[2:n + 2, 1:n + 1].t().detach().requires_grad_()  # a transposed view as a leaf
    G = torch.randn(3, n, n, generator=g, **kw).cuda()
    dA, dB = torch.autograd.grad(op(A, B), (A, B), G)
    rA, rB = torch.autograd.grad(op_ref(A @ B), (A, B), G)
    assert dA.dtype == dtype and dB.shape == B.shape
    torch.testing.assert_close(dA, rA, atol=tol, rtol=tol)
    torch.testing.assert_close(dB, rB, atol=tol, rtol=tol)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_backward_nonfinite_like_torch(op, op_ref):
    """The dense product's semantics: a zero of triu(G) times an Inf of B is NaN, as in torch;
    NaN in G's dropped triangle stays out."""
    n = 20
    fill = torch.triu if op_ref is torch.triu else torch.tril
    for dtype in (torch.float32, torch.float64):
        A = torch.randn(n, n, dtype=dtype, device="cuda").requires_grad_()
        B = torch.randn(n, n, dtype=dtype, device="cuda")
        B[3, 7], B[11, 2] = float("inf"), float("-inf")
        B.requires_grad_()
        G = torch.randn(n, n, dtype=dtype, device="cuda")
        G = torch.where(fill(torch.ones_like(G)) == 0, torch.full_like(G, float("nan")), G)
        dA, dB = torch.autograd.grad(op(A, B), (A, B), G)
        rA, rB = torch.autograd.grad(op_ref(A @ B), (A, B), G)
        assert_same(dA, rA, atol=1e-4, rtol=1e-4)
        assert_same(dB, rB, atol=1e-4, rtol=1e-4)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_backward_half_precisions(op, op_ref):
    for dtype, tol in ((torch.float16, 2e-2), (torch.bfloat16, 5e-2)):
        A = torch.rand(2, 33, 33, device="cuda").to(dtype).requires_grad_()
        B = torch.rand(33, 33, device="cuda").to(dtype).requires_grad_()
        G = torch.rand(2, 33, 33, device="cuda").to(dtype)
        dA, dB = torch.autograd.grad(op(A, B), (A, B), G)
        Ad, Bd = A.detach().double().requires_grad_(), B.detach().double().requires_grad_()
        rA, rB = torch.autograd.grad(op_ref(Ad @ Bd), (Ad, Bd), G.double())
        assert dA.dtype == dtype and dB.dtype == dtype
        torch.testing.assert_close(dA.double(), rA, atol=tol * 33, rtol=tol)
        torch.testing.assert_close(dB.double(), rB, atol=tol * 33, rtol=tol)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_gradcheck_fp64(op, op_ref):
    A = torch.randn(2, 7, 7, dtype=torch.float64, device="cuda", requires_grad=True)
    B = torch.randn(7, 7, dtype=torch.float64, device="cuda", requires_grad=True)  # broadcast
    assert torch.autograd.gradcheck(op, (A, B))
    A = torch.randn(70, 70, dtype=torch.float64, device="cuda", requires_grad=True)  # > one tile
    B = torch.randn(70, 70, dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradcheck(op, (A, B), fast_mode=True)


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_double_backward_and_forward_mode_fp64(op, op_ref):
    A = torch.randn(2, 7, 7, dtype=torch.float64, device="cuda", requires_grad=True)
    B = torch.randn(7, 7, dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradgradcheck(op, (A, B), check_fwd_over_rev=True)
    ref = lambda a, b: op_ref(a @ b)  # noqa: E731
    torch.testing.assert_close(torch.func.jacfwd(op)(A.detach(), B.detach()),
                               torch.func.jacfwd(ref)(A.detach(), B.detach()))


@needs_cuda
@pytest.mark.parametrize("op,op_ref", OPS)
def test_cuda_autocast(op, op_ref):
    A = torch.rand(3, 200, 200, device="cuda")
    B = torch.rand(200, 200, device="cuda")
    for dtype in (torch.float16, torch.bfloat16):
        with torch.autocast("cuda", dtype=dtype):
            C = op(A, B)
            assert C.dtype == dtype
            R = op_ref(torch.matmul(A.to(dtype).double(), B.to(dtype).double()))
        torch.testing.assert_close(C.double(), R, atol=1e-2, rtol=1e-2)


@needs_cuda
def test_cuda_backward_operator_on_the_current_stream():
    """torch.ops.trimm.*_backward called directly, on a side stream."""
    A = torch.randn(2, 50, 50, device="cuda")
    B = torch.randn(50, 50, device="cuda")
    G = torch.randn(2, 50, 50, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dA, dB = torch.ops.trimm.triu_matmul_backward(G, A, B)
    torch.cuda.current_stream().wait_stream(s)
    torch.testing.assert_close(dA, torch.triu(G) @ B.t(), atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(dB, A.transpose(-1, -2) @ torch.triu(G), atol=1e-4, rtol=1e-4)
