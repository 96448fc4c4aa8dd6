# Prepared in session 53 for the next device session, after session54_call1/2.sh (~5-8 min).
# carry [".deps/openblas"]
# The Python side at this commit on the GPU: the package built on the machine and pytest (two
# CUDA tests new in session 53: None and another dtype as grad, refused by name), and the
# KernelBench file, whose output at an n that is not a multiple of 4 is now a contiguous copy
# (6ff7427; it was a narrowed view of the padded rows), checked at 1000 and 4097
# before the protocol at 4096.
# Predicted: pytest all pass (~263 on the GPU); n = 1000 and 4097 pass, contiguous; the protocol
# 5/5 and ~13.5x (session 51: 13.50x).
STEPS="python kernelbench" KB_ARGS="--other-n 1000,4097" bash scripts/device.sh
