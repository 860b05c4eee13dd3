// ProverBackend's defaults for what only some backends can do (prover_backend.hpp).
#include "engine/prover_backend.hpp"

namespace cuzk::engine {

util::Result<LoadedParams> ProverBackend::install_generated_params(const std::string& key,
                                                                   const groth16::ParameterScalars&,
                                                                   util::PhaseTimes*) {
    std::string m = "the ";
    m += name();
    m += " prover backend cannot generate parameters in place (";
    m += key;
    m += "); only the GPU backend can (use parameter files with this one)";
    return util::Status(util::StatusCode::kUnavailable, std::move(m));
}

util::Result<std::vector<groth16::Proof>> ProverBackend::prove_witnesses(
    const std::string&, const std::shared_ptr<const groth16::CompiledCircuit>&,
    std::span<groth16::Witness* const>, std::span<const groth16::ProverRandomness>,
    util::PhaseTimes*, util::TraceRecorder*, groth16::WitnessFeed*) {
    std::string m = "the ";
    m += name();
    m += " prover backend does not prove from witnesses (it takes synthesized assignments)";
    return util::Status(util::StatusCode::kUnavailable, std::move(m));
}

}  // namespace cuzk::engine
