#!/usr/bin/env python3
"""Where a kernel's warps wait, instruction by instruction (scripts/device.sh, step ncu_source).

Reads the CSV of Nsight Compute's source page (`ncu --import R --page source --csv
--print-source sass`) and prints the instructions with the most warp-stall samples, then the
samples summed by opcode. The column names differ between ncu versions, so they are found by
their words; when they are not found, the header is printed instead (to fix this script).
usage: ncu_source_summary.py SOURCE.csv [TOP]
"""
import csv
import sys
from collections import defaultdict


def number(text):
    try:
        return float(str(text).replace(",", "").strip() or 0)
    except ValueError:
        return 0.0


def find(header, *words):
    """The first column whose name holds every word (case-insensitive)."""
    for name in header:
        if all(w.lower() in name.lower() for w in words):
            return name
    return None


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    # ncu may print banner lines (==PROF== ...) and a "Kernel Name" line before the CSV header.
    start = next((i for i, l in enumerate(lines)
                  if l.startswith('"') and len(next(csv.reader([l]))) > 3), None)
    if start is None:
        print("no CSV in", path)
        print("\n".join(lines[:20]))
        return 1
    rows = list(csv.DictReader(lines[start:]))
    header = list(rows[0].keys()) if rows else []
    source = find(header, "source") or find(header, "sass")
    address = find(header, "address")
    samples = find(header, "stall", "all samples") or find(header, "sampl")
    not_issued = find(header, "stall", "not")
    executed = find(header, "instructions executed") or find(header, "executed")
    if not (source and samples):
        print("columns not found; the header is:")
        for name in header:
            print("  ", name)
        return 1
    total = sum(number(r[samples]) for r in rows) or 1.0
    print(f"{len(rows)} instructions, {total:.0f} warp-stall samples ({samples})")
    print(f"{'address':>8} {'samples':>8} {'%':>6} {'not issued':>10} {'executed':>10}  sass")
    for r in sorted(rows, key=lambda r: -number(r[samples]))[:top]:
        print(f"{(r.get(address) or '')[-8:]:>8} {number(r[samples]):8.0f} "
              f"{100 * number(r[samples]) / total:6.2f} "
              f"{number(r.get(not_issued, 0)) if not_issued else 0:10.0f} "
              f"{number(r.get(executed, 0)) if executed else 0:10.0f}  {r[source].strip()[:90]}")
    by_op = defaultdict(float)
    for r in rows:
        text = r[source].strip()
        op = text.split()[0] if text else "?"
        if op.startswith("@") and len(text.split()) > 1:  # a predicate guard: the opcode follows
            op = text.split()[1]
        by_op[op.split(".")[0]] += number(r[samples])
    print("samples by opcode:")
    for op, n in sorted(by_op.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {op:<16} {n:8.0f} {100 * n / total:6.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
