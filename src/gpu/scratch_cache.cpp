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

ScratchPool& ScratchPool::instance() {
    static ScratchPool* pool = new ScratchPool();  // never destroyed, like its pools
    return *pool;
}

util::Result<cudaMemPool_t> ScratchPool::pool_of(int device) {
    if (device < 0)
        return util::Status(util::StatusCode::kUnavailable, "ScratchPool: no current CUDA device");
    std::lock_guard<std::mutex> lock(mutex_);
    if (pools_.size() <= static_cast<size_t>(device)) pools_.resize(device + 1, nullptr);
    cudaMemPool_t& pool = pools_[device];
    if (pool == nullptr) {
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemPoolCreate(&pool, &props));
        uint64_t keep_everything = UINT64_MAX;
        CUZK_CUDA_RETURN_IF_ERROR(
            cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
    }
    return pool;
}

util::Result<DeviceBuffer> ScratchPool::take(size_t bytes, cudaStream_t stream) {
    CUZK_ASSIGN_OR_RETURN(cudaMemPool_t pool, pool_of(current_device()));
    return DeviceBuffer::allocate_from_pool(bytes, pool, stream);
}

size_t ScratchPool::trim() {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t released = 0;
    int previous = -1;
    if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
    for (size_t d = 0; d < pools_.size(); ++d) {
        if (pools_[d] == nullptr) continue;
        uint64_t before = 0, after = 0;
        // The frees queued on the device must have run before their memory counts as idle.
        if (cudaSetDevice(static_cast<int>(d)) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess ||
            cudaMemPoolGetAttribute(pools_[d], cudaMemPoolAttrReservedMemCurrent, &before) !=
                cudaSuccess ||
            cudaMemPoolTrimTo(pools_[d], 0) != cudaSuccess ||
            cudaMemPoolGetAttribute(pools_[d], cudaMemPoolAttrReservedMemCurrent, &after) !=
                cudaSuccess) {
            (void)cudaGetLastError();
            continue;
        }
        released += before > after ? before - after : 0;
    }
    if (previous >= 0) (void)cudaSetDevice(previous);
    return released;
}

uint64_t ScratchPool::current_attribute(cudaMemPoolAttr attribute) const {
    const int device = current_device();
    std::lock_guard<std::mutex> lock(mutex_);
    if (device < 0 || static_cast<size_t>(device) >= pools_.size() || pools_[device] == nullptr)
        return 0;
    uint64_t value = 0;
    if (cudaMemPoolGetAttribute(pools_[device], attribute, &value) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return value;
}

size_t ScratchPool::reserved_bytes() const {
    return current_attribute(cudaMemPoolAttrReservedMemCurrent);
}

size_t ScratchPool::idle_bytes() const {
    const uint64_t reserved = current_attribute(cudaMemPoolAttrReservedMemCurrent);
    const uint64_t used = current_attribute(cudaMemPoolAttrUsedMemCurrent);
    return reserved > used ? reserved - used : 0;
}

size_t obtainable_device_memory() {
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return free + ScratchPool::instance().idle_bytes() + ScratchCache::instance().cached_bytes();
}

size_t release_idle_device_memory() {
    return ScratchCache::instance().release_all() + ScratchPool::instance().trim();
}

ScratchLeases::~ScratchLeases() {
    if (!keep_ || source_ != ScratchSource::kCache) return;
    for (DeviceBuffer& b : buffers_) ScratchCache::instance().give(std::move(b));
}

util::Result<DeviceBuffer*> ScratchLeases::take(size_t bytes) {
    if (bytes == 0) return util::invalid_argument("ScratchLeases::take: zero bytes");
    util::Result<DeviceBuffer> b = util::internal_error("ScratchLeases: unknown source");
    switch (source_) {
        case ScratchSource::kAllocate: b = DeviceBuffer::allocate(bytes); break;
        case ScratchSource::kCache: b = ScratchCache::instance().take(bytes); break;
        case ScratchSource::kPool: b = ScratchPool::instance().take(bytes, stream_); break;
    }
    if (!b.ok()) return b.status();
    buffers_.push_back(std::move(*b));
    return &buffers_.back();
}

}  // namespace cuzk::gpu
