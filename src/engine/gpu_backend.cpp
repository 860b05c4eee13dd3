#include "engine/gpu_backend.hpp"

#if CUZK_HAVE_GPU

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/device_picker.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/device_circuit.hpp"
#include "gpu/params_cache.hpp"
#include "gpu/prover.hpp"
#include "gpu/resident_setup.hpp"
#include "util/env.hpp"

namespace cuzk::engine {

namespace {

// Makes `ordinal` the calling thread's current CUDA device for the scope; the previous current
// device is made current again at the end.
class ScopedDevice {
   public:
    explicit ScopedDevice(int ordinal) {
        if (cudaGetDevice(&previous_) != cudaSuccess) {
            (void)cudaGetLastError();
            previous_ = -1;
        }
        const cudaError_t err = cudaSetDevice(ordinal);
        if (err != cudaSuccess) {
            std::string what = "cudaSetDevice(";
            what += std::to_string(ordinal);
            what += ")";
            status_ = gpu::cuda_status(err, what);
        }
        switched_ = previous_ != ordinal;
    }
    ~ScopedDevice() {
        if (switched_ && previous_ >= 0) (void)cudaSetDevice(previous_);
    }
    ScopedDevice(const ScopedDevice&) = delete;
    ScopedDevice& operator=(const ScopedDevice&) = delete;
    const util::Status& status() const { return status_; }

   private:
    int previous_ = -1;
    bool switched_ = false;
    util::Status status_;
};

// A compiled shape resident on one device. `host` only names the engine's copy: a weak
// reference, so that neither the host shape nor the engine's CompiledCache entry is kept alive
// by the devices (a shared copy here would keep use_count above 1 for ever: the cache would
// never evict it, and with several devices no device would ever drop its own copy). An entry
// whose host copy has expired is dropped (the engine evicted it); the device copy does not
// need the host one.
struct ResidentCircuit {
    std::weak_ptr<const groth16::CompiledCircuit> host;
    std::unique_ptr<gpu::DeviceCircuit> device;
};

struct Device {
    int ordinal = 0;
    std::string name;
    uint64_t params_budget = 0;
    std::unique_ptr<gpu::ParamsCache> cache;  // made with the device current
    std::mutex prove_mutex;                   // one prove() on the device at a time
    std::vector<ResidentCircuit> circuits;    // under prove_mutex, made with the device current
    std::atomic<uint64_t> circuits_proved{0};  // DeviceStatus::circuits_proved
    std::atomic<bool> busy{false};             // a prover call holds prove_mutex
};

// Holds a device for one prover call: its lease from the picker, its prove_mutex, the device
// current on this thread, and the busy flag of DeviceStatus for as long as it lives.
class DeviceCall {
   public:
    DeviceCall(std::vector<std::unique_ptr<Device>>& devices, DevicePicker& picker)
        : lease_(picker.acquire()),
          device_(*devices[lease_.index()]),
          lock_(device_.prove_mutex),
          scope_(device_.ordinal) {
        device_.busy = true;
    }
    ~DeviceCall() { device_.busy = false; }
    DeviceCall(const DeviceCall&) = delete;
    DeviceCall& operator=(const DeviceCall&) = delete;
    Device& device() { return device_; }
    const util::Status& status() const { return scope_.status(); }

   private:
    DevicePicker::Lease lease_;
    Device& device_;
    std::lock_guard<std::mutex> lock_;
    ScopedDevice scope_;  // before the caller's handles: sets are released on the device
};

// Forwards a streaming call's feed and counts each proof made on the device as it is made.
class CountingFeed final : public groth16::WitnessFeed {
   public:
    CountingFeed(groth16::WitnessFeed& inner, std::atomic<uint64_t>& count)
        : inner_(inner), count_(count) {}
    bool next(size_t k, groth16::Witness*& witness,
              groth16::ProverRandomness& randomness) override {
        return inner_.next(k, witness, randomness);
    }
    void done(size_t k, const groth16::Proof* proof, const util::PhaseTimes& phases) override {
        if (proof != nullptr) ++count_;
        inner_.done(k, proof, phases);
    }

   private:
    groth16::WitnessFeed& inner_;
    std::atomic<uint64_t>& count_;
};

std::string device_prefix(const Device& d) {
    std::string s = "gpu:";
    s += std::to_string(d.ordinal);
    s += ": ";
    return s;
}

util::Status with_device(const Device& d, const util::Status& st) {
    if (st.ok()) return st;
    return util::Status(st.code(), device_prefix(d) + st.message());
}

// Resident bytes of a parameter set with these section counts (as params_resident_bytes).
uint64_t resident_bytes_of(const groth16::ParameterScalars& sc) {
    return uint64_t{sc.h.size() + sc.l.size() + sc.a.size() + sc.b.size()} * sizeof(ec::G1Affine) +
           uint64_t{sc.b.size()} * sizeof(ec::G2Affine);
}

class GpuBackend final : public ProverBackend {
   public:
    GpuBackend(std::vector<std::unique_ptr<Device>> devices, GpuBackendOptions options)
        : devices_(std::move(devices)), options_(std::move(options)), picker_(devices_.size()) {
        // "gpu:0 NVIDIA H200", or "gpu:0,1 NVIDIA H200" when the devices are of one model.
        bool same = true;
        for (const auto& d : devices_) same = same && d->name == devices_[0]->name;
        name_ = "gpu:";
        for (size_t i = 0; i < devices_.size(); ++i) {
            if (i > 0) name_ += same ? "," : ", gpu:";
            name_ += std::to_string(devices_[i]->ordinal);
            if (!same) {
                name_ += ' ';
                name_ += devices_[i]->name;
            }
        }
        if (same) {
            name_ += ' ';
            name_ += devices_[0]->name;
        }
    }

    // Each cache (and the sets it frees) goes with its device current.
    ~GpuBackend() override {
        for (auto& d : devices_) {
            ScopedDevice scope(d->ordinal);
            d->circuits.clear();
            d->cache.reset();
        }
    }
    GpuBackend(const GpuBackend&) = delete;
    GpuBackend& operator=(const GpuBackend&) = delete;

    std::string name() const override { return name_; }

    unsigned parallel_provers() const override { return static_cast<unsigned>(devices_.size()); }

    std::vector<DeviceStatus> device_status() const override {
        std::vector<DeviceStatus> out;
        for (const auto& dev : devices_) {
            DeviceStatus d;
            d.ordinal = static_cast<uint32_t>(dev->ordinal);
            d.name = dev->name;
            d.circuits_proved = dev->circuits_proved.load();
            d.busy = dev->busy.load();
            ScopedDevice scope(dev->ordinal);
            size_t free_bytes = 0, total_bytes = 0;
            if (scope.status().ok() && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
                d.total_bytes = total_bytes;
                d.free_bytes = free_bytes;
            } else {
                (void)cudaGetLastError();
            }
            d.params_budget_bytes = dev->params_budget;
            for (const gpu::CacheEntryInfo& e : dev->cache->entries())
                if (!e.loading) d.params.push_back(e.key);
            out.push_back(d);
        }
        return out;
    }

    util::Result<LoadedParams> load_params(const std::string& params_path) override {
        std::vector<LoadedParams> per_device(devices_.size());
        const util::Status all = on_every_device([&](size_t i, Device& d) -> util::Status {
            CUZK_ASSIGN_OR_RETURN(gpu::ParamsCache::Handle h, d.cache->acquire(params_path));
            per_device[i] = describe(*h);
            return util::Status();
        });
        if (!all.ok()) return all;
        return merge(per_device);
    }

    // The file's set and its coset-Lagrange conversion, where resident and idle.
    util::Status evict_params(const std::string& params_path) override {
        const std::string converted =
            gpu::ParamsCache::cache_key(params_path) + gpu::ParamsCache::kCosetLagrangeSuffix;
        for (const auto& d : devices_) {
            ScopedDevice scope(d->ordinal);
            if (!scope.status().ok()) continue;
            (void)d->cache->evict(params_path);
            (void)d->cache->evict(converted);
        }
        return util::Status();
    }

    util::Result<LoadedParams> install_generated_params(const std::string& key,
                                                        const groth16::ParameterScalars& scalars,
                                                        util::PhaseTimes* times) override {
        const uint64_t bytes = resident_bytes_of(scalars);
        std::vector<LoadedParams> per_device(devices_.size());
        std::vector<util::PhaseTimes> device_times(devices_.size());
        const util::Status all = on_every_device([&](size_t i, Device& d) -> util::Status {
            gpu::GpuSetupOptions setup;
            setup.label = key;
            setup.times = &device_times[i];
            // On the device only when it fits what the cache may still use there: the rest of
            // the device is the prover's.
            const gpu::CacheStats stats = d.cache->stats();
            const bool fits = stats.used_bytes + bytes <= stats.budget_bytes;
            setup.placement = fits ? gpu::Placement::kDevice : gpu::Placement::kPinnedHost;
            CUZK_ASSIGN_OR_RETURN(gpu::ResidentParams params,
                                  gpu::generate_resident_params(scalars, setup));
            CUZK_RETURN_IF_ERROR(d.cache->insert(key, std::move(params)));
            CUZK_ASSIGN_OR_RETURN(gpu::ParamsCache::Handle h, d.cache->acquire(key));
            per_device[i] = describe(*h);
            return util::Status();
        });
        if (!all.ok()) return all;
        // The devices ran side by side: the phases of the slowest device stand for the call.
        if (times != nullptr) {
            size_t slowest = 0;
            for (size_t i = 1; i < device_times.size(); ++i)
                if (device_times[i].get("setup_gpu_g1") + device_times[i].get("setup_gpu_g2") >
                    device_times[slowest].get("setup_gpu_g1") +
                        device_times[slowest].get("setup_gpu_g2"))
                    slowest = i;
            *times += device_times[slowest];
        }
        return merge(per_device);
    }

    util::Result<std::vector<groth16::Proof>> prove(
        const std::string& params_path, std::span<r1cs::ProvingAssignment* const> assignments,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace) override {
        DeviceCall call(devices_, picker_);
        Device& d = call.device();
        CUZK_RETURN_IF_ERROR(with_device(d, call.status()));
        auto h = d.cache->acquire(params_path);
        if (!h.ok()) return with_device(d, h.status());
        gpu::GpuProverOptions options;
        options.trace = trace;
        auto proofs = gpu::prove_gpu_assignments(**h, assignments, randomness, options, times);
        if (proofs.ok()) d.circuits_proved += proofs->size();
        // A "circuit K: ..." error names the partition (the engine reads that prefix); others
        // name the device when there are several.
        if (!proofs.ok() && devices_.size() > 1 &&
            !proofs.status().message().starts_with("circuit "))
            return with_device(d, proofs.status());
        return proofs;
    }

    bool proves_witnesses() const override { return spmv_on_gpu(); }

    util::Result<std::vector<groth16::Proof>> prove_witnesses(
        const std::string& params_path,
        const std::shared_ptr<const groth16::CompiledCircuit>& compiled,
        std::span<groth16::Witness* const> witnesses,
        std::span<const groth16::ProverRandomness> randomness, util::PhaseTimes* times,
        util::TraceRecorder* trace, groth16::WitnessFeed* feed) override {
        if (compiled == nullptr)
            return util::invalid_argument("gpu backend: prove_witnesses without a compiled circuit");
        DeviceCall call(devices_, picker_);
        Device& d = call.device();
        CUZK_RETURN_IF_ERROR(with_device(d, call.status()));
        auto h = options_.h_basis == groth16::HBasis::kCosetLagrange
                     ? acquire_coset_lagrange(d, params_path, *compiled)
                     : d.cache->acquire(params_path);
        if (!h.ok()) return with_device(d, h.status());
        auto dc = resident_circuit(d, compiled, times);
        if (!dc.ok()) return with_device(d, dc.status());
        gpu::GpuProverOptions options;
        options.trace = trace;
        options.compiled = *dc;
        // With a feed every proof is counted as it is made (done() is told of each, the call's
        // own witnesses included); without one, when the call returns.
        std::optional<CountingFeed> counting;
        if (feed != nullptr) counting.emplace(*feed, d.circuits_proved);
        auto proofs = gpu::prove_gpu_witnesses(**h, witnesses, randomness, options, times,
                                               counting ? &*counting : nullptr);
        if (proofs.ok() && !counting) d.circuits_proved += proofs->size();
        if (!proofs.ok() && devices_.size() > 1 &&
            !proofs.status().message().starts_with("circuit "))
            return with_device(d, proofs.status());
        return proofs;
    }

    void release_compiled_shapes() override {
        for (const std::unique_ptr<Device>& dp : devices_) {
            Device& d = *dp;
            std::lock_guard lock(d.prove_mutex);
            ScopedDevice scope(d.ordinal);  // the copies free their memory on their device
            if (scope.status().ok()) d.circuits.clear();
        }
    }

   private:
    // CUZK_GPU_SPMV=0: the engine multiplies a, b, c on the CPU (the A/B switch of the GPU SpMV).
    static bool spmv_on_gpu() { return util::env_switch("CUZK_GPU_SPMV", true); }

    // The device's resident copy of `compiled` (uploaded on first use, "circuit_upload" added
    // to times); copies the engine no longer holds are dropped first. With the device current
    // and d.prove_mutex held.
    static util::Result<const gpu::DeviceCircuit*> resident_circuit(
        Device& d, const std::shared_ptr<const groth16::CompiledCircuit>& compiled,
        util::PhaseTimes* times) {
        std::erase_if(d.circuits, [](const ResidentCircuit& r) { return r.host.expired(); });
        for (const ResidentCircuit& r : d.circuits)
            if (r.host.lock() == compiled) return r.device.get();
        util::PhaseScope phase("circuit_upload", times);
        CUZK_ASSIGN_OR_RETURN(std::unique_ptr<gpu::DeviceCircuit> dc,
                              gpu::DeviceCircuit::upload(*compiled));
        d.circuits.push_back(ResidentCircuit{compiled, std::move(dc)});
        return d.circuits.back().device.get();
    }

    // The file's set in coset-Lagrange bases on device d (on a miss read with its saved
    // converted bases or converted there — minutes for a 32 GiB set —, logged through the
    // cache's notice). Parameters held under a key (install_generated_params) are not a file:
    // they keep their bases.
    static util::Result<gpu::ParamsCache::Handle> acquire_coset_lagrange(
        Device& d, const std::string& params_path, const groth16::CompiledCircuit& compiled) {
        const std::string file_key = gpu::ParamsCache::cache_key(params_path);
        for (const gpu::CacheEntryInfo& e : d.cache->entries())
            if (e.key == file_key && e.permanent) return d.cache->acquire(params_path);
        return d.cache->acquire_coset_lagrange(params_path, compiled.shape());
    }

    static LoadedParams describe(const gpu::ResidentParams& p) {
        LoadedParams out;
        out.shape = p.shape();
        out.vk = p.vk();
        out.device_bytes = p.device_bytes();
        out.host_bytes = p.resident_bytes() - p.device_bytes();  // pinned-host fallback
        return out;
    }

    // One set per device: the shape and vk are the first device's (the same everywhere), the
    // bytes are summed over devices.
    static LoadedParams merge(std::vector<LoadedParams>& per_device) {
        LoadedParams out = std::move(per_device[0]);
        for (size_t i = 1; i < per_device.size(); ++i) {
            out.device_bytes += per_device[i].device_bytes;
            out.host_bytes += per_device[i].host_bytes;
        }
        return out;
    }

    // fn(i, device) with the device current, for every device: on this thread when there is
    // one, else on one thread per device. The first failure (in device order) is returned,
    // naming its device.
    util::Status on_every_device(const std::function<util::Status(size_t, Device&)>& fn) {
        std::vector<util::Status> results(devices_.size());
        auto run = [&](size_t i) {
            Device& d = *devices_[i];
            ScopedDevice scope(d.ordinal);
            results[i] = scope.status().ok() ? fn(i, d) : scope.status();
        };
        if (devices_.size() == 1) {
            run(0);
        } else {
            std::vector<std::thread> threads;
            for (size_t i = 0; i < devices_.size(); ++i) threads.emplace_back(run, i);
            for (std::thread& t : threads) t.join();
        }
        for (size_t i = 0; i < devices_.size(); ++i) {
            if (!results[i].ok())
                return devices_.size() > 1 ? with_device(*devices_[i], results[i]) : results[i];
        }
        return util::Status();
    }

    std::vector<std::unique_ptr<Device>> devices_;
    GpuBackendOptions options_;
    DevicePicker picker_;
    std::string name_;
};

// One instance of device `ordinal`, of `instances` (GpuBackendOptions::instances_per_device):
// the parameter budget computed below is split evenly between them.
util::Result<std::unique_ptr<Device>> open_device(int ordinal, const GpuBackendOptions& options,
                                                  unsigned instances) {
    auto d = std::make_unique<Device>();
    d->ordinal = ordinal;
    ScopedDevice scope(ordinal);
    CUZK_RETURN_IF_ERROR(scope.status());
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
        (void)cudaGetLastError();
        std::string m = "cannot query CUDA device ";
        m += std::to_string(ordinal);
        return util::Status(util::StatusCode::kUnavailable, std::move(m));
    }
    d->name = prop.name;
    // The device budget: parameter sets may use what is free now less the prover's reserve, at
    // least 40 % of the device. At 32 GiB the prover's full plan on the compiled path wants ~60
    // GB beside the 44 GiB of parameters (a, b, c of the domain — 12 GiB at 2^27 —, the resident
    // circuit, 8.9 GiB, two witness slots, 2 × 4.2 GB, the MSMs' temporaries in one pass); its
    // lean plan (gpu/prover.hpp, MemoryPlan) ~25 GiB plus the MSMs' temporaries in as many
    // window passes as the rest allows. 40 % keeps one 32 GiB set resident on an 80 GB card
    // (47.4 GB of 85.5: ~35 GiB left, the lean plan's) and one, not two, on a 141 GB H200 (the
    // full plan's room). A set that does not fit goes to pinned host memory
    // (gpu/params_cache.hpp) — slow: the MSMs then read their bases over PCIe.
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        std::string m = "cudaMemGetInfo failed on device ";
        m += std::to_string(ordinal);
        return util::Status(util::StatusCode::kUnavailable, std::move(m));
    }
    const uint64_t reserve =
        std::max<uint64_t>(options.prover_reserve_bytes, uint64_t{total_bytes} / 5 * 2);
    gpu::ParamsCacheOptions cache;
    // At least 1 byte: 0 would mean "all free memory" to the cache.
    const uint64_t budget = free_bytes > reserve ? (free_bytes - reserve) / instances : 0;
    cache.device_budget_bytes = std::max<uint64_t>(budget, 1);
    cache.load.subgroup_check =
        options.subgroup_check ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
    cache.coset_bases_dir = options.coset_bases_dir;
    cache.notice = [ordinal](const std::string& m) {
        std::fprintf(stderr, "cuzk gpu backend: device %d: %s\n", ordinal, m.c_str());
    };
    d->params_budget = cache.device_budget_bytes;
    d->cache = std::make_unique<gpu::ParamsCache>(cache);
    return d;
}

}  // namespace

util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions& options) {
    if (options.instances_per_device == 0)
        return util::invalid_argument("gpu backend: instances_per_device must be at least 1");
    CUZK_RETURN_IF_ERROR(gpu::check_device_available());
    const int count = gpu::device_count();
    std::vector<int> ordinals;
    if (options.devices.empty()) {
        for (int i = 0; i < count; ++i) ordinals.push_back(i);
    } else {
        for (unsigned o : options.devices) {
            if (o >= static_cast<unsigned>(count)) {
                std::string m = "CUDA device ";
                m += std::to_string(o);
                m += " does not exist (";
                m += std::to_string(count);
                m += count == 1 ? " CUDA device is visible: 0)" : " CUDA devices are visible: 0..";
                if (count != 1) m += std::to_string(count - 1) + ")";
                return util::invalid_argument(std::move(m));
            }
            if (std::find(ordinals.begin(), ordinals.end(), static_cast<int>(o)) !=
                ordinals.end()) {
                std::string m = "CUDA device ";
                m += std::to_string(o);
                m += " is listed twice";
                return util::invalid_argument(std::move(m));
            }
            ordinals.push_back(static_cast<int>(o));
        }
    }
    std::vector<std::unique_ptr<Device>> devices;
    for (int o : ordinals) {
        for (unsigned i = 0; i < options.instances_per_device; ++i) {
            CUZK_ASSIGN_OR_RETURN(std::unique_ptr<Device> d,
                                  open_device(o, options, options.instances_per_device));
            devices.push_back(std::move(d));
        }
    }
    return std::unique_ptr<ProverBackend>(new GpuBackend(std::move(devices), options));
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
