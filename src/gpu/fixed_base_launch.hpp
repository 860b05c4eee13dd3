// Internal to src/gpu: the fixed-base multiplication kernels (fixed_base_kernels.cu) that
// resident_setup.cpp calls. Device pointers, enqueued on `stream`; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpu/device_curve.cuh"

namespace cuzk::gpu::detail {

// The table of ec::FixedBaseTable (ec/fixed_base.hpp) on the device: windows × row affine
// points, row = 2^window − 1, entry [k·row + d − 1] = d·2^(window·k)·G.
template <class Aff>
struct DeviceFixedBaseTable {
    const Aff* points = nullptr;
    unsigned window = 0;
    unsigned windows = 0;
    size_t row = 0;
};

// out[i] = scalars[i]·G in affine for i < n; scalars are canonical 256-bit integers (4 limbs,
// little-endian), each < 2^(window·windows). scratch holds n XYZZ points. Two kernels: the
// table lookups and mixed additions, then the normalization (Montgomery's batch inversion over
// runs of consecutive points, one Fermat inversion per run).
cudaError_t launch_fixed_base_g1(const DeviceFixedBaseTable<DeviceG1Affine>& table,
                                 const uint64_t* scalars, size_t n, DeviceG1Xyzz* scratch,
                                 DeviceG1Affine* out, cudaStream_t stream);
cudaError_t launch_fixed_base_g2(const DeviceFixedBaseTable<DeviceG2Affine>& table,
                                 const uint64_t* scalars, size_t n, DeviceG2Xyzz* scratch,
                                 DeviceG2Affine* out, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
