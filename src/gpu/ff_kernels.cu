// Elementwise field kernels over Fp, Fr (DeviceField) and Fp2 (both products): a·b, a + b, a − b,
// and Fp's dedicated squaring.
#include "gpu/kernel_launch.hpp"

#include <type_traits>

namespace cuzk::gpu::detail {

namespace {

struct MulOp {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return a * b; }
};
struct MulSparseOp {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return F::mul_ptx_sparse(a, b); }
};
struct MulKaratsubaOp {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return F::mul_ptx_karatsuba(a, b); }
};
struct MulFp64Op {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return F::mul_fp64(a, b); }
};
struct SquareOp {
    template <class F>
    static __device__ F apply(const F& a, const F&) { return F::square_ptx(a); }
};
struct AddOp {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return a + b; }
};
struct SubOp {
    template <class F>
    static __device__ F apply(const F& a, const F& b) { return a - b; }
};

template <class F, class Op>
__global__ void elementwise_kernel(const F* a, const F* b, F* out, size_t n) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        const F x = a[i];
        const F y = b[i];
        out[i] = Op::apply(x, y);
    }
}

template <class F>
cudaError_t launch(BinaryOp op, const F* a, const F* b, F* out, size_t n, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    const unsigned grid = elementwise_grid(n);
    switch (op) {
        case BinaryOp::kMul:
            elementwise_kernel<F, MulOp><<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
            break;
        case BinaryOp::kAdd:
            elementwise_kernel<F, AddOp><<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
            break;
        case BinaryOp::kSub:
            elementwise_kernel<F, SubOp><<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
            break;
        case BinaryOp::kMulSparse:
            if constexpr (requires { F::kSparseModulus; }) {
                if constexpr (F::kSparseModulus) {
                    elementwise_kernel<F, MulSparseOp>
                        <<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
                    break;
                }
            }
            return cudaErrorInvalidValue;
        case BinaryOp::kMulFp64:
            if constexpr (std::is_same_v<F, DeviceFr>) {
                elementwise_kernel<F, MulFp64Op>
                    <<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
                break;
            }
            return cudaErrorInvalidValue;
        case BinaryOp::kSquare:
            if constexpr (std::is_same_v<F, DeviceFp>) {
                elementwise_kernel<F, SquareOp>
                    <<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
                break;
            }
            return cudaErrorInvalidValue;
        case BinaryOp::kMulKaratsuba:
            if constexpr (requires(const F& x) { F::mul_ptx_karatsuba(x, x); }) {
                elementwise_kernel<F, MulKaratsubaOp>
                    <<<grid, kElementwiseBlock, 0, stream>>>(a, b, out, n);
                break;
            }
            return cudaErrorInvalidValue;
        default:
            return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_elementwise(BinaryOp op, const DeviceFp* a, const DeviceFp* b, DeviceFp* out,
                               size_t n, cudaStream_t stream) {
    return launch(op, a, b, out, n, stream);
}

cudaError_t launch_elementwise(BinaryOp op, const DeviceFr* a, const DeviceFr* b, DeviceFr* out,
                               size_t n, cudaStream_t stream) {
    return launch(op, a, b, out, n, stream);
}

cudaError_t launch_elementwise(BinaryOp op, const DeviceFp2* a, const DeviceFp2* b,
                               DeviceFp2* out, size_t n, cudaStream_t stream) {
    return launch(op, a, b, out, n, stream);
}

cudaError_t launch_elementwise(BinaryOp op, const DeviceFp2Lazy* a,
                               const DeviceFp2Lazy* b, DeviceFp2Lazy* out, size_t n,
                               cudaStream_t stream) {
    return launch(op, a, b, out, n, stream);
}

}  // namespace cuzk::gpu::detail
