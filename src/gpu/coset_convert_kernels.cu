// Kernels of the coset-Lagrange conversion (see coset_convert_launch.hpp). The point formulas are
// ec/point.hpp's Jacobian ones ("dbl-2009-l", "add-2007-bl"), instantiated with the device field.
#include "gpu/coset_convert_launch.hpp"
#include "gpu/kernel_launch.hpp"
#include "gpu/point_normalize.cuh"

namespace cuzk::gpu::detail {

namespace {

using Jac = DeviceG1Jacobian;

// [x²]P = −σ(P): σ scales x = X/Z² by β, so (β·X, −Y, Z).
__device__ Jac times_x_squared(const Jac& p, const DeviceFp& beta) {
    return {p.X * beta, -p.Y, p.Z};
}

// Bits [start, start + count) of a 128-bit k (count ≤ 8; zero past bit 127).
__device__ unsigned bits_of(const uint64_t (&k)[2], unsigned start, unsigned count) {
    if (start >= 128) return 0;
    uint64_t v = k[start / 64] >> (start % 64);
    if (start % 64 + count > 64 && start / 64 == 0) v |= k[1] << (64 - start % 64);
    return static_cast<unsigned>(v & ((1u << count) - 1));
}

// The digits of a 128-bit scalar in W-bit windows, most significant first.
//   unsigned: d_i = bits [W·i, W·i + W), 0 … 2^W − 1; a table of 2^W − 1 multiples.
//   signed (Booth): d_i = bits [W·i, W·i + W) + b_{W·i−1} − 2^W·b_{W·i+W−1}, in −2^(W−1) …
//   2^(W−1) (Σ d_i·2^(W·i) = k, the top bit of each window carried into the next); a table of
//   2^(W−1) multiples, negatives by negation, one window more (⌈129/W⌉).
template <unsigned W, bool Signed>
struct Digits {
    static constexpr unsigned kWindows = Signed ? (128 + W) / W : (128 + W - 1) / W;
    static constexpr unsigned kTable = Signed ? 1u << (W - 1) : (1u << W) - 1;
    static __device__ int at(const uint64_t (&k)[2], unsigned i) {
        const unsigned low = bits_of(k, W * i, W);
        if constexpr (!Signed) {
            return static_cast<int>(low);
        } else {
            const unsigned carry = i == 0 ? 0 : bits_of(k, W * i - 1, 1);
            return static_cast<int>(low + carry) - static_cast<int>((low >> (W - 1)) << W);
        }
    }
};

// acc + d·Q for a digit d (|d| ≤ the table's size; table[j] = (j + 1)·Q, Q = P or, with
// sigma, [x²]P taken from P's table on the fly).
template <unsigned Table, bool Sigma>
__device__ Jac add_digit(const Jac& acc, int d, const Jac (&table)[Table], const DeviceFp& beta) {
    if (d == 0) return acc;
    Jac q = table[(d > 0 ? d : -d) - 1];
    if constexpr (Sigma) q = times_x_squared(q, beta);
    return d > 0 ? acc + q : acc - q;
}

// k·P for k = k1 + k2·x²: k1·P + k2·[x²]P, both halves' windows from the top sharing the
// doublings (Straus–Shamir), one table of P's multiples serving both (σ applied per lookup).
// Per multiplication (Jacobian, products of Fp): unsigned W = 4: 14 table operations, 124
// doublings, ≤ 64 additions (2,160 bytes of table); signed W = 3: 3, 126, ≤ 86 (576 bytes);
// signed W = 4: 7, 128, ≤ 66 (1,152 bytes).
template <unsigned W, bool Signed>
__device__ Jac mul_split(const Jac& p, const DeviceSigmaSplit& k, const DeviceFp& beta) {
    using D = Digits<W, Signed>;
    Jac table[D::kTable];
    table[0] = p;
    if constexpr (D::kTable > 1) table[1] = p.dbl();
    for (unsigned i = 2; i < D::kTable; ++i)  // (i + 1)·P: a doubling for even multiples
        table[i] = i % 2 == 1 ? table[i / 2].dbl() : table[i - 1] + p;
    Jac acc = Jac::identity();
    for (unsigned i = D::kWindows; i-- > 0;) {
        if (i + 1 != D::kWindows)
            for (unsigned d = 0; d < W; ++d) acc = acc.dbl();
        acc = add_digit<D::kTable, false>(acc, D::at(k.k1, i), table, beta);
        acc = add_digit<D::kTable, true>(acc, D::at(k.k2, i), table, beta);
    }
    return acc;
}

// The forms of MulWindow as types: the windows, and the blocks of kElementwiseBlock threads per
// SM the kernels are bounded for (__launch_bounds__; 1: unbounded registers).
template <unsigned W, bool Signed, unsigned MinBlocks = 1>
struct Form {
    static constexpr unsigned kMinBlocks = MinBlocks;
    static __device__ Jac mul(const Jac& p, const DeviceSigmaSplit& k, const DeviceFp& beta) {
        return mul_split<W, Signed>(p, k, beta);
    }
};

#define CUZK_GRID_STRIDE(i, n)                                                           \
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x, stride_ =             \
                                                                       size_t{gridDim.x} * \
                                                                       blockDim.x;        \
         i < (n); i += stride_)

template <class F>
__global__ void __launch_bounds__(kElementwiseBlock, F::kMinBlocks) scale_kernel(const DeviceG1Affine* in, const DeviceSigmaSplit* k, size_t n,
                             DeviceFp beta, Jac* out) {
    CUZK_GRID_STRIDE(i, n) out[i] = F::mul(Jac::from_affine(in[i]), k[i], beta);
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
template <class F>
__global__ void __launch_bounds__(kElementwiseBlock, F::kMinBlocks) dit_stage_kernel(Jac* v, unsigned log_m, unsigned s,
                                 const DeviceSigmaSplit* twiddles, DeviceFp beta) {
    const size_t half = size_t{1} << s;
    CUZK_GRID_STRIDE(t, size_t{1} << (log_m - 1)) {
        const size_t j = t & (half - 1);
        const size_t i = ((t >> s) << (s + 1)) + j;
        const Jac u = v[i];
        Jac x = v[i + half];
        if (j != 0) x = F::mul(x, twiddles[j << (log_m - 1 - s)], beta);
        v[i] = u + x;
        v[i + half] = u - x;
    }
}

template <class F>
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
                return acc + F::mul(p, c.split, beta);
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

// fn(Form<W, Signed>{}) for the requested window form.
template <class Fn>
cudaError_t with_form(MulWindow w, Fn&& fn) {
    switch (w) {
        case MulWindow::kUnsigned4:
            return fn(Form<4, false>{});
        case MulWindow::kSigned3:
            return fn(Form<3, true>{});
        case MulWindow::kSigned4:
            return fn(Form<4, true>{});
        case MulWindow::kUnsigned4TwoBlocks:
            return fn(Form<4, false, 2>{});
        case MulWindow::kSigned4TwoBlocks:
            return fn(Form<4, true, 2>{});
    }
    return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_scale_points(MulWindow form, const DeviceG1Affine* in,
                                const DeviceSigmaSplit* k, size_t n, const DeviceFp& beta,
                                DeviceG1Jacobian* out, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    return with_form(form, [&](auto f) {
        scale_kernel<decltype(f)><<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(
            in, k, n, beta, out);
        return cudaGetLastError();
    });
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
    const size_t butterflies = size_t{1} << (log_m - 1);
    return with_form(form, [&](auto f) {
        dit_stage_kernel<decltype(f)><<<elementwise_grid(butterflies), kElementwiseBlock, 0,
                                        stream>>>(v, log_m, s, twiddles, beta);
        return cudaGetLastError();
    });
}

cudaError_t launch_entry_chunk_sums(MulWindow form, const uint64_t* bounds, size_t chunks,
                                    const uint32_t* rows, const uint32_t* coeff,
                                    const DeviceCoefficient* coefficients,
                                    const DeviceG1Jacobian* r, const DeviceFp& beta,
                                    DeviceG1Jacobian* out, cudaStream_t stream) {
    if (chunks == 0) return cudaSuccess;
    return with_form(form, [&](auto f) {
        chunk_sums_kernel<<<elementwise_grid(chunks), kElementwiseBlock, 0, stream>>>(
            bounds, chunks, EntryItems<decltype(f)>{rows, coeff, coefficients, r, beta}, out);
        return cudaGetLastError();
    });
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
