#!/usr/bin/env python3
"""The PyTorch operator against torch on the GPU: trimm.triu_matmul(A, B) and
torch.triu(torch.matmul(A, B)) per dtype (float64 too, where torch runs DGEMM) and n, CUDA
events, L2 flushed before every run, median of 30 after 3 warm-ups; triangular torch.rand inputs.
Needs the package installed.

    python3 scripts/op_timing.py [n ...]         (default 1024 4096)
"""
import sys

import torch
import trimm


def median_ms(fn, flush):
    for _ in range(3):
        fn()
    times = []
    for _ in range(30):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [1024, 4096]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2 // 4 + 1, dtype=torch.float32, device="cuda")
    print(f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    print(f"{'n':>6} {'dtype':>9} {'torch ms':>9} {'trimm ms':>9} {'speedup':>8}")
    for n in sizes:
        for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
            A = torch.triu(torch.rand(n, n, device="cuda")).to(dtype)
            B = torch.triu(torch.rand(n, n, device="cuda")).to(dtype)
            ref = median_ms(lambda: torch.triu(torch.matmul(A, B)), flush)
            ours = median_ms(lambda: trimm.triu_matmul(A, B), flush)
            print(f"{n:>6} {str(dtype)[6:]:>9} {ref:>9.4f} {ours:>9.4f} {ref / ours:>7.2f}x")


if __name__ == "__main__":
    main()
