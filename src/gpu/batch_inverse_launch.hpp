// Internal to src/gpu: inverses of many field elements on the device (batch_inverse_kernels.cu),
// by Montgomery's trick in levels (gpu/batch_inverse.cuh): each level multiplies groups of
// kBatchInverseGroup elements, the groups' products form the next level, and once at most
// kBatchInverseTop remain each is inverted by its own thread (Fermat, DeviceField::inverse).
// Cost: about 3 products per element plus 3/kBatchInverseGroup per element of each further level,
// and one Fermat inversion's latency (~570 dependent products for Fp). Device pointers, enqueued
// on `stream`; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu/device_curve.cuh"

namespace cuzk::gpu::detail {

inline constexpr size_t kBatchInverseGroup = 32;
inline constexpr size_t kBatchInverseTop = 1024;

// Elements of scratch that launch_batch_inverse needs for m inputs: each level's group products
// and their inverses.
constexpr size_t batch_inverse_scratch_elements(size_t m) {
    size_t total = 0;
    while (m > kBatchInverseTop) {
        m = (m + kBatchInverseGroup - 1) / kBatchInverseGroup;
        total += 2 * m;
    }
    return total;
}

// out[i] = in[i]⁻¹ for i < m; every in[i] must be non-zero. out must not alias in; scratch holds
// batch_inverse_scratch_elements(m) elements. F: DeviceFp, DeviceFpSquare, DeviceFp2 or
// DeviceFp2Lazy (instantiated in batch_inverse_kernels.cu).
template <class F>
cudaError_t launch_batch_inverse(const F* in, F* out, size_t m, F* scratch, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
