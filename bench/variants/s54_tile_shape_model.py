#!/usr/bin/env python3
"""Session 54's model of sm90_16bit's tile shapes (bf16, Upper, 64-k stages, one block an SM).

For each M×W unit shape: the units over the triangle (row blocks on multiples of M, column
blocks on multiples of W, each unit's band from its first row to its last column), packed
longest first onto the least-loaded of `sms` blocks (LPT) by a cost of stage bytes in 128×128
stages plus 7 a unit (sm90_16bit's unit_cost), then the busiest block's bytes and tensor time
(2048 bf16 multiply-adds a cycle an SM, 1.8 GHz) and the plan's makespan in cost units.

Usage: s54_tile_shape_model.py [sms]   (default 132)
"""
import heapq
import math
import sys

K = 64  # k a stage


def units(n, m, w):
    """Stages of each unit (row block r0, column block c0): band [r0, c0 + w)."""
    out = []
    for r0 in range(0, n, m):
        for c0 in range((r0 // w) * w, n, w):
            out.append(math.ceil(min(c0 + w, n) / K) - r0 // K)
    return out


def plan(n, m, w, sms):
    stage_eq = (m + w) / 256  # a stage's bytes in 128×128 stages
    heap = [(0.0, b, 0) for b in range(sms)]
    for u in sorted(units(n, m, w), reverse=True):
        cost, b, stages = heapq.heappop(heap)
        heapq.heappush(heap, (cost + u * stage_eq + 7, b, stages + u))
    stages = [s for _, _, s in heap]
    busiest = max(stages)
    stage_bytes = (m + w) * K * 2
    return {
        "units": len(units(n, m, w)),
        "longest": max(units(n, m, w)),
        "busiest_mb": busiest * stage_bytes / 1e6,
        "mean_mb": sum(stages) / sms * stage_bytes / 1e6,
        "tensor_us": busiest * m * w * K / 2048 / 1.8e3,
        "makespan": max(c for c, _, _ in heap),
    }


def main():
    sms = int(sys.argv[1]) if len(sys.argv) > 1 else 132
    print("| n | shape | units | longest (stages) | busiest SM | mean | busiest tensor | makespan (eq) |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (2048, 3072, 4096, 5120, 6144, 8192):
        for m, w in ((128, 128), (192, 128), (128, 256)):
            r = plan(n, m, w, sms)
            print(f"| {n} | {m}×{w} | {r['units']} | {r['longest']} | {r['busiest_mb']:.2f} MB "
                  f"| {r['mean_mb']:.2f} MB | {r['tensor_us']:.1f} µs | {r['makespan']:.0f} |")


if __name__ == "__main__":
    main()
