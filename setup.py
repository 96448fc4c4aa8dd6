"""The trimm Python package: `pip install --no-build-isolation .` where PyTorch is installed.

Builds the extension trimm._C from the library's own sources (src/) and python/csrc. Needs a C++17
compiler and OpenBLAS (Debian: libopenblas-dev; found with pkg-config, or TRIMM_OPENBLAS_ROOT).
"""
import os
import subprocess

import re

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))


def openblas_flags():
    root = os.environ.get("TRIMM_OPENBLAS_ROOT")
    if root:
        return [os.path.join(root, "include")], [os.path.join(root, "lib")]
    try:
        cflags = subprocess.check_output(["pkg-config", "--cflags", "openblas"], text=True).split()
        libs = subprocess.check_output(["pkg-config", "--libs-only-L", "openblas"], text=True).split()
    except (OSError, subprocess.CalledProcessError) as e:
        raise RuntimeError("trimm: OpenBLAS not found (apt-get install libopenblas-dev, "
                           "or set TRIMM_OPENBLAS_ROOT)") from e
    return [f[2:] for f in cflags if f.startswith("-I")], [f[2:] for f in libs if f.startswith("-L")]


def gpu_sources():
    """The GPU library: src/CMakeLists.txt's add_library(trimm ...) less the CPU backend."""
    cmake = open(os.path.join(ROOT, "src", "CMakeLists.txt")).read()
    body = re.search(r"add_library\(trimm\s+([^)]*)\)", cmake).group(1)
    return ["src/" + f for f in body.split() if not f.startswith("cpu/") and not f.startswith("common/")]


# CUDA where this torch has it and a toolkit is found, unless TRIMM_PYTHON_CPU_ONLY is set.
with_cuda = (torch.version.cuda is not None and CUDA_HOME is not None
             and not os.environ.get("TRIMM_PYTHON_CPU_ONLY"))
blas_include, blas_lib = openblas_flags()
sources = ["python/csrc/trimm_ops.cpp", "src/cpu/cpu_trtrmm.cpp", "src/cpu/structure.cpp",
           "src/cpu/backward.cpp", "src/cpu/reference.cpp", "src/common/validate.cpp",
           "src/common/types.cpp"]

setup(
    name="trimm",
    version="0.1.0",
    description="The product of two triangular matrices, computed from the structure",
    package_dir={"": "python"},
    packages=["trimm"],
    ext_modules=[(CUDAExtension if with_cuda else CppExtension)(
        "trimm._C",
        sources=[os.path.join(ROOT, s) for s in sources + (gpu_sources() if with_cuda else [])],
        include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src")] + blas_include,
        library_dirs=blas_lib,
        runtime_library_dirs=blas_lib,
        libraries=["openblas"],
        define_macros=[("TRIMM_WITH_CUDA", "1")] if with_cuda else [],
        extra_compile_args={
            "cxx": ["-O3"],
            "nvcc": ["-O3", "--expt-relaxed-constexpr", "-gencode=arch=compute_90a,code=sm_90a",
                     "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_80,code=compute_80"],
        } if with_cuda else ["-O3"],
        py_limited_api=False,
    )],
    cmdclass={"build_ext": BuildExtension},
    options={"build": {"build_base": "build-python"}},  # build/ is CMake's
    python_requires=">=3.9",
    install_requires=["torch"],
)
