// Multi-scalar multiplication over G1 and G2 on the GPU: Σ k_i·P_i with the bases resident in
// device memory, optionally through an index list (Σ_j k_j·P_(idx_j): the Groth16 prover's tail
// MSM over the scalars that are neither 0 nor 1, gpu/classify.hpp). Host C++ header (no CUDA
// types). The CPU msm::msm is the reference it is tested against (same group element; the
// algorithm differs in its data layout, not its mathematics). G1 and G2 run the same kernels,
// templated on the device curve (gpu/device_curve.cuh); only the point size differs.
//
// Algorithm (Pippenger with signed digits, as msm/pippenger.hpp, laid out for the GPU):
//   1. digits   — one thread per scalar computes its W signed c-bit digits (carry rule of
//                 msm::SignedDigits) and writes one (key = window·h + |d| − 1, value = point
//                 index | sign) pair per non-zero digit (zero digits get a key past every
//                 bucket). h = 2^(c−1) buckets per window. The point index is j, or idx_j
//                 with an index list — the only place the indirection appears.
//   2. sort     — CUB radix sort of the n·W pairs by key (only the key bits in use), which
//                 groups every bucket's points together; then each bucket's [start, end).
//   3. buckets  — each thread sums a chunk of `chunk` consecutive sorted items (±P, mixed XYZZ
//                 additions; or, for large calls, all chunks step together in affine
//                 coordinates sharing batch inversions — GpuMsmOptions::batch_affine): buckets
//                 wholly inside a chunk are written directly, the pieces of buckets that span
//                 chunks are added by a second kernel. (One thread per
//                 bucket instead is unbalanced: the top window has few bits, so few buckets
//                 each holding ~n/2^(bits) points — measured 1.4 s for 2^18 at c = 14.)
//   4. windows  — each window's h buckets in segments: one thread per segment forms the
//                 running sums (weights b + 1 within the window, see msm_kernels.cu; about
//                 GpuMsmOptions::aggregate_threads segments in all), a second kernel adds the
//                 segment results in groups of 64 (or, split_running_sums, suffix sums, segment
//                 sums and weighted group sums in three kernels), the host adds the groups and
//                 combines windows by Horner's rule (c doublings between windows).
// With GpuMsmOptions::windows_per_pass the steps run once per group of windows (a pass), each
// pass's digits keyed from its first window, so the per-item temporaries hold one pass's items.
// Cost: n·W mixed additions (W = ⌊255/c⌋ + 1) + 2·h·W for the running sums; the sort moves
// 8·n·W bytes a few times. Memory: bases 96 B (G1) / 192 B (G2) per point (resident) + per
// call 32 B per scalar (+ 4 B per index) + 16·n·P bytes of pairs (two buffers) + sort scratch
// + 192·h·P (G1) / 384·h·P (G2) bytes of buckets + the chunks' pieces, P the windows per pass.
//
// Errors: kInvalidArgument (sizes, window, a scalar ≥ 2^255, an index ≥ the number of bases —
// for device-resident inputs these two are detected by the digits kernel, whose items are then
// skipped, and reported after the run), kUnavailable (no device), kResourceExhausted,
// kInternal. Thread safety: calls on different bases may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"
#include "ff/fr.hpp"
#include "util/env.hpp"
#include "util/status.hpp"

struct CUstream_st;  // what cudaStream_t names (this header has no CUDA types)

namespace cuzk::gpu {

// The window size used when GpuMsmOptions::window_bits is 0: 13 below 2^18 points, 16 below
// 2^23, 20 above (min(CPU choice, 8) below 2^12). Chosen among the c whose top window
// (255 − c·⌊255/c⌋ bits, plus the carry) is wide — 8, 15 and 15 bits — because a narrow top
// window crowds n/2^(bits − 1) points into each of its few buckets: measured on the H200,
// 2^18 points at c = 14 (3-bit top window) took 82 ms against 33 ms for 2^19 at c = 16, and
// 2^23 at c = 19 (8 bits) 305 ms against 409 ms for twice the points at c = 20.
// Re-measured with the batch-affine buckets (2026-12-05, H200, bucket + windows steps, ms): G1
// 2^27 c = 20 585.4 + 13.2, c = 22 (12 windows instead of 13) 572.0 + 37.4, c = 21 (3-bit top
// window) 8,539 + 20.9; G2 2^24 c = 20 280.6 + 55.4, c = 19 409.7 + 43.4. So 20 stays.
unsigned default_window_bits(size_t n);

// The batch-affine chunk for `items` work items (scalars × windows): the smallest of 8, 16 and
// 32 that leaves at most 24·2^20 chunks for G1, 6·2^20 for G2 (a G2 chunk costs about four
// times a G1 one). Fewer, longer chunks mean more steps, each with its inversion latency; more,
// shorter ones mean more running sums to read and write and more pieces to combine. Measured on
// the H200 (bucket step, ms, chunk 8 / 16 / 32): G1 2^20 14.0 / 19.3 / 28.7, 2^24 107.1 / 98.1 /
// 105.2, 2^26 382.7 / 338.8 / 324.3; G2 2^20 35.3 / 41.7 / —, 2^22 103.1 / 99.0 / 113.1,
// 2^24 352.2 / 317.0 / 301.3.
unsigned default_batch_affine_chunk(size_t items, bool g2);

struct GpuMsmOptions {
    unsigned window_bits = 0;  // c; 0 = default_window_bits(n)
    unsigned chunk = 32;       // sorted items per accumulation thread (1..4096)
    // The bucket kernel's shape, A/B switches whose defaults come from the environment
    // (CUZK_MSM_PREFETCH=0|1, CUZK_MSM_PREFETCH_G2=0|1, CUZK_MSM_MIN_BLOCKS=0|3|4; bench
    // gpu-msm --no-prefetch / --prefetch / --min-blocks N):
    //   prefetch_next_base (G1), prefetch_next_base_g2: load the next base during the current
    //     addition (a second point in registers). On for G1; off for G2, where the kernel is at
    //     255 registers and the second point spills (2^24: 537.5 ms with, 507.6 without);
    //   accumulate_min_blocks (G1 only): 0 leaves the kernel's registers to ptxas (178 with the
    //     prefetch, so 2 blocks of 128 threads per SM); 3 or 4 bound it to 168 or 128 registers
    //     so that 3 or 4 blocks fit, at the price of some spills.
    bool prefetch_next_base = util::env_switch("CUZK_MSM_PREFETCH", true);
    bool prefetch_next_base_g2 = util::env_switch("CUZK_MSM_PREFETCH_G2", false);
    unsigned accumulate_min_blocks = util::env_unsigned("CUZK_MSM_MIN_BLOCKS", 0);
    // Threads per block of the bucket kernel: 32, 64 or 128 (env CUZK_MSM_ACCUMULATE_BLOCK;
    // bench gpu-msm --block N). The registers a thread needs (G1: 178) fit 11 warps per SM, but
    // only in whole blocks: 128 threads give 8 warps, 64 give 10, 32 give 11. Measured at 2^26
    // (G1 buckets): 405.1 / 409.0 / 411.7 ms — the FMA pipe, not latency, bounds the kernel.
    unsigned accumulate_block = util::env_unsigned("CUZK_MSM_ACCUMULATE_BLOCK", 128);
    // Batch-affine bucket accumulation (env CUZK_MSM_BATCH_AFFINE=0|1; bench gpu-msm
    // --batch-affine / --no-batch-affine): the chunks' running sums are affine points and all
    // chunks step together, sharing one batch inversion per step (msm_affine_kernels.cu) — about
    // 6 products per addition instead of 10, for 3 field elements of scratch per chunk and about
    // 1 ms of inversion latency per step (per item of a chunk). Used for calls of at least
    // batch_affine_min_points (G1; env CUZK_MSM_BATCH_AFFINE_MIN) / batch_affine_min_points_g2
    // (env CUZK_MSM_BATCH_AFFINE_MIN_G2) scalars, in chunks of batch_affine_chunk items (env
    // CUZK_MSM_BATCH_AFFINE_CHUNK; 0: default_batch_affine_chunk). Measured on the H200
    // (2026-12-02, bucket step, ms): G1 2^20 8.5 XYZZ against 14.0 batch-affine, 2^24 108.1
    // against 98.1, 2^26 405.6 against 324.3; G2 2^20 38.7 against 35.3, 2^24 555 against 301.
    // The G2 threshold is 2^21 since 2026-12-03: the B_G2 tail of a 32 GiB partition (1.23M
    // scattered bases with full-width scalars) took 70.0 ms in XYZZ against 90.3 batch-affine.
    // Re-measured with the G2 norm inversion (H100, 2026-12-06): alone, batch-affine now wins
    // below 2^21 too (bucket step 2^19 20.1 against 24.6 ms, 2^20 30.6 against 46.7), but in
    // 32 GiB partitions (lean plan) b_g2 took 118.9 ms per partition with a 2^20 threshold
    // against 113.6 with 2^21, so the threshold stays.
    bool batch_affine = util::env_switch("CUZK_MSM_BATCH_AFFINE", true);
    size_t batch_affine_min_points = util::env_unsigned("CUZK_MSM_BATCH_AFFINE_MIN", 1u << 24);
    size_t batch_affine_min_points_g2 =
        util::env_unsigned("CUZK_MSM_BATCH_AFFINE_MIN_G2", 1u << 21);
    unsigned batch_affine_chunk = util::env_unsigned("CUZK_MSM_BATCH_AFFINE_CHUNK", 0);
    // In both batch-affine kernels each thread walks kAffineLanesPerThread lanes; with this on
    // it asks L2 for the next lane's point (PTX prefetch.global.L2) before working on the
    // current one, so that the point's DRAM latency overlaps that work instead of following
    // the loads of the lane's record and value (env CUZK_MSM_BATCH_AFFINE_PREFETCH=0|1).
    // Measured on the H200 (2026-12-02, buckets, ms, off / on): G1 2^26 327.2 / 359.3, 2^27
    // 627.2 / 692.1, G2 2^24 296.2 / 310.8 — slower, so off: the kernels wait on the
    // products, not on the point loads.
    bool batch_affine_prefetch = util::env_switch("CUZK_MSM_BATCH_AFFINE_PREFETCH", false);
    // Each batch-affine step's additions fused with the next step's slope denominators in one
    // kernel (msm_affine_kernels.cu, add_denominators_kernel), for G1 / G2 (env
    // CUZK_MSM_BATCH_AFFINE_FUSED / CUZK_MSM_BATCH_AFFINE_FUSED_G2 = 0|1): the new running sum
    // meets the lane's next point in registers, so a step reads each lane's sum and record once
    // instead of twice and launches one large kernel instead of two. Same sums. Off: on the
    // H200 (2026-12-03, bucket step, ms, off / on) G1 2^26 326.7 / 341.7, 2^27 626.1 / 654.5,
    // G2 2^24 293.9 / 457.2. ncu (G1 2^26): the denominators kernel is a memory-bound gather
    // (62 registers, 47 % occupancy, 70 % of DRAM bandwidth) and the addition kernel compute-
    // bound (136 registers, 18 % occupancy); fused (162 registers) the gathers wait inside the
    // low-occupancy kernel, and the G2 form calls out of line through a 440-byte stack frame.
    bool batch_affine_fused = util::env_switch("CUZK_MSM_BATCH_AFFINE_FUSED", false);
    bool batch_affine_fused_g2 = util::env_switch("CUZK_MSM_BATCH_AFFINE_FUSED_G2", false);
    // G1's batch-affine addition kernel bounded to 128 registers so that 4 blocks of 128 threads
    // fit per SM instead of 3 at its natural 136 (env CUZK_MSM_BATCH_AFFINE_MIN_BLOCKS=0|4;
    // ncu, G1 2^26: 18 % occupancy, compute-bound at 69 %). G2's needs 255; it ignores this.
    // On since 2026-12-03: ptxas 128 registers with 64 bytes of spills; H200 bucket step (ms,
    // 0 / 4) G1 2^26 326.3 / 317.8 (two rounds alike), 2^27 625.4 / 608.2.
    unsigned batch_affine_add_min_blocks = util::env_unsigned("CUZK_MSM_BATCH_AFFINE_MIN_BLOCKS", 4);
    // The batch-affine steps' latency-bound half — each part's slope denominators (a memory-
    // bound gather) and its levelled batch inversion (small kernels ending in one thread's
    // Fermat inversion) — on streams of the device's greatest priority, the additions on the
    // parts' own streams (env CUZK_MSM_BATCH_AFFINE_PRIORITY=0|1; unfused steps only). Without
    // it a part's denominators and inversion wait behind the other part's addition blocks
    // already queued; with it their blocks take the next free slots, so the gather runs beside
    // the other part's compute-bound additions and the inversion's latency hides under them.
    // On since 2026-12-03: H200 bucket step (ms, off / on) G1 2^26 317.8 / 296.2 (two rounds
    // alike), 2^27 608.2 / 584.3, G2 2^24 293.6 / 279.3.
    bool batch_affine_priority = util::env_switch("CUZK_MSM_BATCH_AFFINE_PRIORITY", true);
    // The batch-affine lanes stepped in this many parts, each on its own stream (1..4; env
    // CUZK_MSM_BATCH_AFFINE_PARTS): while one part waits on its inversion's latency the others'
    // kernels fill the GPU. Same sums.
    unsigned batch_affine_parts = util::env_unsigned("CUZK_MSM_BATCH_AFFINE_PARTS", 2);
    // G2's batch-affine steps invert their Fp2 slope denominators through the norm: the
    // prefix products, the levelled inversion and the walk back run in Fp over N(d) = d0² + d1²
    // (stored beside the prefix, in the bytes an Fp2 prefix took), and d⁻¹ = conj(d)·N(d)⁻¹
    // (env CUZK_MSM_G2_NORM_INVERSE=0|1; unfused steps only). Per addition 15 Fp products
    // instead of 17 (Fp2 products count 3): the prefix 3 → 2 + 1, the walk back 6 → 2 + 2.
    // Same sums. On since 2026-12-06: H100, G2 bucket step (ms, off / on) 2^21 56.9 / 52.1,
    // 2^22 94.9 / 84.3, 2^23 172.5 / 152.4, 2^24 291.7 / 270.2 (two rounds alike), 2^25 530.9 /
    // 501.8 — 2^24 in kernels 340.3 → 318.8.
    bool batch_affine_norm_inverse_g2 = util::env_switch("CUZK_MSM_G2_NORM_INVERSE", true);
    // The batch-affine steps (unfused; G1, and G2 with the norm inversion) read the gathered
    // points and the running sums, and write the sums, in 16-byte accesses
    // (gpu/vector_access.cuh: LDG.E.128 where the 8-byte aligned field type gives LDG.E.64,
    // half the memory instructions per addition) — where the bases and the scratch are 16-byte
    // aligned, else the 8-byte kernels run. Same sums; env CUZK_MSM_VECTOR_IO=0|1. On since
    // 2026-12-06: H100, G1 2^27 bucket step (ms, off / on, two rounds alike) 634.7 / 624.0;
    // msm_h per 32 GiB partition (lean plan) ~809 → ~805. G2's since 2026-12-06 (session
    // 29): H100, G2 bucket step (ms, off / on, two rounds alike) 2^22 87.1 / 82.4, 2^24
    // 272.7 / 262.0 — 2^24 in kernels 321.0 → 310.7.
    bool batch_affine_vector_io = util::env_switch("CUZK_MSM_VECTOR_IO", true);
    // G1's bounded batch-affine addition kernel (batch_affine_add_min_blocks ≥ 4, unfused) walks
    // its inversion group with the running inverse moved on by the lane's denominator before
    // the addition (gpu/batch_inverse.cuh, prefix_products_down_early) instead of after it: the
    // denominator and the old running inverse (24 words) are not live across the addition's
    // products — for fewer spills under the kernel's 128 registers (env
    // CUZK_MSM_BATCH_AFFINE_EARLY_ADVANCE=0|1). Same sums. On since 2026-12-07: ptxas 125–128
    // registers and no spills (late: 128 with 64/72 bytes); H100, G1 bucket step (ms, off / on,
    // two rounds alike) 2^26 309.9 / 306.3, 2^27 613.7 / 605.5.
    bool batch_affine_early_advance =
        util::env_switch("CUZK_MSM_BATCH_AFFINE_EARLY_ADVANCE", true);
    // Temporary buffers (sorted pairs, records, pieces, buckets, sort scratch: ~50 GB at 2^27
    // scalars) taken from and given back to the process's ScratchCache (gpu/scratch_cache.hpp)
    // instead of cudaMalloc and cudaFree on every call (env CUZK_MSM_CACHE_SCRATCH=0|1). Off:
    // in a 32 GiB partition pair on the H200 (2026-12-02) it made msm_h 744 → 802 ms, b_g2
    // 139 → 240 and h2d 684 → 1,042 — with 44 GiB of parameters, 9 GiB of circuit and the a/b/c
    // buffers resident, the cached 50 GB leave the later MSMs short, so they empty the cache
    // (a synchronous cudaFree in the middle of overlapped work) and the next H MSM allocates
    // anew. Worth it only where memory is plentiful; a policy by free memory is still to do.
    bool cache_scratch = util::env_switch("CUZK_MSM_CACHE_SCRATCH", false);
    // The large temporaries suballocated from a stream-ordered memory pool per device that keeps
    // freed memory mapped (ScratchPool, gpu/scratch_cache.hpp; env CUZK_MSM_POOL_SCRATCH=0|1):
    // every MSM of a partition draws on the same memory whatever its sizes, and idle pooled
    // memory is trimmed when any other allocation runs short. Takes precedence over
    // cache_scratch. On since 2026-12-03: over the four partitions of two 32 GiB pairs on the
    // H200 the GPU steps took 1,327.7 ms per partition against 1,363.9 with cudaMalloc/cudaFree
    // (msm_h −18 ms, tail −10, prep −4 once the pool has grown; a cudaFree also waits for the
    // whole device, including the next partition's overlapped uploads).
    bool pool_scratch = util::env_switch("CUZK_MSM_POOL_SCRATCH", true);
    // G2 kernels with the lazily reduced Fp2 product (three double-width products and two
    // Montgomery reductions; gpu/mont_ptx.cuh) instead of the Karatsuba one (env
    // CUZK_MSM_G2_LAZY_FP2=0|1). Same results. Off: on the H200 (2026-12-02) the product alone
    // ran at the Karatsuba one's rate (8.53 against 8.57 G/s) and the G2 2^24 bucket step took
    // 365–370 ms against 296–298 (more registers live in the 254-register batch-affine kernel).
    bool g2_lazy_product = util::env_switch("CUZK_MSM_G2_LAZY_FP2", false);
    // G1 kernels whose Fp squarings (the batch-affine slope's λ², the XYZZ additions' two, the
    // inversions' chains) take the dedicated squaring (DeviceFpSquare, gpu/mont_ptx.cuh:
    // 78 + 144 word products instead of 144 + 144) instead of the product a·a (env
    // CUZK_MSM_DEDICATED_SQUARE=0|1). Same results. On: on an H100 (2026-12-07) the squaring
    // ran at 34.2 G/s against the product's 27.0, and the G1 2^27 bucket step took 613.7 ms
    // against 621.6 (2^26: 309.8 against 313.9).
    bool dedicated_square = util::env_switch("CUZK_MSM_DEDICATED_SQUARE", true);
    bool uses_batch_affine(size_t n, bool g2) const {
        return batch_affine && n >= (g2 ? batch_affine_min_points_g2 : batch_affine_min_points);
    }
    // Threads of the running-sum step (windows × segments, segments of ≥ 16 buckets): each sums
    // its segment serially, so few threads leave the GPU mostly idle (8192 before 2026-12-02).
    unsigned aggregate_threads = 65536;
    // The windows step as three kernels of at most two points per thread and one scalar
    // multiple per group of 64 segments (suffix sums in place, segment sums, weighted group
    // sums; msm_launch.hpp) instead of one kernel holding three points and a scalar multiple per
    // segment — G2's one-kernel form spills (env CUZK_MSM_SPLIT_RUNNING_SUMS=0|1). Off: on the
    // H200 (2026-12-02, G2 2^24) 62.7–63.1 ms against 58.0–60.1; ncu: suffix sums 30 ms,
    // segment sums 20, the weighted group sums 15 (1,664 threads of ~200 serial additions).
    bool split_running_sums = util::env_switch("CUZK_MSM_SPLIT_RUNNING_SUMS", false);
    // The windows step over each window's buckets as a grid of S rows × L columns: row and
    // column sums (one accumulator per thread, terms streamed), then two weighted sums of S and
    // L points — Σ_b (b + 1)·B_b = L·Σ_s s·R_s + Σ_i (i + 1)·C_i (msm.cpp, GridPlan; env
    // CUZK_MSM_GRID_RUNNING_SUMS=0|1). Takes precedence over split_running_sums;
    // aggregate_threads sets the threads of each of the row and column sums. On: on the H200
    // (2026-12-05, windows step, ms, running sums / grid) G2 2^24 57.5 / 38.4 (the G2 MSM's
    // kernels 343.8 → 323.2), G1 2^27 13.1 / 9.8; in 32 GiB partitions the span did not move
    // beyond noise (medians 1,166.5 / 1,163.7 ms; the partition's G2 MSM is a 1.2 M-base tail).
    bool grid_running_sums = util::env_switch("CUZK_MSM_GRID_RUNNING_SUMS", true);
    // The grid step's row and column sums with registers bounded for 6 or 8 resident blocks of
    // 64 threads per SM (0: unbounded), for G1 / G2 (env CUZK_MSM_GRID_MIN_BLOCKS /
    // CUZK_MSM_GRID_MIN_BLOCKS_G2 = 0|6|8). On one H100 (2026-12-05, windows step, ms, 0 / 6 /
    // 8): G2 2^24 49.8 / 41.1 / 42.1 (unbounded: 255 registers and a 904-byte stack, 4 blocks;
    // at 6 the spills go), G1 2^27 9.9 / 10.1 / 10.4 (190 registers, no spills). So G1 0, G2 6.
    unsigned grid_min_blocks = util::env_unsigned("CUZK_MSM_GRID_MIN_BLOCKS", 0);
    unsigned grid_min_blocks_g2 = util::env_unsigned("CUZK_MSM_GRID_MIN_BLOCKS_G2", 6);
    // The windows in passes of at most this many (env CUZK_MSM_WINDOWS_PER_PASS; 0 = choose):
    // each pass makes the digits of its windows only, sorts them, fills its windows' buckets and
    // sums them, so the temporaries that grow with scalars × windows (pairs, sort scratch,
    // records, pieces: ~35 bytes per item for G1, ~60 for G2) shrink in proportion; the passes
    // run one after another on the same buffers. Same sum. 0: all windows in one pass when the
    // call's temporaries fit the device's free memory (idle cached and pooled memory counted, at
    // most scratch_budget_bytes when that is set), else the fewest passes that fit; and when an
    // allocation fails even so (another call took the memory meanwhile) the call starts again
    // with half as many windows per pass, down to one. A 32 GiB partition's L and H MSMs (2^27
    // scalars, 13 windows) need ~50 GB in one pass: more than an 80 GB card has left beside
    // the parameters.
    unsigned windows_per_pass = util::env_unsigned("CUZK_MSM_WINDOWS_PER_PASS", 0);
    // The most device memory the call's temporaries may take when windows_per_pass is 0 (env
    // CUZK_MSM_SCRATCH_BUDGET_MIB, in MiB; 0: no bound beyond the device's free memory) — to
    // plan as on a smaller card, or to leave room for other work.
    size_t scratch_budget_bytes = size_t{util::env_unsigned("CUZK_MSM_SCRATCH_BUDGET_MIB", 0)}
                                  << 20;
    // The stream the call's device work is enqueued on, its pooled temporaries ordered on it
    // (null: the legacy default stream). The call still returns once its work is done; callers
    // that run several MSMs at once give each its own (non-blocking) stream.
    CUstream_st* stream = nullptr;
    static constexpr unsigned kMaxWindowBits = 22;
};

// The window size, the passes, the accumulation and the chunk a call of n scalars runs with
// under `options` (windows_per_pass: options.windows_per_pass, or all windows when that is 0 —
// the memory-driven choice happens in the call, which passes its choice here).
struct MsmPlan {
    unsigned window_bits = 0;
    unsigned windows = 0;  // ⌊255/c⌋ + 1 signed-digit windows
    unsigned windows_per_pass = 0;  // 1..windows
    bool batch_affine = false;
    unsigned chunk = 0;  // chosen for all n · windows items, whatever the passes
    unsigned passes() const { return (windows + windows_per_pass - 1) / windows_per_pass; }
};
MsmPlan plan_msm(const GpuMsmOptions& options, size_t n, bool g2, unsigned windows_per_pass = 0);

// Windows per pass for the fewest passes whose temporaries, bytes_for(windows per pass), fit in
// `available` bytes: ⌈windows / p⌉ for the least p (the passes as even as they can be); 1 when
// none fits (the call then tries, and reports the allocation failure if there is one).
template <class BytesFor>
unsigned fitting_windows_per_pass(unsigned windows, size_t available, BytesFor bytes_for) {
    for (unsigned p = 1; p < windows; ++p) {
        const unsigned w = (windows + p - 1) / p;
        if (bytes_for(w) <= available) return w;
    }
    return 1;
}

// Milliseconds per step of the last call (CUDA events; the host part of step 4 included in
// `windows`).
struct GpuMsmTimings {
    double upload = 0, digits = 0, sort = 0, buckets = 0, windows = 0, total = 0;
    // Summed over the passes; windows_per_pass and passes as run (after any retry), and the
    // temporaries' bytes.
    unsigned windows_per_pass = 0, passes = 0;
    size_t scratch_bytes = 0;
};

// Affine bases in device memory (same layout as ec::G1Affine / ec::G2Affine; the identity is
// (0, 0)); fewer than 2^31 points. Defined (explicitly instantiated) for those two types only.
template <class Affine>
class DeviceBases {
   public:
    DeviceBases();
    ~DeviceBases();
    DeviceBases(DeviceBases&&) noexcept;
    DeviceBases& operator=(DeviceBases&&) noexcept;

    static util::Result<DeviceBases> upload(std::span<const Affine> bases);
    size_t size() const { return size_; }
    const Affine* device_data() const;

   private:
    struct Buffer;
    Buffer* buffer_ = nullptr;
    size_t size_ = 0;
};
using DeviceG1Bases = DeviceBases<ec::G1Affine>;
using DeviceG2Bases = DeviceBases<ec::G2Affine>;

// Σ scalars[i]·bases[i] (canonical scalars < 2^255; scalars.size() == bases.size()).
util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options = {},
                                    GpuMsmTimings* timings = nullptr);
util::Result<ec::G2Jacobian> msm_g2(const DeviceG2Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options = {},
                                    GpuMsmTimings* timings = nullptr);

// Indexed: Σ_j scalars[j]·bases[indices[j]] (scalars.size() == indices.size(), any count;
// every index < bases.size(); an index may repeat). Host scalars and indices, uploaded per call.
util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    std::span<const uint32_t> indices,
                                    const GpuMsmOptions& options = {},
                                    GpuMsmTimings* timings = nullptr);
util::Result<ec::G2Jacobian> msm_g2(const DeviceG2Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    std::span<const uint32_t> indices,
                                    const GpuMsmOptions& options = {},
                                    GpuMsmTimings* timings = nullptr);

// Everything device-resident (device or mapped pinned memory, e.g. gpu::ResidentParams'
// sections and gpu::classify_scalars' outputs): Σ_{j<n} scalars[j]·bases[indices[j]], or
// Σ scalars[j]·bases[j] when indices is null (then n ≤ num_bases). scalars: n canonical
// ff::BigInt<4>; indices: n uint32. Scalars ≥ 2^255 and indices ≥ num_bases are found on the
// device (kInvalidArgument after the run). Synchronous, on options.stream; timings->upload
// is 0.
util::Result<ec::G1Jacobian> msm_g1_device(const ec::G1Affine* bases, size_t num_bases,
                                           const ff::BigInt<4>* scalars, const uint32_t* indices,
                                           size_t n, const GpuMsmOptions& options = {},
                                           GpuMsmTimings* timings = nullptr);
util::Result<ec::G2Jacobian> msm_g2_device(const ec::G2Affine* bases, size_t num_bases,
                                           const ff::BigInt<4>* scalars, const uint32_t* indices,
                                           size_t n, const GpuMsmOptions& options = {},
                                           GpuMsmTimings* timings = nullptr);

// Convenience: uploads the bases, converts Fr scalars, runs msm_g1 / msm_g2.
util::Result<ec::G1Jacobian> msm_g1(std::span<const ec::G1Affine> bases,
                                    std::span<const ff::Fr> scalars,
                                    const GpuMsmOptions& options = {});
util::Result<ec::G2Jacobian> msm_g2(std::span<const ec::G2Affine> bases,
                                    std::span<const ff::Fr> scalars,
                                    const GpuMsmOptions& options = {});

}  // namespace cuzk::gpu
