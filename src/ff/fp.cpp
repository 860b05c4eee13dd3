#include "ff/fp.hpp"

namespace cuzk::ff {

std::optional<Fp> sqrt(const Fp& a) {
    // (p + 1)/4
    BigInt<6> e = Fp::modulus();
    e.add_in_place(BigInt<6>::from_u64(1));
    const Fp root = a.pow(e.shr(2));
    if (root.square() != a) return std::nullopt;
    return root;
}

}  // namespace cuzk::ff
