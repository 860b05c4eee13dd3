// Internal to src/gpu: the batch-addition kernel launchers (batch_add_kernels.cu) that
// batch_add.cpp calls. Device pointers, enqueued on `stream`; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpu/device_curve.cuh"

namespace cuzk::gpu::detail {

// The launch shape for n bases: blocks of a fixed size per curve (128 threads for G1, 64 for
// G2: one XYZZ point each in shared memory), each thread summing words_per_thread bit words
// (or, for launch_sum_points, that many points). The scratch is one point per block.
// With automatic shapes, about this many threads (~4 waves of the register-heavy kernels).
inline constexpr size_t kBatchAddTargetThreads = size_t{1} << 18;

struct BatchAddShape {
    size_t words_per_thread = 1;
    size_t blocks = 0;
};
// words_per_thread = 0: automatic.
BatchAddShape batch_add_shape_g1(size_t n, size_t words_per_thread);
BatchAddShape batch_add_shape_g2(size_t n, size_t words_per_thread);

// *result = Σ_{bit i set, i < n} bases[i]; partial holds shape.blocks points. warp_compact:
// the warp-compacted kernel (GpuBatchAddOptions::warp_compact), else one walk per thread.
// dedicated_square (G1): the kernels of DeviceG1SquareCurve (GpuBatchAddOptions::dedicated_square).
cudaError_t launch_batch_add_g1(const DeviceG1Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, bool warp_compact,
                                bool dedicated_square, DeviceG1Xyzz* partial,
                                DeviceG1Xyzz* result, cudaStream_t stream);
cudaError_t launch_batch_add_g2(const DeviceG2Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, bool warp_compact,
                                DeviceG2Xyzz* partial, DeviceG2Xyzz* result, cudaStream_t stream);

// Σ in[0, count) (XYZZ points) into *result: threads sum runs of shape.words_per_thread points,
// blocks reduce by a shared-memory tree into partial (shape.blocks points), one block reduces
// those; count = 0 writes the identity. The shape from batch_add_sum_shape_g1/_g2(count).
BatchAddShape batch_add_sum_shape_g1(size_t count);
BatchAddShape batch_add_sum_shape_g2(size_t count);
cudaError_t launch_sum_points_g1(const DeviceG1Xyzz* in, size_t count, const BatchAddShape& shape,
                                 DeviceG1Xyzz* partial, DeviceG1Xyzz* result,
                                 cudaStream_t stream);
cudaError_t launch_sum_points_g2(const DeviceG2Xyzz* in, size_t count, const BatchAddShape& shape,
                                 DeviceG2Xyzz* partial, DeviceG2Xyzz* result,
                                 cudaStream_t stream);

// batch_add_select_kernels.cu. indices ← the i < n whose bit is set, ascending (CUB's stable
// select, storage from select_set_bits_temp_bytes), *count ← how many (n < 2^31).
cudaError_t select_set_bits_temp_bytes(size_t n, size_t* bytes);
cudaError_t launch_select_set_bits(void* temp, size_t temp_bytes, const uint64_t* bits, size_t n,
                                   uint32_t* indices, uint32_t* count, cudaStream_t stream);
// keys[i] = i / chunk for i < n.
cudaError_t launch_chunk_keys(uint32_t* keys, size_t n, uint32_t chunk, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
