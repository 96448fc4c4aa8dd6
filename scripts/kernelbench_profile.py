#!/usr/bin/env python3
"""What ModelNew of a KernelBench file runs, and what its host path costs: the CUDA kernels of one
forward call (torch.profiler: names, launches, device time), then its median time as
scripts/kernelbench_eval.py takes it (L2 flushed, events around the call) with and without a
~100 µs GPU sleep queued before the start event. The sleep lets the host queue the call's launches
ahead of the GPU: the difference is the host latency the eval's time includes.

    python3 scripts/kernelbench_profile.py [FILE]   (default kernelbench/level1_14_trimm.py)
"""
import os
import statistics
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def median_ms(fn, flush, sleep_cycles, runs=50):
    times = []
    for _ in range(runs):
        flush.zero_()
        if sleep_cycles:
            torch.cuda._sleep(sleep_cycles)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    path = (sys.argv[1] if len(sys.argv) > 1
            else os.path.join(ROOT, "kernelbench", "level1_14_trimm.py"))
    if not torch.cuda.is_available():
        print("kernelbench_profile: no CUDA device; nothing to profile")
        return 0
    ns = {"__name__": "kernelbench_problem"}
    exec(compile(open(path).read(), "<kernelbench source>", "exec"), ns)
    dev = torch.device("cuda")
    torch.manual_seed(0)
    inputs = [x.to(dev) for x in ns["get_inputs"]()]
    model = ns["ModelNew"]().to(dev)
    with torch.no_grad():
        for _ in range(3):
            model(*inputs)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            model(*inputs)
            torch.cuda.synchronize()
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=20,
                                        max_name_column_width=90))
        l2 = torch.cuda.get_device_properties(dev).L2_cache_size
        flush = torch.empty(max(2 * l2, 1 << 20) // 4, dtype=torch.float32, device=dev)
        call = lambda: model(*inputs)  # noqa: E731
        for cycles in (0, 200_000, 0, 200_000):
            print(f"GPU sleep {cycles:>7} cycles before the start event: "
                  f"median {median_ms(call, flush, cycles):.4f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
