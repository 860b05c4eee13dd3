// Projective → affine on the device for many points at once: thread t takes the run of kRun
// consecutive points [t·kRun, t·kRun + kRun) and inverts their denominators together (one Fermat
// inversion of the run's product, Montgomery's trick). Identities (Z = 0 / ZZ = 0) are skipped
// and written as the affine identity (0, 0).
//   Xyzz:     denominator ZZ·ZZZ;  x = X·(d⁻¹·ZZZ) = X/ZZ,  y = Y·(d⁻¹·ZZ) = Y/ZZZ.
//   Jacobian: denominator Z;       x = X·Z⁻²,                y = Y·Z⁻³.
// Included by the .cu files that normalize (fixed_base_kernels.cu, coset_convert_kernels.cu).
#pragma once

#include "ec/point.hpp"

namespace cuzk::gpu::detail {

namespace normalize_detail {

template <class C>
__device__ typename C::Field denominator(const ec::Xyzz<C>& p) {
    return p.ZZ * p.ZZZ;
}
template <class C>
__device__ ec::Affine<C> affine_from(const ec::Xyzz<C>& p, const typename C::Field& d_inv) {
    return {p.X * (d_inv * p.ZZZ), p.Y * (d_inv * p.ZZ)};
}
template <class C>
__device__ typename C::Field denominator(const ec::Jacobian<C>& p) {
    return p.Z;
}
template <class C>
__device__ ec::Affine<C> affine_from(const ec::Jacobian<C>& p, const typename C::Field& z_inv) {
    const typename C::Field z_inv2 = z_inv * z_inv;
    return {p.X * z_inv2, p.Y * (z_inv2 * z_inv)};
}

}  // namespace normalize_detail

inline constexpr unsigned kNormalizeRun = 16;

// out[i] = in[i] in affine for i < n (P: ec::Xyzz<C> or ec::Jacobian<C>). out must not alias in.
template <class P, class A>
__global__ void normalize_points_kernel(const P* in, size_t n, A* out) {
    using F = decltype(normalize_detail::denominator(*in));
    const size_t runs = (n + kNormalizeRun - 1) / kNormalizeRun;
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t r = size_t{blockIdx.x} * blockDim.x + threadIdx.x; r < runs; r += stride) {
        const size_t begin = r * kNormalizeRun;
        const unsigned count =
            static_cast<unsigned>(n - begin < kNormalizeRun ? n - begin : kNormalizeRun);
        F prefix[kNormalizeRun];  // prefix[j] = Π_{i ≤ j, not identity} d_i
        F acc = F::one();
        for (unsigned j = 0; j < count; ++j) {
            const P p = in[begin + j];
            if (!p.is_identity()) acc = acc * normalize_detail::denominator(p);
            prefix[j] = acc;
        }
        F inv = acc.inverse();  // (Π d_i)⁻¹
        for (unsigned j = count; j-- > 0;) {
            const P p = in[begin + j];
            if (p.is_identity()) {
                out[begin + j] = A::identity();
                continue;
            }
            const F d_inv = j > 0 ? inv * prefix[j - 1] : inv;  // d_j⁻¹
            inv = inv * normalize_detail::denominator(p);        // (Π_{i<j} d_i)⁻¹
            out[begin + j] = normalize_detail::affine_from(p, d_inv);
        }
    }
}

}  // namespace cuzk::gpu::detail
