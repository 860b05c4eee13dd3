// Fp2 on the host: Fp2T<Fp> (see fp2_ext.hpp for the representation) plus what needs more than
// the template: square root and the Frobenius-related constants of the tower.
#pragma once

#include <optional>

#include "ff/fp.hpp"
#include "ff/fp2_ext.hpp"

namespace cuzk::ff {

using Fp2 = Fp2T<Fp>;

inline constexpr Fp2 kXi = {Fp::one(), Fp::one()};  // ξ = 1 + u

// A square root of a if a is a square in Fp2 (Adj and Rodríguez-Henríquez, "Square root
// computation over even extension fields", eprint 2012/685, Algorithm 9, p ≡ 3 mod 4).
std::optional<Fp2> sqrt(const Fp2& a);

// Legendre symbol in Fp2: that of its norm in Fp.
int legendre(const Fp2& a);

}  // namespace cuzk::ff
