// The default ProverBackend for an engine configuration: the GPU prover when the build has one,
// config.use_gpu is set and a device exists; otherwise the CPU prover. Errors only when
// config.gpus lists devices and the GPU backend cannot have them (the reason); without a list,
// a missing GPU means the CPU prover (the reason is printed once).
#pragma once

#include <memory>

#include "engine/engine.hpp"
#include "engine/prover_backend.hpp"

namespace cuzk::engine {

util::Result<std::unique_ptr<ProverBackend>> make_default_backend(const EngineConfig& config);

}  // namespace cuzk::engine
