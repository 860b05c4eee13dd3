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

}  // namespace cuzk::engine
