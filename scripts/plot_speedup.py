#!/usr/bin/env python3
"""Speedup over the reference-equivalent against n, from `trimm bench --json` output.

    scripts/plot_speedup.py BENCH.json OUT.png [--title TEXT]

One line per cuBLAS anchor and per trimm precision (and structure), log-scaled n; the reference
is 1.
"""
import argparse
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("png")
    ap.add_argument("--title", default="")
    ap.add_argument("--all-sizes", action="store_true",
                    help="plot every n, not only powers of two (odd sizes make the lines jagged)")
    args = ap.parse_args()
    rows = json.load(open(args.json))
    lines = defaultdict(dict)
    for r in rows:
        if r["method"].startswith("reference"):
            continue
        if not args.all_sizes and r["n"] & (r["n"] - 1):
            continue
        name = r["method"] if not r["method"].startswith("cuBLAS diag") else "best cuBLAS composition"
        if name.startswith("trimm"):
            # One line per precision and structure, whatever kernel dispatch chose at each n.
            name = "trimm, dispatch's choice" + (" (detect)" if name.endswith("(detect)") else "")
        lines[(name, r["precision"])][r["n"]] = r["speedup"]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for (name, prec), pts in sorted(lines.items()):
        ns = sorted(pts)
        style = "-o" if name.startswith("trimm") else "--."
        ax.plot(ns, [pts[n] for n in ns], style, label=f"{name} ({prec})")
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n")
    ax.set_ylabel("speedup over cuBLAS SGEMM + triu")
    ax.set_title(args.title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.png, dpi=120)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
