// Point steps of the MSM kernels that update an XYZZ accumulator in place, written for low
// register pressure on the device (compile as host C++ too; device_field_test.cpp checks them
// bit for bit against ec/point.hpp on the host).
//
// add_mixed_in_place(a, q): a ← a + q for an XYZZ a and an affine q — the same formula as
// ec::Xyzz::add_mixed (EFD "madd-2008-s", 8M + 2S, exceptional cases handled the same way), with
// the operations reordered so that each input coordinate is overwritten as soon as it is last
// read and each intermediate dies early:
//   P = x_q·ZZ − X, R = y_q·ZZZ − Y; PP = P²; ZZ ← ZZ·PP; PPP = P·PP; ZZZ ← ZZZ·PPP;
//   Q = X·PP; X ← R² − PPP − 2Q; Y ← R·(Q − X) − Y·PPP.
// At most seven field elements are live at once (ec::Xyzz::add_mixed keeps ZZ, ZZZ and PP
// until its last line: nine). Every field result is the unique reduced residue, so the order of
// a product's operands changes nothing: the result equals add_mixed's limb for limb.
//
// add_in_place(a, q): a ← a + q for two XYZZ points — ec::Xyzz::operator+'s formula (EFD
// "add-2008-s", 12M + 2S) with q read coordinate by coordinate where it is used (q may live in
// device memory: the running-sum kernels stream it) and a's coordinates overwritten in turn:
//   X ← U1 = X·ZZ_q, P = X_q·ZZ − U1; Y ← S1 = Y·ZZZ_q, R = Y_q·ZZZ − S1;
//   ZZ ← ZZ·ZZ_q·P², ZZZ ← ZZZ·ZZZ_q·P³; Q = U1·P²; X ← R² − P³ − 2Q; Y ← R·(Q − X) − S1·P³.
// At most seven field elements of a's side live at once (operator+ holds both points and its
// intermediates). The result equals operator+'s limb for limb, except for a = q (P = R = 0),
// where operator+ doubles a and this doubles q: the same point, another representative.
#pragma once

#include "ec/point.hpp"
#include "util/hd.hpp"

namespace cuzk::gpu {

template <class C>
constexpr CUZK_HD void add_mixed_in_place(ec::Xyzz<C>& a, const ec::Affine<C>& q) {
    using F = typename C::Field;
    if (q.is_identity()) return;
    if (a.is_identity()) {
        a = ec::Xyzz<C>::from_affine(q);
        return;
    }
    const F P = q.x * a.ZZ - a.X;
    const F R = q.y * a.ZZZ - a.Y;
    if (P.is_zero()) {
        a = R.is_zero() ? ec::Xyzz<C>::dbl_affine(q) : ec::Xyzz<C>::identity();
        return;
    }
    const F PP = P.square();
    a.ZZ = a.ZZ * PP;
    const F PPP = P * PP;
    a.ZZZ = a.ZZZ * PPP;
    const F Q = a.X * PP;
    a.X = R.square() - PPP - Q.dbl();
    a.Y = R * (Q - a.X) - a.Y * PPP;
}

template <class C>
constexpr CUZK_HD void add_in_place(ec::Xyzz<C>& a, const ec::Xyzz<C>& q) {
    using F = typename C::Field;
    if (q.is_identity()) return;
    if (a.is_identity()) {
        a = q;
        return;
    }
    a.X = a.X * q.ZZ;
    const F P = q.X * a.ZZ - a.X;
    a.Y = a.Y * q.ZZZ;
    const F R = q.Y * a.ZZZ - a.Y;
    if (P.is_zero()) {
        a = R.is_zero() ? q.dbl() : ec::Xyzz<C>::identity();
        return;
    }
    a.ZZ = a.ZZ * q.ZZ;
    a.ZZZ = a.ZZZ * q.ZZZ;
    const F PP = P.square();
    a.ZZ = a.ZZ * PP;
    const F PPP = P * PP;
    a.ZZZ = a.ZZZ * PPP;
    const F Q = a.X * PP;
    const F S1_PPP = a.Y * PPP;
    a.X = R.square() - PPP - Q.dbl();
    a.Y = R * (Q - a.X) - S1_PPP;
}

}  // namespace cuzk::gpu
