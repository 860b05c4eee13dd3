// The default ProverBackend for an engine configuration: the GPU prover when the build has one,
// config.use_gpu is set and a device exists; otherwise the CPU prover.
#pragma once

#include <memory>

#include "engine/engine.hpp"
#include "engine/prover_backend.hpp"

namespace cuzk::engine {

std::unique_ptr<ProverBackend> make_default_backend(const EngineConfig& config);

}  // namespace cuzk::engine
