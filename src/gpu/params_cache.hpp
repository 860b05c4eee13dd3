// Several resident parameter sets, kept across proofs within a device-memory budget.
//
// ResidencyCache is the policy, independent of CUDA (its tests use a fake allocator): entries
// keyed by a string, each with the device bytes it occupies; acquire(key) returns a Lease that
// PINS the entry (pin count > 0 = in use) until the Lease is destroyed. On a miss the backend
// first estimates the device bytes; the least recently used IDLE entries (no pins, not loading)
// that hold device memory are evicted until used + estimate ≤ budget; if that is impossible
// (the set is larger than the budget, or the rest is pinned) the set is loaded with
// allow_device = false (pinned host memory) — a pinned entry is never evicted. "Recently used"
// is the last acquire or release. A load runs without the lock (other keys stay usable); concurrent
// acquires of a key being loaded wait for that one load and share its result or its error. A failed
// load leaves no entry. Bytes reserved for a load in progress count as used. Evicted values are
// destroyed outside the lock, when their last reference goes.
// insert(key, value) adds a value made elsewhere (e.g. parameters generated on the device:
// gpu/resident_setup.hpp) as a PERMANENT entry: it cannot be loaded again, so neither evict()
// nor evict_all_idle() nor the LRU policy ever removes it (it goes with the cache). Its device
// bytes count as used like any entry's: idle entries are evicted to make room, and when that is
// not enough it is kept anyway (used may then exceed the budget, and later loads go to pinned
// host memory until room is made).
//
// ParamsCache is the cache of gpu::ResidentParams keyed by the file's canonical path; its
// backend estimates from groth16::inspect_params_file and loads with ResidentParams::load
// (placement: options.load.placement when the device is allowed, else kPinnedHost).
// Thread-safe: every member may be called concurrently; a Lease/Handle may be released on any
// thread, also after the cache itself is gone (the shared state lives until the last one).
// Host C++ header (no CUDA types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu/resident_params.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct CacheValue {
    std::shared_ptr<const void> value;
    uint64_t device_bytes = 0;  // what the value really occupies on the device
};

struct CacheBackend {
    // Device bytes the key would occupy if placed on the device.
    std::function<util::Result<uint64_t>(const std::string& key)> estimate;
    // Loads the key; allow_device false: it must not use device memory.
    std::function<util::Result<CacheValue>(const std::string& key, bool allow_device)> load;
};

struct CacheStats {
    uint64_t budget_bytes = 0;
    uint64_t used_bytes = 0;  // device bytes of the entries + reservations of loads in progress
    size_t entries = 0;
    size_t pinned_entries = 0;
    uint64_t hits = 0, misses = 0, evictions = 0, host_fallbacks = 0, failed_loads = 0;
};

struct CacheEntryInfo {
    std::string key;
    uint64_t device_bytes = 0;
    unsigned pins = 0;
    bool loading = false;
    bool permanent = false;  // inserted, never evicted
};

class ResidencyCache {
    struct State;
    struct Entry;

   public:
    ResidencyCache(uint64_t budget_bytes, CacheBackend backend);
    ~ResidencyCache();
    ResidencyCache(const ResidencyCache&) = delete;
    ResidencyCache& operator=(const ResidencyCache&) = delete;

    // An entry in use: the value stays loaded (and is never evicted) while the Lease lives.
    class Lease {
       public:
        Lease() = default;
        ~Lease();
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

        const void* get() const;
        const std::string& key() const;
        explicit operator bool() const { return entry_ != nullptr; }

       private:
        friend class ResidencyCache;
        void release();
        std::shared_ptr<State> state_;
        std::shared_ptr<Entry> entry_;
    };

    util::Result<Lease> acquire(const std::string& key);

    // Adds a permanent entry (see above). kInvalidArgument when the key is present or loading.
    util::Status insert(const std::string& key, CacheValue value);

    // Evicts the key if it is present and idle; true if it was evicted.
    bool evict(const std::string& key);
    // Evicts every idle entry; returns how many.
    size_t evict_all_idle();

    CacheStats stats() const;
    // Most recently used first; loads in progress included.
    std::vector<CacheEntryInfo> entries() const;

   private:
    std::shared_ptr<State> state_;
};

struct ParamsCacheOptions {
    // 0: the device's free memory when the cache is made, less load.device_margin_bytes.
    uint64_t device_budget_bytes = 0;
    ResidentLoadOptions load;
    // Where converted sets are kept on disk (gpu/coset_bases_save.hpp's coset_bases_path:
    // "<dir>/<file name>.coset-lagrange"): acquire_coset_lagrange loads a file's converted bases
    // from there when they match the file and the circuit, and saves them there after converting
    // (a file that is refused — damaged, of another set or version — is converted again and
    // overwritten; a save that fails is reported and the set used anyway). Empty: every process
    // converts on each device.
    std::string coset_bases_dir;
    // Told, in a sentence, what the coset-Lagrange path does: loaded from disk, converting,
    // converted, saved, a converted file refused and why. Null: printed on stderr.
    std::function<void(const std::string&)> notice;
};

class ParamsCache {
   public:
    explicit ParamsCache(const ParamsCacheOptions& options = {});

    // A resident parameter set in use (pinned in the cache).
    class Handle {
       public:
        Handle() = default;
        const ResidentParams& operator*() const { return *params_; }
        const ResidentParams* operator->() const { return params_; }
        const ResidentParams* get() const { return params_; }

       private:
        friend class ParamsCache;
        ResidencyCache::Lease lease_;
        const ResidentParams* params_ = nullptr;
    };

    // Loads the file on a miss (errors as ResidentParams::load).
    util::Result<Handle> acquire(const std::string& path);

    // The file's set with coset-Lagrange H bases: on a miss read with the converted bases of
    // options.coset_bases_dir when they are there and fit, else loaded, then converted on this
    // cache's device for the circuit of `shape` (gpu/coset_convert.hpp: minutes at 32 GiB) and
    // saved there; kept
    // under a key of its own (cache_key(path) + kCosetLagrangeSuffix) — evicted, counted and
    // reloaded like a file's set, beside it if both are used. `shape` is read during this
    // call's load only. Errors: ResidentParams::load's, the conversion's (a shape that does not
    // fit the file: kInvalidArgument).
    static constexpr const char* kCosetLagrangeSuffix = "#coset-lagrange";
    util::Result<Handle> acquire_coset_lagrange(const std::string& path,
                                                const r1cs::ShapeRecorder& shape);

    // Keeps `params` (made on this cache's device, e.g. by gpu::generate_resident_params) under
    // `key` (any string; looked up as cache_key(key), like a path) for the cache's lifetime:
    // acquire(key) finds it, evict(key) passes it by. kInvalidArgument when the key is taken.
    util::Status insert(const std::string& key, ResidentParams params);

    bool evict(const std::string& path);
    size_t evict_all_idle() { return cache_.evict_all_idle(); }
    CacheStats stats() const { return cache_.stats(); }
    std::vector<CacheEntryInfo> entries() const { return cache_.entries(); }

    // The key a path is cached under (std::filesystem::weakly_canonical, or the path as given
    // when that fails).
    static std::string cache_key(const std::string& path);

   private:
    util::Result<Handle> acquire_key(const std::string& key);

    ResidencyCache cache_;
};

}  // namespace cuzk::gpu
