#!/usr/bin/env python3
"""Simulates store_tile_staged of bench/variants/sm80_16bit_staged_store.patch (sm80_16bit's C
tile through shared memory, then rows of 4-byte pairs): for random n, ldc, base alignment, tile
position, both products and diagonal tiles, every element of C inside the matrix and the tile is
the accumulator's (zero below a diagonal tile's diagonal), nothing else is written, every 4-byte
store is aligned."""
import random
kTile, kThreads = 128, 256
kMi, kNi, warps_n, warp_m, warp_n = 4, 4, 4, 64, 32
kTileLd = kTile + 8

def run(colwise, n, ldc, base, bi, bj):
    row0, col0 = bi * kTile, bj * kTile
    diag = bi == bj
    acc_val = lambda r, c: 1 + ((row0 + r) * 7919 + (col0 + c) * 104729) % 60000  # C'(r, c)
    tile = {}
    for tid in range(kThreads):
        warp, lane = tid // 32, tid % 32
        wm, wn = (warp // warps_n) * warp_m, (warp % warps_n) * warp_n
        g, t = lane // 4, lane % 4
        for i in range(kMi):
            for j in range(kNi):
                for h in range(2):
                    r, c = wm + 16 * i + g + 8 * h, wn + 8 * j + 2 * t
                    b0 = 0 if diag and r > c else acc_val(r, c)
                    b1 = 0 if diag and r > c + 1 else acc_val(r, c + 1)
                    if colwise:
                        tile[c * kTileLd + r] = b0; tile[(c + 1) * kTileLd + r] = b1
                    else:
                        tile[r * kTileLd + c] = b0; tile[r * kTileLd + c + 1] = b1
    base_r, base_c = (col0, row0) if colwise else (row0, col0)
    cols = min(n - base_c, kTile)
    C = {}
    def st(addr, v):
        assert addr not in C; C[addr] = v
    for tid in range(kThreads):
        lane = tid % 32
        rr = tid // 32
        while rr < kTile and base_r + rr < n:
            out = base + 2 * ((base_r + rr) * ldc + base_c)
            head = 1 if cols > 0 and (out & 2) else 0
            if head and lane == 0: st(out, tile[rr * kTileLd])
            pairs = (cols - head) // 2
            q = lane
            while q < pairs:
                c = head + 2 * q
                a = out + 2 * c
                assert a % 4 == 0
                st(a, tile[rr * kTileLd + c]); st(a + 2, tile[rr * kTileLd + c + 1])
                q += 32
            if lane == 0 and head + 2 * pairs < cols: st(out + 2 * (cols - 1), tile[rr * kTileLd + cols - 1])
            rr += kThreads // 32
    exp = {}
    for r in range(kTile):
        for c in range(kTile):
            if row0 + r >= n or col0 + c >= n: continue
            v = 0 if diag and r > c else acc_val(r, c)
            R, Cc = (col0 + c, row0 + r) if colwise else (row0 + r, col0 + c)
            exp[base + 2 * (R * ldc + Cc)] = v
    assert C == exp, (colwise, n, ldc, base, bi, bj)

random.seed(3)
for _ in range(200):
    n = random.choice([1, 2, 3, 17, 127, 129, 255, 257, random.randint(1, 400)])
    ldc = n + random.choice([0, 0, 1, 2, 5])
    tiles = (n + kTile - 1) // kTile
    bi = random.randrange(tiles); bj = random.randrange(bi, tiles)
    run(random.random() < 0.5, n, ldc, 4096 + random.choice([0, 2, 4, 6]), bi, bj)
print("ok: 200 random tiles, both products")
