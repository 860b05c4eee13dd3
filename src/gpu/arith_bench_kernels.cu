// Arithmetic throughput kernels for `cuzk bench gpu-arith` (arith_bench.hpp).
#include "gpu/arith_bench_launch.hpp"
#include "gpu/device_curve.cuh"
#include "gpu/msm_point_ops.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

// kSplit: the first PTX product (DeviceField::mul_ptx_split), else the default one.
template <class F, bool kSplit>
__global__ void mul_chains_kernel(F* a, F* b, size_t n, int iterations) {
    const size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i >= n) return;
    F x = a[i], y = b[i];
    for (int k = 0; k < iterations; ++k) {
        if constexpr (kSplit) {
            x = F::mul_ptx_split(x, y);
            y = F::mul_ptx_split(y, x);
        } else {
            x = x * y;
            y = y * x;
        }
    }
    a[i] = x;
    b[i] = y;
}

// x ← x + y, y ← x − y (so y takes the old x: a Fibonacci-like chain that stays non-zero), with
// the PTX or the 64-bit limb sum and difference.
template <class F, bool kPtx>
__global__ void addsub_chains_kernel(F* a, F* b, size_t n, int iterations) {
    const size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i >= n) return;
    F x = a[i], y = b[i];
    for (int k = 0; k < iterations; ++k) {
        if constexpr (kPtx) {
            x = F::add_ptx(x, y);
            y = F::sub_ptx(x, y);
        } else {
            x = F::add_wide(x, y);
            y = F::sub_wide(x, y);
        }
    }
    a[i] = x;
    b[i] = y;
}

__global__ void g1_madd_chains_kernel(DeviceG1Xyzz* acc, const DeviceG1Affine* q, size_t n,
                                      int iterations) {
    const size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i >= n) return;
    DeviceG1Xyzz a = acc[i];
    const DeviceG1Affine p = q[i];
    for (int k = 0; k < iterations; ++k) add_mixed_in_place(a, p);
    acc[i] = a;
}

unsigned blocks(size_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

// split: the first PTX product, for the fields that have it (not Fp2).
template <class F>
cudaError_t launch_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool split) {
    auto kernel = mul_chains_kernel<F, false>;
    if constexpr (requires(const F& x) { F::mul_ptx_split(x, x); }) {
        if (split) kernel = mul_chains_kernel<F, true>;
    } else if (split) {
        return cudaErrorInvalidValue;
    }
    kernel<<<blocks(n), kBlock>>>(reinterpret_cast<F*>(a), reinterpret_cast<F*>(b), n,
                                  iterations);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_fp_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 bool split) {
    return launch_mul_chains<DeviceFp>(a, b, n, iterations, split);
}
cudaError_t launch_fr_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 bool split) {
    return launch_mul_chains<DeviceFr>(a, b, n, iterations, split);
}
cudaError_t launch_fp2_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool lazy) {
    return lazy ? launch_mul_chains<DeviceFp2Lazy>(a, b, n, iterations, false)
                : launch_mul_chains<DeviceFp2>(a, b, n, iterations, false);
}
cudaError_t launch_fp_addsub_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                   bool ptx) {
    auto kernel = ptx ? addsub_chains_kernel<DeviceFp, true> : addsub_chains_kernel<DeviceFp, false>;
    kernel<<<blocks(n), kBlock>>>(reinterpret_cast<DeviceFp*>(a), reinterpret_cast<DeviceFp*>(b),
                                  n, iterations);
    return cudaGetLastError();
}
cudaError_t launch_g1_madd_chains(void* acc, const void* q, size_t n, int iterations) {
    g1_madd_chains_kernel<<<blocks(n), kBlock>>>(static_cast<DeviceG1Xyzz*>(acc),
                                                 static_cast<const DeviceG1Affine*>(q), n,
                                                 iterations);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
