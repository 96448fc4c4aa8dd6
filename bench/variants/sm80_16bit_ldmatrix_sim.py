# A CPU simulation of bench/variants/sm80_16bit_ldmatrix.patch's index math (loader map, stage
# layouts, ldmatrix(.trans) row addresses, m16n8k16 fragments) for one 128x128 tile, Upper and
# Lower, against numpy: `python3 bench/variants/sm80_16bit_ldmatrix_sim.py` prints
# max |C - ref| = 0.0 for both (session 9) and fails otherwise (a mutated loader map fails it).
# It models ldmatrix as the PTX ISA describes it; only a GPU run can check that model.
import numpy as np
kTile, kStep, kThreads = 128, 32, 256
warps_m, warps_n = 2, 4
warp_m, warp_n = kTile // warps_m, kTile // warps_n
kMi, kNi = warp_m // 16, warp_n // 8
rng = np.random.default_rng(1)

class Stage:
    def __init__(self, contig_x):
        self.cx = contig_x
        self.rows = kStep if contig_x else kTile
        self.cols = (kTile if contig_x else kStep) + 8
        self.v = np.full((self.rows, self.cols), np.nan)
    def at(self, x, k):  # (row, col) of element (x, k)
        return (k, x) if self.cx else (x, k)

def loader_commit(stage, G, contig_x, k_at_least_x, x0, k0, n):
    # G(x, k): the operand's element, as the kernel's global view
    kVecs = kTile * kStep // (8 * kThreads)
    for tid in range(kThreads):
        for q in range(kVecs):
            idx = tid + q * kThreads
            xs = (idx % (kTile // 8)) * 8 if contig_x else idx // (kStep // 8)
            ks = idx // (kTile // 8) if contig_x else (idx % (kStep // 8)) * 8
            X, K = x0 + xs, k0 + ks
            vals = []
            for e in range(8):
                xe, ke = X + (e if contig_x else 0), K + (0 if contig_x else e)
                v = G(xe, ke) if xe < n and ke < n else 0.0
                keep = ke >= xe if k_at_least_x else ke <= xe
                vals.append(v if keep else 0.0)
            r, c = stage.at(X - x0, K - k0)
            stage.v[r, c:c + 8] = vals  # one 16-byte store along the memory row

def load_matrices(stage, lane_args):
    # lane_args[l] = (x, k, row) as passed by lane l; returns regs[thread][m] = (e0, e1)
    regs = [[None] * 4 for _ in range(32)]
    for m in range(4):
        rows = []
        for i in range(8):
            x, k, row = lane_args[8 * m + i]
            assert row == i
            r, c = stage.at(x + (0 if stage.cx else row), k + (row if stage.cx else 0))
            rows.append(stage.v[r, c:c + 8])
        M = np.array(rows)  # 8x8: memory rows
        for th in range(32):
            g, t = th // 4, th % 4
            regs[th][m] = (M[2 * t, g], M[2 * t + 1, g]) if stage.cx else (M[g, 2 * t], M[g, 2 * t + 1])
    return regs

def mma(acc, a, b):  # acc[th][4]; a[th][4 pairs]; b[th][2 pairs]
    A = np.zeros((16, 16)); B = np.zeros((16, 8))
    for th in range(32):
        g, t = th // 4, th % 4
        A[g, 2*t:2*t+2] = a[th][0]; A[g+8, 2*t:2*t+2] = a[th][1]
        A[g, 2*t+8:2*t+10] = a[th][2]; A[g+8, 2*t+8:2*t+10] = a[th][3]
        B[2*t:2*t+2, g] = b[th][0]; B[2*t+8:2*t+10, g] = b[th][1]
    D = A @ B
    for th in range(32):
        g, t = th // 4, th % 4
        acc[th][0] += D[g, 2*t]; acc[th][1] += D[g, 2*t+1]
        acc[th][2] += D[g+8, 2*t]; acc[th][3] += D[g+8, 2*t+1]

def run(trans):
    n = kTile
    A = rng.integers(-3, 4, (n, n)).astype(float); B = rng.integers(-3, 4, (n, n)).astype(float)
    # Upper: A', B' = A, B kept upper; Lower: A' = B^T, B' = A^T with A, B lower
    if not trans:
        Ga = lambda x, k: A[x, k]          # A'(m, k) = A[m, k], k-contiguous
        Gb = lambda x, k: B[k, x]          # B'(k, n) = B[k, n], x-contiguous
    else:
        Ga = lambda x, k: B[k, x]          # A'(m, k) = B^T = B[k, m], x-contiguous
        Gb = lambda x, k: A[x, k]          # B'(k, n) = A^T = A[n, k], k-contiguous
    Ap = np.array([[Ga(m, k) if k >= m else 0 for k in range(n)] for m in range(n)])
    Bp = np.array([[Gb(x, k) if k <= x else 0 for x in range(n)] for k in range(n)])
    ref = Ap @ Bp
    acc = {}
    for it in range(n // kStep):
        k0 = it * kStep
        As, Bs = Stage(trans), Stage(not trans)
        loader_commit(As, Ga, trans, True, 0, k0, n)
        loader_commit(Bs, Gb, not trans, False, 0, k0, n)
        for warp in range(8):
            wm, wn = (warp // warps_n) * warp_m, (warp % warps_n) * warp_n
            for kk in range(0, kStep, 16):
                b = {}
                for j in range(0, kNi, 2):
                    la = [(wn + 8*j + 8*((l//8)//2), kk + 8*((l//8)%2), l % 8) for l in range(32)]
                    r = load_matrices(Bs, la)
                    b[j] = [(r[th][0], r[th][1]) for th in range(32)]
                    b[j+1] = [(r[th][2], r[th][3]) for th in range(32)]
                for i in range(kMi):
                    la = [(wm + 16*i + 8*((l//8)%2), kk + 8*((l//8)//2), l % 8) for l in range(32)]
                    a = load_matrices(As, la)
                    for j in range(kNi):
                        key = (warp, i, j)
                        acc.setdefault(key, [[0.0]*4 for _ in range(32)])
                        mma(acc[key], a, b[j])
    C = np.full((n, n), np.nan)
    for (warp, i, j), v in acc.items():
        wm, wn = (warp // warps_n) * warp_m, (warp % warps_n) * warp_n
        for th in range(32):
            g, t = th // 4, th % 4
            for h in range(2):
                r = wm + 16*i + g + 8*h; c = wn + 8*j + 2*t
                C[r, c] = v[th][2*h]; C[r, c+1] = v[th][2*h+1]
    err = np.nanmax(np.abs(C - ref))
    print("trans" if trans else "upper", "max |C - ref| =", err, "NaN:", np.isnan(C).sum())
    assert err == 0 and not np.isnan(C).any(), "the simulated kernel disagrees with numpy"

run(False); run(True)
