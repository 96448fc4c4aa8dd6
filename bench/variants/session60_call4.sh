# Session 60, call 4 (~8 min; prepared in session 59, never run): the PyTorch operator's float64
# path with the gated Detect, on the GPU. Run with bench/variants/s59_fp64_band_tc.patch and
# s59_fp64_gated_detect.patch applied to the working tree (or after they land): the device
# builds the package itself (scripts/device.sh's python step, the image's torch), runs pytest
# (python/tests/test_ops.py: float64 included, noise, NaN and Inf against torch), then
# scripts/op_timing.py, whose float64 row is torch.triu(A @ B) on DGEMM against the operator.
# carry [".deps/openblas"]
# Predicted (H100 or H200): pytest all pass; float64 at 4096: the operator ~1.1 ms against
# torch's ~2.2 (H100); at 1024 about even.
STEPS="python" bash scripts/device.sh
PYTHONUNBUFFERED=1 timeout 150 python3 scripts/op_timing.py 1024 4096 2>&1 | tee -a $OUT/op_timing.txt
