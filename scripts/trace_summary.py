#!/usr/bin/env python3
"""Cycles a stage by phase, from the files of scripts/trace_variant.py's instrumented kernel.

    scripts/trace_summary.py /tmp/trace_fp32.txt [...]

Per traced consumer warp: the mean cycles of each phase of a stage (the points are those the
variant stamps: 0 consume entry, 1 before the `ready` wait, 2 after it, 3 after the wgmmas are
issued, 4 after preparing X ahead and loading the next Y fragment, 5 after the wgmma wait; 6 and
7 around prepare_x's `full` wait for stage q, which runs during stage q - 2), then each unit's
start, store and stages.
"""
import collections
import sys

PHASES = [
    ("split (0-1)", lambda v, nxt: v[1] - v[0]),
    ("ready wait (1-2)", lambda v, nxt: v[2] - v[1]),
    ("issue (2-3)", lambda v, nxt: v[3] - v[2]),
    ("prepare X + load Y (3-4)", lambda v, nxt: v[4] - v[3]),
    ("wgmma wait (4-5)", lambda v, nxt: v[5] - v[4]),
    ("promotion, to next stage (5-0')", lambda v, nxt: nxt[0] - v[5] if nxt else None),
    ("`full` wait, 6-7 (in stage q-2's 3-4)", lambda v, nxt: v[7] - v[6] if v[6] > 0 else None),
]


def summarize(path):
    stages = collections.defaultdict(dict)
    units = collections.defaultdict(list)
    for line in open(path):
        f = line.split()
        b, c, i = map(int, f[1:4])
        vals = list(map(int, f[4:]))
        if f[0] == "S":
            stages[(b, c)][i] = vals
        else:
            units[(b, c)].append(vals)
    print(f"== {path}")
    for key in sorted(stages):
        st = stages[key]
        qs = sorted(q for q, v in st.items() if v[0] > 0 and v[5] > 0)
        if not qs:
            continue
        t0 = min(v[0] for v in st.values() if v[0] > 0)
        span = st[qs[-1]][5] - st[qs[0]][0]
        print(f"block slot {key[0]}, consumer {key[1]}: {len(qs)} stages, "
              f"{span / len(qs):.0f} cycles a stage")
        for name, fn in PHASES:
            xs = [fn(st[q], st.get(q + 1) if st.get(q + 1, [0])[0] > 0 else None) for q in qs]
            xs = [x for x in xs if x is not None]
            if xs:
                print(f"    {name:40s} {sum(xs) / len(xs):7.0f}")
        for i, u in enumerate(units[key]):
            if u[0] == 0:
                break
            print(f"    unit {i}: start {u[0] - t0}, store {u[2] - u[1]} cycles, "
                  f"stages {u[3] % 1000000} from {u[3] // 1000000}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        summarize(path)


if __name__ == "__main__":
    main()
