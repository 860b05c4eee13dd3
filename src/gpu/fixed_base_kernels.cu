// Fixed-base scalar multiplication kernels (see fixed_base_launch.hpp). The point formulas are
// ec/point.hpp's (Xyzz::add_mixed, madd-2008-s), instantiated with the device field; the
// normalization is point_normalize.cuh's.
#include "gpu/fixed_base_launch.hpp"
#include "gpu/kernel_launch.hpp"
#include "gpu/point_normalize.cuh"

namespace cuzk::gpu::detail {

namespace {

// Bits [bit, bit + width) of a 4-limb integer (width ≤ 32).
__device__ uint32_t window_digit(const uint64_t* k, unsigned bit, unsigned width) {
    const unsigned limb = bit / 64;
    const unsigned shift = bit % 64;
    if (limb >= 4) return 0;
    uint64_t digit = k[limb] >> shift;
    if (shift + width > 64 && limb + 1 < 4) digit |= k[limb + 1] << (64 - shift);
    return static_cast<uint32_t>(digit & ((uint64_t{1} << width) - 1));
}

template <class C>
__global__ void fixed_base_mul_kernel(DeviceFixedBaseTable<ec::Affine<C>> table,
                                      const uint64_t* scalars, size_t n, ec::Xyzz<C>* out) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t k[4];
        for (int j = 0; j < 4; ++j) k[j] = scalars[4 * i + j];
        ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
        for (unsigned w = 0; w < table.windows; ++w) {
            const uint32_t d = window_digit(k, w * table.window, table.window);
            if (d != 0) acc = acc.add_mixed(table.points[w * table.row + (d - 1)]);
        }
        out[i] = acc;
    }
}

template <class C>
cudaError_t launch(const DeviceFixedBaseTable<ec::Affine<C>>& table, const uint64_t* scalars,
                   size_t n, ec::Xyzz<C>* scratch, ec::Affine<C>* out, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    fixed_base_mul_kernel<C><<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(
        table, scalars, n, scratch);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    const size_t runs = (n + kNormalizeRun - 1) / kNormalizeRun;
    normalize_points_kernel<<<elementwise_grid(runs), kElementwiseBlock, 0, stream>>>(scratch, n,
                                                                                     out);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_fixed_base_g1(const DeviceFixedBaseTable<DeviceG1Affine>& table,
                                 const uint64_t* scalars, size_t n, DeviceG1Xyzz* scratch,
                                 DeviceG1Affine* out, cudaStream_t stream) {
    return launch(table, scalars, n, scratch, out, stream);
}

cudaError_t launch_fixed_base_g2(const DeviceFixedBaseTable<DeviceG2Affine>& table,
                                 const uint64_t* scalars, size_t n, DeviceG2Xyzz* scratch,
                                 DeviceG2Affine* out, cudaStream_t stream) {
    return launch(table, scalars, n, scratch, out, stream);
}

}  // namespace cuzk::gpu::detail
