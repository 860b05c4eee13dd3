// The obviously-correct multi-scalar multiplication Σ k_i·P_i: one ec::mul per point, summed in
// Jacobian coordinates, single-threaded. The reference the fast MSMs are tested against; too
// slow for anything else (about 300 group operations per point).
//
// bases and scalars must have the same length (checked; a mismatch aborts). Canonical scalars
// may be any 256-bit value.
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"
#include "ff/fr.hpp"

namespace cuzk::msm {

ec::G1Jacobian msm_naive(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars);
ec::G2Jacobian msm_naive(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars);
ec::G1Jacobian msm_naive(std::span<const ec::G1Affine> bases,
                         std::span<const ff::BigInt<4>> scalars);
ec::G2Jacobian msm_naive(std::span<const ec::G2Affine> bases,
                         std::span<const ff::BigInt<4>> scalars);

}  // namespace cuzk::msm
