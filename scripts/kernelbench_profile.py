#!/usr/bin/env python3
"""What ModelNew of a KernelBench file runs, and what its host path costs: the CUDA kernels of one
forward call (torch.profiler: names, launches, device time), the host time of a forward call
(perf_counter around it, no sync: how long the host takes to queue its work), then its median
time as scripts/kernelbench_eval.py takes it (L2 flushed, events around the call) with and
without a ~100 µs GPU sleep queued before the start event. The sleep lets the host queue the
call's launches ahead of the GPU: the difference is the host latency the eval's time includes.

    python3 scripts/kernelbench_profile.py [FILE] [--no-torch-profiler] [--timeline]
        FILE: default kernelbench/level1_14_trimm.py; --no-torch-profiler under nsys (both want
        CUPTI), e.g. scripts/device.sh's nsys step with NSYS_CMD.
        --timeline: instead, one eval-style call (flush, start event, call, end event) under
        torch.profiler with host activity too, printed as one timeline from the flush's end:
        the host's CUDA API calls and ATen ops beside the GPU's kernels and memsets, with the
        GPU's idle gaps. (The device machine's nsys cannot import its reports; the profiler's
        callbacks add ~1-2 us to each API call.)
"""
import json
import os
import statistics
import sys
import tempfile
import time

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


def host_us(fn, runs=50):
    """Median host time of fn() (no sync inside), each run after the GPU is idle."""
    times = []
    for _ in range(runs):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


GPU_CATS = ("kernel", "gpu_memset", "gpu_memcpy")
HOST_CATS = ("cuda_runtime", "cuda_driver", "cpu_op")


def timeline(call, flush, runs=5):
    """Prints the last of `runs` eval-style calls as a host/GPU timeline (times in us from the
    flush's end on the GPU, the profiler's shared clock)."""
    from torch.profiler import ProfilerActivity, profile, record_function
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    with profile(activities=acts) as prof:
        for i in range(runs):
            with record_function(f"eval_call_{i}"):
                flush.zero_()
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                call()
                end.record()
            torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trace.json")
        prof.export_chrome_trace(path)
        events = json.load(open(path))["traceEvents"]
    xs = [e for e in events if e.get("ph") == "X" and "ts" in e]
    mark = next(e for e in xs if e.get("name") == f"eval_call_{runs - 1}")
    lo, hi = mark["ts"], mark["ts"] + mark.get("dur", 0)
    host = [e for e in xs if e.get("cat") in HOST_CATS and lo <= e["ts"] <= hi]
    corr = {e.get("args", {}).get("correlation") for e in host if e.get("cat") != "cpu_op"}
    gpu = sorted((e for e in xs if e.get("cat") in GPU_CATS and
                  e.get("args", {}).get("correlation") in corr), key=lambda e: e["ts"])
    if not gpu:
        print("timeline: no GPU operations found in the last call")
        return
    t0 = gpu[0]["ts"] + gpu[0].get("dur", 0)  # the flush's end: where the start event fires
    rows = [(e["ts"], "host", e) for e in host] + [(e["ts"], "GPU ", e) for e in gpu]
    print(f"timeline of one eval-style call (us from the flush's end on the GPU; "
          f"host call from {lo - t0:+.1f})")
    busy_until = None
    for ts, side, e in sorted(rows, key=lambda r: r[0]):
        if side == "GPU ":
            if busy_until is not None and ts > busy_until + 0.5:
                print(f"{'':>10} GPU idle {ts - busy_until:8.1f}")
            busy_until = max(busy_until or 0, ts + e.get("dur", 0))
        print(f"{ts - t0:+10.1f} {side} {e.get('dur', 0):8.1f}  {e['name'][:100]}")
    print(f"GPU end {busy_until - t0:+.1f}; host call ends {hi - t0:+.1f}")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    use_profiler = not {"--no-torch-profiler", "--timeline"} & set(sys.argv[1:])
    path = args[0] if args else os.path.join(ROOT, "kernelbench", "level1_14_trimm.py")
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
        if use_profiler:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                model(*inputs)
                torch.cuda.synchronize()
            print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=20,
                                            max_name_column_width=90))
        # ModelNew's forward, and the extension's function alone (no nn.Module call), where the
        # file's namespace has one (`_ext`, as trimm's generated file does).
        calls = [("forward", lambda: model(*inputs))]
        if "_ext" in ns:
            fn = next(getattr(ns["_ext"], a) for a in dir(ns["_ext"]) if not a.startswith("_"))
            calls.append((f"_ext.{fn.__name__}", lambda: fn(*inputs)))
        l2 = torch.cuda.get_device_properties(dev).L2_cache_size
        flush = torch.empty(max(2 * l2, 1 << 20) // 4, dtype=torch.float32, device=dev)
        if "--timeline" in sys.argv[1:]:
            for name, call in calls:
                print(f"== {name}")
                timeline(call, flush)
            return 0
        print(f"host time of the L2 flush (queueing only): median "
              f"{host_us(lambda: flush.zero_()):.1f} us")
        for name, call in calls:
            print(f"{name}: host time of one call (queueing only): median {host_us(call):.1f} us")
            for cycles in (200_000, 0, 200_000, 0):  # the last call without: nsys shows it
                print(f"{name}: GPU sleep {cycles:>7} cycles before the start event: "
                      f"median {median_ms(call, flush, cycles):.4f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
