#!/usr/bin/env python3
"""The order of a kernel's memory and tensor-core instructions, read from the cubin, where no
disassembler is installed (this machine has nvcc and ptxas, not cuobjdump or nvdisasm).

Each sm_80+ instruction is 16 bytes; the low 12 bits of its first word name the operation. The
table below was matched against sm80_16bit's known structure (32 element loads and 4 shared
stores a ring slice, 32 mma.sync and 12 ldmatrix a multiply, 4×4 cp.async in the prologue) on
sm_80 and sm_90a, session 13: good enough to see what waits on what, not a disassembler.
Other opcodes print nothing; branches print '|' (--branches).

    scripts/sass_ops.py src/kernels/sm80/sm80_16bit_trtrmm.cu --kernel 'kernelILb0ELb0ENS_10bf'
    scripts/sass_ops.py FILE --arch 80 --kernel REGEX --raw   (one letter an instruction)
"""
import argparse, os, re, struct, sys, tempfile

from sass_identity import ROOT, cubin, text_sections

OPS = {
    0x981: "G",  # LDG: global load
    0x986: "g",  # STG: global store
    0x984: "l",  # LDS: shared load (probably: also seen where no shared load is expected)
    0x980: "d",  # LD: generic load (distributed shared memory through map_shared_rank)
    0x388: "S",  # STS: shared store
    0x988: "S",  # STS (another addressing form)
    0x83B: "L",  # LDSM: ldmatrix
    0x23C: "M",  # HMMA: mma.sync
    0xFAE: "A",  # LDGSTS: cp.async
    0x9AF: "W",  # LDGDEPBAR: cp.async commit
    0x91A: "D",  # DEPBAR: cp.async wait
    0xB1D: "B",  # BAR: __syncthreads
}
BRANCH = 0x947


def ops(code, branches):
    out = []
    for i in range(0, len(code), 16):
        op = struct.unpack_from("<Q", code, i)[0] & 0xFFF
        out.append("|" if branches and op == BRANCH else OPS.get(op, ""))
    return "".join(out)


def runs(seq):
    """'GGGS' -> 'G3 S1'"""
    return " ".join(f"{m.group(1)}{len(m.group(0))}" for m in re.finditer(r"(.)\1*", seq))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", help="a .cu file of the working tree, relative to the repository")
    ap.add_argument("--arch", default="90a")
    ap.add_argument("--kernel", default="", help="regex on the mangled kernel name")
    ap.add_argument("--raw", action="store_true", help="one letter an instruction, not runs")
    ap.add_argument("--branches", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.cubin")
        cubin(ROOT, a.file, a.arch, out)
        found = False
        for name, code in sorted(text_sections(out).items()):
            if not re.search(a.kernel, name):
                continue
            found = True
            seq = ops(code, a.branches)
            print(f"{name} ({len(code) // 16} instructions)")
            print(seq if a.raw else runs(seq))
        if not found:
            sys.exit(f"no kernel of {a.file} matches {a.kernel!r}")


if __name__ == "__main__":
    main()
