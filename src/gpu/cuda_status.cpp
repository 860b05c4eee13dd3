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
    : ptr_(std::exchange(other.ptr_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      pooled_(std::exchange(other.pooled_, false)),
      stream_(std::exchange(other.stream_, nullptr)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        pooled_ = std::exchange(other.pooled_, false);
        stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
}

void DeviceBuffer::reset() {
    if (ptr_ != nullptr) {
        // Nothing to report to from a destructor: a failure here means the context is already
        // broken, and the call that broke it has returned that error.
        (void)(pooled_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_));
    }
    ptr_ = nullptr;
    bytes_ = 0;
    pooled_ = false;
    stream_ = nullptr;
}

namespace {

// One attempt of `alloc`, and on out-of-memory a second once idle cached or pooled memory has
// been released; the error names `what`.
template <class Alloc>
util::Status allocate_with_retry(size_t bytes, const char* what, Alloc alloc) {
    cudaError_t err = alloc();
    if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();  // the failed attempt
        if (release_idle_device_memory() > 0) err = alloc();
    }
    if (err != cudaSuccess) {
        (void)cudaGetLastError();  // returned here; a later launch check must not see it again
        std::string m = what;
        m += "(";
        m += std::to_string(bytes);
        m += " bytes)";
        return cuda_status(err, m);
    }
    return util::Status();
}

}  // namespace

util::Result<DeviceBuffer> DeviceBuffer::allocate(size_t bytes) {
    if (bytes == 0) return util::invalid_argument("DeviceBuffer::allocate: zero bytes");
    void* ptr = nullptr;
    CUZK_RETURN_IF_ERROR(
        allocate_with_retry(bytes, "cudaMalloc", [&] { return cudaMalloc(&ptr, bytes); }));
    DeviceBuffer buffer;
    buffer.ptr_ = ptr;
    buffer.bytes_ = bytes;
    return buffer;
}

util::Result<DeviceBuffer> DeviceBuffer::allocate_from_pool(size_t bytes, cudaMemPool_t pool,
                                                            cudaStream_t stream) {
    if (bytes == 0) return util::invalid_argument("DeviceBuffer::allocate_from_pool: zero bytes");
    void* ptr = nullptr;
    CUZK_RETURN_IF_ERROR(allocate_with_retry(bytes, "cudaMallocFromPoolAsync", [&] {
        return cudaMallocFromPoolAsync(&ptr, bytes, pool, stream);
    }));
    DeviceBuffer buffer;
    buffer.ptr_ = ptr;
    buffer.bytes_ = bytes;
    buffer.pooled_ = true;
    buffer.stream_ = stream;
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
