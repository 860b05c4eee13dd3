#include "gpu/pinned_pool.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "gpu/cuda_status.hpp"

namespace cuzk::gpu {

PinnedBuffer::~PinnedBuffer() { reset(); }

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        mapped_ = std::exchange(other.mapped_, false);
    }
    return *this;
}

void PinnedBuffer::reset() {
    // A failure here means the context is already broken; nothing to report it to.
    if (ptr_ != nullptr) (void)cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
    mapped_ = false;
}

util::Result<PinnedBuffer> PinnedBuffer::allocate(size_t bytes, bool mapped) {
    if (bytes == 0) return util::invalid_argument("PinnedBuffer::allocate: zero bytes");
    PinnedBuffer buffer;
    const unsigned flags = cudaHostAllocPortable | (mapped ? cudaHostAllocMapped : 0u);
    const cudaError_t err = cudaHostAlloc(&buffer.ptr_, bytes, flags);
    if (err != cudaSuccess) {
        buffer.ptr_ = nullptr;
        (void)cudaGetLastError();
        std::string what = "cudaHostAlloc(";
        what += std::to_string(bytes);
        what += " bytes)";
        return cuda_status(err, what);
    }
    buffer.bytes_ = bytes;
    buffer.mapped_ = mapped;
    return buffer;
}

util::Result<void*> PinnedBuffer::device_pointer() const {
    if (!mapped_) return util::internal_error("PinnedBuffer::device_pointer: buffer not mapped");
    void* device = nullptr;
    CUZK_CUDA_RETURN_IF_ERROR(cudaHostGetDevicePointer(&device, ptr_, 0));
    return device;
}

PinnedPool::PinnedPool(size_t max_idle_bytes) : max_idle_bytes_(max_idle_bytes) {}
PinnedPool::~PinnedPool() = default;

PinnedPool& PinnedPool::global() {
    static PinnedPool* pool = new PinnedPool();  // never destroyed: leases may outlive statics
    return *pool;
}

util::Result<PinnedPool::Lease> PinnedPool::acquire(size_t bytes) {
    if (bytes == 0) return util::invalid_argument("PinnedPool::acquire: zero bytes");
    Lease lease;
    lease.pool_ = this;
    {
        std::lock_guard lock(mutex_);
        if (auto idle = idle_.take(0, bytes, SIZE_MAX)) {
            lease.buffer_ = std::move(*idle);
            return lease;
        }
        ++allocations_;
    }
    CUZK_ASSIGN_OR_RETURN(lease.buffer_, PinnedBuffer::allocate(bytes));
    return lease;
}

void PinnedPool::release(PinnedBuffer buffer) {
    if (buffer.data() == nullptr) return;
    std::vector<PinnedBuffer> evicted;  // freed after the lock is released
    std::lock_guard lock(mutex_);
    idle_.put(0, std::move(buffer), max_idle_bytes_, evicted);
}

size_t PinnedPool::idle_bytes() const {
    std::lock_guard lock(mutex_);
    return idle_.bytes();
}
size_t PinnedPool::idle_buffers() const {
    std::lock_guard lock(mutex_);
    return idle_.count();
}
uint64_t PinnedPool::allocations() const {
    std::lock_guard lock(mutex_);
    return allocations_;
}

void PinnedPool::trim() {
    std::vector<PinnedBuffer> freed;
    {
        std::lock_guard lock(mutex_);
        freed = idle_.take_all();
    }
}

PinnedPool::Lease::~Lease() { give_back(); }

PinnedPool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), buffer_(std::move(other.buffer_)) {}

PinnedPool::Lease& PinnedPool::Lease::operator=(Lease&& other) noexcept {
    if (this != &other) {
        give_back();
        pool_ = std::exchange(other.pool_, nullptr);
        buffer_ = std::move(other.buffer_);
    }
    return *this;
}

void PinnedPool::Lease::give_back() {
    if (pool_ != nullptr) pool_->release(std::move(buffer_));
    pool_ = nullptr;
    buffer_ = PinnedBuffer();
}

}  // namespace cuzk::gpu
