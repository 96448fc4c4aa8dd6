#!/usr/bin/env python3
"""Where sm90_16bit's blocks spend their time, from bench/variants/s33_stamp.patch or
s33_trace.patch (the CLI's stderr of one `trimm bench --sizes 4096 --dtype bf16 --kernel
sm90_16bit` run; plain or .gz).

    scripts/trace16_summary.py TRACE [BARE_STAMPS]

Lines read: STAMP blk smid t0 t1 c0 c1 units stages (global timer in ns, SM clock in cycles, at
a block's start and its consumers' end); with the trace patches also CONS blk (clock before and
after each stage's `full` wait, 100 stages; s33_trace.patch: then the epilogues' start and end,
8 units; s34_trace.patch: at 220 and 221, thread 0's clock before and after the prologue's
__syncthreads) and PROD blk (the clock as the producer passes each stage's `empty` wait); with
s34_trace.patch also SWITCH blk (for 16 units: the producer's clock entering the unit and before
its produce(), then each unit's first stage index). BARE_STAMPS: a second STAMP file whose units
and stages stand in where the first has none (in the runs of session 33 a producer could record
them after block 0 had counted the call). Last, what sets a block's end (its consumers' total
`full` wait, correlated over blocks) and which SMs end first and last.
"""
import gzip
import statistics as st
import sys


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    stamps, cons, prod, switch = {}, {}, {}, {}
    with opener(path, "rt") as f:
        for line in f:
            v = line.split()
            if not v:
                continue
            if v[0] == "STAMP":
                r = list(map(int, v[1:]))
                stamps[r[0]] = r[1:]
            elif v[0] in ("CONS", "PROD", "SWITCH"):
                rows = {"CONS": cons, "PROD": prod, "SWITCH": switch}[v[0]]
                rows[int(v[1])] = list(map(int, v[2:]))
    return stamps, cons, prod, switch


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    stamps, cons, prod, switch = read(argv[1])
    if not stamps:
        sys.exit(f"{argv[1]}: no STAMP lines")
    if len(argv) > 2:
        other = read(argv[2])[0]
        for b, r in stamps.items():
            if r[5] == 0 and b in other:
                r[5], r[6] = other[b][5], other[b][6]
    t0 = min(r[1] for r in stamps.values())
    ends = [(r[2] - t0) / 1e3 for r in stamps.values()]
    ghz = [(r[4] - r[3]) / (r[2] - r[1]) for r in stamps.values()]
    print(f"blocks {len(stamps)} on {len(set(r[0] for r in stamps.values()))} SMs; "
          f"starts within {max(r[1] - t0 for r in stamps.values()) / 1e3:.2f} us")
    print(f"ends (us from the first start): min {min(ends):.2f} median {st.median(ends):.2f} "
          f"max {max(ends):.2f}")
    print(f"SM clock in the kernel (GHz): min {min(ghz):.3f} median {st.median(ghz):.3f} "
          f"max {max(ghz):.3f}")
    work = sorted({(r[5], r[6]) for r in stamps.values()})
    print("units, stages a block:", " ".join(f"{u},{s}" for u, s in work))
    if not cons:
        return
    clock = st.median(ghz) * 1e3  # cycles a microsecond
    first, waits, trans, steady, tail = [], {100: [], 600: []}, [], [], []
    prologue, first_load, buckets = [], [], {}
    # The producer at a switch: its last stage's `empty` pass to the unit's entry, the entry to
    # produce(), produce() to the first stage's `empty` pass.
    sw_parts = ([], [], [])
    for b, r in stamps.items():
        c, p, stages = cons.get(b), prod.get(b), r[6]
        if not c or not 0 < stages <= 100:
            continue
        c0 = r[3]
        before = [c[2 * q] - c0 for q in range(stages)]
        wait = [c[2 * q + 1] - c[2 * q] for q in range(stages)]
        first.append(before[0] + wait[0])
        if len(c) > 221 and c[221]:
            prologue.append(c[221] - c0)
        if p and p[0]:
            first_load.append(p[0] - c0)
        # Load latency (the producer's issue to the data) of the stages the consumers waited
        # for, by 5 µs of the kernel.
        for q in range(min(stages, len(p or []))):
            if wait[q] > 100 and p[q]:
                t = int((c[2 * q + 1] - c0) / clock / 5)
                buckets.setdefault(t, []).append(c[2 * q + 1] - p[q])
        for th in waits:
            waits[th].append(sum(max(0, w - th) for w in wait[1:]))
        period = sorted(before[q + 1] - before[q] for q in range(stages - 1))
        units = r[5]
        steady.append(st.median(period))
        # A block's units - 1 switches are its longest periods between stages.
        trans.append(st.mean(period[-(units - 1):]) if units > 1 else 0)
        tail.append(r[4] - r[3] - before[-1])
        w = switch.get(b)
        for nu in range(1, min(units, 16)):
            q0 = w[32 + nu] if w else 0
            if not (w and w[2 * nu] and p and 0 < q0 < len(p) and p[q0] and p[q0 - 1]):
                continue
            sw_parts[0].append(w[2 * nu] - p[q0 - 1])
            sw_parts[1].append(w[2 * nu + 1] - w[2 * nu])
            sw_parts[2].append(p[q0] - w[2 * nu + 1])
    if not first:
        return
    us = lambda cycles: f"{cycles:.0f} cycles ({cycles / clock:.2f} us)"
    print("per block, median over blocks:")
    if prologue:
        print(f"  start to the prologue's end      {us(st.median(prologue))}")
    if first_load:
        print(f"  start to the producer's 1st load {us(st.median(first_load))}")
    print(f"  start to the first stage's data  {us(st.median(first))}")
    print(f"  a stage (median period)          {us(st.median(steady))}")
    print(f"  a switch between units           {us(st.median(trans))}")
    for th, v in waits.items():
        print(f"  `full` waits beyond {th:3d} cycles  {us(st.median(v))}")
    print(f"  last stage to the end            {us(st.median(tail))}")
    if sw_parts[0]:
        print("the producer at a switch, median over switches "
              f"({len(sw_parts[0])}; a steady stage's pass to pass is the median period):")
        for name, v in zip(("last stage's pass to the unit's entry", "entry to produce()",
                            "produce() to the first stage's pass"), sw_parts):
            print(f"  {name:37s} {us(st.median(v))}")
    if buckets:
        print("load latency of the stages consumers waited for (producer's issue to data), "
              "median by 5 us of the kernel:")
        for t in sorted(buckets):
            print(f"  {5 * t:2d}-{5 * t + 5:2d} us  {us(st.median(buckets[t]))}  "
                  f"({len(buckets[t])} stages)")
    by_sm(stamps, cons, t0, clock)


def by_sm(stamps, cons, t0, clock):
    """What sets a block's end: its consumers' total `full` wait (the correlation over blocks),
    and the SMs that end first and last (session 35: the same SM ids in every trace)."""
    rows = []
    for b, r in stamps.items():
        c, stages = cons.get(b), r[6]
        if c and 0 < stages <= 100:
            wait = sum(max(0, c[2 * q + 1] - c[2 * q]) for q in range(stages))
            rows.append(((r[2] - t0) / 1e3, wait / clock, r[0]))
    if len(rows) < 3:
        return
    end, wait = [x[0] for x in rows], [x[1] for x in rows]
    me, mw = st.mean(end), st.mean(wait)
    cov = sum((e - me) * (w - mw) for e, w in zip(end, wait))
    var = (sum((e - me) ** 2 for e in end) * sum((w - mw) ** 2 for w in wait)) ** 0.5
    rows.sort()
    print(f"a block's end against its consumers' total `full` wait: correlation "
          f"{cov / var if var else 0:.2f}; waits {min(wait):.1f}-{max(wait):.1f} us")
    for name, part in (("first", rows[:12]), ("last", rows[-12:])):
        print(f"  the {name} 12 to end (us, SM): " +
              " ".join(f"{e:.1f}@{sm}" for e, _, sm in part))


if __name__ == "__main__":
    main(sys.argv)
