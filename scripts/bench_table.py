#!/usr/bin/env python3
"""Prints `trimm bench --json` output as a markdown table (for bench/RESULTS.md and device logs).

    scripts/bench_table.py bench.json
"""
import json
import sys


def main(path):
    rows = json.load(open(path))
    print("| n | method | dtype | prec | ms | × reference | max_viol | rel_err |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']} | {r['method']} | {r.get('dtype', 'fp32')} | {r['precision']} | "
              f"{r['ms']:.4f} | {r['speedup']:.2f} | {r['max_violation']:.3g} | {r['rel_err']:.3g} |")


if __name__ == "__main__":
    main(sys.argv[1])
