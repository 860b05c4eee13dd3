#include "engine/gpu_backend.hpp"

#if CUZK_HAVE_GPU

#include <cuda_runtime_api.h>

#include <mutex>
#include <string>

#include "gpu/device.hpp"
#include "gpu/params_cache.hpp"
#include "gpu/prover.hpp"

namespace cuzk::engine {

namespace {

class GpuBackend final : public ProverBackend {
   public:
    GpuBackend(const gpu::ParamsCacheOptions& cache_options, std::string name)
        : cache_(cache_options), name_(std::move(name)) {}

    std::string name() const override { return name_; }

    util::Result<LoadedParams> load_params(const std::string& params_path) override {
        CUZK_ASSIGN_OR_RETURN(gpu::ParamsCache::Handle h, cache_.acquire(params_path));
        LoadedParams out;
        out.shape = {h->vk().ic.size(), h->h().size,    h->l().size,
                     h->a().size,       h->b_g1().size, h->b_g2().size};
        out.vk = h->vk();
        out.device_bytes = h->device_bytes();
        out.host_bytes = h->resident_bytes() - h->device_bytes();  // pinned-host fallback
        return out;
    }

    util::Status evict_params(const std::string& params_path) override {
        (void)cache_.evict(params_path);
        return util::Status();
    }

    util::Result<std::vector<groth16::Proof>> prove(
        const std::string& params_path, std::span<r1cs::ProvingAssignment* const> assignments,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace) override {
        CUZK_ASSIGN_OR_RETURN(gpu::ParamsCache::Handle h, cache_.acquire(params_path));
        gpu::GpuProverOptions options;
        options.trace = trace;
        std::lock_guard lock(device_mutex_);
        return gpu::prove_gpu_assignments(*h, assignments, randomness, options, times);
    }

   private:
    gpu::ParamsCache cache_;
    std::string name_;
    std::mutex device_mutex_;
};

}  // namespace

util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions& options) {
    CUZK_RETURN_IF_ERROR(gpu::check_device_available());
    cudaDeviceProp prop{};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, device) != cudaSuccess)
        return util::Status(util::StatusCode::kUnavailable, "cannot query the CUDA device");
    gpu::ParamsCacheOptions cache;
    cache.load.subgroup_check =
        options.subgroup_check ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
    std::string name = "gpu:";
    name += std::to_string(device);
    name += ' ';
    name += prop.name;
    return std::unique_ptr<ProverBackend>(new GpuBackend(cache, std::move(name)));
}

}  // namespace cuzk::engine

#else

namespace cuzk::engine {

util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions&) {
    return util::Status(util::StatusCode::kUnavailable,
                        "this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
}

}  // namespace cuzk::engine

#endif
