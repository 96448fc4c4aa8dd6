#!/usr/bin/env python3
"""KernelBench's protocol on a KernelBench-format file (default: kernelbench/level1_14_trimm.py).

Correctness: torch.manual_seed(42), then 5 trial seeds drawn from torch; per trial the seed is
set before get_inputs(), Model and ModelNew; outputs must satisfy torch.allclose(atol, rtol).
Timing: 100 trials each of Model and ModelNew after warm-up, CUDA events around each call, the L2
flushed (a write over twice its size) before each; the mean. Prints both and the speedup.

The file is exec'd from a string, as KernelBench does (it has no __file__).

    scripts/kernelbench_eval.py [FILE] [--trials 100] [--atol 1e-4 --rtol 1e-4]
                                [--other-n 1000,4097]

--other-n: before the protocol, ModelNew at these n on triangular torch.rand inputs against
Model's output (allclose, and as torch gives it: contiguous, same dtype and shape); fails where
one does not hold.
"""
import argparse
import os
import statistics
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def set_seed(s):
    torch.manual_seed(s)
    torch.cuda.manual_seed(s)


def time_calls(fn, inputs, trials, flush):
    times = []
    for _ in range(trials):
        flush.zero_()  # evicts the inputs from L2
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*inputs)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=os.path.join(ROOT, "kernelbench", "level1_14_trimm.py"))
    ap.add_argument("--correct-trials", type=int, default=5)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--other-n", default="", help="comma-separated n checked before the protocol")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("kernelbench_eval: no CUDA device; nothing to evaluate")
        return 0

    ns = {"__name__": "kernelbench_problem"}
    exec(compile(open(args.file).read(), "<kernelbench source>", "exec"), ns)
    Model, ModelNew, get_inputs, get_init_inputs = (ns[k] for k in
                                                    ("Model", "ModelNew", "get_inputs", "get_init_inputs"))
    dev = torch.device("cuda")

    for n in [int(x) for x in args.other_n.split(",") if x]:
        torch.manual_seed(n)
        A = torch.triu(torch.rand(n, n, device=dev))
        B = torch.triu(torch.rand(n, n, device=dev))
        with torch.no_grad():
            ref, out = Model(*get_init_inputs()).to(dev)(A, B), ModelNew(*get_init_inputs()).to(dev)(A, B)
        torch.cuda.synchronize()
        ok = (out.shape == ref.shape and out.dtype == ref.dtype and out.is_contiguous()
              and torch.allclose(out, ref, atol=args.atol, rtol=args.rtol))
        print(f"n = {n}: {'pass' if ok else 'FAIL'} (contiguous {out.is_contiguous()}, "
              f"max |diff| {(out - ref).abs().max().item() if out.shape == ref.shape else float('nan'):.3g})")
        if not ok:
            return 1

    torch.manual_seed(42)
    seeds = [int(torch.randint(0, 2**32 - 1, (1,)).item()) for _ in range(args.correct_trials)]
    passed = 0
    for t, s in enumerate(seeds):
        set_seed(s)
        inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in get_inputs()]
        set_seed(s)
        ref_model = Model(*get_init_inputs()).to(dev)
        set_seed(s)
        new_model = ModelNew(*get_init_inputs()).to(dev)
        with torch.no_grad():
            ref = ref_model(*inputs)
            out = new_model(*inputs)
        torch.cuda.synchronize()
        ok = out.shape == ref.shape and torch.allclose(out, ref, atol=args.atol, rtol=args.rtol)
        diff = (out - ref).abs().max().item() if out.shape == ref.shape else float("nan")
        print(f"trial {t}: seed {s}: {'pass' if ok else 'FAIL'} (max |diff| {diff:.3g})")
        passed += ok
    if passed != len(seeds):
        print(f"correctness: {passed}/{len(seeds)} trials passed: no speedup reported")
        return 1

    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    flush = torch.empty(max(2 * l2, 1 << 20) // 4, dtype=torch.float32, device=dev)
    set_seed(seeds[0])
    inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in get_inputs()]
    ref_model, new_model = Model(*get_init_inputs()).to(dev), ModelNew(*get_init_inputs()).to(dev)
    with torch.no_grad():
        for m in (ref_model, new_model):  # warm-up (and, for ModelNew, nothing is built here)
            for _ in range(3):
                m(*inputs)
        torch.cuda.synchronize()
        t_ref = time_calls(ref_model, inputs, args.trials, flush)
        t_new = time_calls(new_model, inputs, args.trials, flush)
    m_ref, m_new = statistics.mean(t_ref), statistics.mean(t_new)
    print(f"device: {torch.cuda.get_device_name(dev)}; {args.trials} trials each, L2 flushed")
    print(f"Model (reference): mean {m_ref:.4f} ms (median {statistics.median(t_ref):.4f})")
    print(f"ModelNew (trimm):  mean {m_new:.4f} ms (median {statistics.median(t_new):.4f})")
    print(f"speedup: {m_ref / m_new:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
