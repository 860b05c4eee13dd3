// Final exponentiation f ↦ f^(3(p^12 − 1)/r) (see pairing.hpp for the decomposition).
#include "pairing/pairing.hpp"

namespace cuzk::pairing {
namespace {

// a^x for the negative BLS parameter, a in the cyclotomic subgroup (where a^−1 = conj(a)).
Fp12 cyclotomic_pow_x(const Fp12& a) {
    const Fp12 t = a.cyclotomic_pow(ff::kBlsX);
    return ff::kBlsXIsNegative ? t.conjugate() : t;
}

}  // namespace

Fp12 final_exponentiation(const Fp12& f) {
    // Easy part: f^(p^6 − 1) then ^(p^2 + 1); the result lies in the cyclotomic subgroup.
    const Fp12 f1 = f.conjugate() * f.inverse();
    const Fp12 t1 = f1.frobenius(2) * f1;
    // Hard part, exponents as powers of t1:
    const Fp12 t2 = cyclotomic_pow_x(t1);                        // x
    const Fp12 t3 = t1.cyclotomic_square().conjugate() * t2;     // x − 2
    const Fp12 t4 = cyclotomic_pow_x(t3);                        // x² − 2x
    const Fp12 t5 = cyclotomic_pow_x(t4);                        // x³ − 2x²
    const Fp12 t6 = cyclotomic_pow_x(t5) * t2.cyclotomic_square();  // x⁴ − 2x³ + 2x
    const Fp12 t7 = cyclotomic_pow_x(t6);                        // x⁵ − 2x⁴ + 2x²
    // λ2 = x³ − 2x² + x, λ3 = x² − 2x + 1, λ1 = x⁴ − 2x³ + 2x − 1, λ0 = x⁵ − 2x⁴ + 2x² − x + 3
    const Fp12 p2 = (t2 * t5).frobenius(2);
    const Fp12 p3 = (t4 * t1).frobenius(3);
    const Fp12 p1 = (t6 * t1.conjugate()).frobenius(1);
    const Fp12 p0 = t7 * t3.conjugate() * t1;
    return p0 * p1 * p2 * p3;
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
    return final_exponentiation(miller_loop(p, q));
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    std::vector<G2Prepared> prepared;
    prepared.reserve(pairs.size());
    std::vector<std::pair<G1Affine, const G2Prepared*>> terms;
    terms.reserve(pairs.size());
    for (const auto& [p, q] : pairs) prepared.push_back(prepare(q));
    for (size_t i = 0; i < pairs.size(); ++i) terms.emplace_back(pairs[i].first, &prepared[i]);
    return final_exponentiation(multi_miller_loop(terms)).is_one();
}

}  // namespace cuzk::pairing
