#include "gpu/device.hpp"

#include <cuda_runtime_api.h>

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

}  // namespace cuzk::gpu
