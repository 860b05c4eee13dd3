// The engine's view of a Groth16 prover: the CPU prover (cpu_backend) or the GPU prover
// (gpu_backend, built only with CUZK_CUDA), behind one interface so the engine behaves the same
// with or without a GPU.
//
// A backend owns the parameter sets it has loaded (keyed by the .params path; the CPU backend
// keeps groth16::Parameters in host memory, the GPU backend keeps gpu::ResidentParams through
// gpu::ParamsCache). The engine synthesizes circuits itself (the synthesis pool, overlapping the
// proving of earlier batches) and hands the backend finished ProvingAssignments — one per
// circuit, all for the same parameter set — with one ProverRandomness each. The assignments are
// consumed (their a/b/c vectors are moved out). Phase milliseconds are added to `times` under
// DESIGN.md §5's names (h2d, prep_msm, ntt_h, msm_h, batch_addition, tail_msm, b_g2,
// proof_assembly, total; the CPU backend reports ntt_h, msm_h, tail_msm, b_g2, proof_assembly,
// total) and, when `trace` is given, recorded as events. Thread-safety: prove() may be called
// from several threads; a backend with several devices runs up to parallel_provers() calls at
// once (one per device) and serializes the rest internally.
//
// Parameter sets without a file: install_generated_params makes test parameters from a
// circuit's setup scalars inside the backend (the GPU backend: on every device, resident from
// the start, gpu/resident_setup.hpp) and keeps them under a key for the backend's lifetime;
// load_params(key) and prove(key, ...) then use them like a loaded file, and evict_params(key)
// leaves them (they could not be loaded again).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/witness.hpp"
#include "groth16/setup.hpp"
#include "r1cs/proving_assignment.hpp"
#include "util/status.hpp"
#include "util/trace.hpp"

namespace cuzk::engine {

struct LoadedParams {
    groth16::ParamsShape shape;
    groth16::VerifyingKey vk;
    uint64_t host_bytes = 0;    // host memory the set occupies in this backend
    uint64_t device_bytes = 0;  // device memory (0 for the CPU backend)
};

// One device as the backend sees it: its memory (cudaMemGetInfo), what its parameter cache may
// use (the rest is kept for the prover's per-call buffers), and its work since the backend was
// made — the circuits proved on it (counted as each proof is made, so a streaming call's count
// grows while it runs) and whether a prover call holds it now.
struct DeviceStatus {
    uint32_t ordinal = 0;
    uint64_t total_bytes = 0, free_bytes = 0, params_budget_bytes = 0;
    std::string name;  // "NVIDIA H200"
    uint64_t circuits_proved = 0;
    bool busy = false;
    // The parameter sets resident there now (cache keys: a file's canonical path, with
    // "#coset-lagrange" for its converted set, or a held key), most recently used first.
    std::vector<std::string> params;
};

class ProverBackend {
   public:
    virtual ~ProverBackend() = default;
    virtual std::string name() const = 0;  // "cpu", "gpu:0 NVIDIA H200"
    // Loads the parameter set at `params_path` (or finds it loaded) and describes it.
    virtual util::Result<LoadedParams> load_params(const std::string& params_path) = 0;
    // The devices now, one entry per device in the backend's order (empty for the CPU backend).
    virtual std::vector<DeviceStatus> device_status() const { return {}; }
    // How many prove() calls run at once (one per device): the engine's default number of
    // prover threads (EngineConfig::prover_workers = 0).
    virtual unsigned parallel_provers() const { return 1; }
    // Makes the parameter set of `scalars` (groth16::compute_parameter_scalars) and keeps it
    // under `key` (see above). Setup phases (setup_gpu_g1, setup_gpu_g2) are added to `times`.
    // kUnavailable when the backend cannot (the CPU backend); kInvalidArgument when the key is
    // taken.
    virtual util::Result<LoadedParams> install_generated_params(
        const std::string& key, const groth16::ParameterScalars& scalars, util::PhaseTimes* times);
    // Drops a loaded set (no-op when absent or in use: it goes when its last user ends).
    virtual util::Status evict_params(const std::string& params_path) = 0;
    // Proves assignments.size() circuits against one loaded parameter set.
    virtual util::Result<std::vector<groth16::Proof>> prove(
        const std::string& params_path, std::span<r1cs::ProvingAssignment* const> assignments,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace) = 0;

    // The compiled path with a, b, c computed by the backend (the GPU's SpMV): when true, the
    // engine hands such a backend only witnesses (groth16::generate_witness) of circuits whose
    // compiled shape it holds, and calls prove_witnesses instead of prove. The GPU backend says
    // true unless CUZK_GPU_SPMV=0 (then the engine multiplies on the CPU, as for the CPU
    // backend).
    virtual bool proves_witnesses() const { return false; }
    // Proves witnesses.size() circuits of one compiled shape (the backend keeps its own copy of
    // `compiled` — on the GPU, resident per device — for as long as the engine holds it) against
    // one loaded parameter set; the witnesses are consumed. With a feed (may be null), the
    // backend may go on with the feed's witnesses after these (groth16::WitnessFeed; the GPU
    // backend does) and then returns their proofs too, in order; a backend that ignores the
    // feed proves only its own. Errors as prove() ("circuit K: …" counts the feed's circuits
    // after the call's own); kUnavailable unless proves_witnesses().
    virtual util::Result<std::vector<groth16::Proof>> prove_witnesses(
        const std::string& params_path,
        const std::shared_ptr<const groth16::CompiledCircuit>& compiled,
        std::span<groth16::Witness* const> witnesses,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace, groth16::WitnessFeed* feed);
    // Drops the backend's own copies of compiled shapes (the GPU backend: each device's resident
    // gpu::DeviceCircuit, ~9 GiB at 32 GiB) so that their memory serves proving from
    // assignments; prove_witnesses makes a copy again when next called. The engine calls it when
    // it stops handing a set witnesses because one alone did not fit. May wait for the calls in
    // progress on each device.
    virtual void release_compiled_shapes() {}
};

// The CPU prover (groth16::prove_assignment; check_satisfied on).
std::unique_ptr<ProverBackend> make_cpu_backend();

struct CpuBackendOptions {
    // Order-r subgroup check of every parameter point when a file is read (ec::SubgroupCheck).
    // Off only for trusted files (made locally by `cuzk setup`, or digest-checked): it is most
    // of the read time (a 2 KiB PoRep file, 1.1 GB, takes minutes on 2 cores with it).
    bool subgroup_check = true;
};
std::unique_ptr<ProverBackend> make_cpu_backend(const CpuBackendOptions& options);

}  // namespace cuzk::engine
