// Internal to src/gpu: the launchers of arith_bench_kernels.cu (see arith_bench.hpp). Device
// pointers in the host layouts (ff::Fp, ff::Fr: 6 / 4 limbs; ec::G1Affine; ec::G1Xyzz), legacy
// default stream; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

// a[i], b[i] ← after `iterations` steps of (a ← a·b, b ← b·a), for i < n; split: with the
// first PTX product (mont_mul_ptx_split), else the default (mont_mul_ptx).
cudaError_t launch_fp_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool split);
// The Fr products: the default, the first PTX one, the sparse reduction
// (DeviceField::mul_ptx_sparse), and the sparse reduction with the modulus read from constant
// memory instead of immediates.
enum class FrProduct { kPaired, kSplit, kSparse, kSparseConstantModulus };
cudaError_t launch_fr_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 FrProduct product);
// The same chains over Fp2 (ff::Fp2 layout, 12 limbs per element): the lazily reduced product
// (DeviceFp2Lazy) or the Karatsuba one (DeviceFp2).
cudaError_t launch_fp2_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool lazy);
// a[i], b[i] ← after `iterations` steps of (a ← a + b, b ← a − b), PTX or 64-bit limb code.
cudaError_t launch_fp_addsub_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool ptx);
// acc[i] ← acc[i] + q[i] repeated `iterations` times (mixed XYZZ addition, in place).
cudaError_t launch_g1_madd_chains(void* acc, const void* q, size_t n, int iterations);

}  // namespace cuzk::gpu::detail
