# Session 49 (no device): a model of the fused tf32 kernel's dependency
# (docs/sm90_fp16x1_fused_plan.md). Converters (every block) turn fp32 tiles into fp16 tiles;
# each product stage waits for its A and B tiles. The units go longest first to the least-loaded
# block (as sched's persistent lists, roughly); the stage time is set so the stall-free schedule
# ends at P us; the conversion of all tiles takes Tc us with no converter idle; tasks in order of
# first need ("need") or by k ("k"). Times in us. A model: no contention, equal stage times.
# Run: python3 bench/variants/s49_fused_model.py
import heapq


def run(n=4096, T=128, blocks=132, P=46.5, Tc=25.0, policy="need", overhead=2.0,
        startup=1.0):
    nb = (n + T - 1) // T
    units = [(i, j) for i in range(nb) for j in range(i, nb)]
    st = lambda u: 2 * (u[1] - u[0] + 1)
    units.sort(key=lambda u: -(st(u)))
    load = [(0.0, b) for b in range(blocks)]; heapq.heapify(load)
    lists = [[] for _ in range(blocks)]
    for u in units:
        c, b = heapq.heappop(load); lists[b].append(u); heapq.heappush(load, (c + st(u) + 7, b))
    # calibrate stage time so the stall-free makespan is P
    work = max(sum(st(u) + overhead for u in l) for l in lists)
    ts = P / work
    # stall-free need times
    need = {}
    for l in lists:
        t = 0.0
        for (i, j) in l:
            for s in range(2 * i, 2 * j + 2):
                for key in (("A", i, s), ("B", s, j)):
                    if key not in need or need[key] > t: need[key] = t
                t += ts
            t += overhead * ts
    tasks = sorted(need, key=lambda k: need[k] if policy == "need" else (k[2] if k[0] == "A" else k[1], need[k]))
    tc = Tc * blocks / len(tasks)  # one converter (block) per tile
    free = [(startup, b) for b in range(blocks)]; heapq.heapify(free)
    ready = {}
    for k in tasks:
        t, b = heapq.heappop(free); ready[k] = t + tc; heapq.heappush(free, (t + tc, b))
    conv_end = max(ready.values())
    mk = 0.0; stall = 0.0
    for l in lists:
        t = 0.0
        for (i, j) in l:
            for s in range(2 * i, 2 * j + 2):
                r = max(ready[("A", i, s)], ready[("B", s, j)])
                if r > t: stall += r - t; t = r
                t += ts
            t += overhead * ts
        mk = max(mk, t)
    return mk, conv_end, stall / blocks, len(tasks)


for P in (46.5, 53.0, 58.0):
    for Tc in (15, 20, 25, 30, 35, 40):
        for pol in ("need", "k"):
            mk, ce, st, nt = run(P=P, Tc=Tc, policy=pol)
            print(f"P {P:5.1f} Tc {Tc:4.1f} {pol:5s}: makespan {mk:6.1f} conv_end {ce:5.1f} mean stall/block {st:5.1f} tasks {nt}")
