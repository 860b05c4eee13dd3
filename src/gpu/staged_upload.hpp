// Internal to src/gpu (host side): host → device copies from pageable memory through the two
// halves of one pooled pinned staging buffer. Chunk k is copied (memcpy, split over the
// uploader's own copy threads) into half k % 2 while the DMA of chunk k − 1 runs; a half is
// refilled only after its previous DMA has finished (UploadStream's events). Pageable
// cudaMemcpy would stage through the driver's small bounce buffer at a fraction of the bus rate;
// registering the host vectors per proof (cudaHostRegister) costs seconds — DESIGN.md §4.
// Not thread-safe: one uploader per thread of GPU work.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "gpu/pinned_pool.hpp"
#include "gpu/upload_stream.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

class StagedUploader {
   public:
    // half_bytes: the size of each staging half; copy_threads: memcpy parallelism.
    static util::Result<std::unique_ptr<StagedUploader>> create(size_t half_bytes = size_t{64}
                                                                                    << 20,
                                                                unsigned copy_threads = 8);

    // Enqueues dst[0, bytes) ← src[0, bytes) on stream(); returns once the last chunk is staged
    // (src may then be freed; dst is complete after synchronize()).
    util::Status upload(void* dst, const void* src, size_t bytes);
    util::Status synchronize();
    cudaStream_t stream() const { return stream_.stream; }
    size_t bytes_uploaded() const { return total_; }

   private:
    StagedUploader(size_t half_bytes, unsigned copy_threads)
        : half_bytes_(half_bytes), copy_pool_(copy_threads) {}
    size_t half_bytes_;
    util::ThreadPool copy_pool_;
    PinnedPool::Lease staging_;
    UploadStream stream_;
    unsigned next_half_ = 0;
    size_t total_ = 0;
};

}  // namespace cuzk::gpu
