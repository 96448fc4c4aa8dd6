#!/usr/bin/env python3
"""The SASS size of each sm_90a kernel of the given files, without a GPU or cuobjdump: nvcc
builds a cubin and its ELF .text sections are measured (16 bytes an instruction). A kernel far
past the instruction cache pays for cold code at every rarely run path (bench/NOTES.md, session
34: sm90_16bit's unsplit kernel was 135 KB).
    scripts/code_size.py src/kernels/sm90/sm90_bf16_trtrmm.cu
"""
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def text_sections(cubin):
    """(name, bytes) of each .text.<function> section of an ELF64 file."""
    d = cubin.read_bytes()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for s in secs:
        name = d[names + s[0]:d.index(b"\0", names + s[0])].decode()
        if name.startswith(".text."):
            yield name[len(".text."):], s[5]


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return out.stdout.splitlines() if out.returncode == 0 else names


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    for path in argv[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            cubin = Path(tmp) / "k.cubin"
            cmd = ["nvcc", "-std=c++17", "-O3", "--expt-relaxed-constexpr", f"-I{ROOT}/include",
                   f"-I{ROOT}/src", "-gencode=arch=compute_90a,code=sm_90a", "-cubin", path,
                   "-o", str(cubin)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(r.stderr)
            rows = sorted(text_sections(cubin), key=lambda x: -x[1])
        print(path)
        for (name, size), pretty in zip(rows, demangle([n for n, _ in rows])):
            print(f"  {size // 16:6d} instructions {size / 1024:6.1f} KiB {pretty[:120]}")


if __name__ == "__main__":
    main(sys.argv)
