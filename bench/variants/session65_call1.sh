# Session 65, call 1 (~3 min; prepared in session 64, whose device time ran out): a band's last
# stage skips its k8 steps past kend (bench/variants/s64_fp64_skip_tail_k8.patch, _s) against
# main (session 64's b5fdf55 source, the s64k build): the fp64 suite on _s, then both over the
# sizes session 64 found below DGEMM + triu (between the multiples of 64 from 257 to 511) and a
# spread of others, two rounds.
# carry ["build-carry/s64k.tar.xz", "build-carry/s65s.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s65s _s HEAD bench/variants/s64_fp64_skip_tail_k8.patch;
#   XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s65s.tar.xz s65s (s64k: scripts/build_variant.sh
#   /tmp/pk/s64k "" b5fdf55)
# Predicted (H100): suite passes; Triangular 257 0.0126 → ~0.0118 (its fifth stage one k8 step of
# eight), 272 ~0.0110, 300 ~0.0112; Detect 481 ~0.020; multiples of 64 within ±3 % (ptxas unrolls
# the stage differently: fewer registers, maybe less overlap).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64k.tar.xz -C /tmp/v && tar -xJf build-carry/s65s.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s64k/COMMIT /tmp/v/s65s/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu_s *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s65s/test_gpu_s 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
S=128,256,257,272,300,321,384,449,481,496,500,511,512,513,640,768,769,1000,1024,1536,2048,4096
for r in 1 2; do
  for v in s64k/trimm s65s/trimm_s; do
    echo "== round $r: $v" >> $L
    timeout 90 /tmp/v/$v bench --dtype fp64 --structure both --sizes $S --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
grep -E "==|rc |NVIDIA" $L | grep -v round
