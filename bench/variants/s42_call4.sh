# Session 42, call 4 (~3 min): Nsight Compute on main's sm90_16bit (base/trimm of
# build-carry/s42c.tar.xz, main at 6332c7f), bf16, one launch each at n = 4096 and 8192 (pairs):
# what the SMs receive against the peaks. Question (bench/NOTES.md, session 42, item 2): is the
# load path bound by bytes into the SMs (then 128x256 tiles are the lever) or by L2's reads?
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s42c.tar.xz -C /tmp/v
L=$OUT/run.txt
for n in 4096 8192; do
  echo "== n $n" >> $OUT/ncu.txt
  timeout 240 ncu --clock-control none --kernel-name regex:sm90_bf16_trtrmm_kernel \
    --launch-skip 2 --launch-count 1 --set full \
    --metrics lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum.per_second,l1tex__m_xbar2l1tex_read_bytes.sum,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,lts__t_bytes.sum.per_second,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second \
    /tmp/v/base/trimm bench --sizes $n --runs 1 --warmup 2 --dtype bf16 --kernel sm90_16bit --no-anchors >> $OUT/ncu.txt 2>&1
  echo "ncu $n rc $?" >> $L
done
grep -E "== n|Duration|Throughput|Busy|Bandwidth|xbar2l1tex|srcunit_tex|lts__t_bytes|gmma|per_second|Hit Rate" $OUT/ncu.txt >> $L
cat $L
