// Σ k_i·P_i by one scalar multiplication per point (see naive.hpp).
#include "msm/naive.hpp"

#include <cstdio>
#include <cstdlib>

namespace cuzk::msm {
namespace {

template <class C, class Scalar>
ec::Jacobian<C> naive_sum(std::span<const ec::Affine<C>> bases, std::span<const Scalar> scalars) {
    if (bases.size() != scalars.size()) {
        std::fprintf(stderr, "cuzk::msm: msm_naive: bases and scalars differ in length\n");
        std::abort();
    }
    ec::Jacobian<C> sum = ec::Jacobian<C>::identity();
    for (size_t i = 0; i < bases.size(); ++i)
        sum += ec::mul(ec::Jacobian<C>::from_affine(bases[i]), scalars[i]);
    return sum;
}

}  // namespace

ec::G1Jacobian msm_naive(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars) {
    return naive_sum(bases, scalars);
}
ec::G2Jacobian msm_naive(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars) {
    return naive_sum(bases, scalars);
}
ec::G1Jacobian msm_naive(std::span<const ec::G1Affine> bases,
                         std::span<const ff::BigInt<4>> scalars) {
    return naive_sum(bases, scalars);
}
ec::G2Jacobian msm_naive(std::span<const ec::G2Affine> bases,
                         std::span<const ff::BigInt<4>> scalars) {
    return naive_sum(bases, scalars);
}

}  // namespace cuzk::msm
