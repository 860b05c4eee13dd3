// Montgomery arithmetic on raw little-endian 64-bit limb arrays, modulo an odd p with N limbs.
//
// Representation: a value a in [0, p) is stored as a·R mod p, R = 2^(64N). All functions take
// and return fully reduced values (< p). Requirements on p (checked by static_assert in
// params.hpp): odd, and the top limb below 2^63 − 1, so sums of two reduced values fit in N limbs
// and the "no-carry" CIOS variant below is exact.
//
// One algorithm, two word-level multipliers:
//   PortableWords — 32-bit halves only: constexpr, no __int128, the reference (device-ready);
//   Int128Words   — unsigned __int128: the fast host path.
// Tests check that both agree with each other and with GMP.
//
// Montgomery product: CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery
// multiplication algorithms", IEEE Micro 1996) with the "no-carry" shortcut that skips the
// (N+1)-th word when the modulus has a spare top bit (as used by gnark-crypto, documented in
// "Faster Montgomery multiplication", hackmd.io/@gnark/modular_multiplication).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "util/hd.hpp"

namespace cuzk::ff {

struct PortableWords {
    // a·b + c + d as (lo, hi); cannot overflow: (2^64−1)^2 + 2(2^64−1) = 2^128 − 1.
    static constexpr CUZK_HD Wide64 madd(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
        Wide64 p = mul_wide_portable(a, b);
        uint64_t carry = 0;
        p.lo = add_carry(p.lo, c, carry);
        p.hi += carry;
        carry = 0;
        p.lo = add_carry(p.lo, d, carry);
        p.hi += carry;
        return p;
    }
};

struct Int128Words {
    static constexpr Wide64 madd(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
        const uint128_t t = static_cast<uint128_t>(a) * b + c + d;
        return {static_cast<uint64_t>(t), static_cast<uint64_t>(t >> 64)};
    }
};

// out = t − p if t ≥ p else t  (t < 2p).
template <size_t N>
constexpr CUZK_HD void mont_reduce_once(uint64_t out[N], const uint64_t t[N], const uint64_t p[N]) {
    uint64_t d[N];
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) d[i] = sub_borrow(t[i], p[i], borrow);
    const uint64_t keep_t = 0 - borrow;  // all ones when t < p
    for (size_t i = 0; i < N; ++i) out[i] = (t[i] & keep_t) | (d[i] & ~keep_t);
}

template <size_t N, class Words>
constexpr CUZK_HD void mont_mul(uint64_t out[N], const uint64_t a[N], const uint64_t b[N],
                                const uint64_t p[N], uint64_t inv) {
    uint64_t t[N] = {};
    for (size_t i = 0; i < N; ++i) {
        // (A, t0) = t0 + a0·b_i
        Wide64 ab = Words::madd(a[0], b[i], t[0], 0);
        uint64_t carry_a = ab.hi;
        const uint64_t m = ab.lo * inv;
        // (C, _) = t0 + m·p0   (low word is zero by the choice of m)
        Wide64 mp = Words::madd(m, p[0], ab.lo, 0);
        uint64_t carry_m = mp.hi;
        for (size_t j = 1; j < N; ++j) {
            ab = Words::madd(a[j], b[i], t[j], carry_a);
            carry_a = ab.hi;
            mp = Words::madd(m, p[j], ab.lo, carry_m);
            carry_m = mp.hi;
            t[j - 1] = mp.lo;
        }
        t[N - 1] = carry_a + carry_m;
    }
    mont_reduce_once<N>(out, t, p);
}

template <size_t N>
constexpr CUZK_HD void mod_add(uint64_t out[N], const uint64_t a[N], const uint64_t b[N],
                               const uint64_t p[N]) {
    uint64_t s[N];
    uint64_t carry = 0;
    for (size_t i = 0; i < N; ++i) s[i] = add_carry(a[i], b[i], carry);
    mont_reduce_once<N>(out, s, p);
}

template <size_t N>
constexpr CUZK_HD void mod_sub(uint64_t out[N], const uint64_t a[N], const uint64_t b[N],
                               const uint64_t p[N]) {
    uint64_t d[N];
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) d[i] = sub_borrow(a[i], b[i], borrow);
    const uint64_t mask = 0 - borrow;  // add p back when a < b
    uint64_t carry = 0;
    for (size_t i = 0; i < N; ++i) out[i] = add_carry(d[i], p[i] & mask, carry);
}

template <size_t N>
constexpr CUZK_HD void mod_neg(uint64_t out[N], const uint64_t a[N], const uint64_t p[N]) {
    uint64_t nonzero = 0;
    for (size_t i = 0; i < N; ++i) nonzero |= a[i];
    const uint64_t mask = nonzero ? ~uint64_t{0} : 0;  // −0 = 0, not p
    uint64_t borrow = 0;
    for (size_t i = 0; i < N; ++i) out[i] = sub_borrow(p[i] & mask, a[i], borrow);
}

}  // namespace cuzk::ff
