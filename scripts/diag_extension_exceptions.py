#!/usr/bin/env python3
"""Does a C++ exception thrown inside a PyTorch extension reach Python on this machine?

On the GPU machine (torch 2.11, Ubuntu 24.04's Python 3.12) an error thrown by trimm's operators
crashed the process (SIGSEGV; bench/NOTES.md), while torch's own errors raise, and so did minimal
load_inline extensions (plain, linked with OpenBLAS, with a CUDA source) that threw a literal
message. This bisects between what trimm's extension does differently, one process per case, all
in one run, one line per variant:

  ext        minimal load_inline ops: lit (TORCH_CHECK with a literal message, as before), fmt
             (the message formatted as trimm's are: sizes, device, dtype through c10::str's
             std::ostringstream, instantiated in the extension), str only (formatted, not thrown),
             fmt+Py autograd (a Python autograd kernel and fake, as trimm/__init__.py registers)
  cuda       a CUDA source, with trimm's nvcc flags (from setup.py)
  blas       OpenBLAS (TRIMM_OPENBLAS_ROOT) really loaded and called before the throw (the earlier
             variant's -lopenblas was dropped by the linker's --as-needed: nothing referenced it)
  flags      load_inline with setuptools' compile and link flags (sysconfig CFLAGS, -O3,
             LDSHARED's -Wl,... flags such as -Bsymbolic-functions) but load_inline's driver
  setup      the ops (+ OpenBLAS call, + CUDA source where trimm has one) built through
             setuptools + BuildExtension with trimm's own Extension arguments (read from setup.py)
  csrc       trimm's python/csrc + CPU backend, CPU only, built by load_inline (no setuptools)
  csrc-setup the same sources built by trimm's setup.py (TRIMM_PYTHON_CPU_ONLY=1)
  trimm._C   the installed extension: loaded alone (no trimm/__init__.py, so no Python kernels),
             then torch's own error with it loaded, then `import trimm` and the backward op (no
             Python autograd kernel) and the forward (the crash)

Each case prints "raised" (a RuntimeError), "raised X", "ok" (no error) or its exit code; a crash
also names the faulting instruction (a tiny signal handler, preloaded, prints it with a native
backtrace), and the last crash gets the backtrace's first frames and the innermost Python frame.
A line "_C:" says which compilers built trimm._C, whether it has an .eh_frame_hdr, and where its
process took libstdc++, libgcc_s, libgfortran and OpenBLAS from. Everything (build commands,
build errors, each case's code and whole output, gdb's backtrace where gdb exists) goes to
$OUT/diag.log (or the build folder).
The builds run side by side (one process each), so the run costs about one build's time.
"""
import concurrent.futures
import copy
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SRC = r"""
#include <torch/extension.h>
#include <stdexcept>
#ifdef DIAG_BLAS
extern "C" float cblas_sdot(int n, const float* x, int incx, const float* y, int incy);
#endif
#ifdef DIAG_CUDA
void diag_launch();
void (*volatile diag_keep)() = &diag_launch;  // the CUDA object stays linked in
#endif
void diag_blas() {
#ifdef DIAG_BLAS
  float x[4] = {1, 2, 3, 4};  // OpenBLAS loaded and called, as trimm's CPU backend does
  volatile float d = cblas_sdot(4, x, 1, x, 1);
  (void)d;
#endif
}
// lit: a literal message (what the earlier diag threw; c10 builds nothing in this library).
at::Tensor op_lit(const at::Tensor& a) {
  diag_blas();
  TORCH_CHECK(a.dim() == 99, "diag: TORCH_CHECK in an op");
  return a;
}
// fmt: a message formatted as trimm's are (c10::str's std::ostringstream, instantiated here, with
// sizes, device and dtype), then thrown.
at::Tensor op_fmt(const at::Tensor& a) {
  diag_blas();
  TORCH_CHECK(a.dim() == 99, "diag: expected A of shape ", a.sizes(), " on ", a.device(), " of ",
              a.scalar_type());
  return a;
}
// str: the same message formatted, not thrown.
at::Tensor op_str(const at::Tensor& a) {
  const std::string s = c10::str("diag: expected A of shape ", a.sizes(), " on ", a.device(),
                                 " of ", a.scalar_type());
  return s.empty() ? a.clone() : a;
}
TORCH_LIBRARY(DIAG_NS, m) {
  m.def("lit(Tensor a) -> Tensor");
  m.def("fmt(Tensor a) -> Tensor");
  m.def("str(Tensor a) -> Tensor");
}
TORCH_LIBRARY_IMPL(DIAG_NS, CPU, m) {
  m.impl("lit", &op_lit);
  m.impl("fmt", &op_fmt);
  m.impl("str", &op_str);
}
void py_check() { TORCH_CHECK(false, "diag: TORCH_CHECK in a pybind function"); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("py_check", &py_check); }
"""

CUDA_SRC = r"""
__global__ void diag_noop() {}
void diag_launch() { diag_noop<<<1, 1>>>(); }
"""

# A SIGSEGV/SIGBUS/SIGILL/SIGABRT handler, preloaded into each case's process: prints the
# faulting instruction and a backtrace (library + offset + dynamic symbol), then hands the signal
# to the handler it replaced (faulthandler's: the Python traceback), which re-raises it.
TRACER_SRC = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
static char alt_stack[1 << 16];
static struct sigaction previous[32];
static void say(const char* what, void* ip) {
  Dl_info info;
  char line[1024];
  if (dladdr(ip, &info) && info.dli_fname)
    snprintf(line, sizeof line, "native: %s %s +0x%lx %s\n", what, info.dli_fname,
             (unsigned long)((char*)ip - (char*)info.dli_fbase),
             info.dli_sname ? info.dli_sname : "?");
  else
    snprintf(line, sizeof line, "native: %s ? %p ?\n", what, ip);
  write(2, line, strlen(line));
}
static void on_signal(int sig, siginfo_t* si, void* ctx) {
  char line[128];
  snprintf(line, sizeof line, "native: signal %d at address %p\n", sig, si->si_addr);
  write(2, line, strlen(line));
  say("ip", (void*)((ucontext_t*)ctx)->uc_mcontext.gregs[REG_RIP]);
  void* frames[64];
  int n = backtrace(frames, 64);
  for (int i = 0; i < n; ++i) say("frame", frames[i]);
  struct sigaction* p = &previous[sig];
  if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
    sigaction(sig, p, 0);
    p->sa_sigaction(sig, si, ctx);
  } else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN && p->sa_handler) {
    sigaction(sig, p, 0);
    p->sa_handler(sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}
__attribute__((constructor)) static void install(void) {
  void* warm[2];
  backtrace(warm, 2);  // loads the unwinder now, not inside the handler
  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT};
  for (int i = 0; i < 4; ++i) sigaction(sigs[i], &sa, &previous[sigs[i]]);
}
"""

LOG = []  # the whole story, written to diag.log at the end


def log(*parts):
    LOG.append(" ".join(str(p) for p in parts))


def sh(cmd, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=kw.pop("timeout", 60), **kw)
        return r.stdout + r.stderr
    except (OSError, subprocess.SubprocessError) as e:
        return f"({e})"


def openblas_root():
    return os.environ.get("TRIMM_OPENBLAS_ROOT")


def blas_ldflags():
    b = openblas_root()
    return [f"-L{b}/lib", f"-Wl,-rpath,{b}/lib", "-Wl,--no-as-needed", "-lopenblas",
            "-Wl,--as-needed"] if b else []


def trimm_extension():
    """trimm's Extension as setup.py builds it (setup() captured, not run)."""
    import setuptools
    import runpy
    captured = {}
    real = setuptools.setup
    setuptools.setup = lambda **kw: captured.update(kw)
    try:
        runpy.run_path(os.path.join(ROOT, "setup.py"), run_name="diag")
    finally:
        setuptools.setup = real
    return captured["ext_modules"][0], captured["cmdclass"]


def setuptools_build(ext, cmdclass, build):
    from setuptools import setup
    setup(name=ext.name.split(".")[0] + "_diag", ext_modules=[ext], cmdclass=cmdclass,
          script_args=["build_ext", "--build-lib", build, "--build-temp",
                       os.path.join(build, "tmp")])
    found = glob.glob(os.path.join(build, "**", ext.name.split(".")[-1] + "*.so"), recursive=True)
    return found[0]


# ---- builds: each in its own process (python3 this --build VARIANT DIR), all at once ----

def build(variant, d):
    """Builds one variant in d and prints the path of its shared library."""
    from torch.utils.cpp_extension import load, load_inline
    name = "diag_" + variant.replace("-", "_")
    src = SRC.replace("DIAG_NS", name)
    if variant == "ext":
        load_inline(name, cpp_sources=src, build_directory=d)
    elif variant == "blas":
        load_inline(name, cpp_sources="#define DIAG_BLAS\n" + src, build_directory=d,
                    extra_ldflags=blas_ldflags())
    elif variant == "cuda":
        try:
            nvcc = trimm_extension()[0].extra_compile_args["nvcc"]
        except Exception as e:  # (setup.py needs OpenBLAS to run)
            print("trimm's nvcc flags not found, nvcc's defaults:", e)
            nvcc = []
        load_inline(name, cpp_sources="#define DIAG_CUDA\n" + src, cuda_sources=CUDA_SRC,
                    build_directory=d, extra_cuda_cflags=nvcc)
    elif variant == "flags":
        cflags = (sysconfig.get_config_var("CFLAGS") or "").split() + ["-O3"]
        ld = [f for f in (sysconfig.get_config_var("LDSHARED") or "").split()[1:]
              if f.startswith("-Wl,") or f in ("-g",)]
        load_inline(name, cpp_sources="#define DIAG_BLAS\n" + src, build_directory=d,
                    extra_cflags=cflags, extra_ldflags=ld + blas_ldflags())
    elif variant == "setup":
        ext, cmdclass = trimm_extension()
        ext = copy.deepcopy(ext)
        has_cu = any(s.endswith(".cu") for s in ext.sources)
        with open(os.path.join(d, name + ".cpp"), "w") as f:
            f.write("#define DIAG_BLAS\n" + ("#define DIAG_CUDA\n" if has_cu else "") + src)
        ext.name, ext.sources = name, [os.path.join(d, name + ".cpp")]
        if has_cu:
            with open(os.path.join(d, name + "_k.cu"), "w") as f:
                f.write(CUDA_SRC)
            ext.sources.append(os.path.join(d, name + "_k.cu"))
        print(setuptools_build(ext, cmdclass, d))
        return
    elif variant == "csrc":
        ext, _ = trimm_extension()
        cpu = [s for s in ext.sources if re.search(r"/(python/csrc|src/cpu|src/common)/", s)]
        b = openblas_root()
        load("trimm_csrc", sources=cpu, build_directory=d, is_python_module=False,
             extra_include_paths=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src")] +
             ([os.path.join(b, "include")] if b else []),
             extra_cflags=["-O3"], extra_ldflags=blas_ldflags())
        print(os.path.join(d, "trimm_csrc.so"))
        return
    elif variant == "csrc-setup":
        os.environ["TRIMM_PYTHON_CPU_ONLY"] = "1"
        ext, cmdclass = trimm_extension()
        print(setuptools_build(ext, cmdclass, d))
        return
    elif variant == "tracer":
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        with open(os.path.join(d, "tracer.c"), "w") as f:
            f.write(TRACER_SRC)
        subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", os.path.join(d, "tracer.so"),
                        os.path.join(d, "tracer.c")], check=True)
        print(os.path.join(d, "tracer.so"))
        return
    print(glob.glob(os.path.join(d, name + "*.so"))[0])


def build_all(variants, base):
    """Starts every build at once; returns {variant: (path or None, error line)}."""
    procs = {}
    for v in variants:
        d = os.path.join(base, v)
        os.makedirs(d, exist_ok=True)
        procs[v] = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--build", v, d],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    cwd=d)
    out = {}
    for v, p in procs.items():
        try:
            text = p.communicate(timeout=600)[0]
        except subprocess.TimeoutExpired:
            p.kill()
            text = p.communicate()[0] + "\n(build timed out)"
        lines = text.strip().splitlines() or ["(no output)"]
        path = lines[-1].strip()
        if p.returncode == 0 and os.path.isfile(path):
            out[v] = (path, "")
            # The compilers and flags that built it: ninja's variables, setuptools' link line.
            ninja = glob.glob(os.path.join(base, v, "**", "build.ninja"), recursive=True)
            setting = [l for f in ninja for l in open(f)
                       if re.match(r"(cxx|nvcc|\w*c\w*flags|ldflags) =", l)]
            link = [l for l in lines if " -shared " in l]
            log(f"== build {v} ==\n" + "".join(setting) + "\n".join(link))
        else:
            errors = [l for l in lines if re.search(r"error|Error|undefined reference", l)]
            out[v] = (None, (errors or lines)[-1][-110:])
            log(f"== build {v} failed (exit {p.returncode}) ==\n" + "\n".join(lines[-60:]))
    return out


# ---- cases: each in its own process ----

def case_code(tracer, body):
    pre = "import faulthandler, ctypes\nfaulthandler.enable()\n"
    if tracer:
        pre += f"ctypes.CDLL({tracer!r})\n"
    pre += "import torch\n"
    return (pre + body + "\ntry:\n    CALL\n    print('no error')\n"
            "except Exception as e:\n"
            "    print('raised', type(e).__name__, str(e).splitlines()[0][:60])")


def load_ext(path):
    return f"torch.ops.load_library({path!r})\n"


PY_AUTOGRAD = """
torch.library.register_fake('{ns}::fmt')(lambda a: a.new_empty(a.shape))
torch.library.register_autograd('{ns}::fmt', lambda ctx, g: g,
                                setup_context=lambda ctx, inputs, output: None)
"""

BAD_FORWARD = "torch.ops.trimm.triu_matmul(torch.rand(4, 5), torch.rand(5, 4))"
BAD_BACKWARD = ("torch.ops.trimm.triu_matmul_backward(torch.rand(4, 4), torch.rand(4, 5), "
                "torch.rand(5, 4))")


def run_case(code, timeout=180):
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=timeout, cwd=tempfile.gettempdir())
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or "", e.stderr or ""


def short_symbol(name):
    """A mangled name demangled and shortened (no template or argument lists)."""
    if name in ("?", "??", ""):
        return "?"
    if shutil.which("c++filt"):
        name = sh(["c++filt", name]).strip() or name
    while True:  # drop <...> and (...) from the inside out
        shorter = re.sub(r"<[^<>]*>|\([^()]*\)", "", name)
        if shorter == name:
            break
        name = shorter
    return name.split(" ")[-1][-48:]


def native_frames(stderr):
    """(faulting instruction, [frames of the crashed code]) from the tracer's lines, each as
    'symbol@library'; symbols that dladdr cannot name come from addr2line where it can."""
    raw = [tuple(l.split(" ", 4)[1:]) for l in stderr.splitlines()
           if l.startswith(("native: ip ", "native: frame ")) and len(l.split(" ", 4)) == 5]
    ip = next(((lib, off, sym) for kind, lib, off, sym in raw if kind == "ip"), None)
    frames = [(lib, off, sym) for kind, lib, off, sym in raw if kind == "frame"]
    # The backtrace starts in the handler and the signal trampoline: keep from the faulting
    # instruction on (where the unwinder found it).
    start = next((i for i, f in enumerate(frames) if ip and f[:2] == ip[:2]), 0)

    def name(lib, off, sym):
        if sym == "?" and shutil.which("addr2line") and os.path.isfile(lib) and \
                os.path.getsize(lib) < 300 << 20:  # (torch's largest libraries: too slow)
            sym = (sh(["addr2line", "-f", "-e", lib, off.lstrip("+")]).splitlines() or ["?"])[0]
        short_lib = re.sub(r"\.cpython-.*\.so$", ".so", os.path.basename(lib))
        return f"{short_symbol(sym)}@{short_lib}"
    return (name(*ip) if ip else None), [name(*f) for f in frames[start:]]


def python_frame(stderr):
    """The innermost Python frame of faulthandler's dump."""
    m = re.search(r'Current thread[^\n]*\n\s+File "([^"]+)", line (\d+) in (\S+)', stderr)
    return f"{os.path.basename(m.group(1))}:{m.group(2)} {m.group(3)}" if m else "?"


def outcome(result):
    """'raised' (RuntimeError), 'raised X', 'ok' (no error), or how the process ended (and
    where, for a crash)."""
    rc, out, err = result
    last = (out.strip().splitlines() or [""])[-1]
    if rc == 0 and last.startswith("raised"):  # "raised" alone for a RuntimeError
        return "raised" + ("" if last.split(" ")[1] == "RuntimeError" else " " + last.split(" ")[1])
    if rc == 0 and last == "no error":
        return "ok"
    ip, _ = native_frames(err)
    then = "raised, then " if last.startswith("raised") else "ok, then " if last == "no error" else ""
    return then + f"exit {rc}" + (f" at {ip}" if ip else "")


def trimm_so():
    spec = importlib.util.find_spec("trimm")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = glob.glob(os.path.join(list(spec.submodule_search_locations)[0], "_C*.so"))
    return found[0] if found else None


def elf_summary(so, maps):
    """Who compiled so (its .comment), whether it has an .eh_frame_hdr, and where the process
    that loaded it took libstdc++, libgcc_s and libgfortran from."""
    comment = sh(["readelf", "-p", ".comment", so])
    compilers = sorted({" ".join(m)[:32] for m in re.findall(r"GCC: \(([^)]*)\) (\S+)", comment)})
    dyn = sh(["readelf", "-d", so])
    eh = "GNU_EH_FRAME" in sh(["readelf", "-lW", so])
    log("== trimm._C:", so, "\n", comment, "\n", dyn, "\n", maps)
    libs = {}
    for path in maps.split()[1:]:
        key = re.match(r"lib(stdc\+\+|gcc_s|gfortran|openblas)", os.path.basename(path))
        if key:
            libs.setdefault(key.group(1), set()).add(os.path.dirname(path).replace(ROOT, "<repo>"))
    where = ", ".join(f"{k} {'+'.join(sorted(v))}" for k, v in sorted(libs.items()))
    return (f"_C: by {'; '.join(compilers) or '?'}; eh_frame_hdr {'yes' if eh else 'NO'}; "
            f"process: {where or '?'}")


MAPS = """
libs = sorted({l.split()[-1] for l in open('/proc/self/maps') if '.so' in l})
pick = [p for p in libs if any(k in p for k in ('libstdc++', 'libgcc_s', 'gfortran', 'openblas',
        'quadmath', 'libgomp', 'libunwind'))]
print('maps', ' '.join(pick))
"""


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--build":
        build(sys.argv[2], sys.argv[3])
        return
    base = tempfile.mkdtemp(prefix="diag-ext-")
    try:
        diagnose(base)
    finally:
        out = os.environ.get("OUT") or base
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "diag.log"), "w") as f:
            f.write("\n".join(LOG) + "\n")


def diagnose(base):
    import torch
    from torch.utils.cpp_extension import CUDA_HOME
    cxx = os.environ.get("CXX", "c++")
    cxx_path = os.path.realpath(shutil.which(cxx) or cxx)
    ver = (sh([cxx, "-dumpfullversion"]).strip().splitlines() or ["?"])[0]
    ldshared = sysconfig.get_config_var("LDSHARED") or ""
    import setuptools
    env = (f"env: torch {torch.__version__} py {sys.version.split()[0]} abi "
          f"{int(torch._C._GLIBCXX_USE_CXX11_ABI)} | c++={cxx_path} {ver} | "
          f"CC={os.environ.get('CC', '-')}"
          f" | sysconfig CXX={sysconfig.get_config_var('CXX')} LDSHARED+="
          f"{' '.join(f for f in ldshared.split()[1:] if f.startswith('-Wl'))} | setuptools "
          f"{setuptools.__version__}")
    print(env)
    log(env, "\nsysconfig CFLAGS:", sysconfig.get_config_var("CFLAGS"), "\nLDSHARED:", ldshared,
        "\nLDCXXSHARED:", sysconfig.get_config_var("LDCXXSHARED"),
        "\nPATH:", os.environ.get("PATH"),
        "\nLD_LIBRARY_PATH:", os.environ.get("LD_LIBRARY_PATH"), "\nCUDA_HOME:", CUDA_HOME)
    variants = ["tracer", "ext", "flags", "setup", "csrc", "csrc-setup"]
    if openblas_root():
        variants.insert(2, "blas")
    if CUDA_HOME:
        variants.insert(2, "cuda")
    built = build_all(variants, base)
    tracer = built["tracer"][0]
    so = trimm_so()

    # One line per variant: (variant, [(case, code)], or the build's error).
    lines = []
    for v in variants[1:]:
        path, err = built[v]
        if not path:
            lines.append((v, err))
            continue
        ns, body = "diag_" + v.replace("-", "_"), load_ext(path)
        if v.startswith("csrc"):
            cases = [("trimm op", BAD_FORWARD)]
        else:
            cases = [(op, f"torch.ops.{ns}.{op}(torch.zeros(2))") for op in ("lit", "fmt")]
            if v in ("ext", "setup"):
                cases.append(("str only", f"torch.ops.{ns}.str(torch.zeros(2))"))
        cases = [(c, case_code(tracer, body).replace("CALL", call)) for c, call in cases]
        if v == "ext":
            cases.append(("fmt+Py autograd", case_code(tracer, body + PY_AUTOGRAD.format(ns=ns))
                          .replace("CALL", f"torch.ops.{ns}.fmt(torch.zeros(2))")))
        lines.append((v, cases))
    if so:
        raw = load_ext(so)
        lines.append(("trimm._C", [
            ("raw op", case_code(tracer, raw).replace("CALL", BAD_FORWARD)),
            ("raw+torch error", case_code(tracer, raw + MAPS).replace(
                "CALL", "torch.zeros(2, 3) @ torch.zeros(2, 3)")),
            ("import: backward op",
             case_code(tracer, "import trimm").replace("CALL", BAD_BACKWARD)),
            ("import: forward", case_code(tracer, "import trimm").replace("CALL", BAD_FORWARD))]))
    jobs = [(v, c, code) for v, cases in lines if isinstance(cases, list) for c, code in cases]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = dict(zip([(v, c) for v, c, _ in jobs], pool.map(lambda j: run_case(j[2]), jobs)))
    last_crash, maps = None, ""
    for v, cases in lines:
        if not isinstance(cases, list):
            print(f"{v:10s} build failed: {cases}")
            continue
        parts = []
        for c, code in cases:
            result = results[(v, c)]
            parts.append(f"{c}: {outcome(result)}")
            log(f"== {v}: {c} ==\n{code}\n-- exit {result[0]}\n{result[1]}\n{result[2]}")
            if result[0] != 0:
                last_crash = (f"{v} {c}", code, result)
            if c == "raw+torch error":
                maps = next((l for l in result[1].splitlines() if l.startswith("maps")), "")
        print(f"{v:10s} " + " | ".join(parts))
    if so:
        print(elf_summary(so, maps))
    else:
        print("trimm not installed (STEPS with python first): its cases skipped")
    if last_crash:
        label, code, (rc, out, err) = last_crash
        ip, frames = native_frames(err)
        print(f"  bt ({label}): " + " < ".join(frames[:5])[:220])
        more = "more: " + " < ".join(frames[5:9])
        if shutil.which("gdb"):
            script = os.path.join(base, "crash.py")
            with open(script, "w") as f:
                f.write(code.replace(f"ctypes.CDLL({tracer!r})\n", ""))
            g = sh(["gdb", "-q", "-batch", "-ex", "set startup-with-shell off", "-ex", "run",
                    "-ex", "bt 30", "--args", sys.executable, script], timeout=300)
            log("== gdb ==\n" + g)
            more = "gdb: " + " < ".join(t[:40] for t in re.findall(
                r"^#\d+\s+(?:0x\w+ in )?(\S+)", g, re.M)[:6])
        print(f"  py frame: {python_frame(err)}; {more}"[:240])


if __name__ == "__main__":
    main()
