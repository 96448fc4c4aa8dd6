#!/usr/bin/env python3
"""Does a C++ exception thrown inside a PyTorch extension reach Python on this machine?

On the GPU machine (torch 2.11, Python 3.12) an error thrown by trimm's operators crashed the
process (bench/NOTES.md), while torch's own errors raise. This builds the smallest extension
that throws (with torch.utils.cpp_extension.load_inline, CPU only, as the machine's compiler
builds trimm's) and calls each way of throwing in its own subprocess: raised, or crashed?
"""
import os
import subprocess
import sys
import sysconfig
import tempfile

SRC = r"""
#include <torch/extension.h>
#include <stdexcept>
at::Tensor op_check(const at::Tensor& a) { TORCH_CHECK(a.dim() == 99, "diag: TORCH_CHECK in an op"); return a; }
at::Tensor op_std(const at::Tensor& a) { if (a.dim() != 99) throw std::runtime_error("diag: std::runtime_error in an op"); return a; }
void py_check() { TORCH_CHECK(false, "diag: TORCH_CHECK in a pybind function"); }
void py_std() { throw std::runtime_error("diag: std::runtime_error in a pybind function"); }
TORCH_LIBRARY(DIAG_NS, m) {
  m.def("check(Tensor a) -> Tensor");
  m.def("stdexc(Tensor a) -> Tensor");
}
TORCH_LIBRARY_IMPL(DIAG_NS, CPU, m) {
  m.impl("check", &op_check);
  m.impl("stdexc", &op_std);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("py_check", &py_check);
  m.def("py_std", &py_std);
}
"""

CASES = {
    "op TORCH_CHECK": "torch.ops.DIAG_NS.check(torch.zeros(2))",
    "op std::runtime_error": "torch.ops.DIAG_NS.stdexc(torch.zeros(2))",
    "pybind TORCH_CHECK": "mod.py_check()",
    "pybind std::runtime_error": "mod.py_std()",
}


CUDA_SRC = r"""
__global__ void diag_noop() {}
void diag_launch() { diag_noop<<<1, 1>>>(); }
"""


def run_cases(build, name):
    """Each way of throwing, from extension `name` built in `build`, in its own process."""
    for case, call in CASES.items():
        code = (f"import sys, torch; sys.path.insert(0, {build!r}); import {name} as mod; "
                f"torch.ops.load_library(mod.__file__)\n"
                f"try:\n    {call.replace('DIAG_NS', name)}\n    print('no error')\nexcept Exception as e:\n"
                f"    print('raised', type(e).__name__)")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        out = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
        print(f"{name:16s} {case:28s} exit {r.returncode:4d}: {out}")


def main():
    import torch
    from torch.utils.cpp_extension import load_inline
    build = tempfile.mkdtemp(prefix="diag-ext-")
    print("torch", torch.__version__, "python", sys.version.split()[0],
          "CXX11 ABI", torch._C._GLIBCXX_USE_CXX11_ABI)
    cxx = os.environ.get("CXX", "c++")
    print("compiler:", subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[:1])
    cfg = torch.__config__.show().splitlines()
    print("torch built with:", [l.strip() for l in cfg if "Compiler" in l or "CXX_COMPILER" in l][:2])
    # Variants, closer to trimm's extension step by step: plain C++; + OpenBLAS from
    # TRIMM_OPENBLAS_ROOT (trimm's .deps copy on the GPU machine); + a CUDA source; and trimm's
    # own operator, where installed.
    src = lambda name: SRC.replace("DIAG_NS", name)  # one operator namespace per extension
    load_inline("diag_ext", cpp_sources=src("diag_ext"), build_directory=build, verbose=False)
    run_cases(build, "diag_ext")
    blas = os.environ.get("TRIMM_OPENBLAS_ROOT")
    if blas:
        b2 = tempfile.mkdtemp(prefix="diag-blas-")
        load_inline("diag_blas", cpp_sources=src("diag_blas"), build_directory=b2, verbose=False,
                    extra_ldflags=[f"-L{blas}/lib", f"-Wl,-rpath,{blas}/lib", "-lopenblas"])
        run_cases(b2, "diag_blas")
    if torch.cuda.is_available():
        b3 = tempfile.mkdtemp(prefix="diag-cuda-")
        load_inline("diag_cuda", cpp_sources=src("diag_cuda") + "\nvoid diag_launch();\n",
                    cuda_sources=CUDA_SRC, build_directory=b3, verbose=False)
        run_cases(b3, "diag_cuda")
    code = ("import torch, trimm\ntry:\n    torch.ops.trimm.triu_matmul(torch.rand(4, 5), "
            "torch.rand(5, 4))\n    print('no error')\nexcept Exception as e:\n"
            "    print('raised', type(e).__name__)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    out = (r.stdout.strip().splitlines() or ["(no output: " + r.stderr.strip()[-80:] + ")"])[-1]
    print(f"{'trimm._C':16s} {'op TORCH_CHECK (CPU tensors)':28s} exit {r.returncode:4d}: {out}")


if __name__ == "__main__":
    main()
