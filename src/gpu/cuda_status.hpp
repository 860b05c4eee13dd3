// Internal to src/gpu (host side): CUDA runtime errors as util::Status, and an owning device
// buffer. Includes the CUDA runtime API (a C header), so public headers must not include this.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string_view>

#include "util/status.hpp"

namespace cuzk::gpu {

// OK for cudaSuccess; otherwise "<what>: <error name>: <error description>" with a code:
// kResourceExhausted for out-of-memory, kUnavailable when there is no usable device or driver
// (or no kernel image for it), kInternal for everything else (a bug or a faulted context).
util::Status cuda_status(cudaError_t err, std::string_view what);

// Returns the Status of a CUDA runtime call from the enclosing function when it failed; the
// message names the call as written.
#define CUZK_CUDA_RETURN_IF_ERROR(call) \
    CUZK_RETURN_IF_ERROR(::cuzk::gpu::cuda_status((call), #call))

// Device memory from cudaMalloc (freed by cudaFree on destruction), or from a stream-ordered
// memory pool (allocate_from_pool: allocated and freed by cudaMallocFromPoolAsync /
// cudaFreeAsync on the stream it was taken for, so the memory returns to the pool once the work
// queued there before the free is done). Move-only.
class DeviceBuffer {
   public:
    DeviceBuffer() = default;
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // bytes > 0. On out-of-memory, release_idle_device_memory (scratch_cache.hpp) then one retry.
    static util::Result<DeviceBuffer> allocate(size_t bytes);
    // bytes > 0, from `pool`, ordered on `stream` (null: the legacy default stream); the same
    // retry. The buffer is used on `stream` (or on streams ordered after its allocation and
    // before its destruction by the caller).
    static util::Result<DeviceBuffer> allocate_from_pool(size_t bytes, cudaMemPool_t pool,
                                                         cudaStream_t stream = nullptr);

    void* data() const { return ptr_; }
    size_t size() const { return bytes_; }

    // Synchronous copies of the first `bytes` bytes (bytes <= size()).
    util::Status upload(const void* host, size_t bytes);
    util::Status download(void* host, size_t bytes) const;

   private:
    void reset();

    void* ptr_ = nullptr;
    size_t bytes_ = 0;
    bool pooled_ = false;
    cudaStream_t stream_ = nullptr;  // pooled: the stream its free is ordered on
};

}  // namespace cuzk::gpu
