# Prepared in session 54 (no device lent) for the next device session; run it first (~3-5 min).
# (A helper's review read the M=192 path against a model of its units and masks: no bug found;
# W=128 runs before M=192 in each round (not alternated: the two rounds give the spread).)
# (A second review read the pair plans: no hang or wrong result found; its timing points mended:
# plain launches carry no cluster attribute, and only the pair kernels take 40/232 registers.)
# carry ["build-carry/s54p.tar.xz", "build-carry/s54.tar.xz", ".deps/openblas"]
# build-carry/s54p.tar.xz: probe_sm90_bf16_wide (its COMMIT file names the tree); s54: trimm of
# 3dab940 (src unchanged since) with session 54's test_gpu.
# The question (bf16 bar, 0.045 ms at 4096): do 192×128 units (three consumer warpgroups, 40 KB
# stages, 0.83× the bytes a flop of 128×128) turn fewer bytes into time where 128×256 did not?
# bench/NOTES.md "Session 54" has the model: the busiest SM's bytes at 4096 2.83 MB against
# 3.15 for 128×128 (0.90×; 5120 0.87×, 6144 0.86×, 8192 0.85×), or 0.81× with sm90_16bit's cost
# of a unit (7 stages) added; its tensor work 29.4 µs against 27.3; its longest unit 64 stages of
# 768 tensor cycles (128×256's: 64 of 1024).
# Predicted, M=192 against the W=128 skeleton of the same run: 4096 0.82-0.92× (44-49 µs against
# ~53); 8192 0.85-0.9×; its no-loads path at 4096 36-41 µs (W=128's ~39.5). A lead for a
# build-out only if M=192 at 4096 is <= ~47 µs (the landed kernel's features took its own
# skeleton 53 -> 48); if it is ~W=128's, the bytes are not what binds the skeleton at 4096 (as
# W=256's split plans said: fewer bytes, loads alone no faster).
# --pairs (the same pairing as sm90_16bit's: neighbours in a row block, A's halves multicast):
# predicted W=128 pairs 0.88-0.92× its plain skeleton (sm90_16bit's pairs: loads alone 54 -> 46
# µs, the kernel 0.0557 -> 0.0520 at 4096, session 35), M=192 pairs 0.90-0.95× M=192 (A is a
# larger share of its stage, 24 of 40 KB, but its units are fewer to a row). The bar is in reach
# of a build-out only if M=192 pairs is <= ~46 µs at 4096.
# Every M=192 row is checked against an fp32 reference with NaN in A's and B's other triangles
# (bad 0, "OK"); a FAILED row is a bug in the probe's 192-row path, and its time means nothing.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s54p s54; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
L=$OUT/run.txt
cat /tmp/v/s54p/COMMIT /tmp/v/s54/COMMIT >> $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >> $L 2>&1
for round in 1 2; do
  echo "== round $round" >> $L
  # Round 1 adds --ring (the loads alone with 2 to all slots): M=192 keeps 160 KB in flight
  # against W=128's 192 KB; session 44 found 4 slots of 32 KB already at the cap.
  timeout 150 /tmp/v/s54p/probe_sm90_bf16_wide --tall --paths $([ $round = 1 ] && echo --ring) \
    4096 5120 6144 8192 >> $L 2>&1
  echo "probe rc $?" >> $L
  # The pair plans (clusters of two sharing A by multicast), never run before: alone, boxed, and
  # in round 2 only if round 1's passed (a hang costs 90 s, not the call).
  if [ $round = 1 ] || [ "$pairs_rc" = 0 ]; then
    timeout 90 /tmp/v/s54p/probe_sm90_bf16_wide --pairs --paths 4096 5120 6144 8192 >> $L 2>&1
    pairs_rc=$?; echo "pairs rc $pairs_rc" >> $L
  fi
  timeout 60 /tmp/v/s54/trimm bench --dtype bf16 --kernel sm90_16bit --sizes 4096,5120,6144,8192 \
    > $OUT/last.txt 2>&1
  echo "bench rc $?" >> $L; grep -E "trimm sm|rror|FAIL" $OUT/last.txt >> $L
done
cat $L
