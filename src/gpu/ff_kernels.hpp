// Elementwise field and G1 kernels on the GPU, callable from host C++ (no CUDA types here).
//
// Each call copies its host inputs to the current CUDA device, runs one kernel, and copies the
// result back (synchronous; default stream). These are the first real kernels of the CUDA
// backend and the device-vs-host cross-checks of the shared field and point code; they are not
// meant to be fast. Thread-safe: every call owns its device buffers.
//
// Errors: kInvalidArgument when the spans' sizes differ; kUnavailable when there is no usable
// device; kResourceExhausted when device memory runs out; kInternal for any other CUDA error.
// Empty inputs succeed without touching the device.
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

// out[i] = a[i] · b[i]
util::Status elementwise_mul(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out);
util::Status elementwise_mul(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out);
// out[i] = a[i] · b[i] by the Fr product with the sparse Montgomery reduction
// (DeviceField::mul_ptx_sparse, NttOptions::sparse_reduction): the same values as the above.
util::Status elementwise_mul_sparse(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                    std::span<ff::Fr> out);
// out[i] = a[i] · b[i] by the Fr product on the FP64 pipe (DeviceField::mul_fp64,
// gpu/mont_fp64.cuh): the same values.
util::Status elementwise_mul_fp64(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                  std::span<ff::Fr> out);
// out[i] = a[i] · b[i] by the product with one level of Karatsuba before the reduction
// (DeviceField::mul_ptx_karatsuba; Fr's with the sparse reduction): the same values.
util::Status elementwise_mul_karatsuba(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                                       std::span<ff::Fp> out);
util::Status elementwise_mul_karatsuba(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                       std::span<ff::Fr> out);
// out[i] = a[i]² by the dedicated squaring (DeviceField::square_ptx, gpu/mont_ptx.cuh: the
// cross products once): the values of a[i] · a[i].
util::Status elementwise_square(std::span<const ff::Fp> a, std::span<ff::Fp> out);
// out[i] = a[i] · b[i] in Fp2 with the device's Karatsuba product of three Montgomery products
// (the default) or the lazily reduced one (lazy_product; gpu/device_curve.cuh).
util::Status elementwise_mul(std::span<const ff::Fp2> a, std::span<const ff::Fp2> b,
                             std::span<ff::Fp2> out, bool lazy_product = false);
// out[i] = a[i] + b[i]
util::Status elementwise_add(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out);
util::Status elementwise_add(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out);
// out[i] = a[i] − b[i]
util::Status elementwise_sub(std::span<const ff::Fp> a, std::span<const ff::Fp> b,
                             std::span<ff::Fp> out);
util::Status elementwise_sub(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                             std::span<ff::Fr> out);

// out[i] = p[i].add_mixed(q[i]) (ec::Xyzz::add_mixed), bit-for-bit the host's result.
util::Status g1_add_mixed(std::span<const ec::G1Xyzz> p, std::span<const ec::G1Affine> q,
                          std::span<ec::G1Xyzz> out);

// out[i] = in[i]⁻¹ by the levelled Montgomery batch inversion of the batch-affine MSM
// (batch_inverse_launch.hpp). Every in[i] must be non-zero (kInvalidArgument otherwise, checked
// on the host).
util::Status batch_inverse(std::span<const ff::Fp> in, std::span<ff::Fp> out);
util::Status batch_inverse(std::span<const ff::Fp2> in, std::span<ff::Fp2> out);

}  // namespace cuzk::gpu
