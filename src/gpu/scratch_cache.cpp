// ScratchCache and ScratchLeases (scratch_cache.hpp).
#include "gpu/scratch_cache.hpp"

#include <vector>

namespace cuzk::gpu {

namespace {
int current_device() {
    int device = -1;
    return cudaGetDevice(&device) == cudaSuccess ? device : -1;
}
}  // namespace

ScratchCache& ScratchCache::instance() {
    static ScratchCache* cache = new ScratchCache();  // never destroyed: outlives static buffers
    return *cache;
}

util::Result<DeviceBuffer> ScratchCache::take(size_t bytes) {
    const int device = current_device();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto cached = idle_.take(device, bytes, 2 * bytes)) return std::move(*cached);
    }
    return DeviceBuffer::allocate(bytes);
}

void ScratchCache::give(DeviceBuffer buffer) {
    if (buffer.data() == nullptr) return;
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return;  // `buffer` is freed
    }
    std::vector<DeviceBuffer> evicted;  // freed after the lock is released
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.put(current_device(), std::move(buffer), total_bytes / 2, evicted);
}

size_t ScratchCache::release_all() {
    std::vector<DeviceBuffer> freed;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        freed = idle_.take_all();
    }
    size_t bytes = 0;
    for (const DeviceBuffer& b : freed) bytes += b.size();
    return bytes;  // `freed` frees them here
}

size_t ScratchCache::cached_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return idle_.bytes();
}

ScratchLeases::~ScratchLeases() {
    if (!keep_ || !use_cache_) return;
    for (DeviceBuffer& b : buffers_) ScratchCache::instance().give(std::move(b));
}

util::Result<DeviceBuffer*> ScratchLeases::take(size_t bytes) {
    if (bytes == 0) return util::invalid_argument("ScratchLeases::take: zero bytes");
    if (use_cache_) {
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer b, ScratchCache::instance().take(bytes));
        buffers_.push_back(std::move(b));
    } else {
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::allocate(bytes));
        buffers_.push_back(std::move(b));
    }
    return &buffers_.back();
}

}  // namespace cuzk::gpu
