// BigInt<N>: an unsigned integer of N little-endian 64-bit limbs, with constexpr arithmetic.
//
// Used to state and derive constants at compile time (moduli, Montgomery constants, exponents)
// and for exponents that are not field elements ((p^12 - 1)/r, (p - 1)/6, ...). It is not a
// hot-path type: field arithmetic lives in mont_arith.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "util/hd.hpp"

namespace cuzk::ff {

// 128-bit unsigned integer (a GCC/Clang extension; __extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 uint128_t;

// 64×64 → 128-bit product as (hi, lo), portable: 32-bit halves only, so it is constexpr,
// works without __int128 and is the reference for the fast paths.
struct Wide64 {
    uint64_t lo;
    uint64_t hi;
};
constexpr CUZK_HD Wide64 mul_wide_portable(uint64_t a, uint64_t b) {
    const uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
    const uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
    const uint64_t p0 = a_lo * b_lo;
    const uint64_t p1 = a_lo * b_hi;
    const uint64_t p2 = a_hi * b_lo;
    const uint64_t p3 = a_hi * b_hi;
    const uint64_t mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);
    return {(mid << 32) | (p0 & 0xffffffffu), p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32)};
}

// a + b + carry_in → (sum, carry_out), carry in {0,1}.
constexpr CUZK_HD uint64_t add_carry(uint64_t a, uint64_t b, uint64_t& carry) {
    const uint64_t s = a + b;
    const uint64_t c1 = s < a;
    const uint64_t t = s + carry;
    const uint64_t c2 = t < s;
    carry = c1 | c2;
    return t;
}
// a - b - borrow_in → (difference, borrow_out), borrow in {0,1}.
constexpr CUZK_HD uint64_t sub_borrow(uint64_t a, uint64_t b, uint64_t& borrow) {
    const uint64_t d = a - b;
    const uint64_t b1 = a < b;
    const uint64_t t = d - borrow;
    const uint64_t b2 = d < borrow;
    borrow = b1 | b2;
    return t;
}

template <size_t N>
struct BigInt {
    uint64_t limb[N] = {};

    static constexpr size_t kLimbs = N;
    static constexpr size_t kBits = 64 * N;

    static constexpr BigInt from_u64(uint64_t v) {
        BigInt r;
        r.limb[0] = v;
        return r;
    }

    // Parses a hexadecimal literal ("0x..." optional). Digits beyond the capacity are a
    // compile-time error when used in a constant expression (the throw is not constant).
    static constexpr BigInt from_hex(std::string_view s) {
        if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
        BigInt r;
        size_t bit = 0;
        for (size_t i = s.size(); i-- > 0;) {
            const char c = s[i];
            uint64_t d = 0;
            if (c >= '0' && c <= '9') d = static_cast<uint64_t>(c - '0');
            else if (c >= 'a' && c <= 'f') d = static_cast<uint64_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = static_cast<uint64_t>(c - 'A' + 10);
            else if (c == '_' || c == '\'') continue;
            else throw "BigInt::from_hex: invalid digit";
            if (d != 0 && bit / 64 >= N) throw "BigInt::from_hex: value too large";
            if (bit / 64 < N) r.limb[bit / 64] |= d << (bit % 64);
            bit += 4;
        }
        return r;
    }

    constexpr bool is_zero() const {
        for (size_t i = 0; i < N; ++i)
            if (limb[i] != 0) return false;
        return true;
    }
    constexpr bool bit(size_t i) const { return i < kBits && ((limb[i / 64] >> (i % 64)) & 1); }
    constexpr size_t bit_length() const {
        for (size_t i = N; i-- > 0;)
            if (limb[i] != 0) return 64 * i + 64 - static_cast<size_t>(__builtin_clzll(limb[i]));
        return 0;
    }
    constexpr size_t trailing_zeros() const {
        for (size_t i = 0; i < N; ++i)
            if (limb[i] != 0) return 64 * i + static_cast<size_t>(__builtin_ctzll(limb[i]));
        return kBits;
    }
    constexpr bool is_odd() const { return limb[0] & 1; }

    friend constexpr bool operator==(const BigInt& a, const BigInt& b) {
        for (size_t i = 0; i < N; ++i)
            if (a.limb[i] != b.limb[i]) return false;
        return true;
    }
    // -1, 0, 1
    friend constexpr int compare(const BigInt& a, const BigInt& b) {
        for (size_t i = N; i-- > 0;) {
            if (a.limb[i] < b.limb[i]) return -1;
            if (a.limb[i] > b.limb[i]) return 1;
        }
        return 0;
    }
    friend constexpr bool operator<(const BigInt& a, const BigInt& b) { return compare(a, b) < 0; }
    friend constexpr bool operator>=(const BigInt& a, const BigInt& b) { return compare(a, b) >= 0; }

    // In-place add/sub returning the carry/borrow out.
    constexpr uint64_t add_in_place(const BigInt& b) {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) limb[i] = add_carry(limb[i], b.limb[i], c);
        return c;
    }
    constexpr uint64_t sub_in_place(const BigInt& b) {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) limb[i] = sub_borrow(limb[i], b.limb[i], c);
        return c;
    }
    constexpr BigInt shr(size_t k) const {
        BigInt r;
        const size_t w = k / 64, s = k % 64;
        for (size_t i = 0; i + w < N; ++i) {
            uint64_t v = limb[i + w] >> s;
            if (s != 0 && i + w + 1 < N) v |= limb[i + w + 1] << (64 - s);
            r.limb[i] = v;
        }
        return r;
    }
    constexpr BigInt shl(size_t k) const {
        BigInt r;
        const size_t w = k / 64, s = k % 64;
        for (size_t i = N; i-- > w;) {
            uint64_t v = limb[i - w] << s;
            if (s != 0 && i - w >= 1) v |= limb[i - w - 1] >> (64 - s);
            r.limb[i] = v;
        }
        return r;
    }
    // Divides in place by a small divisor; returns the remainder.
    constexpr uint64_t div_small_in_place(uint64_t d) {
        uint128_t rem = 0;
        for (size_t i = N; i-- > 0;) {
            const uint128_t cur = (rem << 64) | limb[i];
            limb[i] = static_cast<uint64_t>(cur / d);
            rem = cur % d;
        }
        return static_cast<uint64_t>(rem);
    }
    // Widening/narrowing copy (narrowing drops high limbs).
    template <size_t M>
    constexpr BigInt<M> resize() const {
        BigInt<M> r;
        for (size_t i = 0; i < (M < N ? M : N); ++i) r.limb[i] = limb[i];
        return r;
    }
};

template <size_t N>
constexpr BigInt<N> operator+(BigInt<N> a, const BigInt<N>& b) {
    a.add_in_place(b);
    return a;
}
template <size_t N>
constexpr BigInt<N> operator-(BigInt<N> a, const BigInt<N>& b) {
    a.sub_in_place(b);
    return a;
}
// Full product, truncated to N limbs (callers size N for the result).
template <size_t N>
constexpr BigInt<N> operator*(const BigInt<N>& a, const BigInt<N>& b) {
    BigInt<N> r;
    for (size_t i = 0; i < N; ++i) {
        uint64_t carry = 0;
        for (size_t j = 0; i + j < N; ++j) {
            const Wide64 p = mul_wide_portable(a.limb[i], b.limb[j]);
            uint64_t c = 0;
            uint64_t lo = add_carry(r.limb[i + j], p.lo, c);
            uint64_t hi = p.hi + c;
            c = 0;
            lo = add_carry(lo, carry, c);
            hi += c;
            r.limb[i + j] = lo;
            carry = hi;
        }
    }
    return r;
}
// Quotient and remainder by binary long division (constexpr; for constants and exponents only).
template <size_t N>
struct DivMod {
    BigInt<N> quotient, remainder;
};
template <size_t N>
constexpr DivMod<N> divmod(const BigInt<N>& a, const BigInt<N>& m) {
    DivMod<N> out;
    for (size_t i = a.bit_length(); i-- > 0;) {
        const uint64_t top = out.remainder.limb[N - 1] >> 63;
        out.remainder = out.remainder.shl(1);
        out.remainder.limb[0] |= a.bit(i) ? 1 : 0;
        if (top || out.remainder >= m) {
            out.remainder.sub_in_place(m);
            out.quotient.limb[i / 64] |= uint64_t{1} << (i % 64);
        }
    }
    return out;
}
template <size_t N>
constexpr BigInt<N> mod(const BigInt<N>& a, const BigInt<N>& m) {
    return divmod(a, m).remainder;
}

}  // namespace cuzk::ff
