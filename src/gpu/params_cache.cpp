// ResidencyCache (LRU of idle entries within a device budget, pins for entries in use) and the
// ParamsCache of ResidentParams built on it. See params_cache.hpp.
#include "gpu/params_cache.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "gpu/coset_bases_save.hpp"
#include "gpu/coset_convert.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/scratch_cache.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

struct ResidencyCache::Entry {
    std::string key;
    CacheValue value;
    uint64_t reserved = 0;  // device bytes reserved while loading
    unsigned pins = 0;
    uint64_t last_use = 0;
    bool loading = true;
    bool permanent = false;    // inserted: never evicted
    util::Status load_status;  // set when loading ends
};

struct ResidencyCache::State {
    uint64_t budget = 0;
    CacheBackend backend;
    mutable std::mutex mutex;
    std::condition_variable loaded;
    std::map<std::string, std::shared_ptr<Entry>> entries;
    uint64_t used = 0;
    uint64_t clock = 0;
    CacheStats counters;

    // Removes the least recently used idle entry (with device_only, only among those holding
    // device memory: evicting a host-resident set frees no budget); its value is moved to
    // `graveyard` (destroyed by the caller outside the lock). False when there is none.
    bool evict_lru_locked(std::vector<CacheValue>& graveyard, bool device_only) {
        std::shared_ptr<Entry> victim;
        for (auto& [key, entry] : entries) {
            if (entry->loading || entry->pins > 0 || entry->permanent) continue;
            if (device_only && entry->value.device_bytes == 0) continue;
            if (victim == nullptr || entry->last_use < victim->last_use) victim = entry;
        }
        if (victim == nullptr) return false;
        remove_locked(victim, graveyard);
        return true;
    }

    void remove_locked(const std::shared_ptr<Entry>& entry, std::vector<CacheValue>& graveyard) {
        used -= entry->value.device_bytes;
        ++counters.evictions;
        graveyard.push_back(std::move(entry->value));
        entry->value = CacheValue();
        entries.erase(entry->key);
    }
};

ResidencyCache::ResidencyCache(uint64_t budget_bytes, CacheBackend backend)
    : state_(std::make_shared<State>()) {
    state_->budget = budget_bytes;
    state_->backend = std::move(backend);
}

ResidencyCache::~ResidencyCache() = default;

util::Result<ResidencyCache::Lease> ResidencyCache::acquire(const std::string& key) {
    State& s = *state_;
    std::unique_lock lock(s.mutex);
    for (;;) {
        auto it = s.entries.find(key);
        if (it != s.entries.end()) {
            std::shared_ptr<Entry> entry = it->second;
            if (entry->loading) {
                s.loaded.wait(lock, [&] { return !entry->loading; });
                if (!entry->load_status.ok()) return entry->load_status;
                // Loaded (and pinned by its loader until now) or since evicted: look again.
                continue;
            }
            ++entry->pins;
            entry->last_use = ++s.clock;
            ++s.counters.hits;
            Lease lease;
            lease.state_ = state_;
            lease.entry_ = std::move(entry);
            return lease;
        }

        // A miss: estimate without the lock (it may read the file), then look again.
        lock.unlock();
        util::Result<uint64_t> estimate = s.backend.estimate(key);
        lock.lock();
        if (s.entries.count(key) != 0) continue;
        ++s.counters.misses;
        if (!estimate.ok()) {
            ++s.counters.failed_loads;
            return estimate.status();
        }

        std::vector<CacheValue> graveyard;
        bool allow_device = *estimate <= s.budget;
        while (allow_device && s.used + *estimate > s.budget) {
            if (!s.evict_lru_locked(graveyard, true)) allow_device = false;
        }
        if (!allow_device) ++s.counters.host_fallbacks;
        auto entry = std::make_shared<Entry>();
        entry->key = key;
        entry->reserved = allow_device ? *estimate : 0;
        entry->pins = 1;  // the loader's, handed to its Lease
        s.used += entry->reserved;
        s.entries.emplace(key, entry);

        lock.unlock();
        graveyard.clear();  // evicted values freed before the new one is allocated
        util::Result<CacheValue> value = s.backend.load(key, allow_device);
        lock.lock();

        s.used -= entry->reserved;
        entry->reserved = 0;
        entry->loading = false;
        if (!value.ok()) {
            entry->load_status = value.status();
            entry->pins = 0;
            s.entries.erase(key);
            ++s.counters.failed_loads;
            s.loaded.notify_all();
            return value.status();
        }
        entry->value = std::move(*value);
        s.used += entry->value.device_bytes;
        entry->last_use = ++s.clock;
        s.loaded.notify_all();
        Lease lease;
        lease.state_ = state_;
        lease.entry_ = std::move(entry);
        return lease;
    }
}

util::Status ResidencyCache::insert(const std::string& key, CacheValue value) {
    std::vector<CacheValue> graveyard;  // declared first: destroyed after the lock is released
    State& s = *state_;
    std::lock_guard lock(s.mutex);
    if (s.entries.count(key) != 0) {
        std::string m = "parameter cache: the key ";
        m += key;
        m += " is already in use";
        return util::invalid_argument(std::move(m));
    }
    while (s.used + value.device_bytes > s.budget && s.evict_lru_locked(graveyard, true)) {
    }
    auto entry = std::make_shared<Entry>();
    entry->key = key;
    entry->value = std::move(value);
    entry->loading = false;
    entry->permanent = true;
    entry->last_use = ++s.clock;
    s.used += entry->value.device_bytes;
    s.entries.emplace(key, std::move(entry));
    return util::Status();
}

bool ResidencyCache::evict(const std::string& key) {
    std::vector<CacheValue> graveyard;  // declared first: destroyed after the lock is released
    std::lock_guard lock(state_->mutex);
    auto it = state_->entries.find(key);
    if (it == state_->entries.end() || it->second->loading || it->second->pins > 0 ||
        it->second->permanent)
        return false;
    state_->remove_locked(it->second, graveyard);
    return true;
}

size_t ResidencyCache::evict_all_idle() {
    std::vector<CacheValue> graveyard;
    std::lock_guard lock(state_->mutex);
    size_t n = 0;
    while (state_->evict_lru_locked(graveyard, false)) ++n;
    return n;
}

CacheStats ResidencyCache::stats() const {
    std::lock_guard lock(state_->mutex);
    CacheStats out = state_->counters;
    out.budget_bytes = state_->budget;
    out.used_bytes = state_->used;
    out.entries = state_->entries.size();
    out.pinned_entries = 0;
    for (const auto& [key, entry] : state_->entries)
        if (entry->pins > 0) ++out.pinned_entries;
    return out;
}

std::vector<CacheEntryInfo> ResidencyCache::entries() const {
    std::vector<std::pair<uint64_t, CacheEntryInfo>> order;
    {
        std::lock_guard lock(state_->mutex);
        for (const auto& [key, entry] : state_->entries) {
            CacheEntryInfo info;
            info.key = key;
            info.device_bytes = entry->loading ? entry->reserved : entry->value.device_bytes;
            info.pins = entry->pins;
            info.loading = entry->loading;
            info.permanent = entry->permanent;
            order.emplace_back(entry->last_use, std::move(info));
        }
    }
    // Loads in progress have last_use 0 until done: they sort last.
    std::sort(order.begin(), order.end(),
              [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<CacheEntryInfo> out;
    for (auto& [use, info] : order) out.push_back(std::move(info));
    return out;
}

ResidencyCache::Lease::~Lease() { release(); }

ResidencyCache::Lease::Lease(Lease&& other) noexcept
    : state_(std::move(other.state_)), entry_(std::move(other.entry_)) {}

ResidencyCache::Lease& ResidencyCache::Lease::operator=(Lease&& other) noexcept {
    if (this != &other) {
        release();
        state_ = std::move(other.state_);
        entry_ = std::move(other.entry_);
    }
    return *this;
}

void ResidencyCache::Lease::release() {
    if (entry_ != nullptr && state_ != nullptr) {
        std::lock_guard lock(state_->mutex);
        if (entry_->pins > 0) --entry_->pins;
        entry_->last_use = ++state_->clock;
    }
    entry_.reset();
    state_.reset();
}

const void* ResidencyCache::Lease::get() const {
    return entry_ != nullptr ? entry_->value.value.get() : nullptr;
}

const std::string& ResidencyCache::Lease::key() const {
    static const std::string kEmpty;
    return entry_ != nullptr ? entry_->key : kEmpty;
}

// ---- ParamsCache ----

namespace {

uint64_t budget_for(const ParamsCacheOptions& options) {
    if (options.device_budget_bytes != 0) return options.device_budget_bytes;
    size_t free_bytes = 0, total_bytes = 0;
    (void)release_idle_device_memory();  // cached or pooled scratch counts as free memory
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;  // no device: every set goes to (and fails without) pinned host memory
    }
    return free_bytes > options.load.device_margin_bytes
               ? free_bytes - options.load.device_margin_bytes
               : 0;
}

// The shape of an acquire_coset_lagrange call in progress on this thread: the cache runs a
// miss's load on the acquiring thread, so the load below finds it here. The key names the file,
// not the circuit: a caller waiting on a conversion in progress shares its result (one file is
// one circuit's parameters).
thread_local const r1cs::ShapeRecorder* tl_coset_shape = nullptr;

// A coset-Lagrange key: the file's path and true; a file's key: itself and false.
std::pair<std::string, bool> split_key(const std::string& key) {
    const std::string_view suffix = ParamsCache::kCosetLagrangeSuffix;
    if (key.size() > suffix.size() && key.ends_with(suffix))
        return {key.substr(0, key.size() - suffix.size()), true};
    return {key, false};
}

// "12.3 s": a stopwatch's time for a notice.
std::string seconds(const util::Stopwatch& sw) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f s", sw.elapsed_ms() / 1000);
    return text;
}

// The set of a coset-Lagrange key: read with its converted bases from the directory when they
// are there and fit, else loaded and converted (then saved there).
util::Result<ResidentParams> load_coset_lagrange(const std::string& path,
                                                 ResidentLoadOptions options,
                                                 const ParamsCacheOptions& cache_options) {
    const auto notice = [&](const std::string& m) {
        if (cache_options.notice) cache_options.notice(m);
        else std::fprintf(stderr, "cuzk params cache: %s\n", m.c_str());
    };
    const std::string saved = cache_options.coset_bases_dir.empty()
                                  ? std::string()
                                  : coset_bases_path(cache_options.coset_bases_dir, path);
    std::error_code ec;
    if (!saved.empty() && std::filesystem::exists(saved, ec)) {
        util::Stopwatch sw;
        ResidentLoadOptions from_file = options;
        from_file.coset_bases_file = saved;
        util::Result<ResidentParams> params = ResidentParams::load(path, from_file);
        util::Status st = params.status();
        if (st.ok()) st = check_params_fit_shape(*params, *tl_coset_shape);
        if (st.ok()) {
            notice("read " + path + " with its converted H bases from " + saved + " in " +
                   seconds(sw));
            return params;
        }
        notice("not using " + saved + " (" + st.message() + "): converting " + path + " again");
    }
    util::Stopwatch sw;
    notice("converting " + path + " to coset-Lagrange H bases (minutes for a 32 GiB set)");
    CUZK_ASSIGN_OR_RETURN(ResidentParams params, ResidentParams::load(path, options));
    util::Status st = convert_params_to_coset_lagrange(params, *tl_coset_shape);
    if (!st.ok()) return util::Status(st.code(), path + ": " + st.message());
    const std::string took = "converted in " + seconds(sw);
    if (saved.empty()) {
        notice(took + " (not saved: no directory for converted sets is set)");
        return params;
    }
    util::Stopwatch save_sw;
    st = save_coset_bases(params, saved, options.pool);
    if (!st.ok()) {
        notice(took + "; could not save them: " + st.message());
    } else {
        notice(took + "; saved to " + saved + " in " + seconds(save_sw));
    }
    return params;
}

CacheBackend backend_for(const ParamsCacheOptions& cache_options) {
    CacheBackend backend;
    backend.estimate = [](const std::string& key) -> util::Result<uint64_t> {
        const auto [path, coset] = split_key(key);
        CUZK_ASSIGN_OR_RETURN(groth16::FileLayout layout, groth16::inspect_params_file(path));
        // The coset-Lagrange h has one point more (m instead of m − 1).
        return params_resident_bytes(layout) + (coset ? sizeof(ec::G1Affine) : 0);
    };
    backend.load = [cache_options](const std::string& key,
                                   bool allow_device) -> util::Result<CacheValue> {
        const auto [path, coset] = split_key(key);
        if (coset && tl_coset_shape == nullptr)
            return util::invalid_argument(key + ": a coset-Lagrange set is made by "
                                                "acquire_coset_lagrange (it needs the circuit)");
        ResidentLoadOptions options = cache_options.load;
        if (!allow_device) options.placement = Placement::kPinnedHost;
        CUZK_ASSIGN_OR_RETURN(ResidentParams params,
                              coset ? load_coset_lagrange(path, options, cache_options)
                                    : ResidentParams::load(path, options));
        CacheValue value;
        value.device_bytes = params.device_bytes();
        value.value = std::make_shared<const ResidentParams>(std::move(params));
        return value;
    };
    return backend;
}

}  // namespace

ParamsCache::ParamsCache(const ParamsCacheOptions& options)
    : cache_(budget_for(options), backend_for(options)) {}

std::string ParamsCache::cache_key(const std::string& path) {
    std::error_code ec;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : canonical.string();
}

util::Result<ParamsCache::Handle> ParamsCache::acquire_key(const std::string& key) {
    CUZK_ASSIGN_OR_RETURN(ResidencyCache::Lease lease, cache_.acquire(key));
    Handle handle;
    handle.params_ = static_cast<const ResidentParams*>(lease.get());
    handle.lease_ = std::move(lease);
    return handle;
}

util::Result<ParamsCache::Handle> ParamsCache::acquire(const std::string& path) {
    return acquire_key(cache_key(path));
}

util::Result<ParamsCache::Handle> ParamsCache::acquire_coset_lagrange(
    const std::string& path, const r1cs::ShapeRecorder& shape) {
    struct ShapeScope {
        explicit ShapeScope(const r1cs::ShapeRecorder* s) { tl_coset_shape = s; }
        ~ShapeScope() { tl_coset_shape = nullptr; }
    } scope(&shape);
    return acquire_key(cache_key(path) + kCosetLagrangeSuffix);
}

util::Status ParamsCache::insert(const std::string& key, ResidentParams params) {
    CacheValue value;
    value.device_bytes = params.device_bytes();
    value.value = std::make_shared<const ResidentParams>(std::move(params));
    return cache_.insert(cache_key(key), std::move(value));
}

bool ParamsCache::evict(const std::string& path) { return cache_.evict(cache_key(path)); }

}  // namespace cuzk::gpu
