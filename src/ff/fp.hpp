// Fp: the 381-bit base field of BLS12-381 (Field<FpParams>, 6 Montgomery limbs, 48-byte
// big-endian encoding as in the ZCash serialization).
#pragma once

#include <optional>

#include "ff/field.hpp"
#include "ff/params.hpp"

namespace cuzk::ff {

using Fp = Field<FpParams>;

// A square root of a, if a is a square: a^((p+1)/4) because p ≡ 3 (mod 4). Which of the two
// roots is returned is unspecified; callers pick the sign they need.
std::optional<Fp> sqrt(const Fp& a);

}  // namespace cuzk::ff
