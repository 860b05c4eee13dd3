// Montgomery's batch inversion, laid out for the GPU (device code; also compiles as host C++).
//
// m field elements e_0 … e_(m−1) are split into `groups` strided groups: group t holds the
// indices i = t, t + groups, t + 2·groups, … below m (so that the threads of a warp, taking
// consecutive groups, touch consecutive elements). One thread owns one group:
//   up:   prefix[i] = Π of its group's elements up to and including i; returns the group's
//         product (m − groups products in all: a group's first element costs none);
//   down: given the inverse of that product, walks the group from its last index to its first:
//         e_i⁻¹ = inv · prefix[i − groups] (inv itself for the first index), then
//         inv ← inv · e_i — two products per element after the first.
// Callers supply the elements as functions of the index, so that they can be computed on the fly
// (the batch-affine MSM step computes its slope denominators twice rather than storing them).
// Every element must be non-zero, or every inverse in its group is wrong. The groups' products
// are inverted the same way, level by level (batch_inverse_kernels.cu), until few enough are
// left to invert one per thread (Fermat).
#pragma once

#include <cstddef>

#include "util/hd.hpp"

namespace cuzk::gpu {

// Writes prefix[i] for the indices of group t; returns the group's product (one() if empty).
// element(i) → F. The walk goes from t upwards, or with `reverse` from the group's last index
// downwards (the prefixes then run in that order); prefix_products_down must be told the same.
template <class F, class Element>
CUZK_HD F prefix_products_up(size_t t, size_t groups, size_t m, F* prefix, Element&& element,
                             bool reverse = false) {
    if (t >= m) return F::one();
    const size_t last = t + (m - 1 - t) / groups * groups;
    size_t i = reverse ? last : t;
    const size_t end = reverse ? t : last;
    F acc = element(i);
    prefix[i] = acc;
    while (i != end) {
        i = reverse ? i - groups : i + groups;
        acc = acc * element(i);
        prefix[i] = acc;
    }
    return acc;
}

namespace batch_inverse_detail {
// The down walk of group t for both forms below: kEarly takes (element, finish), the plain form
// (visit, unused).
template <bool kEarly, class F, class First, class Second>
CUZK_HD void walk_down(size_t t, size_t groups, size_t m, const F* prefix, F inverse,
                       First&& first, Second&& second, bool reverse) {
    if (t >= m) return;
    const size_t last = t + (m - 1 - t) / groups * groups;
    const size_t begin = reverse ? last : t;  // where up's walk began
    size_t i = reverse ? t : last;
    while (i != begin) {
        const size_t before = reverse ? i + groups : i - groups;  // up's index before i
        const F inverse_i = inverse * prefix[before];
        if constexpr (kEarly) {
            inverse = inverse * first(i);
            second(i, inverse_i);
        } else {
            inverse = inverse * first(i, inverse_i);
        }
        i = before;
    }
    if constexpr (kEarly) {
        (void)first(begin);
        second(begin, inverse);
    } else {
        first(begin, inverse);
    }
}
}  // namespace batch_inverse_detail

// For each index i of group t, in the opposite order of up's walk (`reverse` as given to up):
// visit(i, e_i⁻¹) → e_i. `inverse` is the inverse of the group's product; prefix[] is up's output
// and is only read here (a visit may overwrite prefix[i] itself: the walk has read it already,
// and reads only prefixes of indices it has yet to visit).
template <class F, class Visit>
CUZK_HD void prefix_products_down(size_t t, size_t groups, size_t m, const F* prefix, F inverse,
                                  Visit&& visit, bool reverse = false) {
    batch_inverse_detail::walk_down<false>(t, groups, m, prefix, inverse, visit, 0, reverse);
}

// The same walk with the visit in two calls: element(i) → e_i, then the running inverse moves
// on (inverse ← inverse·e_i), then finish(i, e_i⁻¹) — for a visitor whose work on e_i⁻¹ is
// large (the batch-affine addition): neither e_i nor the old running inverse is live across it.
// element(i) and finish(i, ·) are called back to back for each index, in down's order.
template <class F, class Element, class Finish>
CUZK_HD void prefix_products_down_early(size_t t, size_t groups, size_t m, const F* prefix,
                                        F inverse, Element&& element, Finish&& finish,
                                        bool reverse = false) {
    batch_inverse_detail::walk_down<true>(t, groups, m, prefix, inverse, element, finish,
                                          reverse);
}

}  // namespace cuzk::gpu
