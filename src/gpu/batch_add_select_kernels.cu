// The batch-affine batch addition's item list (batch_add.hpp, "batch-affine"): the indices of the
// set bits by CUB's stable select, and the lane keys i / chunk. Kept apart from the point
// kernels so that CUB's headers stay out of batch_add_kernels.cu.
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>

#include "gpu/batch_add_launch.hpp"
#include "gpu/grid.hpp"

namespace cuzk::gpu::detail {

namespace {

struct BitIsSet {
    const uint64_t* bits;
    __device__ bool operator()(uint32_t i) const { return (bits[i >> 6] >> (i & 63u)) & 1u; }
};

__global__ void chunk_keys_kernel(uint32_t* keys, size_t n, uint32_t chunk) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        keys[i] = static_cast<uint32_t>(i / chunk);
}

}  // namespace

cudaError_t select_set_bits_temp_bytes(size_t n, size_t* bytes) {
    return cub::DeviceSelect::If(nullptr, *bytes, thrust::counting_iterator<uint32_t>(0),
                                 static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                 static_cast<int64_t>(n), BitIsSet{nullptr});
}

cudaError_t launch_select_set_bits(void* temp, size_t temp_bytes, const uint64_t* bits, size_t n,
                                   uint32_t* indices, uint32_t* count, cudaStream_t stream) {
    return cub::DeviceSelect::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), indices,
                                 count, static_cast<int64_t>(n), BitIsSet{bits}, stream);
}

cudaError_t launch_chunk_keys(uint32_t* keys, size_t n, uint32_t chunk, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    if (chunk == 0) return cudaErrorInvalidValue;
    constexpr unsigned kBlock = 256;
    chunk_keys_kernel<<<grid_stride_blocks(n, kBlock), kBlock, 0, stream>>>(keys, n, chunk);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
