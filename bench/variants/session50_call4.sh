# Prepared in session 49 (no device lent): the PyTorch operator timed again (session 48's Next 3)
# and its suite on the current tree. carry [".deps/openblas"] (setup.py takes OpenBLAS from
# TRIMM_OPENBLAS_ROOT, which scripts/device.sh sets from it; the device has none of its own);
# ~5-8 min, most of it the package's build.
# Since session 20's timings (bench/RESULTS.md, session 20, calls 4-6: 16-bit 1024 0.54-0.60x
# torch, 4096 1.9-2.1x, 8192 3.2x), 16-bit Detect became one dense launch to n = 1920 (sessions
# 47-48) and its scan past that reads half the bytes with fewer instructions (sessions 46, 48);
# float32 calls from 3072 take sm90_fp16x3 with planes from torch's caching allocator (session 30).
# Predicted (ms, the operator against torch.triu(torch.matmul)): bf16/fp16 1024 ~0.016-0.020
# (the library's Detect 0.0122 plus the operator's ~4-8 us) against torch's 0.016-0.032, i.e.
# ~1x where session 20 had 0.54-0.60x; 4096 ~0.075-0.080 (2.5-2.8x); 8192 ~0.39-0.40 (3.7x);
# float32 4096 ~0.21 (13x).
# Session 50 (no device either) added CUDA tests the GPU has never run: the operators' second
# derivatives and forward mode (test_cuda_double_backward_and_forward_mode_fp64) and autocast
# (test_cuda_autocast); a failure there is a bug of session 50's Python changes, not a flake.
STEPS=python bash scripts/device.sh
for n in 512 1024 2048 4096 8192; do
  PYTHONUNBUFFERED=1 timeout 120 python3 scripts/op_timing.py $n 2>&1 | tee -a $OUT/op_timing.txt
done
tail -40 $OUT/summary.txt
