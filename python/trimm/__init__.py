"""trimm: the product of two triangular matrices, computed from the structure.

``trimm.triu_matmul(A, B)`` equals ``torch.triu(torch.matmul(A, B))`` and ``trimm.tril_matmul``
``torch.tril(torch.matmul(A, B))``, for square matrices whose batch dimensions broadcast as
``torch.matmul``'s do, on any input: noise in the other triangle, NaN and Inf included. They are
``torch.library`` operators (``torch.ops.trimm.*``) with fake implementations, so they trace
under ``torch.compile``.

CPU and CUDA tensors: float32, float64, float16, bfloat16, with autograd. The backward products
dA = triu(G)·Bᵀ and dB = Aᵀ·triu(G) (``torch.ops.trimm.*_backward``) have the dense product's
semantics, as torch's autograd of ``torch.triu(A @ B)``, and run on trimm's own code: its CPU
backend, or on CUDA its tiled GPU kernel (fp32 FMA for float32, fp64 for float64; float16 and
bfloat16 in float32, rounded once), on the current stream.
CUDA forward: float32, float16, bfloat16 through trimm's GPU structure detection (sm_90 at any n;
other GPUs from sm_80 up to n = 1216, on the small kernel's fp32 paths); float64
through a plain fp64 kernel over every k, on any GPU from sm_80.
"""
import torch

from . import _C  # noqa: F401  (registers torch.ops.trimm.*)

__all__ = ["triu_matmul", "tril_matmul"]


_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16)


def _check(name, A, B):
    """The operators' argument checks and output shape, as their C++ kernels make them, for the
    fake implementations (torch.compile, meta tensors)."""
    torch._check(A.dim() >= 2 and B.dim() >= 2,
                 lambda: f"{name}: expected A and B with at least 2 dimensions, "
                         f"got A of shape {tuple(A.shape)} and B of shape {tuple(B.shape)}")
    torch._check(A.device == B.device,
                 lambda: f"{name}: expected A and B on the same device, got {A.device} and {B.device}")
    torch._check(A.dtype == B.dtype,
                 lambda: f"{name}: expected A and B of the same dtype, got {A.dtype} and {B.dtype}")
    torch._check(A.dtype in _DTYPES,
                 lambda: f"{name}: expected float32, float64, float16 or bfloat16, got {A.dtype}")
    n = A.shape[-1]
    torch._check(A.shape[-2] == n and B.shape[-2] == n and B.shape[-1] == n,
                 lambda: f"{name}: expected square n x n matrices of one n, "
                         f"got A of shape {tuple(A.shape)} and B of shape {tuple(B.shape)}")
    try:
        batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    except RuntimeError:
        raise RuntimeError(f"{name}: the size of A's batch dimensions {tuple(A.shape[:-2])} must "
                           f"broadcast with B's {tuple(B.shape[:-2])}, as in torch.matmul") from None
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
        return A.new_empty(shape), B.new_empty(shape)
    return fake


torch.library.register_fake("trimm::triu_matmul_backward")(_backward_fake("trimm.triu_matmul"))
torch.library.register_fake("trimm::tril_matmul_backward")(_backward_fake("trimm.tril_matmul"))


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _autograd(backward_op):
    def backward(ctx, grad):
        A, B = ctx.saved_tensors
        dA, dB = backward_op(grad.contiguous(), A, B)
        # Broadcast batch dimensions: the gradient sums over them, as matmul's does.
        return (dA.sum_to_size(A.shape) if ctx.needs_input_grad[0] else None,
                dB.sum_to_size(B.shape) if ctx.needs_input_grad[1] else None)
    return backward


torch.library.register_autograd("trimm::triu_matmul", _autograd(torch.ops.trimm.triu_matmul_backward),
                                setup_context=_setup_context)
torch.library.register_autograd("trimm::tril_matmul", _autograd(torch.ops.trimm.tril_matmul_backward),
                                setup_context=_setup_context)


def triu_matmul(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.triu(torch.matmul(A, B)) for square matrices (see the module's docstring)."""
    return torch.ops.trimm.triu_matmul(A, B)


def tril_matmul(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """torch.tril(torch.matmul(A, B)) for square matrices (see the module's docstring)."""
    return torch.ops.trimm.tril_matmul(A, B)
