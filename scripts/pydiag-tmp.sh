# python diagnosis: versions, then the first crashing test alone, under gdb when there is one
python3 -c "import torch,sys;print(sys.version.split()[0], torch.__version__, torch.version.cuda, torch._C._GLIBCXX_USE_CXX11_ABI)"; g++ --version | head -1; which gdb
export TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas LD_LIBRARY_PATH=$PWD/.deps/openblas/lib:$LD_LIBRARY_PATH
python3 -m pip install --no-build-isolation --quiet . > $OUT/pip.log 2>&1 || tail -20 $OUT/pip.log
cd python/tests
python3 -c "
import torch, trimm
for A,B in [(torch.rand(4,5),torch.rand(5,4)),(torch.rand(5),torch.rand(5,5))]:
    try: trimm.triu_matmul(A,B)
    except RuntimeError as e: print('ok raised', str(e)[:80], flush=True)
" 2>&1 | tail -5
if which gdb >/dev/null; then gdb -q -batch -ex run -ex bt --args python3 -c "import torch,trimm; trimm.triu_matmul(torch.rand(5),torch.rand(5,5))" 2>&1 | grep -E "^#|signal" | head -30; fi
python3 -m pytest -q -x -rs . -k "not bad_arguments" 2>&1 | tail -4
