// Page-locked (pinned) host memory for CUDA transfers, and a pool that reuses it.
//
// Pinning is expensive (cudaHostAlloc maps and locks every page: ~ms per 100 MiB), so buffers
// are allocated once and handed out again: PinnedPool::acquire returns a Lease on an idle buffer
// of at least the requested size (the smallest that fits) or allocates a new one; the Lease gives
// it back on destruction. Idle buffers beyond `max_idle_bytes` are freed, oldest first. Nothing
// here registers caller memory (no cudaHostRegister per proof).
//
// Invariants: a PinnedBuffer owns exactly size() bytes from cudaHostAlloc (or nothing: moved-from
// or default); `mapped` buffers are also addressable by kernels (cudaHostAllocMapped, with
// unified addressing the device pointer equals the host pointer — device_pointer() asks CUDA).
// A pool must outlive its leases (PinnedPool::global() lives for the whole process).
// Thread-safe: acquire and lease release may run concurrently from any thread.
// Host C++ header (no CUDA types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "gpu/idle_buffers.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

class PinnedBuffer {
   public:
    PinnedBuffer() = default;
    ~PinnedBuffer();
    PinnedBuffer(PinnedBuffer&& other) noexcept;
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    // bytes > 0. `mapped`: also mapped into the device address space (kernels may read it over
    // the bus). Errors: kResourceExhausted when the host cannot pin that much, kUnavailable
    // without a device.
    static util::Result<PinnedBuffer> allocate(size_t bytes, bool mapped = false);

    void* data() const { return ptr_; }
    size_t size() const { return bytes_; }
    bool mapped() const { return mapped_; }
    // The address kernels use for a mapped buffer (cudaHostGetDevicePointer).
    util::Result<void*> device_pointer() const;

   private:
    void reset();

    void* ptr_ = nullptr;
    size_t bytes_ = 0;
    bool mapped_ = false;
};

class PinnedPool {
   public:
    explicit PinnedPool(size_t max_idle_bytes = size_t{1} << 30);
    ~PinnedPool();
    PinnedPool(const PinnedPool&) = delete;
    PinnedPool& operator=(const PinnedPool&) = delete;

    // A buffer on loan; returned to its pool on destruction. Move-only.
    class Lease {
       public:
        Lease() = default;
        ~Lease();
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

        uint8_t* data() const { return static_cast<uint8_t*>(buffer_.data()); }
        size_t size() const { return buffer_.size(); }  // >= the size asked for

       private:
        friend class PinnedPool;
        void give_back();
        PinnedPool* pool_ = nullptr;
        PinnedBuffer buffer_;
    };

    // bytes > 0.
    util::Result<Lease> acquire(size_t bytes);

    size_t idle_bytes() const;
    size_t idle_buffers() const;
    uint64_t allocations() const;  // cudaHostAlloc calls made so far (reuse shows as no change)
    // Frees every idle buffer.
    void trim();

    // The process-wide pool (never destroyed; max 1 GiB idle).
    static PinnedPool& global();

   private:
    void release(PinnedBuffer buffer);

    const size_t max_idle_bytes_;
    mutable std::mutex mutex_;
    IdleBuffers<PinnedBuffer> idle_;  // one tag (0): the pool is for host memory
    uint64_t allocations_ = 0;
};

}  // namespace cuzk::gpu
