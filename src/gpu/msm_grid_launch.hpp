// Launcher of the grid windows step's strided sums (msm_grid_kernels.cu; the plan is GridPlan in
// msm.cpp). Kept apart from msm_launch.hpp so that the large MSM kernel files do not depend on it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "ec/point.hpp"

namespace cuzk::gpu::detail {

// Sums of points at a stride, for the grid windows step (msm_grid_kernels.cu): output o of a
// job (o < outputs) is Σ_{k < count} in[(o / group)·group_stride + o % group + k·stride]. Two
// jobs run in one launch (job b's threads after job a's; b.outputs may be 0), so that the rows
// and the columns of the bucket grid share one grid of threads. min_blocks: 0 (registers
// unbounded), or 6 or 8 resident blocks of 64 threads per SM (registers bounded to match).
template <class C>
struct StridedSums {
    const ec::Xyzz<C>* in = nullptr;
    ec::Xyzz<C>* out = nullptr;
    uint32_t outputs = 0, group = 1, stride = 1, count = 1;
    size_t group_stride = 0;
};
template <class C>
cudaError_t launch_msm_strided_sums(const StridedSums<C>& a, const StridedSums<C>& b,
                                    unsigned min_blocks, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
