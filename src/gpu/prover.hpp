// The Groth16 prover on the GPU: the CPU prover's algorithm (groth16/prover.hpp) with the H
// polynomial and every MSM (G2 included) on the device, over parameters resident there
// (ResidentParams: loaded from a file, or generated on the GPU by gpu/resident_setup.hpp).
// With the same r, s the proofs are bit-identical to groth16::prove's (same group elements,
// same encoding); the tests check exactly that.
//
// Per circuit, in order (phase names as DESIGN.md §5 and issue 5; PhaseTimes in ms, summed over
// the circuits of a call; `total` is the wall time of the whole call):
//   synthesis        CPU: the circuit into a ProvingAssignment (groth16::synthesize_into), the
//                    shape and satisfaction checks, the L/A/B scalars gathered
//                    (groth16/prover_parts.hpp) — prove_gpu only; prove_gpu_assignments gets
//                    assignments synthesized by its caller (the engine's synthesis pool);
//   h2d              a, b, c (zero-padded to m) and later the L, A, B scalars to the device,
//                    through pinned staging (gpu/staged_upload.hpp);
//   ntt_h            H on the device (gpu/h_poly.hpp), left there as the H MSM's scalars —
//                    over a coset-Lagrange parameter set (ResidentParams::h_basis,
//                    groth16/coset_bases.hpp) the coset products a_c·b_c instead, in four
//                    transforms rather than six, and the H sum takes the inputs' C term
//                    (−Σ x_i·S_i, on the host) before proof_assembly; same proofs;
//   msm_h            the H MSM: Pippenger over H, converted to canonical integers in place (or,
//                    with h_msm_direct off, split as below);
//   prep_msm         L, A, B_G1: classification of the scalars into 0 / 1 / other on the device;
//   batch_addition   L, A, B_G1: the sums of the bases of the unit scalars;
//   tail_msm         L, A, B_G1: Pippenger over the other scalars;
//   b_g2             the whole B_G2 MSM (classification, batch addition, tail) on the device;
//   split_msms       the wall time of L, A, B_G1 and B_G2 together (concurrent_split_msms runs
//                    them at once, so the four phases above overlap);
//   proof_assembly   CPU (groth16::assemble_proof);
// and on the compiled path (below) "witness" (CPU, instead of synthesis) and "spmv" (a, b, c
// and the a·b = c check on the device, after h2d).
// prove_gpu overlaps: up to `synthesis_workers` circuits are synthesized on CPU threads while
// the calling thread runs the GPU steps of the previous ones, in circuit order; at most
// synthesis_workers + 1 assignments exist at any time (host memory ≈ that × (m·3 + aux + a + b +
// l)·32 bytes). The parameter set stays resident across circuits and calls, so the parameter
// bytes are read from device memory, never re-sent (the CPU prover's shared parameter pass has no
// GPU counterpart to gain). Events go to options.trace when set (one lane per thread).
//
// Compiled-circuit path (GpuProverOptions::compiled set, gpu/device_circuit.hpp): per circuit
// only the witness z = (inputs, aux) is generated on the CPU (r1cs::WitnessOnly, challenges
// forked) and uploaded ("h2d": num_columns·32 bytes instead of a, b, c and the L/A/B scalars);
// a, b, c = A·z, B·z, C·z on the device ("spmv"), the satisfaction check on the device, the A/B
// scalars gathered there from z, the L scalars are z's aux part. Same proofs, byte for byte.
// Switch: on when the caller hands a DeviceCircuit (bench gpu-prove --compiled; the engine with
// compiled synthesis, the default). Memory plan (GpuProverOptions::memory_plan): on a device
// with too little left for the overlaps below, the session turns them off (lean).
// Overlap (GpuProverOptions::overlap_h2d, env CUZK_GPU_OVERLAP_H2D=0 turns it off): circuit
// k + 1's upload into a second device slot runs on its own thread and stream while circuit k's
// kernels run (compiled path only: the z slots are small).
// Split MSMs beside the H transforms (GpuProverOptions::split_overlap, compiled path): the L, A,
// B_G1, B_G2 MSMs start on their streams right after the SpMV, while the H transforms run.
// Not yet: two circuits' GPU steps on concurrent streams; multi-GPU split inside one call (the
// engine spreads calls over devices instead).
// Errors: as the CPU prover's ("circuit K: …"), CUDA errors as Status; the first error aborts
// the call (workers are stopped and joined).
#pragma once

#include <span>
#include <vector>

#include "gpu/device_circuit.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/resident_params.hpp"
#include "groth16/circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/prover.hpp"
#include "groth16/witness.hpp"
#include "r1cs/proving_assignment.hpp"
#include "util/env.hpp"
#include "util/status.hpp"
#include "util/trace.hpp"

namespace cuzk::gpu {

struct GpuProverOptions {
    bool check_satisfied = true;  // a·b = c on every row before proving (as the CPU prover)
    NttOptions ntt;
    GpuMsmOptions msm;
    SpmvOptions spmv;  // the compiled path's a, b, c
    unsigned synthesis_workers = 2;  // prove_gpu: circuits synthesized ahead of the GPU
    util::TraceRecorder* trace = nullptr;
    // The compiled-circuit path (see above); must be the circuits' own compiled shape.
    const DeviceCircuit* compiled = nullptr;
    // Compiled path: upload k + 1 during k; on unless CUZK_GPU_OVERLAP_H2D=0.
    bool overlap_h2d = util::env_switch("CUZK_GPU_OVERLAP_H2D", true);
    // The H MSM as a plain MSM (scalars converted to canonical in place; H's random scalars are
    // never 0/1 in bulk) instead of the split one (classification, an empty batch addition, the
    // tail MSM through an index list). CUZK_H_MSM_DIRECT=0 selects the split one.
    bool h_msm_direct = util::env_switch("CUZK_H_MSM_DIRECT", true);
    // The L, A, B_G1 and B_G2 MSMs (each split: classification, batch addition, tail MSM) all
    // at once after the H MSM, each on its own non-blocking stream and host thread, instead of
    // one after another (env CUZK_SPLIT_MSM_CONCURRENT=0|1): their latency-bound steps (the
    // tails' window sums, sorts, read-backs) overlap the others' kernels. Same sums. Their
    // phases (prep_msm, batch_addition, tail_msm, b_g2) then overlap one another; the phase
    // split_msms is the four's wall time either way.
    bool concurrent_split_msms = util::env_switch("CUZK_SPLIT_MSM_CONCURRENT", true);
    // When the split MSMs run on the compiled path with concurrent_split_msms (env
    // CUZK_SPLIT_MSM_OVERLAP=0|1; other paths always run them after the H MSM):
    //   kAfterH  (0) after the H MSM, their A and B scalars gathered into the b and c buffers the
    //                H step has freed;
    //   kWithNtt (1) started before the H step, with the A and B scalars gathered into pooled
    //                buffers of their own (a + b scalars: 2.6 GB at 32 GiB), and joined before the
    //                H MSM: their latency-bound steps (sorts, read-backs, small batch-inversion
    //                kernels) fill the H transforms' gaps, and the H MSM's memory peak is
    //                unchanged. (Joined after the H MSM instead, their temporaries and its ~50 GB
    //                did not fit beside 44 GiB of parameters on the H200: out of memory.)
    // Same sums either way; with kWithNtt the phase split_msms overlaps ntt_h.
    enum class SplitOverlap : unsigned { kAfterH = 0, kWithNtt = 1 };
    SplitOverlap split_overlap = split_overlap_from_env();

    static SplitOverlap split_overlap_from_env() {
        return util::env_unsigned("CUZK_SPLIT_MSM_OVERLAP", 1) == 0 ? SplitOverlap::kAfterH
                                                                    : SplitOverlap::kWithNtt;
    }
    // The compiled path's memory plan (env CUZK_GPU_MEMORY_PLAN=0|1|2; other paths ignore it):
    //   kAuto (0) lean when the memory the device can still give after a, b, c and one z slot
    //             is below what the full plan adds (full_plan_extra_bytes), else full;
    //   kFull (1) as overlap_h2d and concurrent_split_msms say;
    //   kLean (2) the split MSMs one after another after the H MSM (concurrent_split_msms
    //             off), the upload ahead only with lean_overlap_h2d; b and c taken from
    //             the scratch pool per circuit and given back after the H transforms, so
    //             that the H MSM's temporaries can use
    //             them; A's scalars then gathered into a, B's into a pooled buffer. The peak is
    //             a, the z slots and one MSM's temporaries (or a, b, c during the H step), the MSMs
    //             taking window passes as the memory requires — how the compiled path fits an
    //             80 GB card beside a 32 GiB sector's 44 GiB of parameters and 8.9 GiB circuit,
    //             where the full plan wants ~24 GB more than is left.
    enum class MemoryPlan : unsigned { kAuto = 0, kFull = 1, kLean = 2 };
    MemoryPlan memory_plan = memory_plan_from_env();
    // A lean session keeps the upload overlap (a second z slot, 3.9 GiB at 32 GiB, where the
    // device can give it; env CUZK_GPU_LEAN_OVERLAP_H2D=0 proves each circuit after its
    // upload instead). The slot's memory leaves the H MSM fewer windows per pass: on an 80 GB
    // H100 at 32 GiB (2026-12-06) 7 passes instead of 5, msm_h +~48 ms, while the gap of
    // ~170–190 ms between partitions (the upload) falls to 0–100 ms. Same proofs.
    bool lean_overlap_h2d = util::env_switch("CUZK_GPU_LEAN_OVERLAP_H2D", true);

    static MemoryPlan memory_plan_from_env() {
        const unsigned v = util::env_unsigned("CUZK_GPU_MEMORY_PLAN", 0);
        return v == 1 ? MemoryPlan::kFull : v == 2 ? MemoryPlan::kLean : MemoryPlan::kAuto;
    }
};

// The device bytes the compiled path's full plan takes beyond the lean one, for parameters of
// `shape` and witnesses of z_words field elements (an estimate, from above where it guesses): a
// second z slot, the A and B scalars' pooled copies (split MSMs beside the H transforms), the
// H step's table of all domain powers held meanwhile, and the four split MSMs' classified
// scalars at once (32 bytes per scalar at most; B's counted for B_G1 and B_G2).
size_t full_plan_extra_bytes(const groth16::ParamsShape& shape, size_t z_words);
// Whether a compiled-path session plans lean (GpuProverOptions::MemoryPlan), given the bytes
// the device can still give once a, b, c and one z slot are allocated.
bool plans_lean(GpuProverOptions::MemoryPlan plan, size_t obtainable_bytes,
                const groth16::ParamsShape& shape, size_t z_words);

// A circuit's witness for the compiled path (groth16/witness.hpp).
using Witness = groth16::Witness;

util::Result<std::vector<groth16::Proof>> prove_gpu(
    const ResidentParams& params, std::span<const groth16::Circuit> circuits,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options = {},
    util::PhaseTimes* times = nullptr);

// The GPU steps for assignments already synthesized and finished (groth16::synthesize_into);
// they are checked here (shape, and a·b = c when check_satisfied) and consumed.
// options.compiled and options.memory_plan are ignored (the assignments bring a, b, c).
util::Result<std::vector<groth16::Proof>> prove_gpu_assignments(
    const ResidentParams& params, std::span<r1cs::ProvingAssignment* const> assignments,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options = {},
    util::PhaseTimes* times = nullptr);

// The compiled path for witnesses generated by the caller (the engine): options.compiled must be
// set; the witnesses' sizes are checked against it; they are consumed. With a feed, the call
// goes on with the feed's witnesses after its own (groth16::WitnessFeed: the next one is asked
// for while the previous one is proved, so its upload stays hidden), and tells the feed of every
// proof as it is made; the result holds every circuit's proof, the feed's included, in order.
util::Result<std::vector<groth16::Proof>> prove_gpu_witnesses(
    const ResidentParams& params, std::span<Witness* const> witnesses,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options,
    util::PhaseTimes* times = nullptr, groth16::WitnessFeed* feed = nullptr);

}  // namespace cuzk::gpu
