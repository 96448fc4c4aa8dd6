# Session 47, call 2: the 128×256 skeleton's split plans at forced thresholds (bf16, 4096). The
# helper's reading of session 45: the model's threshold (58) leaves the busiest block ~22 % over
# the mean in bytes; 48–50 would put it near the mean. Predicted: split at 48 ~45–46 µs (the
# loads alone ~40), against 49.4 at 58; the landed sm90_16bit 48.1–48.5 in the same call.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for f in build-carry/*.tar.xz; do tar -xJf $f -C /tmp/v; done
L=$OUT/run.txt
for rep in 1 2; do
  timeout 200 /tmp/v/s47p/probe_sm90_bf16_wide --split 40,44,48,52,56 4096 2>&1 | grep wide-probe >> $L
  timeout 60 /tmp/v/s47a/trimm bench --sizes 4096 --dtype bf16 --kernel sm90_16bit --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
