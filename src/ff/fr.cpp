#include "ff/fr.hpp"

namespace cuzk::ff {

Fr fr_root_of_unity(unsigned log_size) {
    Fr w = kFrRootOfUnity;
    for (unsigned i = log_size; i < FrParams::kTwoAdicity; ++i) w = w.square();
    return w;
}

// Tonelli–Shanks (Cohen, "A Course in Computational Algebraic Number Theory", Alg. 1.5.1) with
// the non-residue 7, whose t-th power is the 2^32-th root of unity.
std::optional<Fr> sqrt(const Fr& a) {
    if (a.is_zero()) return Fr::zero();
    if (a.legendre() != 1) return std::nullopt;
    const BigInt<4> t = detail::fr_odd_part();
    BigInt<4> t_plus_1_half = t;
    t_plus_1_half.add_in_place(BigInt<4>::from_u64(1));
    t_plus_1_half = t_plus_1_half.shr(1);

    size_t m = FrParams::kTwoAdicity;
    Fr c = kFrRootOfUnity;
    Fr tt = a.pow(t);
    Fr x = a.pow(t_plus_1_half);
    while (tt != Fr::one()) {
        size_t i = 0;
        Fr probe = tt;
        while (probe != Fr::one()) {
            probe = probe.square();
            ++i;
        }
        Fr b = c;
        for (size_t k = 0; k + i + 1 < m; ++k) b = b.square();
        m = i;
        c = b.square();
        tt *= c;
        x *= b;
    }
    return x;
}

}  // namespace cuzk::ff
