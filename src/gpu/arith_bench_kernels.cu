// Arithmetic throughput kernels for `cuzk bench gpu-arith` (arith_bench.hpp).
#include "gpu/arith_bench_launch.hpp"

#include <type_traits>

#include "gpu/device_curve.cuh"
#include "gpu/msm_point_ops.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

// Fr's modulus in constant memory, which ptxas cannot fold into immediates (set by the launcher
// from the host's limbs before the sparse-reduction variant with it runs).
__constant__ uint64_t kFrModulusInConstantMemory[DeviceFr::kLimbs];

// The product: 0 the default, 1 the first PTX product (DeviceField::mul_ptx_split), 2 the
// sparse reduction (DeviceField::mul_ptx_sparse), 3 the sparse reduction with the modulus read
// from constant memory (Fr only): its words become register or constant-bank operands, so that
// ptxas may emit one wide multiply-add per word pair where immediates give a low and a high one;
// 4 one level of Karatsuba before the reduction (DeviceField::mul_ptx_karatsuba); 5 the FP64
// product (DeviceField::mul_fp64, Fr only); 6 (Fr only) the sparse reduction here, and the
// chains' second product on the FP64 pipe (see mul_chains_kernel); 7 (Fp only) the dedicated
// squaring of x (DeviceField::square_ptx; y unused), so that each chain squares its own value.
template <class F, int kVariant>
__device__ __forceinline__ F bench_mul(const F& x, const F& y) {
    if constexpr (kVariant == 7) {
        return F::square_ptx(x);
    } else if constexpr (kVariant == 5) {
        return F::mul_fp64(x, y);
    } else if constexpr (kVariant == 2 || kVariant == 6) {
        return F::mul_ptx_sparse(x, y);
    } else if constexpr (kVariant == 1) {
        return F::mul_ptx_split(x, y);
    } else if constexpr (kVariant == 3) {
        F r;
        mont_mul_ptx<F::kLimbs, true>(r.limb, x.limb, y.limb, kFrModulusInConstantMemory,
                                      static_cast<uint32_t>(kInv<ff::FrParams>));
        return r;
    } else if constexpr (kVariant == 4) {
        return F::mul_ptx_karatsuba(x, y);
    } else {
        return x * y;
    }
}

template <class F, int kVariant>
__global__ void mul_chains_kernel(F* a, F* b, size_t n, int iterations) {
    const size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i >= n) return;
    F x = a[i], y = b[i];
    constexpr int kSecond = kVariant == 6 ? 5 : kVariant;  // the hybrid's FP64 half
    for (int k = 0; k < iterations; ++k) {
        x = bench_mul<F, kVariant>(x, y);
        y = bench_mul<F, kSecond>(y, x);
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

// The products other than the default only for the fields that have them (not Fp2).
template <class F>
cudaError_t launch_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                              FieldProduct product) {
    auto kernel = mul_chains_kernel<F, 0>;
    constexpr bool kPrimeField = requires(const F& x) { F::mul_ptx_split(x, x); };
    if constexpr (kPrimeField) {
        if (product == FieldProduct::kSplit) kernel = mul_chains_kernel<F, 1>;
        if (product == FieldProduct::kKaratsuba) kernel = mul_chains_kernel<F, 4>;
    } else if (product != FieldProduct::kPaired) {
        return cudaErrorInvalidValue;
    }
    if constexpr (std::is_same_v<F, DeviceFp>) {
        if (product == FieldProduct::kSquare) kernel = mul_chains_kernel<F, 7>;
    } else if (product == FieldProduct::kSquare) {
        return cudaErrorInvalidValue;
    }
    if constexpr (std::is_same_v<F, DeviceFr>) {
        if (product == FieldProduct::kSparse) kernel = mul_chains_kernel<F, 2>;
        if (product == FieldProduct::kFp64) kernel = mul_chains_kernel<F, 5>;
        if (product == FieldProduct::kHybridFp64) kernel = mul_chains_kernel<F, 6>;
        if (product == FieldProduct::kSparseConstantModulus) {
            const auto& p = ff::FrParams::kMont.modulus;
            const cudaError_t e =
                cudaMemcpyToSymbol(kFrModulusInConstantMemory, p.limb, sizeof(p.limb));
            if (e != cudaSuccess) return e;
            kernel = mul_chains_kernel<F, 3>;
        }
    } else if (product == FieldProduct::kSparse ||
               product == FieldProduct::kSparseConstantModulus ||
               product == FieldProduct::kFp64 || product == FieldProduct::kHybridFp64) {
        return cudaErrorInvalidValue;
    }
    kernel<<<blocks(n), kBlock>>>(reinterpret_cast<F*>(a), reinterpret_cast<F*>(b), n,
                                  iterations);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_fp_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 FieldProduct product) {
    return launch_mul_chains<DeviceFp>(a, b, n, iterations, product);
}
cudaError_t launch_fr_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 FieldProduct product) {
    return launch_mul_chains<DeviceFr>(a, b, n, iterations, product);
}
cudaError_t launch_fp2_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool lazy) {
    return lazy ? launch_mul_chains<DeviceFp2Lazy>(a, b, n, iterations, FieldProduct::kPaired)
                : launch_mul_chains<DeviceFp2>(a, b, n, iterations, FieldProduct::kPaired);
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
