// The grid windows step's sums at a stride (msm_grid_launch.hpp, launch_msm_strided_sums; the plan
// is in msm.cpp). A thread keeps one accumulator and streams its terms through add_in_place
// (msm_point_ops.cuh), which reads each term's coordinates where it uses them — two points'
// worth of registers at most, against three for the running-sum kernel (msm_kernels.cu).
#include "gpu/device_curve.cuh"
#include "gpu/msm_grid_launch.hpp"
#include "gpu/msm_point_ops.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 64;

template <class C>
__device__ __forceinline__ void strided_sum(const StridedSums<C>& job, uint32_t o) {
    const ec::Xyzz<C>* terms = job.in + size_t{o / job.group} * job.group_stride + o % job.group;
    ec::Xyzz<C> acc = terms[0];
    for (uint32_t k = 1; k < job.count; ++k) add_in_place(acc, terms[size_t{k} * job.stride]);
    job.out[o] = acc;
}

template <class C>
__device__ __forceinline__ void strided_sums(const StridedSums<C>& a, const StridedSums<C>& b) {
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < a.outputs) {
        strided_sum(a, t);
    } else if (t - a.outputs < b.outputs) {
        strided_sum(b, t - a.outputs);
    }
}
template <class C>
__global__ void strided_sums_kernel(StridedSums<C> a, StridedSums<C> b) {
    strided_sums(a, b);
}
// The same with the registers bounded for kMinBlocks resident blocks per SM (G2's unbounded
// kernel takes 255 registers: 4 blocks of 64 threads).
template <class C, unsigned kMinBlocks>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    strided_sums_kernel_bounded(StridedSums<C> a, StridedSums<C> b) {
    strided_sums(a, b);
}

}  // namespace

template <class C>
cudaError_t launch_msm_strided_sums(const StridedSums<C>& a, const StridedSums<C>& b,
                                    unsigned min_blocks, cudaStream_t stream) {
    if (min_blocks != 0 && min_blocks != 6 && min_blocks != 8) return cudaErrorInvalidValue;
    for (const StridedSums<C>* job : {&a, &b})
        if (job->outputs > 0 &&
            (job->in == nullptr || job->out == nullptr || job->group == 0 || job->count == 0))
            return cudaErrorInvalidValue;
    const size_t threads = size_t{a.outputs} + b.outputs;
    if (threads == 0) return cudaSuccess;
    if (threads > UINT32_MAX) return cudaErrorInvalidValue;
    const auto grid = static_cast<unsigned>((threads + kBlock - 1) / kBlock);
    if (min_blocks == 6) {
        strided_sums_kernel_bounded<C, 6><<<grid, kBlock, 0, stream>>>(a, b);
    } else if (min_blocks == 8) {
        strided_sums_kernel_bounded<C, 8><<<grid, kBlock, 0, stream>>>(a, b);
    } else {
        strided_sums_kernel<C><<<grid, kBlock, 0, stream>>>(a, b);
    }
    return cudaGetLastError();
}

#define CUZK_STRIDED_SUMS(C)                                                                      \
    template cudaError_t launch_msm_strided_sums<C>(const StridedSums<C>&, const StridedSums<C>&, \
                                                    unsigned, cudaStream_t);
CUZK_STRIDED_SUMS(DeviceG1Curve)
CUZK_STRIDED_SUMS(DeviceG1SquareCurve)
CUZK_STRIDED_SUMS(DeviceG2Curve)
CUZK_STRIDED_SUMS(DeviceG2LazyCurve)
#undef CUZK_STRIDED_SUMS

}  // namespace cuzk::gpu::detail
