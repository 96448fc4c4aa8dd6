#!/usr/bin/env python3
"""The index math of bench/variants/sm80_16bit_mirror_rows.patch (zero_region for 16-bit rows of
any alignment), simulated over random sizes, alignments and block shapes: every element of the
region is written exactly once, nothing outside it, and every 4-byte store is aligned."""
import random
def run(base, ld, n, row0, col0, rows, cols, threads):
    written = {}
    c_end = min(col0 + cols, n)
    for tid in range(threads):
        lane, warps = tid % 32, threads // 32
        r = tid // 32
        while r < rows and row0 + r < n:
            rowaddr = base + (row0 + r) * ld * 2  # bytes
            c = col0
            def w2(col):
                a = rowaddr + 2 * col
                written[a] = written.get(a, 0) + 1
            if c < c_end and ((rowaddr + 2 * c) & 2):
                if lane == 0: w2(c)
                c += 1
            pairs = (c_end - c) // 2 if c_end > c else 0
            i = lane
            while i < pairs:
                a = rowaddr + 2 * c + 4 * i
                assert a % 4 == 0
                written[a] = written.get(a, 0) + 1; written[a + 2] = written.get(a + 2, 0) + 1
                i += 32
            if lane == 0 and c + 2 * pairs < c_end: w2(c_end - 1)
            r += warps
    exp = {base + (rr * ld + cc) * 2 for rr in range(row0, min(row0 + rows, n)) for cc in range(col0, c_end)}
    assert set(written) == exp, (base, ld, n, row0, col0, rows, cols)
    assert all(v == 1 for v in written.values())
random.seed(1)
for _ in range(3000):
    n = random.randint(1, 300); ld = n + random.randint(0, 9); tile = random.choice([8, 16, 32, 128])
    row0 = random.randrange(0, n); col0 = random.randrange(0, n)
    run(random.choice([0, 2, 4, 6]) + 256, ld, n, row0, col0, tile, tile, random.choice([32, 64, 256]))
print("ok")
