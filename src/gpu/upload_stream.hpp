// Internal to src/gpu (host side): owned non-blocking streams.
//
// NonBlockingStream: a stream of the current device that does not synchronize with the legacy
// default stream (the GPU prover's concurrent split MSMs run one each); the destructor waits for
// it and destroys it.
// UploadStream: such a stream with two events, for double-buffered uploads through the two
// halves of a pinned staging buffer (resident_params.cpp, resident_setup.cpp, staged_upload.hpp):
// before refilling half h, wait for done[h]; after enqueueing its copy, record done[h]. The
// stream is waited for before the events go, so staging memory is never released while a copy
// still reads it.
#pragma once

#include <cuda_runtime_api.h>

#include "gpu/cuda_status.hpp"

namespace cuzk::gpu {

struct NonBlockingStream {
    cudaStream_t stream = nullptr;

    NonBlockingStream() = default;
    NonBlockingStream(const NonBlockingStream&) = delete;
    NonBlockingStream& operator=(const NonBlockingStream&) = delete;
    ~NonBlockingStream() {
        if (stream != nullptr) {
            (void)cudaStreamSynchronize(stream);
            (void)cudaStreamDestroy(stream);
        }
    }

    util::Status create() {
        CUZK_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        return util::Status();
    }
};

struct UploadStream : NonBlockingStream {
    cudaEvent_t done[2] = {nullptr, nullptr};

    util::Status create() {
        CUZK_RETURN_IF_ERROR(NonBlockingStream::create());
        for (auto& e : done)
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        return util::Status();
    }
    ~UploadStream() {
        if (stream != nullptr) (void)cudaStreamSynchronize(stream);
        for (auto& e : done)
            if (e != nullptr) (void)cudaEventDestroy(e);
    }  // then the stream goes (~NonBlockingStream)
};

}  // namespace cuzk::gpu
