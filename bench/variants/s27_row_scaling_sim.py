#!/usr/bin/env python3
"""Simulates sm90_fp16x3's two-plane split of C = triu(A @ B) under COL scaling (A by rows,
B by columns: the kernel up to session 26) and ROW scaling (B by rows, A by s_i / u_k:
bench/variants/s27_row_scaled_b.patch): errors against fp64 and lost-element counts.
Run: python3 s27_row_scaling_sim.py 512,1024 abcdef 0,1,2 (families: bench/NOTES.md, session 26)."""
import sys, time
import numpy as np

F16_MIN_NORMAL = 2.0 ** -14


def pow2_exp(m):
    """Integer e such that m * 2^e in [8,16); e = 0 where m == 0."""
    m = np.asarray(m, dtype=np.float64)
    e = np.zeros(m.shape, dtype=np.int64)
    nz = m > 0
    # frexp: m = f * 2^q, f in [0.5,1) -> floor(log2 m) = q-1 (exact, no log rounding)
    _, q = np.frexp(m[nz])
    e[nz] = 3 - (q.astype(np.int64) - 1)
    return e


def split(v, extra_lost=None):
    """v: float32 scaled values. Returns (h0, h1 as float64 arrays, lost mask)."""
    with np.errstate(invalid="ignore", over="ignore"):
        lost = (v != 0) & (np.abs(v) < F16_MIN_NORMAL)
        if extra_lost is not None:
            lost |= extra_lost
        v = np.where(lost, np.float32(0), v).astype(np.float32)
        h0 = v.astype(np.float16)
        r = (v - h0.astype(np.float32)) * np.float32(2048.0)   # float32 like kernel
        h1 = r.astype(np.float16)
    return h0.astype(np.float64), h1.astype(np.float64), lost


def plane_product(a0, a1, b0, b1):
    return a0 @ b0 + 2.0 ** -11 * (a0 @ b1 + a1 @ b0)


def corrections(A, B, lostA, lostB):
    """Exact corrections: A-lost x*B[k,:]; B-lost A'[:,k]*y, A' = A minus lost."""
    n = A.shape[0]
    corr = np.zeros((n, n))
    LA = np.where(lostA, A, 0.0)
    K = np.nonzero(lostA.any(axis=0))[0]
    if K.size:
        corr += LA[:, K] @ B[K, :]
    Ap = np.where(lostA, 0.0, A)
    LB = np.where(lostB, B, 0.0)
    K = np.nonzero(lostB.any(axis=1))[0]
    if K.size:
        corr += Ap[:, K] @ LB[K, :]
    return corr


def scheme_col(A, B):
    n = A.shape[0]
    A32 = A.astype(np.float32); B32 = B.astype(np.float32)
    es = pow2_exp(np.abs(np.triu(A)).max(axis=1))         # row i, k>=i
    et = pow2_exp(np.abs(np.triu(B)).max(axis=0))         # col j, k<=j
    s = np.ldexp(np.float32(1), es).astype(np.float32)
    t = np.ldexp(np.float32(1), et).astype(np.float32)
    xs = A32 * s[:, None]
    ys = B32 * t[None, :]
    a0, a1, lostA = split(xs)
    b0, b1, lostB = split(ys)
    P = plane_product(a0, a1, b0, b1)
    C = P / (s.astype(np.float64)[:, None] * t.astype(np.float64)[None, :])
    C += corrections(A32.astype(np.float64), B32.astype(np.float64), lostA, lostB)
    return np.triu(C), lostA.sum(), lostB.sum(), 0


def scheme_row(A, B):
    n = A.shape[0]
    A32 = A.astype(np.float32); B32 = B.astype(np.float32)
    eu = pow2_exp(np.abs(np.triu(B)).max(axis=1))         # row k, j>=k
    u = np.ldexp(np.float32(1), eu).astype(np.float32)
    ys = B32 * u[:, None]
    # row max of |A[i,k] / u_k| (exact in float64), k >= i
    M = (np.abs(np.triu(A.astype(np.float64))) * np.ldexp(1.0, -eu)[None, :]).max(axis=1)
    es = pow2_exp(M)
    e = es[:, None] - eu[None, :]                         # exponent of c_ik = s_i/u_k
    with np.errstate(over="ignore"):
        c = np.ldexp(1.0, e).astype(np.float32)           # may be inf / 0 in float32
    scale_overflow = int((~np.isfinite(c) & (A32 != 0)).sum())
    with np.errstate(over="ignore", invalid="ignore"):
        xs = A32 * c
    xs = np.where(A32 == 0, np.float32(0), xs)            # 0 * inf guarded
    extra = (A32 != 0) & ((np.abs(xs) >= 2.0 ** 15) | ~np.isfinite(xs))
    a0, a1, lostA = split(xs, extra)
    b0, b1, lostB = split(ys)
    P = plane_product(a0, a1, b0, b1)
    s = np.ldexp(1.0, es)
    C = P / s[:, None]
    C += corrections(A32.astype(np.float64), B32.astype(np.float64), lostA, lostB)
    return np.triu(C), lostA.sum(), lostB.sum(), scale_overflow


def make(family, n, rng):
    if family == "b":
        A = np.triu(rng.standard_normal((n, n))); B = np.triu(rng.standard_normal((n, n)))
    else:
        A = np.triu(rng.random((n, n))); B = np.triu(rng.random((n, n)))
    if family == "c":
        B *= np.ldexp(1.0, -rng.integers(0, 21, n))[:, None]
    elif family == "d":
        B *= np.ldexp(1.0, -rng.integers(0, 21, n))[None, :]
    elif family == "e":
        A *= np.ldexp(1.0, -rng.integers(0, 21, n))[None, :]
    elif family == "f":
        B[n - 1, n - 1] = 1e-6
    return A.astype(np.float32), B.astype(np.float32)


def metrics(C, A, B):
    C64 = np.triu(A.astype(np.float64) @ B.astype(np.float64))
    nrm = np.linalg.norm(C64)
    rel64 = np.linalg.norm(C - C64) / nrm           # before the fp32 output rounding
    C = C.astype(np.float32).astype(np.float64)      # kernel writes fp32
    rel = np.linalg.norm(C - C64) / nrm
    viol = np.max(np.abs(C - C64) / (1e-4 + 1e-4 * np.abs(C64)))
    return rel, viol, rel64


def selftest(n=256):
    rng = np.random.default_rng(123)
    A, B = make("a", n, rng)
    for name, f in (("COL", scheme_col), ("ROW", scheme_row)):
        C, la, lb, ov = f(A, B)
        rel, viol, r64 = metrics(C, A, B)
        print(f"selftest {name}: rel={rel:.3e} viol={viol:.3e} rel(pre-fp32)={r64:.3e} lostA={la} lostB={lb}")
    # force lost elements and check corrections are exact-ish
    A2 = A.copy(); A2[0, 5] = 1e-9; B2 = B.copy(); B2[3, 7] = 1e-9; A2[1, 3] = 1e-9
    for name, f in (("COL", scheme_col), ("ROW", scheme_row)):
        C, la, lb, ov = f(A2, B2)
        rel, viol, r64 = metrics(C, A2, B2)
        print(f"selftest(lost) {name}: rel={rel:.3e} viol={viol:.3e} rel(pre-fp32)={r64:.3e} lostA={la} lostB={lb}")


def main():
    ns = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [512, 1024, 2048]
    fams = sys.argv[2] if len(sys.argv) > 2 else "abcdef"
    seeds = [0, 1, 2]
    if len(sys.argv) > 3:
        seeds = [int(x) for x in sys.argv[3].split(",")]
    selftest()
    print("n fam seed | COL rel viol rel64 lostA lostB | ROW rel viol rel64 lostA lostB ovf")
    for n in ns:
        for fam in fams:
            for seed in seeds:
                rng = np.random.default_rng(1000 * n + 10 * ord(fam) + seed)
                A, B = make(fam, n, rng)
                rc = scheme_col(A, B); rr = scheme_row(A, B)
                mc = metrics(rc[0], A, B); mr = metrics(rr[0], A, B)
                print(f"{n} {fam} {seed} | {mc[0]:.3e} {mc[1]:.3e} {mc[2]:.3e} {rc[1]} {rc[2]} | "
                      f"{mr[0]:.3e} {mr[1]:.3e} {mr[2]:.3e} {rr[1]} {rr[2]} {rr[3]}", flush=True)


if __name__ == "__main__":
    main()
