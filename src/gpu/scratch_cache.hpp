// Internal to src/gpu (host side): reuse of large temporary device buffers across calls.
//
// An H MSM of a 32 GiB partition (2^27 scalars) takes about 50 GB of temporary device memory in
// six buffers; cudaMalloc and cudaFree of that much cost 20–170 ms per call on the H200
// (measured 2026-12-02: 2–135 ms for the allocations, 17–34 ms for the frees, varying from call
// to call), against ~680 ms of kernels. ScratchCache keeps such buffers after a call and hands
// them to the next call that asks for about the same size on the same device.
//
// Invariants: a cached buffer is idle (its owner synchronised the work on it before giving it
// back); the cache never holds more than half of a device's memory; anything that needs device
// memory and cannot get it (DeviceBuffer::allocate on out-of-memory, the parameter cache before
// it measures free memory) first empties the cache. Thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>

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

// The temporary buffers of one call: taken from the ScratchCache (use_cache) or allocated, and
// on destruction given back to the cache if keep() was called — after the caller has
// synchronised all work on them — else freed (cudaFree waits for the device).
class ScratchLeases {
   public:
    explicit ScratchLeases(bool use_cache) : use_cache_(use_cache) {}
    ~ScratchLeases();
    ScratchLeases(const ScratchLeases&) = delete;
    ScratchLeases& operator=(const ScratchLeases&) = delete;

    // A buffer of at least `bytes` (> 0), owned by this object; the pointer stays valid for its
    // lifetime.
    util::Result<DeviceBuffer*> take(size_t bytes);
    void keep() { keep_ = true; }

   private:
    bool use_cache_;
    bool keep_ = false;
    std::deque<DeviceBuffer> buffers_;
};

}  // namespace cuzk::gpu
