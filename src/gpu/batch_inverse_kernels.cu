// Batch inversion kernels (see batch_inverse_launch.hpp): the up and down passes of one level of
// Montgomery's trick over strided groups (gpu/batch_inverse.cuh), and the per-thread Fermat
// inversion of the last level.
#include "gpu/batch_inverse.cuh"
#include "gpu/batch_inverse_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 128;

unsigned blocks_for(size_t threads) { return static_cast<unsigned>((threads + kBlock - 1) / kBlock); }

template <class F>
__global__ void level_up_kernel(const F* in, size_t m, size_t groups, F* prefix, F* products) {
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= groups) return;
    products[t] = prefix_products_up<F>(t, groups, m, prefix, [&](size_t i) { return in[i]; });
}

// prefix_and_out holds up's prefixes on entry and the inverses on exit: index i is overwritten
// only after the walk has read prefix[i] (for index i + groups).
template <class F>
__global__ void level_down_kernel(const F* in, size_t m, size_t groups, F* prefix_and_out,
                                  const F* product_inverses) {
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= groups) return;
    prefix_products_down<F>(t, groups, m, prefix_and_out, product_inverses[t],
                            [&](size_t i, const F& inverse_i) {
                                const F e = in[i];
                                prefix_and_out[i] = inverse_i;
                                return e;
                            });
}

template <class F>
__global__ void invert_each_kernel(const F* in, size_t m, F* out) {
    const size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i < m) out[i] = in[i].inverse();
}

template <class F>
cudaError_t batch_inverse(const F* in, F* out, size_t m, F* scratch, cudaStream_t stream) {
    if (m == 0) return cudaSuccess;
    if (m <= kBatchInverseTop) {
        invert_each_kernel<F><<<blocks_for(m), kBlock, 0, stream>>>(in, m, out);
        return cudaGetLastError();
    }
    const size_t groups = (m + kBatchInverseGroup - 1) / kBatchInverseGroup;
    F* products = scratch;
    F* product_inverses = scratch + groups;
    const unsigned grid = blocks_for(groups);
    level_up_kernel<F><<<grid, kBlock, 0, stream>>>(in, m, groups, out, products);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    err = batch_inverse(products, product_inverses, groups, scratch + 2 * groups, stream);
    if (err != cudaSuccess) return err;
    level_down_kernel<F><<<grid, kBlock, 0, stream>>>(in, m, groups, out, product_inverses);
    return cudaGetLastError();
}

}  // namespace

template <class F>
cudaError_t launch_batch_inverse(const F* in, F* out, size_t m, F* scratch, cudaStream_t stream) {
    return batch_inverse(in, out, m, scratch, stream);
}
template cudaError_t launch_batch_inverse(const DeviceFp*, DeviceFp*, size_t, DeviceFp*,
                                          cudaStream_t);
template cudaError_t launch_batch_inverse(const DeviceFpSquare*, DeviceFpSquare*, size_t,
                                          DeviceFpSquare*, cudaStream_t);
template cudaError_t launch_batch_inverse(const DeviceFp2*, DeviceFp2*, size_t, DeviceFp2*,
                                          cudaStream_t);
template cudaError_t launch_batch_inverse(const DeviceFp2Lazy*, DeviceFp2Lazy*, size_t,
                                          DeviceFp2Lazy*, cudaStream_t);

}  // namespace cuzk::gpu::detail
