// Batch addition on the GPU: Σ_{i: bit i set} P_i over device-resident affine G1 or G2 bases — the
// sum of the bases whose scalar is 1, which the Groth16 prover takes out of the MSM (SupraSeal's
// batch_addition, cuzk-supraseal-reference.md §2.4; msm/batch_add.hpp is the CPU reference it
// is tested against). Host C++ header: no CUDA types (streams are CUstream_st*).
//
// Selection bits: bit i (base i) is bit i % 64 of bits[i / 64], least significant first — the
// layout of msm::batch_add and of gpu::classify_scalars' ones bitmap; ⌈n/64⌉ device words; bits
// of the last word at positions ≥ n are ignored. Identity bases (0, 0) contribute nothing;
// repeated bases (doubling) and P next to −P (cancellation) are handled by the XYZZ formulas.
//
// Method: each warp sums the selected bases of 32·`words_per_thread` consecutive bit words with
// XYZZ mixed additions (ec::Xyzz::add_mixed, 8M + 2S), 32 words at a time, its lanes taking the
// set bits in turn (warp_compact; or each thread walking the set bits of its own words); the
// threads of a block are reduced by a shared-memory tree of XYZZ additions into one point per
// block, and a single block reduces those. Cost: one mixed addition per selected base plus
// ~2 full additions per thread; device scratch = one XYZZ point per block.
//
// Batch-affine method (GpuBatchAddOptions::batch_affine, for large n): the indices of the set
// bits are listed in order (CUB's stable select) and cut into lanes of `chunk` items; the MSM's
// batch-affine bucket step (msm_launch.hpp, launch_msm_accumulate_affine) then sums every lane
// as one bucket — all lanes step together and share one batch inversion per step, so an addition
// costs about 6 products instead of 10 — and the lanes' sums are added by the XYZZ tree above.
// The same special cases hold (identity bases, doubling, cancellation: the bucket step's). It
// reads the selected count back once, so the call waits for `stream` once. Scratch: ~16 bytes
// per base for the lists plus, per lane, three XYZZ points and the affine step's state.
//
// Errors: kInvalidArgument (sizes, null pointers, scratch too small), kUnavailable (no device),
// kResourceExhausted, kInternal. Thread safety: calls on different streams may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"
#include "gpu/msm.hpp"
#include "util/env.hpp"
#include "util/status.hpp"

struct CUstream_st;

namespace cuzk::gpu {

inline constexpr size_t kMaxBatchAddBases = (size_t{1} << 31) - 1;
inline constexpr size_t kMaxBatchAddWordsPerThread = size_t{1} << 20;

struct GpuBatchAddOptions {
    // Bit words summed by one thread; 0 = automatic (1 up to 2^18 words, then enough to keep
    // about 2^18 threads). At most 2^20.
    size_t words_per_thread = 0;
    // The warp-compacted kernel (env CUZK_BATCH_ADD_WARP_COMPACT=0|1): a warp numbers the set
    // bits of 32 words at a time and its lanes take them in turn, so that every lane adds in
    // every round; off, each thread walks the set bits of its own words and a warp runs as many
    // rounds per word as its fullest lane's word has bits (modelled on the 8 MiB PoRep
    // partition's L bitmap: 76 % of the lanes busy, against ~97 % compacted).
    bool warp_compact = util::env_switch("CUZK_BATCH_ADD_WARP_COMPACT", true);
    // G1's XYZZ kernels square in Fp by the dedicated squaring (gpu/mont_ptx.cuh, as
    // GpuMsmOptions::dedicated_square; 2 of the mixed addition's 10 products are squares)
    // instead of the product a·a (env CUZK_BATCH_ADD_DEDICATED_SQUARE=0|1). Same sums. G2
    // ignores it. On since 2026-12-07: H100, 32 GiB partition (lean plan, medians of 3),
    // batch_addition 67.1 → 65.4 ms (ranges 67.0–67.1 / 65.3–65.6).
    bool dedicated_square = util::env_switch("CUZK_BATCH_ADD_DEDICATED_SQUARE", true);
    // Batch-affine additions from `affine_min` bases up (env CUZK_BATCH_ADD_AFFINE=1;
    // CUZK_BATCH_ADD_AFFINE_MIN): see "Batch-affine method" above. Same sums. Off: measured
    // slower in a 32 GiB partition on the H200 (2026-12-02: batch_addition 83.8 → 119.0 ms,
    // b_g2 141.9 → 155.6 ms per partition; bench/RESULTS.md, session 11), and again with G2's
    // inversion in Fp (H100, lean plan, 2026-12-06: batch_addition 69.0 → 120.0, b_g2 110.6 →
    // 123.0 ms per partition; session 26).
    bool batch_affine = util::env_switch("CUZK_BATCH_ADD_AFFINE", false);
    size_t affine_min = util::env_unsigned("CUZK_BATCH_ADD_AFFINE_MIN", 1u << 20);
    // Items per lane (env CUZK_BATCH_ADD_AFFINE_CHUNK); 0 = 32, doubled while there would be
    // more than kMaxBatchAddLanes lanes.
    uint32_t affine_chunk = util::env_unsigned("CUZK_BATCH_ADD_AFFINE_CHUNK", 0);
    // The batch-affine method's bucket step runs with the kernel variant these MSM options
    // select (GpuMsmOptions' batch_affine_priority, _parts, _add_min_blocks, _prefetch, _fused;
    // their environment switches): the same step as the MSM's, tuned the same way.
    GpuMsmOptions affine_step{};

    bool uses_batch_affine(size_t n) const { return batch_affine && n >= affine_min; }
};

// The batch-affine method's largest lane count (the MSM's record keys hold 25 bits).
inline constexpr size_t kMaxBatchAddLanes = size_t{1} << 24;

// Bytes of device scratch the device-pointer batch_add_g1 needs for n bases.
util::Result<size_t> batch_add_scratch_bytes_g1(size_t n, const GpuBatchAddOptions& options = {});

// Enqueues *result = Σ_{bit i set, i < n} bases[i] on `stream` (nullptr = the default stream):
// bases (n points), bits (⌈n/64⌉ words) and result (one ec::G1Xyzz) are device pointers.
// Asynchronous (the batch-affine method waits for `stream` once, after listing the set bits):
// launch errors are returned, execution errors surface at the next synchronisation. n = 0
// writes the identity.
util::Status batch_add_g1(const ec::G1Affine* bases, size_t n, const uint64_t* bits,
                          ec::G1Xyzz* result, void* scratch, size_t scratch_bytes,
                          CUstream_st* stream, const GpuBatchAddOptions& options = {});

// Resident bases, host bit vector (bits.size() must be ⌈bases.size()/64⌉); synchronous.
util::Result<ec::G1Jacobian> batch_add_g1(const DeviceG1Bases& bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options = {});

// Convenience (tests): uploads the bases too.
util::Result<ec::G1Jacobian> batch_add_g1(std::span<const ec::G1Affine> bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options = {});

// G2: the same, over ec::G2Affine bases and one ec::G2Xyzz result (blocks of 64 threads).
util::Result<size_t> batch_add_scratch_bytes_g2(size_t n, const GpuBatchAddOptions& options = {});
util::Status batch_add_g2(const ec::G2Affine* bases, size_t n, const uint64_t* bits,
                          ec::G2Xyzz* result, void* scratch, size_t scratch_bytes,
                          CUstream_st* stream, const GpuBatchAddOptions& options = {});
util::Result<ec::G2Jacobian> batch_add_g2(const DeviceG2Bases& bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options = {});
util::Result<ec::G2Jacobian> batch_add_g2(std::span<const ec::G2Affine> bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options = {});

}  // namespace cuzk::gpu
