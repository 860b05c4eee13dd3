// The engine's replaceable steps, for tests and tools that need an engine without real
// parameters: how a JobSpec becomes circuits, how a parameter file's shape is found, and how the
// assembled proofs are verified. Production code uses Engine::start, which takes the defaults
// below; start_engine with non-default hooks exists so that a fake ProverBackend (whose proofs
// cannot pass a pairing check) can drive the scheduler in tests.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "engine/prover_backend.hpp"
#include "ff/fr.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover_parts.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/registered_proof.hpp"
#include "util/status.hpp"

namespace cuzk::engine {

// What a job proves: one circuit per partition with its public inputs (ONE excluded).
struct PreparedJob {
    porep::RegisteredSealProof proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
    std::vector<porep::CircuitFn> circuits;
    std::vector<std::vector<ff::Fr>> public_inputs;
};

struct EngineHooks {
    std::function<util::Result<PreparedJob>(const JobSpec&, bool vanilla_check)> prepare;
    std::function<util::Result<groth16::ParamsShape>(const std::string& params_path)> params_shape;
    std::function<util::Result<bool>(const groth16::VerifyingKey&, std::span<const groth16::Proof>,
                                     std::span<const std::vector<ff::Fr>>)>
        verify;
};

// The defaults: prepare_c1_job, shape_from_params_file, verify_with_pairings.
EngineHooks default_hooks();

// The C1 path: parse (raw or wrapped), check that spec.registered_proof is the C1's, optionally
// porep::verify_c1, then porep::circuits_from_c1. Every error is kInvalidArgument and names the
// problem ("C1: ...", "registered proof: ...", "vanilla proofs: ...").
util::Result<PreparedJob> prepare_c1_job(const JobSpec& spec, bool vanilla_check);
// groth16::inspect_params_file: the section counts, no point decoded.
util::Result<groth16::ParamsShape> shape_from_params_file(const std::string& params_path);
// groth16::batch_verify with OS-random weights.
util::Result<bool> verify_with_pairings(const groth16::VerifyingKey& vk,
                                        std::span<const groth16::Proof> proofs,
                                        std::span<const std::vector<ff::Fr>> inputs);

// <params_dir>/porep_<size>.params and .vk, `cuzk setup --circuit porep:<size>`'s names.
struct ParamsPaths {
    std::string params, vk;
};
ParamsPaths params_paths(const std::string& params_dir, porep::RegisteredSealProof proof);

// Host memory (bytes) a parameter set occupies once decoded: every G1 point of ic, h, l, a, b_g1
// as a G1Affine and every b_g2 point as a G2Affine.
uint64_t params_host_bytes(const groth16::ParamsShape& shape);

// Host memory (bytes) one partition holds from the start of its synthesis until its proof is
// made, with m = domain size, I = inputs (ic), W = aux (l), 32 bytes per scalar:
//   ProvingAssignment a, b, c        3·m·32   (rows = constraints + inputs <= m, presized to m)
//   input and aux assignment         (I + W)·32
//   density bits                     (I + 2W)/8
//   H scalars                        m·32     (counted as a new vector, though the prover may
//                                               reuse a's buffer)
//   gathered MSM scalars l, a, b     (W + #a + #b_g1)·32
//   working slack                    1 MiB
// = 32·(4m + I + 2W + #a + #b_g1) + (I + 2W)/8 + 2^20. For 2 KiB (m = 2^22) ≈ 0.8 GiB; for
// 32 GiB (m = 2^27) ≈ 26 GiB per partition.
uint64_t partition_host_bytes(const groth16::ParamsShape& shape);

// Host memory (bytes) one partition holds on the witness path (a backend that proves witnesses,
// ProverBackend::proves_witnesses) from the start of its witness generation until its proof is
// made: at the peak, the forks' value buffers and the joined witness (r1cs::WitnessOnly) — at
// most twice the witness, 2·(I + W)·32 — plus 1 MiB of slack. For 32 GiB ≈ 8.3 GB (measured peak
// RSS of a witness alone: 4.37 GB), against partition_host_bytes' ~26 GiB; the engine reserves
// the smaller of the two.
uint64_t witness_host_bytes(const groth16::CompiledCircuit& compiled);

util::Result<std::unique_ptr<Engine>> start_engine(EngineConfig config,
                                                   std::unique_ptr<ProverBackend> backend,
                                                   EngineHooks hooks);

}  // namespace cuzk::engine
