#!/usr/bin/env python3
"""Summarize s40_block_trace.patch's BT lines (per block of sm90_16bit's pair kernel:
globaltimer at entry, at the consumers' end, after the last cluster barrier; SM id; stages).

Usage: block_trace_summary.py FILE...  (lines: BT call n block smid start own_end end stages)
Per n, over the calls: the start spread, the blocks' own ends (min, median, mean, max), the
idle time at the end (the kernel's last end minus each block's own end, averaged: what a
perfectly balanced tail could give back at most), and the correlation of own end with stages.
"""
import statistics as st
import sys
from collections import defaultdict


def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    sx = sum((a - mx) ** 2 for a in x) ** 0.5
    sy = sum((b - my) ** 2 for b in y) ** 0.5
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / (sx * sy) if sx and sy else 0.0


calls = defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) == 9 and f[0] == "BT":
            calls[(path, int(f[2]), int(f[1]))].append(
                dict(block=int(f[3]), smid=int(f[4]), start=int(f[5]) / 1e3,
                     own=int(f[6]) / 1e3, end=int(f[7]) / 1e3, stages=int(f[8])))

by_n = defaultdict(list)
for (path, n, call), rows in calls.items():
    by_n[n].append(rows)

for n, runs in sorted(by_n.items()):
    runs = runs[2:] if len(runs) > 4 else runs  # skip the warm-up calls
    agg = defaultdict(list)
    smid_own = defaultdict(list)
    for rows in runs:
        own = [r["own"] for r in rows]
        end = max(r["end"] for r in rows)
        agg["start_max"].append(max(r["start"] for r in rows))
        agg["own_min"].append(min(own))
        agg["own_med"].append(st.median(own))
        agg["own_mean"].append(st.mean(own))
        agg["own_max"].append(max(own))
        agg["end"].append(end)
        agg["idle_mean"].append(end - st.mean(own))
        agg["corr_stages"].append(corr([r["stages"] for r in rows], own))
        for r in rows:
            smid_own[r["smid"]].append(r["own"] - st.mean(own))
    print(f"n {n}: {len(runs)} calls, {len(runs[0])} blocks, "
          f"stages {min(r['stages'] for r in runs[0])}-{max(r['stages'] for r in runs[0])}")
    for k, v in agg.items():
        print(f"  {k:12s} median {st.median(v):8.2f}  min {min(v):8.2f}  max {max(v):8.2f}")
    fast = sorted(smid_own.items(), key=lambda kv: st.mean(kv[1]))
    print("  fastest SMs (own end - mean, us):",
          " ".join(f"{k}:{st.mean(v):+.1f}" for k, v in fast[:8]))
    print("  slowest SMs:", " ".join(f"{k}:{st.mean(v):+.1f}" for k, v in fast[-8:]))
