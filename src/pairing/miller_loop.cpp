// Miller loop of the optimal ate pairing (see pairing.hpp).
//
// G2 point T = (X : Y : Z) homogeneous on E': y² = x³ + b', b' = 4ξ. Lines are scaled by
// elements of Fp2 (killed by the final exponentiation) so that they need no inversion.
//
// Doubling (tangent at T), line scaled by 2YZ, then point scaled by 4:
//   ell0 = Y² − 3b'Z²,  ell1 = −3X²,  ell4 = 2YZ
//   X3 = 2XY(Y² − 9b'Z²),  Y3 = (Y² + 9b'Z²)² − 12(3b'Z²)²,  Z3 = 8Y³Z
// Addition of an affine Q = (xQ, yQ), with θ = Y − yQ·Z, μ = X − xQ·Z (line scaled by μ):
//   ell0 = θ·xQ − μ·yQ,  ell1 = −θ,  ell4 = μ
//   H = θ²Z − μ²(X + xQ·Z);  X3 = μH,  Y3 = θ(μ²Z·xQ − H) − μ³Z·yQ,  Z3 = μ³Z
// (derived from the affine chord-and-tangent formulas and y² = x³ + b'; checked in the tests
// against the generic point arithmetic and against @noble/curves.)
#include "pairing/pairing.hpp"

namespace cuzk::pairing {
namespace {

struct G2Homogeneous {
    Fp2 X, Y, Z;
};

LineCoeffs doubling_step(G2Homogeneous& t) {
    const Fp2 b_prime = ec::G2Curve::b();
    const Fp2 yy = t.Y.square();
    const Fp2 zz = t.Z.square();
    const Fp2 b_zz3 = (b_prime * zz) * ff::Fp::from_u64(3);  // 3b'Z²
    const Fp2 b_zz9 = b_zz3.dbl() + b_zz3;                   // 9b'Z²
    const Fp2 yz2 = (t.Y + t.Z).square() - yy - zz;          // 2YZ
    const Fp2 xx = t.X.square();
    LineCoeffs line{yy - b_zz3, -(xx.dbl() + xx), yz2};
    const Fp2 xy2 = (t.X * t.Y).dbl();
    const Fp2 s = yy + b_zz9;
    const Fp2 b_zz3_sq = b_zz3.square();
    t.X = xy2 * (yy - b_zz9);
    t.Y = s.square() - (b_zz3_sq.dbl() + b_zz3_sq).dbl().dbl();  // − 12(3b'Z²)²
    t.Z = (yy * yz2).dbl().dbl();                                 // 4·Y²·2YZ = 8Y³Z
    return line;
}

LineCoeffs addition_step(G2Homogeneous& t, const G2Affine& q) {
    const Fp2 theta = t.Y - q.y * t.Z;
    const Fp2 mu = t.X - q.x * t.Z;
    LineCoeffs line{theta * q.x - mu * q.y, -theta, mu};
    const Fp2 mu2 = mu.square();
    const Fp2 mu3 = mu2 * mu;
    const Fp2 mu2z = mu2 * t.Z;
    const Fp2 h = theta.square() * t.Z - mu2 * (t.X + q.x * t.Z);
    t.X = mu * h;
    t.Y = theta * (mu2z * q.x - h) - mu3 * t.Z * q.y;
    t.Z = mu3 * t.Z;
    return line;
}

// Bits of |x| below the leading one, most significant first, visited by both functions below.
template <class Fn>
void for_each_loop_bit(Fn&& fn) {
    for (int i = 62; i >= 0; --i) fn(((ff::kBlsX >> i) & 1) != 0);
}

Fp12 ell(const Fp12& f, const LineCoeffs& c, const G1Affine& p) {
    return f.mul_by_014(c.ell0, c.ell1 * p.x, c.ell4 * p.y);
}

}  // namespace

G2Prepared prepare(const G2Affine& q) {
    G2Prepared out;
    if (q.is_identity()) return out;
    out.lines.reserve(70);
    G2Homogeneous t{q.x, q.y, Fp2::one()};
    for_each_loop_bit([&](bool bit) {
        out.lines.push_back(doubling_step(t));
        if (bit) out.lines.push_back(addition_step(t, q));
    });
    return out;
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> terms) {
    std::vector<size_t> active;
    for (size_t i = 0; i < terms.size(); ++i)
        if (!terms[i].first.is_identity() && !terms[i].second->is_identity()) active.push_back(i);
    Fp12 f = Fp12::one();
    size_t step = 0;
    bool first = true;
    for_each_loop_bit([&](bool bit) {
        if (!first) f = f.square();
        first = false;
        for (size_t i : active) f = ell(f, terms[i].second->lines[step], terms[i].first);
        ++step;
        if (bit) {
            for (size_t i : active) f = ell(f, terms[i].second->lines[step], terms[i].first);
            ++step;
        }
    });
    return ff::kBlsXIsNegative ? f.conjugate() : f;
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
    const G2Prepared prepared = prepare(q);
    const std::pair<G1Affine, const G2Prepared*> term{p, &prepared};
    return multi_miller_loop(std::span(&term, 1));
}

}  // namespace cuzk::pairing
