// Internal to src/gpu: the kernels of the coset-Lagrange conversion (coset_convert_kernels.cu,
// coset_mul_<form>.cu) that coset_convert.cpp calls. Device pointers, enqueued on `stream`; each
// returns the launch error. Points in work buffers are G1 Jacobian (ec/point.hpp; identity ⇔ Z = 0).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpu/coset_mul_window.hpp"
#include "gpu/device_curve.cuh"

namespace cuzk::gpu::detail {

// A scalar k (mod r) as ec::SigmaSplit: k = k1 + k2·x² as integers, k1, k2 < 2^128 (64-bit limbs,
// little-endian). The kernels multiply by it as k1·P + k2·[x²]P with [x²]P = −σ(P) = (β·X, −Y, Z).
struct DeviceSigmaSplit {
    uint64_t k1[2];
    uint64_t k2[2];
};

// A coefficient of C as the column sums use it.
enum class CoefficientKind : uint32_t { kOne = 0, kMinusOne = 1, kGeneral = 2, kZero = 3 };
struct DeviceCoefficient {
    DeviceSigmaSplit split;  // kGeneral only
    CoefficientKind kind;
    uint32_t unused;
};

// The launches that depend on the multiplication's form, one table per form, each made in a
// translation unit of its own (coset_mul_<form>.cu through coset_mul_kernels.cuh's
// make_form_launches); the launch_* functions below call them (arguments as theirs, checked
// there).
struct FormLaunches {
    cudaError_t (*scale_points)(const DeviceG1Affine* in, const DeviceSigmaSplit* k, size_t n,
                                const DeviceFp& beta, DeviceG1Jacobian* out, cudaStream_t stream);
    cudaError_t (*dit_stage)(DeviceG1Jacobian* v, unsigned log_m, unsigned s,
                             const DeviceSigmaSplit* twiddles, const DeviceFp& beta,
                             cudaStream_t stream);
    cudaError_t (*entry_chunk_sums)(const uint64_t* bounds, size_t chunks, const uint32_t* rows,
                                    const uint32_t* coeff, const DeviceCoefficient* coefficients,
                                    const DeviceG1Jacobian* r, const DeviceFp& beta,
                                    DeviceG1Jacobian* out, cudaStream_t stream);
};
const FormLaunches& form_launches(MulWindow form);
const FormLaunches& form_launches_u4();
const FormLaunches& form_launches_s3();
const FormLaunches& form_launches_s4();
const FormLaunches& form_launches_u4x2();
const FormLaunches& form_launches_s4x2();

// out[i] = k[i]·in[i] (in affine, identity allowed) for i < n, with `form`'s windows
// (coset_mul_window.hpp). beta: σ's β (ec::sigma_beta).
cudaError_t launch_scale_points(MulWindow form, const DeviceG1Affine* in,
                                const DeviceSigmaSplit* k, size_t n, const DeviceFp& beta,
                                DeviceG1Jacobian* out, cudaStream_t stream);
// out[i] = the identity for i < n.
cudaError_t launch_fill_identity(DeviceG1Jacobian* out, size_t n, cudaStream_t stream);

// The transform v (2^log_m points, log_m ≥ 1) ← Σ_j w^(jk)·v_j is the bit reversal, then the
// radix-2 decimation-in-time stages s = 0 … log_m − 1 in order; twiddles[i] = w^i for
// i < 2^(log_m − 1) (stage s, of butterfly span 2^s, uses twiddles[j·2^(log_m−1−s)]).
cudaError_t launch_bit_reverse(DeviceG1Jacobian* v, unsigned log_m, cudaStream_t stream);
cudaError_t launch_dit_stage(MulWindow form, DeviceG1Jacobian* v, unsigned log_m, unsigned s,
                             const DeviceSigmaSplit* twiddles, const DeviceFp& beta,
                             cudaStream_t stream);

// Chunk sums. bounds[2k], bounds[2k + 1]: chunk k's half-open item range.
//   entries: item e is coefficients[coeff[e]]·r[rows[e]] (C's entries by column);
//   points:  item e is points[e].
// out[k] = Σ of chunk k's items (the identity for an empty chunk), k < chunks.
cudaError_t launch_entry_chunk_sums(MulWindow form, const uint64_t* bounds, size_t chunks,
                                    const uint32_t* rows, const uint32_t* coeff,
                                    const DeviceCoefficient* coefficients,
                                    const DeviceG1Jacobian* r, const DeviceFp& beta,
                                    DeviceG1Jacobian* out, cudaStream_t stream);
cudaError_t launch_point_chunk_sums(const uint64_t* bounds, size_t chunks,
                                    const DeviceG1Jacobian* points, DeviceG1Jacobian* out,
                                    cudaStream_t stream);
// out[pairs[2k + 1]] = in[pairs[2k]] for k < n.
cudaError_t launch_scatter_points(const uint64_t* pairs, size_t n, const DeviceG1Jacobian* in,
                                  DeviceG1Jacobian* out, cudaStream_t stream);
// s[i] = l[i] − s[i] (l affine) for i < n.
cudaError_t launch_affine_minus(const DeviceG1Affine* l, DeviceG1Jacobian* s, size_t n,
                                cudaStream_t stream);
// out[i] = in[i] in affine (point_normalize.cuh), i < n; out must not alias in.
cudaError_t launch_normalize_g1(const DeviceG1Jacobian* in, size_t n, DeviceG1Affine* out,
                                cudaStream_t stream);

}  // namespace cuzk::gpu::detail
