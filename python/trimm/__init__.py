"""trimm: the product of two triangular matrices, computed from the structure.

``trimm.triu_matmul(A, B)`` equals ``torch.triu(torch.matmul(A, B))`` and ``trimm.tril_matmul``
``torch.tril(torch.matmul(A, B))``, for square matrices whose batch dimensions broadcast as
``torch.matmul``'s do, on any input: noise in the other triangle, NaN and Inf included (but
where finite inputs overflow, whether an element is ±Inf or NaN follows the order of the sums
and the fused multiply-adds, which differ between BLAS libraries and kernels). They are
``torch.library`` operators (``torch.ops.trimm.*``) with fake implementations, so they trace
under ``torch.compile``.

CPU and CUDA tensors: float32, float64, float16, bfloat16, with autograd. The backward products
dA = triu(G)·Bᵀ and dB = Aᵀ·triu(G) (``torch.ops.trimm.*_backward``) have the dense product's
semantics, as torch's autograd of ``torch.triu(A @ B)``, and run on trimm's own code: its CPU
backend, or on CUDA its tiled GPU kernel (fp32 FMA for float32, fp64 for float64; float16 and
bfloat16 in float32, rounded once), on the current stream.
Derivatives of any order, reverse and forward mode: the backward operators are differentiable
too, each operator has a jvp, and ``torch.func``'s transforms (jvp, jacfwd, jacrev, hessian,
vmap) work through ``triu_matmul`` / ``tril_matmul`` (``torch.ops.trimm.*`` called directly
inside one that differentiates raises, naming them). Under ``torch.autocast`` they cast
as ``torch.matmul`` does.
CUDA forward: float32, float16, bfloat16 through trimm's GPU structure detection (float32: sm_90
at any n, other GPUs from sm_80 up to n = 1216, on the small kernel's fp32 paths; float16 and
bfloat16: any GPU from sm_80 at any n); float64 through a plain fp64 kernel over every k, on any
GPU from sm_80.
"""
import torch
import torch.autograd.forward_ad as fwAD

from . import _C  # noqa: F401  (registers torch.ops.trimm.*)

__all__ = ["triu_matmul", "tril_matmul"]


_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16)


def _check(name, A, B):
    """The operators' argument checks and output shape, as their C++ kernels make them, for the
    fake implementations (torch.compile, meta tensors)."""
    torch._check(A is not None and B is not None,
                 lambda: f"{name}: expected tensors A and B, got None for "
                         f"{'B' if A is not None else 'A'}")
    torch._check(A.dim() >= 2 and B.dim() >= 2,
                 lambda: f"{name}: expected A and B with at least 2 dimensions, "
                         f"got A of shape {list(A.shape)} and B of shape {list(B.shape)}")
    torch._check(A.device == B.device,
                 lambda: f"{name}: expected A and B on the same device, got {A.device} and {B.device}")
    torch._check(A.dtype == B.dtype,
                 lambda: f"{name}: expected A and B of the same dtype, got {A.dtype} and {B.dtype}")
    torch._check(A.dtype in _DTYPES,
                 lambda: f"{name}: expected float32, float64, float16 or bfloat16, got {A.dtype}")
    n = A.shape[-1]
    torch._check(A.shape[-2] == n and B.shape[-2] == n and B.shape[-1] == n,
                 lambda: f"{name}: expected square n x n matrices of one n, "
                         f"got A of shape {list(A.shape)} and B of shape {list(B.shape)}")
    try:
        batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    except RuntimeError:
        raise RuntimeError(f"{name}: the size of A's batch dimensions {list(A.shape[:-2])} must "
                           f"broadcast with B's {list(B.shape[:-2])}, as in torch.matmul") from None
    return (*batch, n, n)


@torch.library.register_fake("trimm::triu_matmul")
def _triu_fake(A, B):
    return A.new_empty(_check("trimm.triu_matmul", A, B))


@torch.library.register_fake("trimm::tril_matmul")
def _tril_fake(A, B):
    return A.new_empty(_check("trimm.tril_matmul", A, B))


def _backward_fake(name):
    def fake(grad, A, B):
        shape = _check(name, A, B)
        torch._check(grad is not None, lambda: f"{name} backward: expected a tensor grad, got None")
        torch._check(grad.dtype == A.dtype,
                     lambda: f"{name} backward: expected grad of A's dtype {A.dtype}, "
                             f"got {grad.dtype}")
        torch._check(tuple(grad.shape) == tuple(shape),
                     lambda: f"{name} backward: expected grad of shape {list(shape)}, "
                             f"got {list(grad.shape)}")
        return A.new_empty(shape), B.new_empty(shape)
    return fake


torch.library.register_fake("trimm::triu_matmul_backward")(_backward_fake("trimm.triu_matmul"))
torch.library.register_fake("trimm::tril_matmul_backward")(_backward_fake("trimm.tril_matmul"))


# Autograd, reverse and forward mode, to any order. With M = triu (or tril) and the product
# C = M(A·B): the backward operator gives dA = M(G)·Bᵀ, dB = Aᵀ·M(G) for G = ∂L/∂C, and its
# result is bilinear in (G, A, B), so every derivative below is one of the two operators again:
#   forward's tangent      M(Ȧ·B) + M(A·Ḃ)              = op(Ȧ, B) + op(A, Ḃ)
#   backward's gradients   ∂/∂G = M(ḡA·B) + M(A·ḡB)     = op(ḡA, B) + op(A, ḡB)
#                          ∂/∂A = M(G)·ḡBᵀ, ∂/∂B = ḡAᵀ·M(G) = backward(G, ḡA, ḡB)
#   backward's tangent     backward(Ġ, A, B) + backward(G, Ȧ, Ḃ)
# torch.library.register_autograd covers reverse mode only (under forward mode its kernel drops
# the tangents without a word), so each operator gets an Autograd kernel of its own that routes
# through an autograd.Function with a jvp.


def _or_zeros(t, like):
    return torch.zeros_like(like) if t is None else t


def _autograd_kernel(op, function):
    """The Autograd dispatch key's kernel for `op`: the autograd.Function where anything may need
    a derivative (grad mode with an input that requires grad, or a forward-mode level open),
    else straight to the kernels below autograd."""
    def kernel(keyset, *args):
        if ((torch.is_grad_enabled() and torch._C._any_requires_grad(*args))
                or fwAD._current_level >= 0):
            torch._check(torch._C._functorch.maybe_current_level() is None,
                         lambda: f"{op}: torch.func's transforms need trimm's Python functions "
                                 f"(trimm.triu_matmul, trimm.tril_matmul), called in eager "
                                 f"mode: not the operator, and not under torch.compile, which "
                                 f"cannot trace their custom jvp")
            return function.apply(*args)
        with torch._C._AutoDispatchBelowAutograd():
            return op.redispatch(keyset & torch._C._after_autograd_keyset, *args)
    return kernel


def _combined(function):
    """`function` in autograd.Function's older form, forward(ctx, ...) saving for both modes, for
    the operators' Autograd kernels: with a separate setup_context, every apply binds its
    arguments through inspect.signature (~20 µs a call on the CPU), which only torch.func's
    transforms need (they get `function` itself, where Python calls it)."""
    def forward(ctx, *args):
        ctx.save_for_backward(*args)
        ctx.save_for_forward(*args)
        return function.forward(*args)

    return type(f"{function.__name__}Combined", (torch.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(function.backward),
                 "jvp": staticmethod(function.jvp)})


def _save_inputs(ctx, inputs, output):
    ctx.save_for_backward(*inputs)
    ctx.save_for_forward(*inputs)


def _below_autograd(op, *args):
    with torch._C._AutoDispatchBelowAutograd():
        return op(*args)


def _register_autograd(fill):
    op = getattr(torch.ops.trimm, f"{fill}_matmul").default
    backward_op = getattr(torch.ops.trimm, f"{fill}_matmul_backward").default

    def call(function, op, *args):
        # torch.func's transforms take an autograd.Function where Python calls it, not from
        # inside a dispatcher kernel; torch.compile takes the operator (dynamo does not trace a
        # custom jvp).
        if (not torch.compiler.is_compiling()
                and torch._C._functorch.maybe_current_level() is not None):
            return function.apply(*args)
        return op(*args)

    class Product(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(A, B):
            return _below_autograd(op, A, B)

        setup_context = staticmethod(_save_inputs)

        @staticmethod
        def backward(ctx, grad):
            A, B = ctx.saved_tensors
            dA, dB = backward(grad.contiguous(), A, B)
            # Broadcast batch dimensions: the gradient sums over them, as matmul's does.
            return (dA.sum_to_size(A.shape) if ctx.needs_input_grad[0] else None,
                    dB.sum_to_size(B.shape) if ctx.needs_input_grad[1] else None)

        @staticmethod
        def jvp(ctx, tA, tB):
            A, B = ctx.saved_tensors
            return product(_or_zeros(tA, A), B) + product(A, _or_zeros(tB, B))

    class Backward(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(G, A, B):
            return _below_autograd(backward_op, G, A, B)

        setup_context = staticmethod(_save_inputs)

        @staticmethod
        def backward(ctx, gA, gB):
            G, A, B = ctx.saved_tensors  # gA and gB are materialized: zeros, never None
            dG = product(gA, B) + product(A, gB) if ctx.needs_input_grad[0] else None
            dA = dB = None
            if ctx.needs_input_grad[1] or ctx.needs_input_grad[2]:
                dA, dB = backward(G, gA, gB)
            return (dG,
                    dA.sum_to_size(A.shape) if ctx.needs_input_grad[1] else None,
                    dB.sum_to_size(B.shape) if ctx.needs_input_grad[2] else None)

        @staticmethod
        def jvp(ctx, tG, tA, tB):
            G, A, B = ctx.saved_tensors
            dA1, dB1 = backward(_or_zeros(tG, G), A, B)
            dA2, dB2 = backward(G, _or_zeros(tA, A), _or_zeros(tB, B))
            return dA1 + dA2, dB1 + dB2

    def product(A, B):
        return call(Product, op, A, B)

    def backward(G, A, B):
        return call(Backward, backward_op, G, A, B)

    _lib.impl(f"{fill}_matmul", _autograd_kernel(op, _combined(Product)), "Autograd",
              with_keyset=True)
    _lib.impl(f"{fill}_matmul_backward", _autograd_kernel(backward_op, _combined(Backward)),
              "Autograd", with_keyset=True)
    for device_type, key in (("cpu", torch._C.DispatchKey.AutocastCPU),
                             ("cuda", torch._C.DispatchKey.AutocastCUDA)):
        _lib.impl(f"{fill}_matmul", _autocast_kernel(op, device_type, key), key.name)
    torch.library.register_vmap(f"trimm::{fill}_matmul", _vmap_rule(op, backward=False))
    torch.library.register_vmap(f"trimm::{fill}_matmul_backward",
                                _vmap_rule(backward_op, backward=True))
    return product


def _vmap_rule(op, backward):
    """torch.vmap's rule: the operators broadcast batch dimensions themselves, so the mapped
    dimension moves to the front of each input that has one, ahead of ones that line its batch
    dimensions up with the others' (the backward operator also needs grad at the full shape)."""
    def rule(info, in_dims, *args):
        rank = max(x.dim() - (d is not None) for x, d in zip(args, in_dims))
        moved = []
        for x, d in zip(args, in_dims):
            if d is not None:
                x = x.movedim(d, 0)
                x = x.reshape(x.shape[:1] + (1,) * (rank - x.dim() + 1) + x.shape[1:])
            moved.append(x)
        if backward:
            full = torch.broadcast_shapes(*(x.shape for x in moved))
            moved = [x.expand(full) for x in moved]
            return op(*moved), (0, 0)
        return op(*moved), 0
    return rule


def _autocast_kernel(op, device_type, key):
    """Autocast, as torch.matmul takes it: float tensors other than float64 are cast to the
    region's dtype, then the operator runs with autocast off for this device."""
    def kernel(*args):
        dtype = torch.get_autocast_dtype(device_type)
        args = [x.to(dtype) if x.is_floating_point() and x.dtype != torch.float64 else x
                for x in args]
        with torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(key)):
            return op(*args)
    return kernel


_lib = torch.library.Library("trimm", "IMPL")
_PRODUCT = {fill: _register_autograd(fill) for fill in ("triu", "tril")}


def triu_matmul(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.triu(torch.matmul(A, B)) for square matrices (see the module's docstring)."""
    return _PRODUCT["triu"](A, B)


def tril_matmul(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.tril(torch.matmul(A, B)) for square matrices (see the module's docstring)."""
    return _PRODUCT["tril"](A, B)
