#!/usr/bin/env python3
"""Simulates the word loader of bench/variants/sm80_16bit_words.patch (sm80_16bit's unaligned
path, one aligned 4-byte word per lane) over random sizes, leading dimensions, base offsets,
tiles and slices: every stage element equals the operand's element inside the triangle and
matrix, 0 elsewhere; no load leaves the matrix's extent; every 4-byte load is aligned."""
import random

kTile, kStep, kThreads = 128, 32, 256

def simulate(contig_x, k_at_least_x, n, ld, base, x0, k0, slices):
    extent = (n - 1) * ld + n
    mem = {}  # byte address -> element value (only the matrix's extent exists)
    def val(o, c):  # element (o, c): o the strided index, c the contiguous one
        return 1 + (o * 7919 + c * 104729) % 60000
    for o in range(n):
        for c in range(ld if o < n - 1 else n):
            mem[base + 2 * (o * ld + c)] = val(o, c) if c < n else 0xDEAD
    def ld16(addr):
        assert addr in mem, f"2-byte load outside the extent at {addr}"
        return mem[addr]
    def ld32(addr):
        assert addr % 4 == 0, "unaligned 4-byte load"
        return ld16(addr) | ld16(addr + 2) << 16
    R = kStep if contig_x else kTile
    L = kTile if contig_x else kStep
    W = L // 2
    kWords = R * W // kThreads
    kRowStep = kThreads // W
    kRun = min(W, 32)
    row_step = kRowStep * ld
    advance = kStep * ld if contig_x else kStep
    th = []
    for tid in range(kThreads):
        row, word = tid // W, tid % W
        o0 = (k0 if contig_x else x0) + row
        c0 = (x0 if contig_x else k0) + 2 * word
        src = base + 2 * (o0 * ld + c0)  # byte address
        th.append(dict(o0=o0, c0=c0, src=src, odd=bool(src & 2), run_last=tid % kRun == kRun - 1))
    for s in range(slices):
        ks0 = k0 + s * kStep
        # load
        for t in th:
            t["own"], t["extra"] = [], []
            for j in range(kWords):
                o, c = t["o0"] + j * kRowStep, t["c0"]
                e = t["src"] + 2 * j * row_step
                w = x = 0
                if o < n:
                    if not t["odd"]:
                        if c + 1 < n: w = ld32(e)
                        elif c < n: w = ld16(e)
                    else:
                        if c < n and (c > 0 or o > 0): w = ld32(e - 2)
                        elif c < n: w = ld16(e) << 16
                        elif c - 1 < n: w = ld16(e - 2)
                        if t["run_last"]:
                            if c + 2 < n: x = ld32(e + 2)
                            elif c + 1 < n: x = ld16(e + 2)
                t["own"].append(w); t["extra"].append(x)
        # commit (with warp shuffles)
        crosses = (ks0 < x0 + kTile - 1) if k_at_least_x else (ks0 + kStep - 1 > x0)
        stage = {}
        for tid, t in enumerate(th):
            for j in range(kWords):
                lane = tid % 32
                nxt = th[tid + 1]["own"][j] if lane < 31 else t["own"][j]
                if t["odd"]:
                    hi = t["extra"][j] if t["run_last"] else nxt
                    v = (t["own"][j] >> 16) | ((hi & 0xFFFF) << 16)
                else:
                    v = t["own"][j]
                o = t["o0"] + j * kRowStep
                if crosses:
                    for h in range(2):
                        xe = t["c0"] + h if contig_x else o
                        ke = o if contig_x else t["c0"] + h
                        keep = ke >= xe if k_at_least_x else ke <= xe
                        if not keep: v &= 0x0000FFFF if h else 0xFFFF0000
                xs = (t["c0"] if contig_x else o) - x0
                kss = (o if contig_x else t["c0"]) - ks0
                for h in range(2):
                    key = (xs + h, kss) if contig_x else (xs, kss + h)
                    assert key not in stage
                    stage[key] = (v >> (16 * h)) & 0xFFFF
        for t in th:
            t["src"] += 2 * advance
            if contig_x: t["o0"] += kStep
            else: t["c0"] += kStep
        # check the stage: element (x, k) for x in [x0, x0+128), k in [ks0, ks0+32)
        assert len(stage) == kTile * kStep
        for xs in range(kTile):
            for kss in range(kStep):
                x, k = x0 + xs, ks0 + kss
                o, c = (k, x) if contig_x else (x, k)
                inside = x < n and k < n and (k >= x if k_at_least_x else k <= x)
                want = val(o, c) if inside else 0
                got = stage[(xs, kss)]
                assert got == want, (contig_x, k_at_least_x, n, ld, base, x0, ks0, xs, kss, got, want)

random.seed(7)
for trial in range(300):
    n = random.choice([1, 2, 3, 17, 33, 127, 129, 130, 255, 257, random.randint(1, 400)])
    ld = n + random.choice([0, 0, 1, 2, 3, 8])
    base = 4096 + random.choice([0, 2, 4, 6])
    tiles = (n + kTile - 1) // kTile
    bi = random.randrange(tiles); bj = random.randrange(bi, tiles)
    contig_x = random.random() < 0.5
    k_at_least_x = random.random() < 0.5
    # A' (k >= x): x0 = bi·tile, k from bi·tile; B' (k <= x): x0 = bj·tile, k from bi·tile
    x0 = (bi if k_at_least_x else bj) * kTile
    k0 = bi * kTile
    k_end = min(n, (bj + 1) * kTile)
    slices = (k_end - k0 + kStep - 1) // kStep
    simulate(contig_x, k_at_least_x, n, ld, base, x0, k0, slices)
print("ok: 300 random tiles, both layouts and both masks")
