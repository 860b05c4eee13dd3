// The GPU prover as an engine backend (built only with CUDA: CUZK_HAVE_GPU).
//
// Parameter sets are resident on the device through one gpu::ParamsCache (LRU within the
// device's memory, pinned-host fallback: gpu/params_cache.hpp); prove() pins its set for the
// call and runs gpu::prove_gpu_assignments on the engine's synthesized assignments. Calls are
// serialized (one device, one call at a time: the prover's buffers are sized for the whole
// device); the engine overlaps synthesis with them. The phase names are the GPU prover's.
#pragma once

#include <memory>

#include "engine/prover_backend.hpp"
#include "util/status.hpp"

namespace cuzk::engine {

struct GpuBackendOptions {
    bool subgroup_check = true;  // of parameter points when a file is loaded
};

// kUnavailable when the build has no CUDA or no device is usable (with the reason).
util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions& options);

}  // namespace cuzk::engine
