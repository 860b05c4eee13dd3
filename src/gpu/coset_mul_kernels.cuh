// Internal to src/gpu (device code, included by the coset conversion's .cu files): the
// multiplications k·P = k1·P + k2·[x²]P of the coset-Lagrange conversion in each window form,
// the kernels that use them, and make_form_launches<F>() that fills a FormLaunches table with
// their launches. Each form is instantiated in a translation unit of its own
// (coset_mul_<form>.cu), so that a rebuild compiles the forms in parallel. The point formulas are
// ec/point.hpp's Jacobian ones ("dbl-2009-l", "add-2007-bl") over the device field.
#pragma once

#include "gpu/coset_convert_launch.hpp"
#include "gpu/kernel_launch.hpp"

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

// for (i over [0, n) by the grid's stride): the conversion's elementwise loops (all its .cu files).
#define CUZK_COSET_GRID_STRIDE(i, n)                                                  \
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x,                       \
                stride_ = size_t{gridDim.x} * blockDim.x;                                \
         i < (n); i += stride_)

template <class F>
__global__ void __launch_bounds__(kElementwiseBlock, F::kMinBlocks)
    scale_kernel(const DeviceG1Affine* in, const DeviceSigmaSplit* k, size_t n, DeviceFp beta,
                 Jac* out) {
    CUZK_COSET_GRID_STRIDE(i, n) out[i] = F::mul(Jac::from_affine(in[i]), k[i], beta);
}

// Stage s: butterflies (i, i + 2^s) with i = block·2^(s+1) + j, j < 2^s; twiddle w^(j·m/2^(s+1)).
template <class F>
__global__ void __launch_bounds__(kElementwiseBlock, F::kMinBlocks)
    dit_stage_kernel(Jac* v, unsigned log_m, unsigned s, const DeviceSigmaSplit* twiddles,
                     DeviceFp beta) {
    const size_t half = size_t{1} << s;
    CUZK_COSET_GRID_STRIDE(t, size_t{1} << (log_m - 1)) {
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
    CUZK_COSET_GRID_STRIDE(k, chunks) {
        Jac acc = Jac::identity();
        for (uint64_t e = bounds[2 * k]; e < bounds[2 * k + 1]; ++e) acc = items.add_to(acc, e);
        out[k] = acc;
    }
}

// The launches of form F (a Form<W, Signed, MinBlocks>).
template <class F>
FormLaunches make_form_launches() {
    FormLaunches k;
    k.scale_points = [](const DeviceG1Affine* in, const DeviceSigmaSplit* s, size_t n,
                        const DeviceFp& beta, DeviceG1Jacobian* out,
                        cudaStream_t stream) -> cudaError_t {
        scale_kernel<F><<<elementwise_grid(n), kElementwiseBlock, 0, stream>>>(in, s, n, beta,
                                                                               out);
        return cudaGetLastError();
    };
    k.dit_stage = [](DeviceG1Jacobian* v, unsigned log_m, unsigned s,
                     const DeviceSigmaSplit* twiddles, const DeviceFp& beta,
                     cudaStream_t stream) -> cudaError_t {
        const size_t butterflies = size_t{1} << (log_m - 1);
        dit_stage_kernel<F><<<elementwise_grid(butterflies), kElementwiseBlock, 0, stream>>>(
            v, log_m, s, twiddles, beta);
        return cudaGetLastError();
    };
    k.entry_chunk_sums = [](const uint64_t* bounds, size_t chunks, const uint32_t* rows,
                            const uint32_t* coeff, const DeviceCoefficient* coefficients,
                            const DeviceG1Jacobian* r, const DeviceFp& beta,
                            DeviceG1Jacobian* out, cudaStream_t stream) -> cudaError_t {
        chunk_sums_kernel<<<elementwise_grid(chunks), kElementwiseBlock, 0, stream>>>(
            bounds, chunks, EntryItems<F>{rows, coeff, coefficients, r, beta}, out);
        return cudaGetLastError();
    };
    return k;
}

}  // namespace

}  // namespace cuzk::gpu::detail
