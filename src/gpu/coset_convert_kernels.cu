// The coset-Lagrange conversion's kernels that do not depend on the multiplication's form, and
// the launches of coset_convert_launch.hpp (the form-dependent ones through form_launches; the
// kernels of each form are in coset_mul_<form>.cu, coset_mul_kernels.cuh).
#include "gpu/coset_mul_kernels.cuh"
#include "gpu/point_normalize.cuh"

namespace cuzk::gpu::detail {

namespace {

__global__ void fill_identity_kernel(Jac* out, size_t n) {
    CUZK_COSET_GRID_STRIDE(i, n) out[i] = Jac::identity();
}

__global__ void bit_reverse_kernel(Jac* v, unsigned log_m) {
    const size_t m = size_t{1} << log_m;
    CUZK_COSET_GRID_STRIDE(i, m) {
        const size_t r = static_cast<size_t>(__brevll(i) >> (64 - log_m));
        if (i < r) {
            const Jac t = v[i];
            v[i] = v[r];
            v[r] = t;
        }
    }
}

__global__ void scatter_kernel(const uint64_t* pairs, size_t n, const Jac* in, Jac* out) {
    CUZK_COSET_GRID_STRIDE(k, n) out[pairs[2 * k + 1]] = in[pairs[2 * k]];
}

__global__ void affine_minus_kernel(const DeviceG1Affine* l, Jac* s, size_t n) {
    CUZK_COSET_GRID_STRIDE(i, n) s[i] = Jac::from_affine(l[i]) - s[i];
}

}  // namespace

const FormLaunches& form_launches(MulWindow form) {
    switch (form) {
        case MulWindow::kUnsigned4:
            return form_launches_u4();
        case MulWindow::kSigned3:
            return form_launches_s3();
        case MulWindow::kSigned4:
            return form_launches_s4();
        case MulWindow::kUnsigned4TwoBlocks:
            return form_launches_u4x2();
        case MulWindow::kSigned4TwoBlocks:
            return form_launches_s4x2();
    }
    return form_launches_u4();
}

cudaError_t launch_scale_points(MulWindow form, const DeviceG1Affine* in,
                                const DeviceSigmaSplit* k, size_t n, const DeviceFp& beta,
                                DeviceG1Jacobian* out, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    return form_launches(form).scale_points(in, k, n, beta, out, stream);
}

cudaError_t launch_fill_identity(DeviceG1Jacobian* out, size_t n, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    fill_identity_kernel<<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(out, n);
    return cudaGetLastError();
}

cudaError_t launch_bit_reverse(DeviceG1Jacobian* v, unsigned log_m, cudaStream_t stream) {
    if (log_m == 0 || log_m > 40) return cudaErrorInvalidValue;
    bit_reverse_kernel<<<elementwise_grid(size_t{1} << log_m), kElementwiseBlock, 0, stream>>>(
        v, log_m);
    return cudaGetLastError();
}

cudaError_t launch_dit_stage(MulWindow form, DeviceG1Jacobian* v, unsigned log_m, unsigned s,
                             const DeviceSigmaSplit* twiddles, const DeviceFp& beta,
                             cudaStream_t stream) {
    if (log_m == 0 || log_m > 40 || s >= log_m) return cudaErrorInvalidValue;
    return form_launches(form).dit_stage(v, log_m, s, twiddles, beta, stream);
}

cudaError_t launch_entry_chunk_sums(MulWindow form, const uint64_t* bounds, size_t chunks,
                                    const uint32_t* rows, const uint32_t* coeff,
                                    const DeviceCoefficient* coefficients,
                                    const DeviceG1Jacobian* r, const DeviceFp& beta,
                                    DeviceG1Jacobian* out, cudaStream_t stream) {
    if (chunks == 0) return cudaSuccess;
    return form_launches(form).entry_chunk_sums(bounds, chunks, rows, coeff, coefficients, r,
                                                beta, out, stream);
}

cudaError_t launch_point_chunk_sums(const uint64_t* bounds, size_t chunks,
                                    const DeviceG1Jacobian* points, DeviceG1Jacobian* out,
                                    cudaStream_t stream) {
    if (chunks == 0) return cudaSuccess;
    chunk_sums_kernel<<<elementwise_grid(chunks), kElementwiseBlock, 0, stream>>>(
        bounds, chunks, PointItems{points}, out);
    return cudaGetLastError();
}

cudaError_t launch_scatter_points(const uint64_t* pairs, size_t n, const DeviceG1Jacobian* in,
                                  DeviceG1Jacobian* out, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    scatter_kernel<<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(pairs, n, in, out);
    return cudaGetLastError();
}

cudaError_t launch_affine_minus(const DeviceG1Affine* l, DeviceG1Jacobian* s, size_t n,
                                cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    affine_minus_kernel<<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(l, s, n);
    return cudaGetLastError();
}

cudaError_t launch_normalize_g1(const DeviceG1Jacobian* in, size_t n, DeviceG1Affine* out,
                                cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    const size_t runs = (n + kNormalizeRun - 1) / kNormalizeRun;
    normalize_points_kernel<<<elementwise_grid(runs), kElementwiseBlock, 0, stream>>>(in, n, out);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
