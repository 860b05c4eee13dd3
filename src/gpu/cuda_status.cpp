#include "gpu/cuda_status.hpp"
#include "gpu/scratch_cache.hpp"

#include <string>
#include <utility>

namespace cuzk::gpu {

namespace {

util::StatusCode code_for(cudaError_t err) {
    switch (err) {
        case cudaErrorMemoryAllocation:
            return util::StatusCode::kResourceExhausted;
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorInitializationError:
        case cudaErrorDevicesUnavailable:
        case cudaErrorSystemDriverMismatch:
        case cudaErrorCompatNotSupportedOnDevice:
        case cudaErrorNoKernelImageForDevice:
            return util::StatusCode::kUnavailable;
        default:
            return util::StatusCode::kInternal;
    }
}

}  // namespace

util::Status cuda_status(cudaError_t err, std::string_view what) {
    if (err == cudaSuccess) return util::Status();
    std::string message(what);
    message += ": ";
    message += cudaGetErrorName(err);
    message += ": ";
    message += cudaGetErrorString(err);
    return util::Status(code_for(err), std::move(message));
}

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void DeviceBuffer::reset() {
    if (ptr_ != nullptr) {
        // Nothing to report to from a destructor: a failure here means the context is already
        // broken, and the call that broke it has returned that error.
        (void)cudaFree(ptr_);
    }
    ptr_ = nullptr;
    bytes_ = 0;
}

util::Result<DeviceBuffer> DeviceBuffer::allocate(size_t bytes) {
    if (bytes == 0) return util::invalid_argument("DeviceBuffer::allocate: zero bytes");
    DeviceBuffer buffer;
    cudaError_t err = cudaMalloc(&buffer.ptr_, bytes);
    if (err == cudaErrorMemoryAllocation && ScratchCache::instance().release_all() > 0) {
        (void)cudaGetLastError();  // the failed attempt; retry with the cached scratch freed
        err = cudaMalloc(&buffer.ptr_, bytes);
    }
    if (err != cudaSuccess) {
        (void)cudaGetLastError();  // returned here; a later launch check must not see it again
        buffer.ptr_ = nullptr;
        return cuda_status(err, "cudaMalloc(" + std::to_string(bytes) + " bytes)");
    }
    buffer.bytes_ = bytes;
    return buffer;
}

util::Status DeviceBuffer::upload(const void* host, size_t bytes) {
    if (bytes > bytes_)
        return util::out_of_range("DeviceBuffer::upload: more bytes than the buffer");
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice));
    return util::Status();
}

util::Status DeviceBuffer::download(void* host, size_t bytes) const {
    if (bytes > bytes_)
        return util::out_of_range("DeviceBuffer::download: more bytes than the buffer");
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost));
    return util::Status();
}

}  // namespace cuzk::gpu
