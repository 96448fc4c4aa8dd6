# Session 44, call 3 (~2 min): where the scan path's ~10 us over the band go at n = 896 (call 2:
# band 0.0236 ms, Detect 0.0353). ncu's duration of each kernel of one Detect call (scan, the
# structured launch, the gated-off every-k launch), fp32 896 and bf16 1024; then nsys's
# timeline of the same calls, exported to SQLite and read here (kernels, memsets, gaps).
# Predicted: scan ~2-3 us, gated-off launch ~2 us, the rest (~5 us) the memset and the gaps.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s44b.tar.xz -C /tmp/v
V=/tmp/v/s44b
L=$OUT/run.txt
for d in /opt/nvidia/nsight-compute/*/host/target-linux-x64; do
  [ -x "$d/nsys" ] && export PATH="$PATH:$d" && break
done
echo "== ncu fp32 896 detect" >> $L
timeout 120 ncu --metrics gpu__time_duration.sum $V/trimm bench --sizes 896 --structure detect --no-anchors --runs 1 --warmup 0 2>&1 | grep -E "scan_kernel|simt_small|gpu__time_duration|memset|naive" | head -40 >> $L
echo "== ncu bf16 1024 detect" >> $L
timeout 120 ncu --metrics gpu__time_duration.sum $V/trimm bench --sizes 1024 --dtype bf16 --structure detect --no-anchors --runs 1 --warmup 0 2>&1 | grep -E "scan_kernel|16bit|sm90|sm80|gpu__time_duration" | head -40 >> $L
echo "== nsys fp32 896 detect" >> $L
timeout 90 nsys profile --trace=cuda --force-overwrite true -o /tmp/s44n $V/trimm bench --sizes 896 --structure detect --no-anchors --runs 5 > $OUT/nsys.log 2>&1
echo "profile rc $?" >> $L
timeout 60 nsys export --type sqlite --force-overwrite true -o /tmp/s44n.sqlite /tmp/s44n.nsys-rep >> $OUT/nsys.log 2>&1
echo "export rc $?" >> $L
timeout 30 python3 - >> $L 2>&1 <<'PY'
import sqlite3
db = sqlite3.connect("/tmp/s44n.sqlite")
names = dict(db.execute("select id, value from StringIds"))
rows = []
for s, e, n in db.execute("select start, end, shortName from CUPTI_ACTIVITY_KIND_KERNEL"):
    rows.append((s, e, names.get(n, str(n))[:60]))
try:
    for s, e in db.execute("select start, end from CUPTI_ACTIVITY_KIND_MEMSET"):
        rows.append((s, e, "memset"))
except Exception as ex:
    print("no memset table", ex)
rows.sort()
last = rows[-24:]
prev = None
for s, e, n in last:
    gap = (s - prev) / 1000 if prev is not None else 0
    print(f"{n:60s} dur {(e - s) / 1000:8.2f} us  gap {gap:8.2f} us")
    prev = e
PY
cat $L
