// The Groth16 prover on the GPU: the CPU prover's algorithm (groth16/prover.hpp) with the H
// polynomial and the G1 MSMs on the device, over parameters resident there (ResidentParams).
// With the same r, s the proofs are bit-identical to groth16::prove's (same group elements,
// same encoding); the tests check exactly that.
//
// Per circuit of a call, in order:
//   synthesis        CPU: the circuit into a ProvingAssignment (groth16::synthesize_into), the
//                    shape and satisfaction checks, the L/A/B scalar vectors gathered
//                    (groth16/prover_parts.hpp);
//   h2d              a, b, c (zero-padded to m) and the L, A, B scalars to the device;
//   ntt_h            H on the device (gpu/h_poly.hpp), left there as the H MSM's scalars;
//   msm_h … b_g2     the MSMs split as SupraSeal splits them (gpu/msm_split.hpp: classification
//                    on the device, batch addition of the bases of unit scalars, Pippenger over
//                    the rest), G2 included;
//   proof_assembly   CPU (groth16::assemble_proof).
// Phase timers (ms, summed over the circuits): GpuProverTimings, named as DESIGN.md's.
// Not yet: streams overlapping circuits, one parameter pass shared by several circuits,
// multi-GPU. Errors: as the CPU prover's ("circuit K: …") plus CUDA errors as Status.
#pragma once

#include <span>
#include <vector>

#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/resident_params.hpp"
#include "groth16/circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct GpuProverOptions {
    bool check_satisfied = true;  // a·b = c on every row before proving (as the CPU prover)
    NttOptions ntt;
    GpuMsmOptions msm;
};

struct GpuProverTimings {
    double synthesis = 0, h2d = 0, ntt_h = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b1 = 0,
           b_g2 = 0, proof_assembly = 0, total = 0;
};

util::Result<std::vector<groth16::Proof>> prove_gpu(
    const ResidentParams& params, std::span<const groth16::Circuit> circuits,
    std::span<const groth16::ProverRandomness> randomness, const GpuProverOptions& options = {},
    GpuProverTimings* timings = nullptr);

}  // namespace cuzk::gpu
