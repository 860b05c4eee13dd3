// The backend an engine gets when none is given (Engine::start with a null backend).
#include "engine/default_backend.hpp"

#include <cstdio>

#include "engine/gpu_backend.hpp"

namespace cuzk::engine {

util::Result<std::unique_ptr<ProverBackend>> make_default_backend(const EngineConfig& config) {
    // The GPU backend (engine/gpu_backend.cpp) when config.use_gpu is set, the build has CUDA
    // and a device is usable; otherwise the CPU's (the reason is printed once).
    if (config.use_gpu) {
        GpuBackendOptions gpu;
        gpu.subgroup_check = config.params_subgroup_check;
        gpu.h_basis = config.params_h_basis;
        gpu.coset_bases_dir = config.params_h_basis_dir;
        gpu.devices = config.gpus;
        auto backend = make_gpu_backend(gpu);
        if (backend.ok()) return std::move(*backend);
        if (!config.gpus.empty()) {
            std::string m = "gpus: ";
            m += backend.status().message();
            return util::Status(backend.status().code(), std::move(m));
        }
        std::fprintf(stderr, "cuzk engine: proving on the CPU (%s)\n",
                     backend.status().message().c_str());
    }
    CpuBackendOptions cpu;
    cpu.subgroup_check = config.params_subgroup_check;
    return make_cpu_backend(cpu);
}

}  // namespace cuzk::engine
