#!/usr/bin/env python3
"""Writes a clock64-instrumented copy of sm90_tf32x3_trtrmm.cu for scripts/device-variants.sh.

    scripts/trace_variant.py OUT_DIR      writes OUT_DIR/sm90_tf32x3_trtrmm.cu and OUT_DIR/trace.txt

trace.txt is a VARIANTS file ("trace" replaces the kernel with the copy). The copy stamps clock64
at six points of every stage in consumer warps 0 and 4 (lane 0) of blocks 0 and 66 and at each
unit's store; after the 12th launch of a structured instance it writes /tmp/trace_fp32.txt or
/tmp/trace_tf32.txt (copy them to $OUT in the same call; scripts/trace_summary.py reads them).
Timing diagnostics only: the stamps cost ~9 % (session 8). Run the bench with the structured
launch only (no --structure detect/both: Detect's launches stamp the same buffer). Generated from the current kernel, so
the copy never goes stale; it fails loudly where an anchor below no longer matches.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNEL = "src/kernels/sm90/sm90_tf32x3_trtrmm.cu"

# (anchor in the kernel, text that replaces it); each anchor must occur exactly once.
EDITS = [
    ("#include <algorithm>\n", "#include <algorithm>\n#include <cstdio>\n"),
    ("namespace trimm::kernels::sm90 {\nnamespace {\n", """namespace trimm::kernels::sm90 {
constexpr int kTraceStages = 512, kTracePoints = 8, kTraceBlocks = 2;
__device__ long long g_trace[kTraceBlocks][2][kTraceStages][kTracePoints];
__device__ long long g_trace_unit[kTraceBlocks][2][16][4];
__device__ __forceinline__ int trace_slot() {
  return blockIdx.y == 0 && blockIdx.x == 0 ? 0 : (blockIdx.y == 0 && blockIdx.x == 66 ? 1 : -1);
}
__device__ __forceinline__ bool trace_lane() { return threadIdx.x % 128 == 0 && threadIdx.x < 256; }
__device__ __forceinline__ void stamp(int q, int point) {
  const int b = trace_slot();
  if (b >= 0 && trace_lane() && q < kTraceStages) g_trace[b][threadIdx.x / 128][q][point] = clock64();
}
__device__ __forceinline__ void stamp_unit(int u, int point, long long v) {
  const int b = trace_slot();
  if (b >= 0 && trace_lane() && u < 16) g_trace_unit[b][threadIdx.x / 128][u][point] = v;
}
namespace {
"""),
    # prepare_x: before and after the `full` wait (points 6, 7)
    ("""  const int q = q0 + it, s = q % kStages;
  ptx::mbar_wait(&sm.full[s], (q / kStages) & 1);
""", """  const int q = q0 + it, s = q % kStages;
  stamp(q, 6);
  ptx::mbar_wait(&sm.full[s], (q / kStages) & 1);
  stamp(q, 7);
"""),
    # consume: entry (0), around the `ready` wait (1, 2), after the issue (3), before and after
    # the wgmma wait (4, 5)
    ("  const int k0 = k_begin + it * kStep;\n  // On stages that cross",
     "  const int k0 = k_begin + it * kStep;\n  stamp(q, 0);\n  // On stages that cross"),
    ("  ptx::mbar_wait(&sm.ready[s], (q / kStages) & 1);\n#pragma unroll\n  for (int r = 0; r < 64; ++r) ptx::pin(part[r]);",
     "  stamp(q, 1);\n  ptx::mbar_wait(&sm.ready[s], (q / kStages) & 1);\n  stamp(q, 2);\n#pragma unroll\n  for (int r = 0; r < 64; ++r) ptx::pin(part[r]);"),
    ("  ptx::wgmma_commit();\n  if (it + kPrepareAhead < steps &&",
     "  ptx::wgmma_commit();\n  stamp(q, 3);\n  if (it + kPrepareAhead < steps &&"),
    ("  if (it + 1 < steps) load_y(sm, q + 1, L, f);\n  ptx::wgmma_wait_all();",
     "  if (it + 1 < steps) load_y(sm, q + 1, L, f);\n  stamp(q, 4);\n  ptx::wgmma_wait_all();\n  stamp(q, 5);"),
    # units: start, store begin and end, first stage and stage count
    ("""    const sched::WorkUnit u = s.unit(x);
    const TileCoords tc(u, kLower);
    const int k_begin = int(u.k_begin), steps = steps_of(u);
""", """    const sched::WorkUnit u = s.unit(x);
    const TileCoords tc(u, kLower);
    const int k_begin = int(u.k_begin), steps = steps_of(u);
    stamp_unit(trace_u, 0, clock64());
    stamp_unit(trace_u, 3, q0 * 1000000LL + steps);
"""),
    ("  int q0 = 0;\n  int64_t x;\n  for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {\n    const sched::WorkUnit u = s.unit(x);\n    const TileCoords tc(u, kLower);",
     "  int q0 = 0, trace_u = 0;\n  int64_t x;\n  for (sched::BlockUnits w(order, units, blockIdx.x, gridDim.x); w.next(x);) {\n    const sched::WorkUnit u = s.unit(x);\n    const TileCoords tc(u, kLower);"),
    ("""    const bool diag = u.bi == u.bj;
    if (u.kind == sched::UnitKind::Chunk1)
      store_tile<kLower, true>(o, tc, L, diag, acc);
    else
      store_tile<kLower, false>(o, tc, L, diag, acc);
""", """    const bool diag = u.bi == u.bj;
    stamp_unit(trace_u, 1, clock64());
    if (u.kind == sched::UnitKind::Chunk1)
      store_tile<kLower, true>(o, tc, L, diag, acc);
    else
      store_tile<kLower, false>(o, tc, L, diag, acc);
    stamp_unit(trace_u++, 2, clock64());
"""),
    # host: the dump
    ("      stream, unit_cost, /*persistent=*/true);\n}", """      stream, unit_cost, /*persistent=*/true);
  static int calls = 0;
  if (kMode == Mode::Structured && ++calls == 12) {
    static long long t[kTraceBlocks][2][kTraceStages][kTracePoints], tu[kTraceBlocks][2][16][4];
    TRIMM_CUDA_CHECK(cudaDeviceSynchronize());
    TRIMM_CUDA_CHECK(cudaMemcpyFromSymbol(t, g_trace, sizeof t));
    TRIMM_CUDA_CHECK(cudaMemcpyFromSymbol(tu, g_trace_unit, sizeof tu));
    FILE* f = fopen(kSplit ? "/tmp/trace_fp32.txt" : "/tmp/trace_tf32.txt", "w");
    for (int b = 0; b < kTraceBlocks; ++b)
      for (int c = 0; c < 2; ++c) {
        for (int u = 0; u < 16; ++u)
          fprintf(f, "U %d %d %d %lld %lld %lld %lld\\n", b, c, u, tu[b][c][u][0], tu[b][c][u][1],
                  tu[b][c][u][2], tu[b][c][u][3]);
        for (int q = 0; q < kTraceStages; ++q) {
          fprintf(f, "S %d %d %d", b, c, q);
          for (int k = 0; k < kTracePoints; ++k) fprintf(f, " %lld", t[b][c][q][k]);
          fprintf(f, "\\n");
        }
      }
    fclose(f);
  }
}"""),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1]).resolve()
    if ROOT not in out.parents:
        sys.exit("trace_variant.py: OUT_DIR must lie inside the repository (the device call copies "
                 "the working tree, and the VARIANTS line names the copy by its path there)")
    src = (ROOT / KERNEL).read_text()
    for anchor, text in EDITS:
        n = src.count(anchor)
        if n != 1:
            sys.exit(f"trace_variant.py: anchor found {n} times (expected once):\n{anchor}")
        src = src.replace(anchor, text)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sm90_tf32x3_trtrmm.cu").write_text(src)
    rel = (out / "sm90_tf32x3_trtrmm.cu").relative_to(ROOT)
    (out / "trace.txt").write_text(f"trace {KERNEL} <{rel}\n")
    print(f"wrote {out}/sm90_tf32x3_trtrmm.cu and {out}/trace.txt")


if __name__ == "__main__":
    main()
