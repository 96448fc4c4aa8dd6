#!/usr/bin/env python3
"""Prints the README's results table from one device call's four sweeps (`trimm bench --json`):

    scripts/readme_table.py FP32.json TF32.json BF16.json FP16.json

FP32: `--structure both --workspace`; TF32: `--precision tf32 --workspace`; BF16, FP16:
`--dtype bf16` / `--dtype fp16`, each over the same sizes. Speedups are against the reference row
of the same sweep (cuBLAS SGEMM + triu, or GemmEx in the 16-bit type + triu).
"""
import json
import sys


def by_n(path):
    rows = {}
    for r in json.load(open(path)):
        rows.setdefault(r["n"], []).append(r)
    return rows


def pick(rows, test):
    hits = [r for r in rows if test(r)]
    return hits[0] if hits else None


def kernel(r):
    return r["method"].removeprefix("trimm ").removesuffix(" (detect)")


def ms(r):
    if r is None:
        return "—"
    return f"{r['ms']:.4f} ms" if r["ms"] < 1 else f"{r['ms']:#.4g} ms"


def trimm_cell(r, speedup=True):
    if r is None:
        return "—"
    inner = f"{r['speedup']:.2f}×, {kernel(r)}" if speedup else kernel(r)
    return f"{ms(r)} ({inner})"


def is_ref(r):
    return r["method"].startswith("reference")


def is_trimm(r):
    return r["method"].startswith("trimm ")


def main(fp32, tf32, bf16, fp16):
    f32, t32, b16, h16 = by_n(fp32), by_n(tf32), by_n(bf16), by_n(fp16)
    print("| n | reference-equivalent (SGEMM + triu) | cuBLAS STRMM | best cuBLAS composition | "
          "trimm `ieee` | trimm `fp32` | trimm `fp32`, `Detect` | trimm `tf32`; cuBLAS TF32 "
          "composition | trimm bf16 data (× GemmEx bf16 + triu) | trimm fp16 data |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sorted(f32):
        rows, trows = f32[n], t32.get(n, [])
        ref = pick(rows, is_ref)
        strmm = pick(rows, lambda r: r["method"] == "cuBLAS STRMM")
        comp = pick(rows, lambda r: r["method"].startswith("cuBLAS diag-batched")
                    and "TF32" not in r["method"])
        ieee = pick(rows, lambda r: is_trimm(r) and r["precision"] == "ieee")
        full = pick(rows, lambda r: is_trimm(r) and r["precision"] == "fp32"
                    and "(detect)" not in r["method"])
        detect = pick(rows, lambda r: is_trimm(r) and "(detect)" in r["method"])
        tf = pick(trows, lambda r: is_trimm(r) and r["precision"] == "tf32")
        tfc = pick(trows, lambda r: "(TF32)" in r["method"])
        bf = pick(b16.get(n, []), is_trimm)
        hf = pick(h16.get(n, []), is_trimm)
        cells = [str(n), ms(ref), ms(strmm), ms(comp), trimm_cell(ieee),
                 f"**{trimm_cell(full)}**", trimm_cell(detect),
                 f"{trimm_cell(tf, speedup=False)}; {ms(tfc)}", trimm_cell(bf), trimm_cell(hf)]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
