#!/usr/bin/env python3
"""The timings of a device-variants.sh run (its variants.txt) as a table: for each tree and kernel,
the fastest–slowest median over the rounds at each size, and the change of the fastest against
base's fastest.

usage: scripts/variants_table.py VARIANTS_TXT
"""
import collections
import re
import sys


def parse(lines):
    """{(tree, kernel): {n: [ms, ...]}} in the order the trees first appear."""
    times = collections.OrderedDict()
    for line in lines:
        m = re.match(r"round \d+\s+(\S+)\s+(.*)", line)
        if not m:
            continue
        for row in re.finditer(r"(\d+)\s+trimm (\S+( \([a-z]+\))?)\s+\S+\s+\S+\s+([\d.]+)",
                               m.group(2)):
            n, kernel, ms = int(row.group(1)), row.group(2), float(row.group(4))
            times.setdefault((m.group(1), kernel), collections.defaultdict(list))[n].append(ms)
    return times


def table(times):
    sizes = sorted({n for by_n in times.values() for n in by_n})
    out = ["| tree | kernel | " + " | ".join(str(n) for n in sizes) + " |",
           "|---|---|" + "---|" * len(sizes)]
    for (tree, kernel), by_n in times.items():
        base = times.get(("base", kernel), {})
        cells = []
        for n in sizes:
            ms = by_n.get(n)
            if not ms:
                cells.append("—")
                continue
            cell = f"{min(ms):.4f}–{max(ms):.4f}"
            if tree != "base" and base.get(n):
                cell += f" ({(min(ms) - min(base[n])) * 1000:+.1f} µs)"
            cells.append(cell)
        out.append(f"| {tree} | {kernel} | " + " | ".join(cells) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    with open(sys.argv[1]) as f:
        print(table(parse(f)))
