#!/usr/bin/env python3
"""Is the tree's machine code the same as a revision's? For refactors checked without a GPU.

Compiles every kernel file under src/kernels (or those named) at REV (default HEAD, through
`git archive`) and in the working tree to sm_80 and sm_90a cubins with the build's flags, and
compares the ELF .text sections byte for byte (anonymous-namespace hashes normalized). PTX is
too strict a bar: register numbering and the order of independent instructions change with any
reshuffle of the source; identical SASS means the GPU tests of REV still apply.

    scripts/sass_identity.py [--rev REV] [src/kernels/sm80/sm80_16bit_trtrmm.cu ...]
"""
import argparse, os, re, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHS = ["80", "90a"]


def text_sections(path):
    d = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = d[names + h[0]:d.index(b"\0", names + h[0])].decode()
        if name.startswith(".text."):
            out[re.sub(r"_GLOBAL__N__[0-9a-f]+_", "_GN_", name)] = d[h[4]:h[4] + h[5]]
    return out


def cubin(root, src, arch, out):
    cmd = ["nvcc", "-O3", "-DNDEBUG", f"-gencode=arch=compute_{arch},code=sm_{arch}",
           "--expt-relaxed-constexpr", "-std=c++17", "-I", f"{root}/include",
           "-I", f"{root}/src", "-cubin", f"{root}/{src}", "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{src} sm_{arch} does not compile under {root}:\n{r.stderr[:2000]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    kernels = os.path.join(ROOT, "src", "kernels")
    files = a.files or sorted(os.path.relpath(os.path.join(dp, f), ROOT)
                              for dp, _, fs in os.walk(kernels) for f in fs if f.endswith(".cu"))
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        old = os.path.join(tmp, "rev")
        os.mkdir(old)
        archive = subprocess.run(["git", "-C", ROOT, "archive", a.rev, "src", "include"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        for f in files:
            for arch in ARCHS:
                if not os.path.exists(os.path.join(old, f)):
                    print(f"{f:48s} sm_{arch:4s} new file"); same = False; continue
                cubin(old, f, arch, os.path.join(tmp, "a.cubin"))
                cubin(ROOT, f, arch, os.path.join(tmp, "b.cubin"))
                x = text_sections(os.path.join(tmp, "a.cubin"))
                y = text_sections(os.path.join(tmp, "b.cubin"))
                diff = [k for k in set(x) | set(y) if x.get(k) != y.get(k)]
                same &= not diff
                verdict = f"DIFFERS in {len(diff)} of {len(x)} kernels" if diff else "identical"
                print(f"{f:48s} sm_{arch:4s} {verdict}")
                for k in sorted(diff):
                    state = "new" if k not in x else "removed" if k not in y else "changed"
                    print(f"    {state:8s} {k}")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
