#include "engine/gpu_backend.hpp"

#if CUZK_HAVE_GPU

#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <string>

#include "gpu/device.hpp"
#include "gpu/params_cache.hpp"
#include "gpu/prover.hpp"

namespace cuzk::engine {

namespace {

class GpuBackend final : public ProverBackend {
   public:
    GpuBackend(const gpu::ParamsCacheOptions& cache_options, std::string name, int device)
        : cache_(cache_options), name_(std::move(name)), device_(device),
          params_budget_(cache_options.device_budget_bytes) {}

    std::string name() const override { return name_; }

    std::vector<DeviceMemory> device_memory() const override {
        DeviceMemory d;
        d.ordinal = static_cast<uint32_t>(device_);
        size_t free_bytes = 0, total_bytes = 0;
        if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
            d.total_bytes = total_bytes;
            d.free_bytes = free_bytes;
        }
        d.params_budget_bytes = params_budget_;
        return {d};
    }

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
    int device_;
    uint64_t params_budget_;
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
    // The device budget: parameter sets may use what is free now less the prover's reserve (its
    // per-call buffers: a, b, c of the domain — 12 GiB at 2^27 — plus the MSM scratch); a set
    // that does not fit goes to pinned host memory (gpu/params_cache.hpp), so proving never
    // runs out of device memory because of resident parameters.
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
        return util::Status(util::StatusCode::kUnavailable, "cudaMemGetInfo failed");
    const uint64_t reserve =
        std::max<uint64_t>(options.prover_reserve_bytes, uint64_t{total_bytes} / 4);
    gpu::ParamsCacheOptions cache;
    cache.device_budget_bytes = free_bytes > reserve ? free_bytes - reserve : 0;
    cache.load.subgroup_check =
        options.subgroup_check ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
    std::string name = "gpu:";
    name += std::to_string(device);
    name += ' ';
    name += prop.name;
    return std::unique_ptr<ProverBackend>(new GpuBackend(cache, std::move(name), device));
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
