// The one table of tile shapes. Kernels take their shape from here; the scheduler and the host
// launchers derive grid sizes from the same entries.
#pragma once

#include <cstdint>
#include <iterator>

#include "sched/rank_share.hpp"

namespace trimm::config {

// A CUDA-core (FFMA) tile: `k_groups` groups of `group_threads` threads share one bm×bn output
// tile and split each bk·k_groups slice of k between them (intra-block split-K), so one block
// holds a whole SM and the longest tile of the triangle runs at the SM's full rate.
struct SimtTile {
  int bm, bn;           // output tile
  int bk;               // k per group per pipeline stage
  int k_groups;         // groups splitting k inside the block
  int tm, tn;           // accumulators per thread (rows, columns)
  int group_threads;    // threads per group: (bm/tm)·(bn/tn)
  int min_blocks;       // __launch_bounds__ occupancy target
  constexpr int k_step() const { return bk * k_groups; }
  constexpr int threads() const { return group_threads * k_groups; }
};

// The table. Kernels are templated on an index into it (nvcc cannot name a constexpr object as a
// template argument in its host stubs).
enum SimtTileId : int {
  // One block of 16 warps per SM, k split between its two halves. Measured on the H200 against
  // two blocks of 8 warps (one k group, the scheduler's split for balance), in one run: 0.62
  // against 0.70 ms at n = 4096, 0.15 against 0.20 ms at 2048, 4.65 against 4.47 ms at 8192
  // (bench/NOTES.md, v3).
  kSimtFp32,
};
inline constexpr SimtTile kSimtTiles[] = {
    {128, 128, 8, 2, 8, 8, 256, 1},
};

// A tensor-core tile for mma.sync (sm_80 and later): warps_m × warps_n warps of 32 threads, each
// owning a (bm/warps_m) × (bn/warps_n) block of m16n8 accumulator tiles.
struct MmaTile {
  int bm, bn;        // output tile
  int bk;            // k per pipeline stage
  int warps_m, warps_n;
  int min_blocks;    // __launch_bounds__ occupancy target
  int stages = 2;    // k slices in shared memory (2: a register-staged double buffer)
  constexpr int threads() const { return 32 * warps_m * warps_n; }
  constexpr int warp_m() const { return bm / warps_m; }
  constexpr int warp_n() const { return bn / warps_n; }
};

// 3xTF32 on mma.sync m16n8k8: 8 warps of 64×32, 16 k per stage.
inline constexpr MmaTile kSm80Tf32x3{128, 128, 16, 2, 4, 1};

// fp64 on the fp64 tensor cores (mma.sync m16n8k8 on sm_90, m8n8k4 on sm_80), by size and mode.
// Small: 4 warps of 32×32 over 64×64, 16 k per stage, a 3-slice cp.async ring (57 KB), 160
// registers: three blocks an SM. Large: 8 warps of 64×32 over 128×128, half the bytes a
// multiply-add, a 4-slice ring (148 KB), one block an SM. Measured on an H100 (session 58, call
// 6), ms, small / large: Detect 2048 0.632 / 0.789, 4096 3.90 / 3.13, 8192 29.0 / 24.7;
// Triangular 2048 0.438 / 0.690, 4096 1.82 / 2.35, 8192 11.3 / 12.4 (its band edges' stages sum
// element by element, twice as many a tile). So Structure::Detect from kSm80Fp64LargeMinN takes
// the large tile (2048 too, where it loses 25 %, so that the suite's 2049 tests it), Triangular
// the small one at every n past the tiny tile's.
// Tiny: 4 warps of 16×16 over 32×32, 32 k a stage, a 3-slice ring (55 KB), four blocks an SM,
// where the other tiles leave most SMs idle: Triangular (and the gated band launch) up to
// kSm80Fp64TinyMaxN, Detect's dense launch up to kSm80Fp64TinyDenseMaxN. H100, session 61,
// ms, tiny / small: Triangular 256 0.0131 / 0.0240, 1024 0.0514 / 0.0825, 1280 0.0792 / 0.1110,
// 1536 0.1129 / 0.1366, 1792 0.1673 / 0.1672, 2048 0.2375 / 0.2157; dense Detect 1024 0.0654 /
// 0.0788, 1280 0.1541 / 0.1302 (every k: a tile's work grows with n, the band's only with its
// distance). 32 k a stage against 16 (a 5-slice ring), H100, session 63, ms: Triangular 256 0.0116
// / 0.0128, 1024 0.0380 / 0.0432, 1536 0.0795 / 0.0926; dense Detect 512 0.0164 / 0.0192 (half the
// stages' waits and barriers on the longest band's chain). With the loader's fast copies it beats
// the 64×64 tile past 1536 too (H100, session 63, Triangular, tiny / small: 1792 0.108 / 0.142,
// 2048 0.145 / 0.184, 2560 0.249 / 0.273, 3072 0.395 / 0.391); its limit stops at 2048 so that the
// suite's 2049 keeps the 64×64 tile under test.
// TinyEightWarps: the 32×32 tile on 8 warps of 16×8, 64 k a stage, a 3-slice ring (107 KB), two
// blocks an SM, for Triangular up to kSm80Fp64TinyEightWarpsMaxN. Where one block of the tiny
// tile runs an SM (n ≤ 512), each scheduler holds one warp and waits out every instruction's
// latency; eight warps halve each warp's copies and fragments. H100, session 64, ms, eight warps
// at 32 k / four: 256 0.0100 / 0.0108, 512 0.0162 / 0.0174, 768 0.0253 / 0.0267, 1024 0.0380 /
// 0.0349, 2048 0.182 / 0.135; 896 0.0315 on eight, 0.0310 on four. 64 k a stage halves the
// longest band's chain of waits (eight warps, 64 k / 32 k: 256 0.0094 / 0.0098, 512 0.0148 /
// 0.0161, 768 0.0236 / 0.0252); a 5-slice ring of 32 k gained 0–1 %. Detect's dense launch takes
// it in some ranges of kSm80Fp64TinyDense (H100, session 64, eight / four warps, ms: 256 0.0081 /
// 0.0095, 384 0.0104 / 0.0124, 512 0.0163 / 0.0163, 640 0.0199 / 0.0221, 768 0.0321 / 0.0302).
// TinyDeep: the four-warp 32×32 tile with a 4-slice ring (74 KB, three blocks an SM, three stages
// in flight), for Detect's dense launch in some ranges of kSm80Fp64TinyDense. H100, session 64,
// deep / three slices, ms: 768 0.0257 / 0.0302–0.0305, 896 0.0465 / 0.0345–0.0349 (past one wave),
// 1024 0.0546 / 0.0420; Triangular gained nothing from it (896 0.0304 / 0.0307, 1024 0.0378 /
// 0.0347), nor from 64 k a stage on four warps (1024 0.0402).
enum Sm80Fp64TileId : int {
  kSm80Fp64Small,
  kSm80Fp64Large,
  kSm80Fp64Tiny,
  kSm80Fp64TinyEightWarps,
  kSm80Fp64TinyDeep
};
inline constexpr MmaTile kSm80Fp64Tiles[] = {
    {64, 64, 16, 2, 2, 3, 3},    // Small
    {128, 128, 16, 2, 4, 1, 4},  // Large
    {32, 32, 32, 2, 2, 4, 3},    // Tiny
    {32, 32, 64, 2, 4, 2, 3},    // TinyEightWarps
    {32, 32, 32, 2, 2, 3, 4},    // TinyDeep
};
inline constexpr int64_t kSm80Fp64LargeMinN = 2048;
inline constexpr int64_t kSm80Fp64TinyMaxN = 2048;
inline constexpr int64_t kSm80Fp64TinyEightWarpsMaxN = 768;
static_assert(kSm80Fp64TinyEightWarpsMaxN < kSm80Fp64TinyMaxN,
              "Triangular: the eight-warp tile's sizes end before the four-warp one's");
inline constexpr int64_t kSm80Fp64TinyDenseMaxN = 1024;
static_assert(kSm80Fp64TinyDenseMaxN < kSm80Fp64LargeMinN,
              "Detect's dense launch: the tiny tile's sizes end before the large's");
// Detect's dense launch on the 32×32 tile, by n up to kSm80Fp64TinyDenseMaxN: each range takes
// its fastest shape. H100, session 64 calls 8 and 9, ms, eight warps / 4-slice ring / 3-slice
// ring: 512 0.0164 / 0.0162 / 0.0161, 544 0.0189 / 0.0171 / 0.0172, 608 0.0205 / 0.0187 /
// 0.0188, 640 0.0202 / 0.0220 / 0.0222, 704 0.0217 / 0.0236 / 0.0240, 736 0.0323 / 0.0246 /
// 0.0251, 864 0.0469 / 0.0297 / 0.0341, 896 0.0459 / 0.0469 / 0.0350, 992 0.0533 / 0.0545 /
// 0.0418. Each shape wins while its tiles fit one wave (eight warps two blocks an SM, the deep
// ring three, three slices four), and 64 k a stage loses where n/32 is odd (half its last stage
// empty): hence the ranges interleave.
struct Sm80Fp64DenseRange {
  int64_t max_n;
  Sm80Fp64TileId tile;
};
inline constexpr Sm80Fp64DenseRange kSm80Fp64TinyDense[] = {
    {512, kSm80Fp64TinyEightWarps},           // ≤ 136 tiles
    {608, kSm80Fp64TinyDeep},                 // n/32 odd at 544 and 608
    {704, kSm80Fp64TinyEightWarps},           // ≤ 253 tiles: one wave of two blocks an SM
    {864, kSm80Fp64TinyDeep},                 // ≤ 378 tiles: one wave of three
    {kSm80Fp64TinyDenseMaxN, kSm80Fp64Tiny},  // four blocks an SM
};
constexpr Sm80Fp64TileId sm80_fp64_tiny_dense_tile(int64_t n) {
  for (const Sm80Fp64DenseRange& r : kSm80Fp64TinyDense)
    if (n <= r.max_n) return r.tile;
  return kSm80Fp64Tiny;
}
static_assert(kSm80Fp64TinyDense[std::size(kSm80Fp64TinyDense) - 1].max_n == kSm80Fp64TinyDenseMaxN,
              "Detect's dense ranges end where the 32×32 tile's dense launch does");
// Structure::Detect with a workspace takes the gated band launch from this n (below it the dense
// launch alone: src/cuda/api.cpp's run_fp64). Its band launch takes Triangular's tile, the 32×32
// one up to kSm80Fp64TinyMaxN. H100, session 62, ms, gated / dense on triangular inputs: 512
// 0.0300 / 0.0212, 768 0.0473 / 0.0497, 1024 0.0628 / 0.0651, 1280 0.0935 / 0.1301, 1536
// 0.1285 / 0.1553; 2048 0.237 / 0.517 (session 61). Session 63's fast copies and 32 k stages
// made the dense launch on the 32×32 tile faster than the gate below ~1100 (H100, session 63,
// call 6, gated / dense: 768 0.0388–0.0396 / 0.0307–0.0309, 1024 0.0478–0.0484 / 0.0421–0.0422,
// 1280 0.0702–0.0709 / 0.0933–0.0937 on the 32×32 tile), so the gate starts where that tile's
// dense launch ends.
inline constexpr int64_t kSm80Fp64GatedMinN = kSm80Fp64TinyDenseMaxN + 1;

// 16-bit data on mma.sync m16n8k16 (the kernel for operands TMA cannot address): 8 warps of
// 64×32, 32 k per stage (two k16 steps), a 5-slice cp.async ring (93 KB: fits sm_86/89's 99).
inline constexpr MmaTile kSm80_16bit{128, 128, 32, 2, 4, 1, 5};
// Its k split over clusters on sm_90 (sched::split_ranks): at least two stages a rank, up to two
// waves of blocks (one wave lost n = 1023, unaligned, by 31 %: session 12); rows aligned for
// the cp.async ring take one wave where it still has 4 ranks (their stages are short, so a
// second wave costs more than the shorter chain saves: 704-896 forced 16-17 → 13 µs; at 1024,
// 2 ranks in one wave lost to 4 in two, 18.3 against 16.4 µs; session 13).
inline constexpr sched::SplitPolicy kSm80_16bitSplit{2, 2}, kSm80_16bitSplitAligned{2, 2, 4};
// Where one problem's units outnumber the slots and the balanced order's table, one block a unit
// in bands of this many diagonals, for L2, as kSm90Bf16Band. Forced on the H200 (session 19):
// 16384 6.82-6.91 -> 6.67-6.72 ms, 8192 unchanged; compute binds it there. Unmeasured on sm_80/89,
// whose L2 is smaller.
inline constexpr int kSm80_16bitBand = 12;

// The small-n 16-bit kernel (sm80_16bit_small): one block of `threads` per tile × tile block of
// C's triangle, which loads up to `band` k of its band at once (A's rows and B's columns of the
// tile and the k halves' sums: 94.5 KB of shared memory at 640, within sm_86/89's 99 KB opt-in
// and two blocks a SM on sm_90's 228 KB) and longer bands in turns. 640 rather than 512: n =
// 513-640 in one turn, 576 10.3 → 9.4 µs and 640 10.6 → 9.8 (H200, session 15); turns the
// launcher shortened to keep every block resident gained nothing at 704-1024.
struct SmallMmaTile {
  int tile;     // square output tile
  int band;     // k held in shared memory at once
  int threads;  // 8 warps: four 16×16 quarters of the tile, each over two halves of the k held
};
inline constexpr SmallMmaTile kSm80_16bitSmall{32, 640, 256};

// A warp-specialized wgmma tile (sm_90a): `consumers` warpgroups of 64 rows each, which also
// prepare each stage's shared-memory operand, and one warpgroup whose TMA producer warp loads a
// `stages`-deep ring of bk-wide k slices into shared memory.
struct WgmmaTile {
  int tile;          // square output tile
  int bk;            // k per stage
  int stages;        // depth of the shared-memory ring
  int consumers;     // consumer warpgroups
  constexpr int threads() const { return 128 * (consumers + 1); }
};

// 3xTF32 on wgmma m64n128k8: 128×128 tiles, 32 k per stage (one 128-byte swizzle row of fp32),
// 4 stages of 48 KB (X, X_small, Y); one stage per wgmma group and FADD promotion (two measured
// no faster, with more error: bench/NOTES.md).
inline constexpr WgmmaTile kSm90Tf32x3{128, 32, 4, 2};
// Where one problem's units outgrow the packed layouts and none is split, one block a unit in
// bands of this many diagonals, for L2, as kSm90Bf16Band (session 19: fp32 16384 13.9 -> 12.7
// ms, tf32 9.9 -> 8.4; 8192 -4 %; sm90_tf32 shares this kernel).
inline constexpr int kSm90Tf32x3Band = 12;

// 16-bit data (bf16, fp16) on wgmma m64n128k16, both operands from shared memory: 128×128 tiles,
// 64 k per stage (one 128-byte swizzle row of 16-bit elements), 6 stages of 32 KB (A 128×64,
// B 64×128), two consumer warpgroups of 64 rows, and a 32 KB staging buffer for C's TMA store.
// One block per SM (226 KB of shared memory with the barriers and the alignment slack).
inline constexpr WgmmaTile kSm90Bf16{128, 64, 6, 2};
// Its k split over clusters of 2 to kSm90Bf16SplitRanks (sched::split_ranks), where one problem's
// units leave SMs idle: at least two stages a rank, one wave of blocks, 3 ranks too (n = 897-1024
// on 132 SMs: 36 units).
inline constexpr sched::SplitPolicy kSm90Bf16Split{2, 1, 0, true};
inline constexpr int kSm90Bf16SplitRanks = 4;
// The split's ring depth in use, of the 6 stages (fewer loads in flight where every block starts
// at once: n = 1024 11.9 against 12.45 µs, session 17).
inline constexpr int kSm90Bf16SplitStages = 4;
// Past sched::DispatchOrder's table (more than 1024 units: n > 5632 with 128-wide tiles; for one
// problem, past the pairs: kSm90Bf16PairMaxN), one block a unit in bands of this many
// diagonals, row by row (sched::TriangleSchedule::unit_banded): the ~132 blocks in flight are
// ~11 rows of 12 tiles, each row of A and column of B read by ~11 of them while L2 holds it,
// where diagonal by diagonal no two share either (16384: 5.2 -> 2.6 ms, session 18).
inline constexpr int kSm90Bf16Band = 12;
// One problem from kSm90Bf16PairMinN to kSm90Bf16PairMaxN, where sched::pair_order has a
// layout: clusters of two blocks that share an operand by TMA multicast. bf16, ms (session 35):
// 4096 0.0518-0.0522 against 0.0557-0.0559 without; 4608 0.0673-0.0677 / 0.0719-0.0727; 5120
// 0.0889 / 0.0940. With the packed layout (session 39, three rounds): 2048
// 0.0206-0.0207 / 0.0187-0.0188; 2560 0.0230-0.0231 / 0.0219-0.0221; 3072 0.0286-0.0289 /
// 0.0291-0.0295; 3328 0.0323-0.0325 / 0.0332-0.0334.
// Against the bands past 5632 (session 39, three rounds): 6144 0.1373-0.1378 / 0.1521-0.1528;
// 7168 0.215-0.218 / 0.228-0.230; 8192 0.336-0.343 / 0.344-0.352; 9216 0.493-0.497 /
// 0.478-0.484; 10240 0.710 / 0.643-0.648 (there the bands' sharing of L2 wins); already at
// 8448 0.366-0.372 / 0.359-0.368 and 8960 0.450-0.451 / 0.440-0.445. The layout itself exists up
// to n = 11392 on 132 SMs.
inline constexpr int64_t kSm90Bf16PairMinN = 3072;
inline constexpr int64_t kSm90Bf16PairMaxN = 8192;
// sm90_16bit's tall units (sched/tall_order.hpp, docs/sm90_16bit_wide_plan.md option C): 192
// rows × 128 columns, 64 k a stage, a ring of 4 stages of 40 KB (A 192×64, B 64×128), three
// consumer warpgroups of 64 rows and 48 KB of staging for C. 0.83× the bytes a multiply-add of a
// 128×128 unit; below n = 4096 too few units for 132 SMs (the model,
// bench/variants/s54_tile_shape_model.py). Taken for one Upper problem from kSm90Bf16TallMinN to
// kSm90Bf16TallMaxN, before the pairs. bf16 against the pairs, ms (session 55, two rounds): 4096
// 0.0481-0.0484 / 0.0486-0.0489; 5120 0.0803-0.0804 / 0.0842-0.0843; 6144 0.1300-0.1303 /
// 0.1353-0.1360; 8192 0.3136-0.3177 / 0.3403-0.3418. Not measured past 8192 (the bands win there
// over the pairs from 8448) nor below 4096. From kSm90Bf16WideMinN the wide units below run
// instead.
struct TallTile {
  int rows, cols;  // a unit of C
  int bk;          // k per stage
  int stages;      // depth of the shared-memory ring
  constexpr int consumers() const { return rows / 64; }
};
inline constexpr TallTile kSm90Bf16Tall{192, 128, 64, 4};
inline constexpr int64_t kSm90Bf16TallMinN = 4096;
inline constexpr int64_t kSm90Bf16TallMaxN = 8192;
// Wide units (session 57, docs/sm90_16bit_wide_plan.md): 192 rows × 256 columns, a ring of 3
// stages of 56 KB, each consumer warpgroup two m64n128k16 a k16 (ptxas refuses m64n256 at 512
// threads). 0.58× the bytes a multiply-add of a 128×128 unit; each unit's 96 KB epilogue runs
// unoverlapped (one accumulator set), so short units lose: at 4096 the probe's skeleton ran 1.09×
// its 192×128 one, at 6144-12288 0.61-0.86× (H100, bench/RESULTS.md session 57). Taken for one
// Upper problem from kSm90Bf16WideMinN to kSm90Bf16WideMaxN, before the tall units (n % 8 != 0:
// the last column block's halves stored from registers, as the tall form's):
// bf16 against main's dispatch (tall units, bands past 8192), H100, ms, two rounds: 6144 0.1385 /
// 0.1510-0.1520; 8192 0.3114-0.3116 / 0.3838-0.3885; 12288 1.0666-1.1296 / 1.2084-1.2144.
inline constexpr TallTile kSm90Bf16Wide{192, 256, 64, 3};
inline constexpr int64_t kSm90Bf16WideMinN = 6144;
inline constexpr int64_t kSm90Bf16WideMaxN = 12288;

// fp32 on fp16 wgmma (sm90_fp16x3): sm90_16bit's tile and stage, each operand in two fp16
// planes, so a stage is 64 KB: 3 in the ring (its product: 125 µs at 4096, session 22).
inline constexpr WgmmaTile kSm90Fp16x3{128, 64, 3, 2};
// Precision tf32 on fp16 wgmma (sm90_fp16x1): one plane an operand, 32 KB stages, sm90_16bit's
// 6 in the ring.
inline constexpr WgmmaTile kSm90Fp16x1{128, 64, 6, 2};
// Past the packed layouts' table, bands of diagonals for L2, as kSm90Bf16Band (not measured).
inline constexpr int kSm90Fp16x3Band = 12;

}  // namespace trimm::config
