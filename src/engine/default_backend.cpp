// The backend an engine gets when none is given (Engine::start with a null backend).
#include "engine/default_backend.hpp"

namespace cuzk::engine {

std::unique_ptr<ProverBackend> make_default_backend(const EngineConfig& config) {
    // The GPU backend (engine/gpu_backend.cpp, built only with cuzk_gpu) is chosen here when
    // config.use_gpu is set and a device is present; until it exists, every engine proves on
    // the CPU.
    CpuBackendOptions cpu;
    cpu.subgroup_check = config.params_subgroup_check;
    return make_cpu_backend(cpu);
}

}  // namespace cuzk::engine
