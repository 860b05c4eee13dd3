#include "ff/fp2.hpp"

namespace cuzk::ff {

std::optional<Fp2> sqrt(const Fp2& a) {
    if (a.is_zero()) return Fp2::zero();
    // a1 = a^((p − 3)/4)
    BigInt<6> e = Fp::modulus();
    e.sub_in_place(BigInt<6>::from_u64(3));
    const Fp2 a1 = a.pow(e.shr(2));
    const Fp2 alpha = a1.square() * a;  // a^((p−1)/2)
    const Fp2 a0 = alpha.conjugate() * alpha;  // alpha^(p+1)
    const Fp2 minus_one = -Fp2::one();
    if (a0 == minus_one) return std::nullopt;
    const Fp2 x0 = a1 * a;  // a^((p+1)/4)
    Fp2 x;
    if (alpha == minus_one) {
        x = Fp2{-x0.c1, x0.c0};  // u · x0
    } else {
        const Fp2 b = (Fp2::one() + alpha).pow(Fp::modulus().shr(1));  // (1+α)^((p−1)/2)
        x = b * x0;
    }
    if (x.square() != a) return std::nullopt;
    return x;
}

int legendre(const Fp2& a) { return a.norm().legendre(); }

}  // namespace cuzk::ff
