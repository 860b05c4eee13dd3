// Internal to src/gpu: the kernel launchers that the .cu files define and the host code in
// ff_kernels.cpp calls. They take device pointers, enqueue on `stream`, and return the launch's
// error (cudaGetLastError after <<<>>>); execution errors surface at the next synchronisation.
// Kept free of util/status.hpp and other heavy headers so the .cu files stay small.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu/device_curve.cuh"
#include "gpu/device_field.cuh"

namespace cuzk::gpu::detail {

// kMulSparse: the product with the sparse reduction (DeviceField::mul_ptx_sparse; Fr only —
// other fields refuse it with cudaErrorInvalidValue); kMulKaratsuba: the product with one level
// of Karatsuba (DeviceField::mul_ptx_karatsuba; Fp and Fr); kSquare: a[i]² by the dedicated
// squaring (DeviceField::square_ptx; Fp only), b ignored.
enum class BinaryOp { kMul, kAdd, kSub, kMulSparse, kMulKaratsuba, kMulFp64, kSquare };

// out[i] = a[i] op b[i] for i < n. out may alias a or b.
cudaError_t launch_elementwise(BinaryOp op, const DeviceFp* a, const DeviceFp* b, DeviceFp* out,
                               size_t n, cudaStream_t stream);
cudaError_t launch_elementwise(BinaryOp op, const DeviceFr* a, const DeviceFr* b, DeviceFr* out,
                               size_t n, cudaStream_t stream);
// Fp2 with the Karatsuba product (DeviceFp2) or the lazily reduced one (DeviceFp2Lazy).
cudaError_t launch_elementwise(BinaryOp op, const DeviceFp2* a, const DeviceFp2* b,
                               DeviceFp2* out, size_t n, cudaStream_t stream);
cudaError_t launch_elementwise(BinaryOp op, const DeviceFp2Lazy* a,
                               const DeviceFp2Lazy* b, DeviceFp2Lazy* out, size_t n,
                               cudaStream_t stream);

// out[i] = p[i].add_mixed(q[i]) for i < n (ec::Xyzz::add_mixed, madd-2008-s). out may alias p.
cudaError_t launch_g1_add_mixed(const DeviceG1Xyzz* p, const DeviceG1Affine* q, DeviceG1Xyzz* out,
                                size_t n, cudaStream_t stream);

// Launch shape of the elementwise kernels: fixed blocks, a grid-stride loop past kMaxBlocks.
inline constexpr unsigned kElementwiseBlock = 256;
inline constexpr size_t kMaxBlocks = size_t{1} << 16;
inline unsigned elementwise_grid(size_t n) {
    const size_t blocks = (n + kElementwiseBlock - 1) / kElementwiseBlock;
    return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

}  // namespace cuzk::gpu::detail
