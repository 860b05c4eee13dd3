// Internal to src/gpu: the batch-addition kernel launchers (batch_add_kernels.cu) that
// batch_add.cpp calls. Device pointers, enqueued on `stream`; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpu/device_curve.cuh"

namespace cuzk::gpu::detail {

// The launch shape for n bases: blocks of a fixed size per curve (128 threads for G1, 64 for
// G2: one XYZZ point each in shared memory), each thread summing words_per_thread bit words.
// The scratch is one point per block.
struct BatchAddShape {
    size_t words_per_thread = 1;
    size_t blocks = 0;
};
// words_per_thread = 0: automatic.
BatchAddShape batch_add_shape_g1(size_t n, size_t words_per_thread);
BatchAddShape batch_add_shape_g2(size_t n, size_t words_per_thread);

// *result = Σ_{bit i set, i < n} bases[i]; partial holds shape.blocks points.
cudaError_t launch_batch_add_g1(const DeviceG1Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, DeviceG1Xyzz* partial,
                                DeviceG1Xyzz* result, cudaStream_t stream);
cudaError_t launch_batch_add_g2(const DeviceG2Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, DeviceG2Xyzz* partial,
                                DeviceG2Xyzz* result, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
