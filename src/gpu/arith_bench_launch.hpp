// Internal to src/gpu: the launchers of arith_bench_kernels.cu (see arith_bench.hpp). Device
// pointers in the host layouts (ff::Fp, ff::Fr: 6 / 4 limbs; ec::G1Affine; ec::G1Xyzz), legacy
// default stream; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

// The products: the default (mont_mul_ptx), the first PTX one (mont_mul_ptx_split), one level
// of Karatsuba before the reduction (DeviceField::mul_ptx_karatsuba), and for Fr only the
// sparse reduction (DeviceField::mul_ptx_sparse) and the sparse reduction with the modulus read
// from constant memory instead of immediates, the FP64 product (DeviceField::mul_fp64), and the
// hybrid: each chain step's first product sparse on the FMA pipe, its second on the FP64 pipe;
// for Fp only, the dedicated squaring (DeviceField::square_ptx), whose chains square: a ← a²,
// b ← b². A product the field lacks: cudaErrorInvalidValue.
enum class FieldProduct {
    kPaired,
    kSplit,
    kSparse,
    kSparseConstantModulus,
    kKaratsuba,
    kFp64,
    kHybridFp64,
    kSquare
};
// a[i], b[i] ← after `iterations` steps of (a ← a·b, b ← b·a) (kSquare: a ← a², b ← b²), for
// i < n.
cudaError_t launch_fp_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 FieldProduct product);
cudaError_t launch_fr_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations,
                                 FieldProduct product);
// The same chains over Fp2 (ff::Fp2 layout, 12 limbs per element): the lazily reduced product
// (DeviceFp2Lazy) or the Karatsuba one (DeviceFp2).
cudaError_t launch_fp2_mul_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool lazy);
// a[i], b[i] ← after `iterations` steps of (a ← a + b, b ← a − b), PTX or 64-bit limb code.
cudaError_t launch_fp_addsub_chains(uint64_t* a, uint64_t* b, size_t n, int iterations, bool ptx);
// acc[i] ← acc[i] + q[i] repeated `iterations` times (mixed XYZZ addition, in place).
cudaError_t launch_g1_madd_chains(void* acc, const void* q, size_t n, int iterations);

}  // namespace cuzk::gpu::detail
