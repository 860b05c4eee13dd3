// The GPU prover as an engine backend (built only with CUDA: CUZK_HAVE_GPU).
//
// Parameter sets are resident on the device through one gpu::ParamsCache (LRU within the
// device's free memory less a reserve for the prover's buffers, pinned-host fallback:
// gpu/params_cache.hpp); prove() pins its set for the
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
    // Device memory kept out of the parameter cache for the prover's buffers (at least a
    // quarter of the device is kept in any case).
    uint64_t prover_reserve_bytes = uint64_t{24} << 30;
};

// kUnavailable when the build has no CUDA or no device is usable (with the reason).
util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions& options);

}  // namespace cuzk::engine
