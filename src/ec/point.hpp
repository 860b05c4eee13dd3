// Points of a short Weierstrass curve y² = x³ + b (a = 0) over any field type F with the Field
// interface — written once for BLS12-381's G1 (F = Fp) and G2 (F = Fp2), on the host and, with
// the device field, on the GPU.
//
// Curve: a type C with `using Field = F;` and `static constexpr F b()`.
//
// Coordinates and invariants:
//   Affine<C>   {x, y}            the point at infinity is (0, 0) (not on the curve since b ≠ 0);
//   Jacobian<C> {X, Y, Z}         x = X/Z², y = Y/Z³; infinity ⇔ Z = 0;
//   Xyzz<C>     {X, Y, ZZ, ZZZ}   x = X/ZZ, y = Y/ZZZ, ZZ³ = ZZZ²; infinity ⇔ ZZ = 0.
// Formulas from the Explicit-Formulas Database (EFD, hyperelliptic.org/EFD/g1p/auto-shortw-*):
// Jacobian "dbl-2009-l", "add-2007-bl", "madd-2007-bl"; XYZZ "dbl-2008-s-1", "mdbl-2008-s-1",
// "add-2008-s", "madd-2008-s". Every formula handles the exceptional cases (infinity, P = Q,
// P = −Q) explicitly, so callers need no special-casing.
#pragma once

#include "util/hd.hpp"

namespace cuzk::ec {

template <class C>
struct Affine {
    using F = typename C::Field;
    F x, y;

    static constexpr CUZK_HD Affine identity() { return {F::zero(), F::zero()}; }
    constexpr CUZK_HD bool is_identity() const { return x.is_zero() && y.is_zero(); }
    constexpr CUZK_HD Affine operator-() const { return is_identity() ? *this : Affine{x, -y}; }
    // y² = x³ + b, or the identity.
    constexpr CUZK_HD bool is_on_curve() const {
        return is_identity() || y.square() == x.square() * x + C::b();
    }
    friend constexpr CUZK_HD bool operator==(const Affine& p, const Affine& q) {
        return p.x == q.x && p.y == q.y;
    }
};

// Batch-affine addition in two steps, so that many additions can share one field inversion
// (Montgomery's trick): first the slope's denominator, then the sum from its inverse. Both points
// finite. The denominator is x_b − x_a (chord), 2·y_a when a = b (tangent), and zero when
// b = −a (the sum is the identity; callers skip the second step then).
template <class C>
constexpr CUZK_HD typename C::Field affine_add_denominator(const Affine<C>& a, const Affine<C>& b) {
    if (!(a.x == b.x)) return b.x - a.x;
    if (a.y == b.y) return a.y.dbl();
    return C::Field::zero();
}
// a + b given inv = affine_add_denominator(a, b)^−1 (non-zero):
//   λ = (y_b − y_a)·inv for a chord, 3·x_a²·inv for the tangent;
//   x3 = λ² − x_a − x_b,  y3 = λ(x_a − x3) − y_a.
template <class C>
constexpr CUZK_HD Affine<C> affine_add_with_inverse(const Affine<C>& a, const Affine<C>& b,
                                                    const typename C::Field& inv) {
    using F = typename C::Field;
    F numerator = b.y - a.y;
    if (a.x == b.x) {
        const F xx = a.x.square();
        numerator = xx.dbl() + xx;
    }
    const F lambda = numerator * inv;
    const F x3 = lambda.square() - a.x - b.x;
    return {x3, lambda * (a.x - x3) - a.y};
}

template <class C>
struct Jacobian {
    using F = typename C::Field;
    F X, Y, Z;

    static constexpr CUZK_HD Jacobian identity() { return {F::one(), F::one(), F::zero()}; }
    static constexpr CUZK_HD Jacobian from_affine(const Affine<C>& p) {
        return p.is_identity() ? identity() : Jacobian{p.x, p.y, F::one()};
    }
    constexpr CUZK_HD bool is_identity() const { return Z.is_zero(); }
    constexpr CUZK_HD Jacobian operator-() const { return {X, -Y, Z}; }

    // dbl-2009-l (a = 0): 2M + 5S.
    constexpr CUZK_HD Jacobian dbl() const {
        if (is_identity()) return *this;
        const F A = X.square();
        const F B = Y.square();
        const F C2 = B.square();
        const F D = ((X + B).square() - A - C2).dbl();
        const F E = A.dbl() + A;
        const F Fv = E.square();
        const F X3 = Fv - D.dbl();
        const F eightC = C2.dbl().dbl().dbl();
        return {X3, E * (D - X3) - eightC, (Y * Z).dbl()};
    }

    // add-2007-bl: 11M + 5S.
    constexpr CUZK_HD Jacobian operator+(const Jacobian& q) const {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        const F Z1Z1 = Z.square();
        const F Z2Z2 = q.Z.square();
        const F U1 = X * Z2Z2;
        const F U2 = q.X * Z1Z1;
        const F S1 = Y * q.Z * Z2Z2;
        const F S2 = q.Y * Z * Z1Z1;
        const F H = U2 - U1;
        const F R = (S2 - S1).dbl();
        if (H.is_zero()) return R.is_zero() ? dbl() : identity();
        const F I = H.dbl().square();
        const F J = H * I;
        const F V = U1 * I;
        const F X3 = R.square() - J - V.dbl();
        return {X3, R * (V - X3) - (S1 * J).dbl(), ((Z + q.Z).square() - Z1Z1 - Z2Z2) * H};
    }

    // madd-2007-bl: 7M + 4S.
    constexpr CUZK_HD Jacobian add_mixed(const Affine<C>& q) const {
        if (q.is_identity()) return *this;
        if (is_identity()) return from_affine(q);
        const F Z1Z1 = Z.square();
        const F U2 = q.x * Z1Z1;
        const F S2 = q.y * Z * Z1Z1;
        const F H = U2 - X;
        const F R = (S2 - Y).dbl();
        if (H.is_zero()) return R.is_zero() ? dbl() : identity();
        const F HH = H.square();
        const F I = HH.dbl().dbl();
        const F J = H * I;
        const F V = X * I;
        const F X3 = R.square() - J - V.dbl();
        return {X3, R * (V - X3) - (Y * J).dbl(), (Z + H).square() - Z1Z1 - HH};
    }

    constexpr CUZK_HD Jacobian operator-(const Jacobian& q) const { return *this + (-q); }
    constexpr CUZK_HD Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }

    // Same point? (cross-multiplied, no inversion)
    friend constexpr CUZK_HD bool operator==(const Jacobian& p, const Jacobian& q) {
        if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
        const F z1z1 = p.Z.square();
        const F z2z2 = q.Z.square();
        return p.X * z2z2 == q.X * z1z1 && p.Y * z2z2 * q.Z == q.Y * z1z1 * p.Z;
    }

    constexpr Affine<C> to_affine() const {
        if (is_identity()) return Affine<C>::identity();
        const F zinv = Z.inverse();
        const F zinv2 = zinv.square();
        return {X * zinv2, Y * zinv2 * zinv};
    }
};

template <class C>
struct Xyzz {
    using F = typename C::Field;
    F X, Y, ZZ, ZZZ;

    static constexpr CUZK_HD Xyzz identity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
    static constexpr CUZK_HD Xyzz from_affine(const Affine<C>& p) {
        return p.is_identity() ? identity() : Xyzz{p.x, p.y, F::one(), F::one()};
    }
    constexpr CUZK_HD bool is_identity() const { return ZZ.is_zero(); }
    constexpr CUZK_HD Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

    // dbl-2008-s-1 (a = 0): 6M + 3S.
    constexpr CUZK_HD Xyzz dbl() const {
        if (is_identity()) return *this;
        const F U = Y.dbl();
        const F V = U.square();
        const F W = U * V;
        const F S = X * V;
        const F XX = X.square();
        const F M = XX.dbl() + XX;
        const F X3 = M.square() - S.dbl();
        return {X3, M * (S - X3) - W * Y, V * ZZ, W * ZZZ};
    }

    // mdbl-2008-s-1: doubling of an affine point into XYZZ (4M + 2S).
    static constexpr CUZK_HD Xyzz dbl_affine(const Affine<C>& p) {
        if (p.is_identity()) return identity();
        const F U = p.y.dbl();
        const F V = U.square();
        const F W = U * V;
        const F S = p.x * V;
        const F XX = p.x.square();
        const F M = XX.dbl() + XX;
        const F X3 = M.square() - S.dbl();
        return {X3, M * (S - X3) - W * p.y, V, W};
    }

    // add-2008-s: 12M + 2S.
    constexpr CUZK_HD Xyzz operator+(const Xyzz& q) const {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        const F U1 = X * q.ZZ;
        const F U2 = q.X * ZZ;
        const F S1 = Y * q.ZZZ;
        const F S2 = q.Y * ZZZ;
        const F P = U2 - U1;
        const F R = S2 - S1;
        if (P.is_zero()) return R.is_zero() ? dbl() : identity();
        const F PP = P.square();
        const F PPP = P * PP;
        const F Q = U1 * PP;
        const F X3 = R.square() - PPP - Q.dbl();
        return {X3, R * (Q - X3) - S1 * PPP, ZZ * q.ZZ * PP, ZZZ * q.ZZZ * PPP};
    }

    // madd-2008-s: 8M + 2S.
    constexpr CUZK_HD Xyzz add_mixed(const Affine<C>& q) const {
        if (q.is_identity()) return *this;
        if (is_identity()) return from_affine(q);
        const F U2 = q.x * ZZ;
        const F S2 = q.y * ZZZ;
        const F P = U2 - X;
        const F R = S2 - Y;
        if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : identity();
        const F PP = P.square();
        const F PPP = P * PP;
        const F Q = X * PP;
        const F X3 = R.square() - PPP - Q.dbl();
        return {X3, R * (Q - X3) - Y * PPP, ZZ * PP, ZZZ * PPP};
    }

    constexpr CUZK_HD Xyzz& operator+=(const Xyzz& q) { return *this = *this + q; }

    constexpr Affine<C> to_affine() const {
        if (is_identity()) return Affine<C>::identity();
        // x = X/ZZ, y = Y/ZZZ with one inversion: (ZZ·ZZZ)^−1.
        const F inv = (ZZ * ZZZ).inverse();
        const F zz_inv = inv * ZZZ;
        const F zzz_inv = inv * ZZ;
        return {X * zz_inv, Y * zzz_inv};
    }
    // To Jacobian without inversion: Z = ZZ·ZZZ, X' = X·ZZ·ZZZ², Y' = Y·ZZZ⁴ (uses ZZ³ = ZZZ²).
    constexpr CUZK_HD Jacobian<C> to_jacobian() const {
        if (is_identity()) return Jacobian<C>::identity();
        const F zzz2 = ZZZ.square();
        return {X * ZZ * zzz2, Y * zzz2.square(), ZZ * ZZZ};
    }
};

}  // namespace cuzk::ec
