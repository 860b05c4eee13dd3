#include "gpu/staged_upload.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::gpu {

util::Result<std::unique_ptr<StagedUploader>> StagedUploader::create(size_t half_bytes,
                                                                     unsigned copy_threads) {
    half_bytes = std::max<size_t>(half_bytes, 4096);
    std::unique_ptr<StagedUploader> up(
        new StagedUploader(half_bytes, std::max(1u, copy_threads)));
    CUZK_ASSIGN_OR_RETURN(up->staging_, PinnedPool::global().acquire(2 * half_bytes));
    CUZK_RETURN_IF_ERROR(up->stream_.create());
    return up;
}

util::Status StagedUploader::upload(void* dst, const void* src, size_t bytes) {
    auto* out = static_cast<uint8_t*>(dst);
    const auto* in = static_cast<const uint8_t*>(src);
    for (size_t first = 0; first < bytes; first += half_bytes_) {
        const size_t n = std::min(half_bytes_, bytes - first);
        const unsigned half = next_half_;
        next_half_ ^= 1;
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(stream_.done[half]));
        uint8_t* stage = staging_.data() + half * half_bytes_;
        copy_pool_.parallel_ranges(
            n, [&](size_t b, size_t e) { std::memcpy(stage + b, in + first + b, e - b); }, 1);
        CUZK_CUDA_RETURN_IF_ERROR(
            cudaMemcpyAsync(out + first, stage, n, cudaMemcpyHostToDevice, stream_.stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(stream_.done[half], stream_.stream));
    }
    total_ += bytes;
    return util::Status();
}

util::Status StagedUploader::synchronize() {
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_.stream));
    return util::Status();
}

}  // namespace cuzk::gpu
