// Kernels of the coset-Lagrange conversion (see coset_convert_launch.hpp). The point formulas are
// ec/point.hpp's Jacobian ones ("dbl-2009-l", "add-2007-bl"), instantiated with the device field.
#include "gpu/coset_convert_launch.hpp"
#include "gpu/kernel_launch.hpp"
#include "gpu/point_normalize.cuh"

namespace cuzk::gpu::detail {

namespace {

using Jac = DeviceG1Jacobian;

// 4-bit windows: a table of d·P for d = 1 … 15 per thread (2,160 bytes of local memory).
constexpr unsigned kWindow = 4;
constexpr unsigned kTable = (1u << kWindow) - 1;
constexpr unsigned kWindows = 128 / kWindow;

__device__ unsigned window_of(const uint64_t (&k)[2], unsigned w) {
    return static_cast<unsigned>((k[w / 16] >> (kWindow * (w % 16))) & kTable);
}

// [x²]P = −σ(P): σ scales x = X/Z² by β, so (β·X, −Y, Z).
__device__ Jac times_x_squared(const Jac& p, const DeviceFp& beta) { return {p.X * beta, -p.Y, p.Z}; }

// k·P for k = k1 + k2·x²: k1·P + k2·[x²]P, both halves' windows from the top sharing the
// doublings (Straus–Shamir): 124 doublings, at most 64 additions, and 14 to make the table.
__device__ Jac mul_split(const Jac& p, const DeviceSigmaSplit& k, const DeviceFp& beta) {
    Jac table[kTable];
    table[0] = p;
    table[1] = p.dbl();
    for (unsigned i = 2; i < kTable; ++i) table[i] = table[i - 1] + p;
    Jac acc = Jac::identity();
    for (unsigned w = kWindows; w-- > 0;) {
        if (w + 1 != kWindows)
            for (unsigned d = 0; d < kWindow; ++d) acc = acc.dbl();
        const unsigned d1 = window_of(k.k1, w), d2 = window_of(k.k2, w);
        if (d1 != 0) acc = acc + table[d1 - 1];
        if (d2 != 0) acc = acc + times_x_squared(table[d2 - 1], beta);
    }
    return acc;
}

#define CUZK_GRID_STRIDE(i, n)                                                           \
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x, stride_ =             \
                                                                       size_t{gridDim.x} * \
                                                                       blockDim.x;        \
         i < (n); i += stride_)

__global__ void scale_kernel(const DeviceG1Affine* in, const DeviceSigmaSplit* k, size_t n,
                             DeviceFp beta, Jac* out) {
    CUZK_GRID_STRIDE(i, n) out[i] = mul_split(Jac::from_affine(in[i]), k[i], beta);
}

__global__ void fill_identity_kernel(Jac* out, size_t n) {
    CUZK_GRID_STRIDE(i, n) out[i] = Jac::identity();
}

__global__ void bit_reverse_kernel(Jac* v, unsigned log_m) {
    const size_t m = size_t{1} << log_m;
    CUZK_GRID_STRIDE(i, m) {
        const size_t r = static_cast<size_t>(__brevll(i) >> (64 - log_m));
        if (i < r) {
            const Jac t = v[i];
            v[i] = v[r];
            v[r] = t;
        }
    }
}

// Stage s: butterflies (i, i + 2^s) with i = block·2^(s+1) + j, j < 2^s; twiddle w^(j·m/2^(s+1)).
__global__ void dit_stage_kernel(Jac* v, unsigned log_m, unsigned s,
                                 const DeviceSigmaSplit* twiddles, DeviceFp beta) {
    const size_t half = size_t{1} << s;
    CUZK_GRID_STRIDE(t, size_t{1} << (log_m - 1)) {
        const size_t j = t & (half - 1);
        const size_t i = ((t >> s) << (s + 1)) + j;
        const Jac u = v[i];
        Jac x = v[i + half];
        if (j != 0) x = mul_split(x, twiddles[j << (log_m - 1 - s)], beta);
        v[i] = u + x;
        v[i + half] = u - x;
    }
}

struct EntryItems {
    const uint32_t* rows;
    const uint32_t* coeff;
    const DeviceCoefficient* coefficients;
    const Jac* r;
    DeviceFp beta;
    __device__ Jac add_to(const Jac& acc, uint64_t e) const {
        const DeviceCoefficient& c = coefficients[coeff[e]];
        const Jac p = r[rows[e]];
        switch (c.kind) {
            case CoefficientKind::kOne:
                return acc + p;
            case CoefficientKind::kMinusOne:
                return acc - p;
            case CoefficientKind::kGeneral:
                return acc + mul_split(p, c.split, beta);
            default:
                return acc;
        }
    }
};

struct PointItems {
    const Jac* points;
    __device__ Jac add_to(const Jac& acc, uint64_t e) const { return acc + points[e]; }
};

template <class Items>
__global__ void chunk_sums_kernel(const uint64_t* bounds, size_t chunks, Items items, Jac* out) {
    CUZK_GRID_STRIDE(k, chunks) {
        Jac acc = Jac::identity();
        for (uint64_t e = bounds[2 * k]; e < bounds[2 * k + 1]; ++e) acc = items.add_to(acc, e);
        out[k] = acc;
    }
}

__global__ void scatter_kernel(const uint64_t* pairs, size_t n, const Jac* in, Jac* out) {
    CUZK_GRID_STRIDE(k, n) out[pairs[2 * k + 1]] = in[pairs[2 * k]];
}

__global__ void affine_minus_kernel(const DeviceG1Affine* l, Jac* s, size_t n) {
    CUZK_GRID_STRIDE(i, n) s[i] = Jac::from_affine(l[i]) - s[i];
}

#undef CUZK_GRID_STRIDE

}  // namespace

cudaError_t launch_scale_points(const DeviceG1Affine* in, const DeviceSigmaSplit* k, size_t n,
                                const DeviceFp& beta, DeviceG1Jacobian* out, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    scale_kernel<<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(in, k, n, beta, out);
    return cudaGetLastError();
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

cudaError_t launch_dit_stage(DeviceG1Jacobian* v, unsigned log_m, unsigned s,
                             const DeviceSigmaSplit* twiddles, const DeviceFp& beta,
                             cudaStream_t stream) {
    if (log_m == 0 || log_m > 40 || s >= log_m) return cudaErrorInvalidValue;
    const size_t butterflies = size_t{1} << (log_m - 1);
    dit_stage_kernel<<<elementwise_grid(butterflies), kElementwiseBlock, 0, stream>>>(
        v, log_m, s, twiddles, beta);
    return cudaGetLastError();
}

cudaError_t launch_entry_chunk_sums(const uint64_t* bounds, size_t chunks, const uint32_t* rows,
                                    const uint32_t* coeff, const DeviceCoefficient* coefficients,
                                    const DeviceG1Jacobian* r, const DeviceFp& beta,
                                    DeviceG1Jacobian* out, cudaStream_t stream) {
    if (chunks == 0) return cudaSuccess;
    chunk_sums_kernel<<<elementwise_grid(chunks), kElementwiseBlock, 0, stream>>>(
        bounds, chunks, EntryItems{rows, coeff, coefficients, r, beta}, out);
    return cudaGetLastError();
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
