#!/usr/bin/env python3
"""Representation error of fp32-accurate products on low-precision tensor cores, on the host
(numpy, fp64 sums: only the splits' error, no accumulation error). For docs/sm90_fp16x3_plan.md.

    scripts/split_accuracy.py [n]          (default 1024; 2048 takes ~10 s)

Schemes (each operand x split into pieces whose pairwise products the tensor cores sum exactly):
  tf32x3   sm90_tf32x3 as landed: A big = trunc_tf32, small = rn_tf32(x - big); B big = rn_tf32,
           small = trunc_tf32(y - big); big*big + big*small + small*big.
  fp16x2   x = h0 + 2^-11 h1 with h0 = rn_fp16(x), h1 = rn_fp16((x - h0) 2^11), three products
           h0*h0 + 2^-11 (h0*h1 + h1*h0); with per-row (A) / per-column (B) power-of-two scales
           (`scaled`: each row's / column's largest |x| brought into [2^3, 2^4)).
Inputs: torch.rand- and torch.randn-style upper triangles, and ranges fp16 cannot hold unscaled.
Prints the normwise error ||C - C64|| / ||C64|| against the exact fp64 product.
"""
import sys

import numpy as np


def tf32(x, rn):
    b = x.astype(np.float32).view(np.uint32)
    if rn:
        b = b + np.uint32(0x1000)
    return (b & np.uint32(0xFFFFE000)).view(np.float32)


def f64(x):
    return x.astype(np.float64)


def tf32x3(A, B):
    ab = tf32(A, False)
    as_ = tf32(A - ab, True)
    bb = tf32(B, True)
    bs = tf32(B - bb, False)
    return f64(as_) @ f64(bb) + f64(ab) @ f64(bs) + f64(ab) @ f64(bb)


def pow2_scale(m, axis):
    """Per-row (axis=1) or per-column (axis=0) powers of two taking max |x| into [2^3, 2^4)."""
    mx = np.max(np.abs(m), axis=axis, keepdims=True).astype(np.float64)
    e = np.where(mx > 0, np.floor(np.log2(np.where(mx > 0, mx, 1.0))), 0.0)
    return np.exp2(3.0 - e)


def split16(x):
    with np.errstate(over="ignore"):
        h0 = x.astype(np.float16)
        h1 = ((x - h0.astype(np.float32)) * np.float32(2048.0)).astype(np.float16)
    return f64(h0), f64(h1)


def fp16x2(A, B, scaled):
    sa = pow2_scale(A, 1) if scaled else 1.0
    sb = pow2_scale(B, 0) if scaled else 1.0
    a0, a1 = split16((A * sa).astype(np.float32))
    b0, b1 = split16((B * sb).astype(np.float32))
    with np.errstate(invalid="ignore", over="ignore"):
        C = a0 @ b0 + (a0 @ b1 + a1 @ b0) / 2048.0
    return C / sa / sb


def err(C, C64):
    with np.errstate(invalid="ignore", over="ignore"):
        return np.linalg.norm(C - C64) / np.linalg.norm(C64)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    rng = np.random.default_rng(2026)
    u = lambda: np.triu(rng.random((n, n), dtype=np.float32))
    g = lambda: np.triu(rng.standard_normal((n, n), dtype=np.float32))
    # Rows of very different magnitudes (each row of A and column of B its own scale).
    wide = lambda: (g() * np.exp2(rng.integers(-40, 40, size=(n, 1))).astype(np.float32))
    cases = {
        "rand": (u(), u()),
        "randn": (g(), g()),
        "randn * 1e6": (g() * np.float32(1e6), g() * np.float32(1e6)),
        "rand * 1e-6": (u() * np.float32(1e-6), u() * np.float32(1e-6)),
        "rows 2^+-40": (wide(), wide().T.copy()),
    }
    print(f"n = {n}: normwise error against the exact product")
    print(f"{'inputs':14s} {'fp32 sgemm':>11s} {'tf32x3':>9s} {'fp16x2':>9s} {'fp16x2 scaled':>14s}")
    for name, (A, B) in cases.items():
        A, B = np.triu(A), np.triu(B)
        C64 = f64(A) @ f64(B)
        row = [err(f64(A @ B), C64), err(tf32x3(A, B), C64), err(fp16x2(A, B, False), C64),
               err(fp16x2(A, B, True), C64)]
        print(f"{name:14s} " + " ".join(f"{v:>11.2e}" if i == 0 else f"{v:>9.2e}" if i < 3
                                        else f"{v:>14.2e}" for i, v in enumerate(row)))


if __name__ == "__main__":
    main()
