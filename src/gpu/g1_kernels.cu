// Elementwise G1 mixed addition in XYZZ coordinates: the shared formula of ec/point.hpp
// (Xyzz::add_mixed) instantiated with the device field.
#include "gpu/kernel_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

__global__ void g1_add_mixed_kernel(const DeviceG1Xyzz* p, const DeviceG1Affine* q,
                                    DeviceG1Xyzz* out, size_t n) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const DeviceG1Xyzz a = p[i];
        const DeviceG1Affine b = q[i];
        out[i] = a.add_mixed(b);
    }
}

}  // namespace

cudaError_t launch_g1_add_mixed(const DeviceG1Xyzz* p, const DeviceG1Affine* q, DeviceG1Xyzz* out,
                                size_t n, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    g1_add_mixed_kernel<<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(p, q, out, n);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
