# Session 48, call 4: 16-bit Detect's scan launch and gated-off exact launch, sized by env
# (experiment binary s48c: e5ce706 + S48_SCAN_TARGET, blocks of the scan a SM, default 8;
# S48_SCAN_MINB 1 or 2, its __launch_bounds__ min blocks; S48_EXACT_TARGET, blocks a SM of a
# gated tiled launch, default 16). Call 3's ncu at 4096: scan 20.7 us (1.65 TB/s, 79 registers,
# 3 blocks an SM resident, 2.59 waves), exact gated off 7.1 us (2112 blocks), dense gated off 3.7.
# Predicted: scan in one wave (target 3) −5…−8 us at 4096, exact at 4 a SM −3…−4 us.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48c.tar.xz -C /tmp/v
T=/tmp/v/s48c/trimm L=$OUT/run.txt
run() { echo "== $*" >> $L; env "$@" $T bench --dtype bf16 --structure detect --no-anchors --sizes 3072,4096,8192 2>&1 | grep "trimm sm" >> $L; }
run X=0
run S48_SCAN_TARGET=3
run S48_SCAN_TARGET=2
run S48_SCAN_TARGET=4
run S48_SCAN_TARGET=16
run S48_SCAN_MINB=2 S48_SCAN_TARGET=2
run S48_EXACT_TARGET=4
run S48_EXACT_TARGET=2
run S48_EXACT_TARGET=1
run X=0
cat $L
