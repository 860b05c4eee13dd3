#include "gpu/device.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "gpu/cuda_status.hpp"

namespace cuzk::gpu {

namespace {

util::Result<int> query_device_count() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();  // do not leave the failure as the thread's last error
        return cuda_status(err, "cudaGetDeviceCount");
    }
    if (count <= 0)
        return util::Status(util::StatusCode::kUnavailable, "cudaGetDeviceCount: no CUDA device");
    return count;
}

}  // namespace

int device_count() {
    const util::Result<int> count = query_device_count();
    return count.ok() ? *count : 0;
}

util::Status check_device_available() { return query_device_count().status(); }

util::Result<std::unique_ptr<DeviceMemoryHold>> DeviceMemoryHold::leave_only(size_t keep_bytes) {
    CUZK_RETURN_IF_ERROR(check_device_available());
    size_t free = 0, total = 0;
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemGetInfo(&free, &total));
    std::unique_ptr<DeviceMemoryHold> hold(new DeviceMemoryHold);
    hold->total_ = total;
    if (total <= keep_bytes) return hold;
    const size_t bytes = total - keep_bytes;
    if (bytes > free) {
        return util::Status(util::StatusCode::kResourceExhausted,
                            "DeviceMemoryHold: " + std::to_string(bytes) +
                                " bytes to hold but only " + std::to_string(free) + " free");
    }
    if (const cudaError_t err = cudaMalloc(&hold->ptr_, bytes); err != cudaSuccess) {
        (void)cudaGetLastError();  // returned here; a later launch check must not see it again
        hold->ptr_ = nullptr;
        return cuda_status(err, "DeviceMemoryHold: cudaMalloc(" + std::to_string(bytes) + ")");
    }
    hold->bytes_ = bytes;
    return hold;
}

DeviceMemoryHold::~DeviceMemoryHold() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
}

}  // namespace cuzk::gpu
