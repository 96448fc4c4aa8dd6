# Prepared in session 49 (no device lent): the landing form of call 3's idea, to run if call 3
# shows the split dense launch winning at 2048-2304 (~4 min). carry ["build-carry", ".deps/openblas"]
# Binary: build-carry/s49land.tar.xz (trimm, test_gpu_16bit): bench/variants/s49_dense_land.patch on
# 990f0ed. sched::dense_split_ranks (CPU-tested) picks, for Structure::Detect's ungated dense
# launch whose units pass one wave, the cluster size r in 1..4 that minimises waves(r) ·
# (stages / r + merge), merge = config::kSm90Bf16DenseMerge = 2 stage times (a guess: calibrate
# it from call 3's ranks 2/3/4 rows); dispatch's one-dense-launch rule runs to n = 2304 (work
# 2304³). H200 (132 slots; clusters of r ~132 / r): 2048 -> 4 ranks, 2200 -> 3, 2304 -> 3.
# 1. GPU tests: *Detect16* (Sm90DenseLaunchIsTheDenseProduct now also at 2048 and 2200, ungated:
#    the split over several waves; through dispatch, GpuDetect16's sizes), then memcheck and
#    racecheck on Sm90DenseLaunchIsTheDenseProduct at TRIMM_TEST_MAX_N=2200.
# 2. bf16 Detect, triangular and noisy, 1920-2560, against main.
# Predicted: tests pass; sanitizers clean; 2048 ~0.023-0.026 on both inputs, 2304 ~0.028-0.031;
# 2560 unchanged (flags path).
# Land (next session): apply the patch to main, set kSm90Bf16DenseMerge and the rule's limit from
# calls 3 and 6, README's 16-bit Detect paragraph, RESULTS; CI.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s49m s49land; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
M=/tmp/v/s49m/trimm X=/tmp/v/s49land L=$OUT/run.txt
(cd $X && timeout 300 ./test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/detect16.txt 2>&1;
 echo "Detect16 rc $?: $(tail -1 $OUT/detect16.txt)" >> $L)
grep -E "^\[  FAILED|Failure" -A8 $OUT/detect16.txt | head -40 >> $L
for tool in memcheck racecheck; do
  (cd $X && TRIMM_TEST_MAX_N=2200 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
     ./test_gpu_16bit --gtest_filter='*Sm90DenseLaunchIsTheDenseProduct*' > $OUT/$tool.txt 2>&1;
   echo "$tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/$tool.txt | tail -1)" >> $L)
done
for inputs in "" "--noisy"; do
  for b in "main $M" "land $X/trimm"; do
    set -- $b
    echo "== $1 ${inputs:-triangular}" >> $L
    timeout 60 $2 bench --dtype bf16 --sizes 1920,2048,2200,2304,2560 --no-anchors \
      --structure detect $inputs 2>&1 | grep -E "trimm sm|GemmEx|rror|FAIL" >> $L
  done
done
cat $L
