#!/usr/bin/env bash
# One call on the GPU machine: build, GPU tests, bench, compute-sanitizer. Logs go under $OUT.
# (The bench before the sanitizer: if the call runs out of time, the numbers are already in.)
#   STEPS="build test shards bench sanitize probe python kernelbench diag sass ncu ncu_launches
#          ncu_source nsys"
#                                          (default: build test sanitize bench)
#   python: pip install --no-build-isolation . and the pytest suite (the image's torch)
#   shards: both GPU test binaries whole, in gtest shards at once (scripts/gpu_shards.sh;
#           SHARDS, default nproc; BOX per shard, default 300 s): the quick whole-suite check
#   kernelbench: scripts/kernelbench_eval.py on kernelbench/level1_14_trimm.py
#                (KB_ARGS="--other-n 1000,4097": its arguments)
#   diag: scripts/diag_extension_exceptions.py (does any extension's C++ exception reach Python?)
#   probe: bench/probes' programs (PROBE_PREPASS_SIZES="4096 8192": probe_prepass_rate's n)
#   BENCH_ARGS="--sizes 2048,4096,8192"    (passed to `trimm bench`)
#   BENCH_REPEAT=2                         (run the whole bench this many times: a lead, repeated)
#   BENCH_KERNELS="simt_fp32 other"        (extra bench runs, one per forced kernel)
#   BENCH_EXTRA="args; args"               (extra bench runs with their own arguments)
#   NCU_KERNELS="simt_fp32"                (kernels to profile with Nsight Compute at n = 4096)
#   NCU_RUNS="--kernel sm90_16bit --dtype bf16; --kernel sm90_tf32 --precision tf32"
#                                          (instead of NCU_KERNELS: one profile per argument list)
#   NCU_KERNEL_REGEX="fp16x3_kernel"       (ncu: which launches count, as a kernel-name regex;
#                                           default the product kernels' names)
#   NCU_SOURCE_ARGS="--kernel sm90_16bit --dtype bf16"
#                                          (ncu_source: warp-stall samples per SASS instruction
#                                           of one kernel at n = 4096; default sm90_tf32x3)
#   TEST_REGEX="sm90|Detect"               (ctest -R: only these tests; default all)
#   BUILD_TARGETS="trimm_cli"              (build only these targets; default all. Steps that
#                                           need others, e.g. test, find them missing)
#   BENCH_JSON_ONLY=1                      (the main bench once, as JSON, summarized from it)
#   SANITIZE_FILTER='*_n129:...'           (the gtest filter of every sanitizer run)
#   SANITIZE_MAX_N=4097                    (the sanitizer runs' TRIMM_TEST_MAX_N; default 300)
#   NSYS_ARGS="--sizes 4096 --structure detect --kernel sm90_tf32x3 --no-anchors --runs 5"
#                                          (nsys: the GPU timeline of one bench run; the kernel
#                                           summary and the last call's launches, with gaps)
#   NSYS_CMD="python3 scripts/kernelbench_profile.py --no-torch-profiler"
#                                          (nsys: profile this command, from the root, instead;
#                                           the summary adds the host's CUDA API calls over the
#                                           last NSYS_LAST GPU operations' window)
# With STEPS containing python, the package builds in the background right after the CMake
# build (CPU work beside the GPU steps); the python step waits for it.
# Logs are grouped, one file per step (summary, build, ctest, sanitizer, bench text and JSON,
# python, diag, sass, ncu, nsys): ask for few steps at once if the device tool limits how many
# files come back.
# Where the machine has no OpenBLAS or GoogleTest, run scripts/device-deps.sh here first and
# carry .deps: this script picks it up.
set -uo pipefail
# This machine has a GPU: a GPU test that would skip for want of one fails instead (a broken
# driver must not pass for a machine without a GPU; tests/kernels/gpu_util.hpp, python/tests).
export TRIMM_REQUIRE_GPU=1
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-device/out}
mkdir -p "$out"
steps=${STEPS:-build test sanitize bench}
build=$root/build-device
extra=()
if [ -d "$root/.deps/openblas" ]; then
  extra+=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas")
  export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
fi
[ -d "$root/.deps/googletest" ] && extra+=(-DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest")
status=0
note() { echo "== $* ==" | tee -a "$out/summary.txt"; }
log() { tee -a "$out/summary.txt"; }
has() { [[ " $steps " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$out/gpu.txt" 2>&1
log < "$out/gpu.txt"; rm -f "$out/gpu.txt"

if has build; then
  note build
  { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" &&
    cmake --build "$build" -j "$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS}; } \
    > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  grep -E "spill|stack frame" "$out/build.log" | sort | uniq -c | head -20 | log
fi
pypid=
if has python; then
  [ -d "$root/.deps/openblas" ] && export TRIMM_OPENBLAS_ROOT="$root/.deps/openblas"
  { python3 -c "import torch; print('torch', torch.__version__)" &&
    nice -n 19 python3 -m pip install --no-build-isolation --quiet "$root"; } > "$out/python.log" 2>&1 &
  pypid=$!
fi
if has probe; then
  note "probe_sm90_wgmma_rate"
  "$build/bench/probes/probe_sm90_wgmma_rate" 2>&1 | log || status=1
  note "probe_sm90_bf16_ring_rate"
  "$build/bench/probes/probe_sm90_bf16_ring_rate" 2>&1 | log || status=1
  note "probe_launch_cost"
  "$build/bench/probes/probe_launch_cost" 2>&1 | log || status=1
  for n in ${PROBE_PREPASS_SIZES:-4096}; do
    note "probe_prepass_rate $n"
    "$build/bench/probes/probe_prepass_rate" "$n" 2>&1 | log || status=1
  done
fi
if has test; then
  note "ctest ${TEST_REGEX:+-R $TEST_REGEX}"
  (cd "$build" && ctest --output-on-failure -j "$(nproc)" --timeout 900 ${TEST_REGEX:+-R "$TEST_REGEX"}) \
    > "$out/ctest.log" 2>&1 || status=1
  { grep -E "tests passed|tests failed" "$out/ctest.log"; grep -E "\(Failed\)|FAILED" "$out/ctest.log" | head -20; } | log
fi
if has shards; then
  for b in test_gpu test_gpu_16bit; do
    note "gpu_shards $b"
    OUT=$out "$root/scripts/gpu_shards.sh" "$build/tests/$b" "${SHARDS:-$(nproc)}" 2>&1 | log \
      || status=1
  done
fi
if has bench; then
  note "trimm bench ${BENCH_ARGS:-}"
  # shellcheck disable=SC2086
  [ -z "${BENCH_JSON_ONLY:-}" ] && for _ in $(seq "${BENCH_REPEAT:-1}"); do
    "$build/tools/cli/trimm" bench ${BENCH_ARGS:-} 2>&1 | log || status=1
  done
  for k in ${BENCH_KERNELS:-}; do
    note "trimm bench ${BENCH_ARGS:-} --kernel $k --no-anchors"
    "$build/tools/cli/trimm" bench ${BENCH_ARGS:-} --kernel "$k" --no-anchors 2>&1 | log || status=1
  done
  # BENCH_EXTRA="--sizes 64,256 --kernel simt_small_fp32; --sizes 4096 --noisy --structure detect"
  IFS=';' read -ra extra_runs <<< "${BENCH_EXTRA:-}"
  for args in "${extra_runs[@]}"; do
    note "trimm bench $args"
    # shellcheck disable=SC2086
    "$build/tools/cli/trimm" bench $args 2>&1 | grep -vE "^trimm: seed|^trimm bench on" | log || status=1
  done
  # shellcheck disable=SC2086
  "$build/tools/cli/trimm" bench ${BENCH_ARGS:-} --json > "$out/bench.json" 2>/dev/null || status=1
  [ -n "${BENCH_JSON_ONLY:-}" ] && python3 "$root/scripts/bench_table.py" "$out/bench.json" | log
fi
if has kernelbench; then
  note "kernelbench_eval"
  # A fresh extension directory: a build killed mid-way (a call's time limit) leaves torch's lock
  # file behind, and the next load_inline would wait on it for ever (session 7).
  # shellcheck disable=SC2086
  TORCH_EXTENSIONS_DIR=$(mktemp -d) python3 "$root/scripts/kernelbench_eval.py" ${KB_ARGS:-} 2>&1 |
    grep -v "^W1" | tail -12 | log || status=1
fi
if has python; then
  note "python package + pytest"
  # The package was built in the background (above). (The argument-error cases crashed the run
  # until 086af66: any message formatted through std::ostream inside an extension segfaulted on
  # this machine; `diag` still bisects that.)
  { wait "$pypid" && (cd "$root/python/tests" && python3 -m pytest -q -rs .); } \
    >> "$out/python.log" 2>&1 || status=1
  tail -5 "$out/python.log" | log
fi
if has sanitize; then
  for tool in memcheck racecheck synccheck; do
    for bin in test_gpu test_gpu_16bit; do
      note "compute-sanitizer $tool $bin"
      filter='*'
      # racecheck and synccheck are slow: every kernel at two sizes (sm90_tf32x3, which refuses
      # misaligned n, at 128), two batches, and the Detect, lost-element and backward suites
      # (their sizes capped by TRIMM_TEST_MAX_N like the rest).
      # (Parameterized suites carry their instantiation's prefix: */Suite.)
      small='*_n129:*_n255:*sm90*_n128:*Batched*n33:*Batched*n300'
      suites='GpuDetectPinned.*:GpuDetect16Pinned.*:GpuDetect16Gate.*:GpuDetectGate.*'
      suites+=':*/GpuLostElements*:*/GpuSampledMaxima*:*/GpuWideRanges*:*/GpuBackward.*n130'
      [ "$tool" != memcheck ] && filter="$small:$suites"
      filter=${SANITIZE_FILTER:-$filter}
      # A binary none of whose tests the filter names is left out (compute-sanitizer would fail
      # on a run that makes no CUDA call).
      if ! "$build/tests/$bin" --gtest_list_tests --gtest_filter="$filter" | grep -q "^  "; then
        echo "no test of $bin matches the filter" | log; continue
      fi
      TRIMM_TEST_MAX_N=${SANITIZE_MAX_N:-300} compute-sanitizer --tool "$tool" --error-exitcode 1 \
        "$build/tests/$bin" --gtest_filter="$filter" > "$out/sanitizer-$tool.tmp" 2>&1 || status=1
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/sanitizer-$tool.tmp" | tail -3 | log
      { echo "== $tool $bin =="; cat "$out/sanitizer-$tool.tmp"; } >> "$out/sanitizer.log"
      rm -f "$out/sanitizer-$tool.tmp"
    done
  done
fi
if has diag; then
  note "diag: C++ exceptions through a minimal extension"
  [ -d "$root/.deps/openblas" ] && export TRIMM_OPENBLAS_ROOT="$root/.deps/openblas"
  python3 "$root/scripts/diag_extension_exceptions.py" 2>&1 | grep -v "^W1" | grep -v "built with" |
    tail -16 | log || status=1
fi
if has sass; then
  note sass
  { cuobjdump --dump-resource-usage "$build/src/libtrimm.a";
    cuobjdump --dump-sass "$build/src/libtrimm.a" |
      grep -oE "(FFMA|HGMMA|HMMA|LDS\.128|LDG\.E\.128|STL|LDL)[^ ]*" | sort | uniq -c;
    # The whole SASS of one function, for reading its inner loop (SASS_FUNCTION: a substring of
    # the mangled name).
    cuobjdump --dump-sass "$build/src/libtrimm.a" |
      awk -v f="${SASS_FUNCTION:-kernelILi0ELb0ELb1E}" '/Function :/ {on = index($0, f) > 0} on'; } \
    > "$out/sass.txt" 2>&1
  tail -12 "$out/sass.txt" | log
fi
# Nsight Compute on the third trimm launch of one bench run at n = 4096 (a later --sizes in the
# arguments wins): ncu_bench "BENCH ARGS" NCU OPTIONS...
ncu_bench() {
  local bench_args=$1
  shift
  # shellcheck disable=SC2086
  ncu --clock-control none \
    --kernel-name "regex:${NCU_KERNEL_REGEX:-trtrmm_kernel|_small_kernel|small_fp32_kernel}" \
    --launch-skip 2 --launch-count 1 "$@" \
    "$build/tools/cli/trimm" bench --sizes 4096 --runs 1 --warmup 2 --no-anchors $bench_args
}
if has ncu; then
  ncu_runs=()
  if [ -n "${NCU_RUNS:-}" ]; then
    IFS=';' read -ra ncu_runs <<< "$NCU_RUNS"
  else
    for k in ${NCU_KERNELS:-simt_fp32}; do ncu_runs+=("--kernel $k"); done
  fi
  for args in "${ncu_runs[@]}"; do
    note "ncu $args n=4096"; echo "ncu $args" >> "$out/ncu.txt"
    ncu_bench "$args" \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex.avg.pct_of_peak_sustained_elapsed" \
      >> "$out/ncu.txt" 2>&1 || status=1
  done
  grep -E "ncu |Duration|Issue Slots Busy|No Eligible|Registers Per|gmma|per_second|wavefronts|srcunit|stalled_(barrier|long_sc|short_sc|math|mio|not_sel|wait|dispatch|lg_thr|no_inst|selected|sleep|membar|branch|drain)" "$out/ncu.txt" | log
fi
# Every launch of a short bench run with its duration (which launch of a multi-launch call costs
# what; PDL overlap is serialized under ncu). NCU_LAUNCH_ARGS: the bench's arguments.
if has ncu_launches; then
  note "ncu launches: ${NCU_LAUNCH_ARGS:-}"
  # shellcheck disable=SC2086
  ncu --clock-control none --metrics "gpu__time_duration.sum${NCU_LAUNCH_METRICS:+,$NCU_LAUNCH_METRICS}" \
    --csv --print-units base ${NCU_LAUNCH_FILTER:+--kernel-name "regex:$NCU_LAUNCH_FILTER"} \
    "$build/tools/cli/trimm" bench --sizes 4096 --runs 1 --warmup 1 --no-anchors \
    ${NCU_LAUNCH_ARGS:-} > "$out/ncu_launches.csv" 2>&1 || status=1
  python3 - "$out/ncu_launches.csv" <<'PY' | log
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 14 and r[0].isdigit()]
for r in rows[-60:]:
    v = float(r[14].replace(",", ""))
    v = f"{v / 1e3:9.1f} us" if r[12] == "gpu__time_duration.sum" else f"{v:12.0f} {r[12]}"
    print(f"{r[0]:>4} {v}  grid {r[8]:<16} {r[4][:90]}")
PY
fi
if has ncu_source; then
  # Instruction-level warp-stall sampling of one kernel at n = 4096 (NCU_SOURCE_ARGS: bench
  # arguments), summarized by scripts/ncu_source_summary.py; the whole CSV comes back too.
  args=${NCU_SOURCE_ARGS:---kernel sm90_tf32x3}
  note "ncu source page: $args n=4096"
  rep=/tmp/trimm-ncu-source
  if ncu_bench "$args" --section SourceCounters --section WarpStateStats --import-source no \
       -f -o "$rep" > "$out/ncu_source.log" 2>&1 &&
     ncu --import "$rep.ncu-rep" --page source --csv --print-source sass \
       > "$out/ncu_source.csv" 2>> "$out/ncu_source.log"; then
    python3 "$root/scripts/ncu_source_summary.py" "$out/ncu_source.csv" 30 | log
  else
    tail -5 "$out/ncu_source.log" | log; status=1
  fi
fi
if has nsys; then
  # nsys ships inside Nsight Compute on the device machine, off PATH (and, in session 31, could
  # not import its own reports there: scripts/kernelbench_profile.py --timeline instead).
  command -v nsys > /dev/null || for d in /opt/nvidia/nsight-compute/*/host/target-linux-x64; do
    [ -x "$d/nsys" ] && export PATH="$d:$PATH" && break
  done
  args=${NSYS_ARGS:---sizes 4096 --structure detect --kernel sm90_tf32x3 --no-anchors --runs 5}
  cmd=("$build/tools/cli/trimm" bench)
  # shellcheck disable=SC2206
  [ -n "${NSYS_CMD:-}" ] && { cmd=(${NSYS_CMD}); args=""; }
  note "nsys ${cmd[*]} $args"
  rep=/tmp/trimm-nsys
  # shellcheck disable=SC2086
  if command -v nsys > /dev/null &&
     (cd "$root" && nsys profile --trace=cuda --force-overwrite true -o "$rep" \
       "${cmd[@]}" $args > "$out/nsys-run.log" 2>&1); then
    python3 "$root/scripts/nsys_summary.py" "$rep.nsys-rep" "${NSYS_LAST:-12}" \
      ${NSYS_CMD:+--api} > "$out/nsys.txt" 2>&1
    log < "$out/nsys.txt"
  else
    echo "nsys missing or failed" | log; status=1
  fi
fi
note "exit $status"
exit $status
