#!/usr/bin/env python3
"""Summarize s40_probe_parts_trace.patch's ST lines: consumer thread 0 of each sm90_16bit pair
block, its clock (cycles) at entry, before and after each stage's issue (the wait for `full`,
the masks, four wgmmas), at each level's first stage and after each store.

Per file: the prologue (entry to the first stage's post), the steady stage period (post to post
within a level), the switch (the last stage's post of a level to the next level's first post),
the wait inside a stage (pre to post), the store of a level's C (from the next level's first
post to the store's end) and, where the trace has them (the "pro" fields), the prologue's parts.
"""
import sys

from trace_stats import stats


def summary(name, v, blocks):
    return stats(name, v) + (f"  sum/block {sum(v) / blocks:9.0f}" if v else "")


for path in sys.argv[1:]:
    pro, period, switch, wait, store, total = [], [], [], [], [], []
    blocks = 0
    prologue_parts = {}
    for line in open(path, errors="replace"):
        f = line.split()
        if not f or f[0] != "ST":
            continue
        blocks += 1
        entry = int(f[5])
        i = f.index("lev")
        lev = [int(x) for x in f[i + 1:i + 33]]
        i = f.index("store")
        stores = [int(x) for x in f[i + 1:i + 33]]
        i = f.index("pre")
        pre = [int(x) for x in f[i + 1:i + 161]]
        if "pro" in f:
            i = f.index("pro")
            pr = [int(x) for x in f[i + 1:i + 6]]
            marks = [entry] + pr
            for j, name in enumerate(["init", "decode", "cluster sync", "first loads",
                                      "syncthreads"]):
                prologue_parts.setdefault(name, []).append((marks[j + 1] - marks[j]) & 0xFFFFFFFF)
        i = f.index("post")
        post = [int(x) for x in f[i + 1:i + 161]]
        firsts = [0] + [x for x in lev[1:] if x > 0]
        # stages issued: up to the last nonzero post
        n = max(k for k in range(160) if post[k] != 0) + 1
        d = lambda a, b: (b - a) & 0xFFFFFFFF
        pro.append(d(entry, post[0]))
        total.append(d(entry, post[n - 1]))
        for k in range(1, n):
            (switch if k in firsts else period).append(d(post[k - 1], post[k]))
        for k in range(n):
            wait.append(d(pre[k], post[k]))
        for j in range(min(31, len(firsts) - 1)):  # store j follows level j + 1's first issue
            if stores[j] and firsts[j + 1] < n:
                store.append(d(post[firsts[j + 1]], stores[j]))
    print(f"{path}: {blocks} block records")
    for name, v in [("prologue (entry->1st)", pro), ("stage period", period),
                    ("switch period", switch), ("in-stage wait+issue", wait),
                    ("store after 1st issue", [x for x in store if x]),
                    ("entry->last issue", total)]:
        print(summary(name, v, blocks))
    for name, v in prologue_parts.items():
        print(summary("prologue: " + name, v, blocks))
