#!/usr/bin/env python3
"""ptxas's notes on each sm_90a kernel of the given files, without a GPU: registers, spills and
any C75xx line (a wgmma serialized by ptxas: a call in the kernel, a wgmma or its wait in a
branch, accumulators touched while a group runs). Run it on every kernel change.
    scripts/ptxas_notes.py src/kernels/sm90/sm90_bf16_trtrmm.cu
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def notes(path):
    cmd = ["nvcc", "-std=c++17", "-O3", "--expt-relaxed-constexpr", f"-I{ROOT}/include",
           f"-I{ROOT}/src", "-gencode=arch=compute_90a,code=sm_90a", "-Xptxas", "-v", "-c",
           str(path), "-o", "/dev/null"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(out.stderr)
    kernel, found = None, {}
    for line in out.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            kernel = m.group(1)
            found.setdefault(kernel, [])
            continue
        m = re.search(r"\((C75\d\d)\)", line)
        if m:
            k = re.search(r"function '(\w+)'", line)
            found.setdefault(k.group(1) if k else kernel, []).append(m.group(1))
        elif kernel and ("Used" in line or "spill" in line):
            found[kernel].append(line.split(":", 1)[-1].strip())
    return found


def main():
    bad = False
    for f in sys.argv[1:]:
        for kernel, lines in notes(f).items():
            demangled = subprocess.run(["c++filt", kernel], capture_output=True,
                                       text=True).stdout.strip()
            print(re.sub(r"\(.*", "", demangled.replace("(anonymous namespace)::", "")))
            for line in lines:
                print("   ", line)
                bad |= line.startswith("C75") or (
                    "spill" in line and "0 bytes spill stores, 0 bytes spill loads" not in line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
