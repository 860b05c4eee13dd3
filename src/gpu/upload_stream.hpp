// Internal to src/gpu (host side): a non-blocking stream with two events, for double-buffered
// uploads through the two halves of a pinned staging buffer (resident_params.cpp,
// resident_setup.cpp): before refilling half h, wait for done[h]; after enqueueing its copy,
// record done[h]. The destructor waits for the stream, so staging memory is never released
// while a copy still reads it.
#pragma once

#include <cuda_runtime_api.h>

#include "gpu/cuda_status.hpp"

namespace cuzk::gpu {

struct UploadStream {
    cudaStream_t stream = nullptr;
    cudaEvent_t done[2] = {nullptr, nullptr};

    util::Status create() {
        CUZK_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        for (auto& e : done)
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        return util::Status();
    }
    ~UploadStream() {
        if (stream != nullptr) (void)cudaStreamSynchronize(stream);
        for (auto& e : done)
            if (e != nullptr) (void)cudaEventDestroy(e);
        if (stream != nullptr) (void)cudaStreamDestroy(stream);
    }
};

}  // namespace cuzk::gpu
