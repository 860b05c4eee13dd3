// Internal to src/gpu (host side): reuse of large temporary device buffers across calls.
//
// An H MSM of a 32 GiB partition (2^27 scalars) takes about 50 GB of temporary device memory in
// six buffers; cudaMalloc and cudaFree of that much cost 20–170 ms per call on the H200
// (measured 2026-12-02: 2–135 ms for the allocations, 17–34 ms for the frees, varying from call
// to call), against ~680 ms of kernels. ScratchCache keeps such buffers after a call and hands
// them to the next call that asks for about the same size on the same device. ScratchPool is
// the other way: a stream-ordered memory pool per device (cudaMallocFromPoolAsync) that keeps
// freed memory mapped, from which any later call suballocates whatever sizes it needs.
//
// Invariants: a cached buffer is idle (its owner synchronised the work on it before giving it
// back); the cache never holds more than half of a device's memory; anything that needs device
// memory and cannot get it (DeviceBuffer::allocate on out-of-memory, the parameter cache before
// it measures free memory) first empties the cache. Thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/idle_buffers.hpp"

namespace cuzk::gpu {

class ScratchCache {
   public:
    static ScratchCache& instance();

    // A buffer of at least `bytes` on the current device: the smallest cached one of this
    // device whose size is within [bytes, 2·bytes], else a new allocation.
    util::Result<DeviceBuffer> take(size_t bytes);
    // Keeps `buffer` (idle, allocated on the current device) for a later take; the least
    // recently given buffers are freed while the cache would exceed half the device's memory.
    void give(DeviceBuffer buffer);
    // Frees every cached buffer; returns the bytes freed.
    size_t release_all();
    size_t cached_bytes() const;

   private:
    mutable std::mutex mutex_;
    IdleBuffers<DeviceBuffer> idle_;  // tagged by device
};

// The pools of the MSM's temporaries: one per device, created on first use, with no release
// threshold, so memory freed into it (cudaFreeAsync) stays mapped for the next allocation of
// any size. Idle pooled memory counts as free for everyone else: release_idle_device_memory
// trims the pools. Thread-safe.
class ScratchPool {
   public:
    static ScratchPool& instance();

    // `bytes` (> 0) on the current device, ordered on `stream` (null: the legacy default one).
    util::Result<DeviceBuffer> take(size_t bytes, cudaStream_t stream = nullptr);
    // Waits for every device with a pool, then releases the pools' idle memory; returns the
    // bytes released.
    size_t trim();
    // Memory the current device's pool holds (in use or idle); 0 without a pool.
    size_t reserved_bytes() const;
    // Of that, the memory no buffer uses (freed into the pool, kept mapped); 0 without a pool.
    size_t idle_bytes() const;

   private:
    util::Result<cudaMemPool_t> pool_of(int device);
    // An attribute of the current device's pool; 0 without a pool or on an error.
    uint64_t current_attribute(cudaMemPoolAttr attribute) const;

    mutable std::mutex mutex_;
    std::vector<cudaMemPool_t> pools_;  // by device; null until first use
};

// Empties the ScratchCache and trims the ScratchPools; returns the bytes released. Called by
// DeviceBuffer's allocations on out-of-memory (then retried once) and by the parameter loaders
// before they measure free memory.
size_t release_idle_device_memory();

// The current device's free memory (cudaMemGetInfo) plus what release_idle_device_memory would
// give back on it (the pool's idle memory; the cache's buffers, all devices' counted): what an
// allocation can expect to get. 0 when the device cannot be asked.
size_t obtainable_device_memory();

// Where the temporaries of one MSM call come from (GpuMsmOptions::cache_scratch, pool_scratch).
enum class ScratchSource { kAllocate, kCache, kPool };

// The temporary buffers of one call: allocated (cudaMalloc), taken from the ScratchCache, or
// from the ScratchPool (ordered on `stream`, the stream the caller's work on them runs on). On
// destruction: cached ones go back to the cache if keep() was called — after the caller has
// synchronised all work on them —, else everything is freed (cudaFree waits for the device;
// pooled memory returns to the pool in the order of `stream`).
class ScratchLeases {
   public:
    explicit ScratchLeases(ScratchSource source, cudaStream_t stream = nullptr)
        : source_(source), stream_(stream) {}
    ~ScratchLeases();
    ScratchLeases(const ScratchLeases&) = delete;
    ScratchLeases& operator=(const ScratchLeases&) = delete;

    // A buffer of at least `bytes` (> 0), owned by this object; the pointer stays valid for its
    // lifetime.
    util::Result<DeviceBuffer*> take(size_t bytes);
    void keep() { keep_ = true; }

   private:
    ScratchSource source_;
    cudaStream_t stream_;
    bool keep_ = false;
    std::deque<DeviceBuffer> buffers_;
};

}  // namespace cuzk::gpu
