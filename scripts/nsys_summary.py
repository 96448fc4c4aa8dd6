#!/usr/bin/env python3
"""Compact summary of an nsys report of one `trimm bench` run (scripts/device.sh, step nsys).

Prints each kernel's median duration, then the last launches of the run with the idle gap
before each: where a call's time goes between its kernels. --api: then the host's CUDA API calls
from 300 us before the first of those launches to the last one's end, on the same clock: a
launch queued after the GPU went idle shows where the host, not the GPU, set the pace.
usage: nsys_summary.py REPORT.nsys-rep [LAST] [--api]
"""
import csv
import io
import subprocess
import sys


def report(rep, name):
    out = subprocess.run(["nsys", "stats", "-q", "--report", name, "--format", "csv", rep],
                         capture_output=True, text=True, check=True).stdout
    # Skip any banner lines before the CSV header.
    lines = out.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"') or "," in l), len(lines))
    return list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def short(name, width=70):
    name = name.replace("trimm::kernels::", "").replace("(anonymous namespace)::", "")
    return name if len(name) <= width else name[:width - 3] + "..."


def main():
    args = [a for a in sys.argv[1:] if a != "--api"]
    rep = args[0]
    last = int(args[1]) if len(args) > 1 else 10
    print("kernel summary: instances, median us, name")
    for r in report(rep, "cuda_gpu_kern_sum"):
        print(f"{int(r['Instances']):5d} {float(r['Med (ns)']) / 1e3:9.2f}  {short(r['Name'])}")
    rows = report(rep, "cuda_gpu_trace")
    print(f"last {last} GPU operations: start us (from the first shown), duration us, gap us, name")
    rows = rows[-last:]
    t0 = float(rows[0]["Start (ns)"]) if rows else 0.0
    end = None
    for r in rows:
        s, d = float(r["Start (ns)"]), float(r["Duration (ns)"])
        gap = "" if end is None else f"{(s - end) / 1e3:7.2f}"
        print(f"{(s - t0) / 1e3:9.2f} {d / 1e3:9.2f} {gap:>7}  {short(r['Name'])}")
        end = s + d
    if "--api" in sys.argv[1:] and rows:
        print("host CUDA API calls in that window: start us (same origin), duration us, name")
        for r in report(rep, "cuda_api_trace"):
            s, d = float(r["Start (ns)"]), float(r["Duration (ns)"])
            if t0 - 300e3 <= s <= end:
                print(f"{(s - t0) / 1e3:9.2f} {d / 1e3:9.2f}  {short(r['Name'])}")


if __name__ == "__main__":
    main()
