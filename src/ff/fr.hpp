// Fr: the 255-bit scalar field of BLS12-381 (Field<FrParams>, 4 Montgomery limbs, 32-byte
// encodings). Two-adicity S = 32 with multiplicative generator 7.
#pragma once

#include <optional>

#include "ff/field.hpp"
#include "ff/params.hpp"

namespace cuzk::ff {

using Fr = Field<FrParams>;

namespace detail {
constexpr BigInt<4> fr_odd_part() {  // t with r − 1 = 2^S · t
    return (FrParams::kModulus - BigInt<4>::from_u64(1)).shr(FrParams::kTwoAdicity);
}
}  // namespace detail

// A primitive 2^32-th root of unity: 7^t. Bellperson's ROOT_OF_UNITY (ff_derive's choice).
inline constexpr Fr kFrRootOfUnity =
    Fr::from_u64(FrParams::kMultiplicativeGenerator).pow(detail::fr_odd_part());

static_assert(kFrRootOfUnity.pow(uint64_t{1} << 31) == -Fr::one(),
              "7^t has order exactly 2^32");

// A primitive 2^k-th root of unity for k ≤ 32: ROOT_OF_UNITY^(2^(32−k)), as bellperson's
// EvaluationDomain derives its ω.
Fr fr_root_of_unity(unsigned log_size);

// A square root of a (Tonelli–Shanks), if a is a square.
std::optional<Fr> sqrt(const Fr& a);

}  // namespace cuzk::ff
