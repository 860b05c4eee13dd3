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

}  // namespace cuzk::gpu
