// Field<P>: an element of the prime field F_p described by the parameter struct P
// (see params.hpp for Fp and Fr).
//
// Representation: N = P::kLimbs little-endian 64-bit limbs holding a·R mod p, R = 2^(64N)
// (Montgomery form), always fully reduced (< p). The layout is a plain array, so host buffers
// can be copied to the device as they are. Default construction gives zero.
//
// Arithmetic is constexpr; at run time the products use the fast host path (the mulx/adcx/adox
// assembly of mont_asm_x86.hpp for 4 and 6 limbs when compiled in and switched on, otherwise
// Int128Words), in constant evaluation the portable reference path (PortableWords). Not
// thread-hostile: values are plain data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "ff/bigint.hpp"
#include "ff/mont_arith.hpp"
#include "ff/mont_asm_x86.hpp"
#include "util/rng.hpp"
#include "util/status.hpp"

namespace cuzk::ff {

template <class P>
struct Field {
    static constexpr size_t kLimbs = P::kLimbs;
    static constexpr size_t kBytes = P::kBytes;  // canonical encoding length
    using Int = BigInt<kLimbs>;

    uint64_t limb[kLimbs] = {};

    // ---- constants ---------------------------------------------------------------------------
    static constexpr Field zero() { return Field(); }
    static constexpr Field one() { return raw(P::kMont.r); }
    static constexpr const Int& modulus() { return P::kMont.modulus; }
    static constexpr size_t bits() { return P::kMont.modulus.bit_length(); }

    // From limbs that are already in Montgomery form (no check).
    static constexpr Field raw(const Int& mont) {
        Field f;
        for (size_t i = 0; i < kLimbs; ++i) f.limb[i] = mont.limb[i];
        return f;
    }
    // From a canonical integer; it is reduced mod p first if it is not below p.
    static constexpr Field from_int(Int v) {
        if (!(v < modulus())) v = mod(v, modulus());
        Field f = raw(v);
        return f * raw(P::kMont.r2);
    }
    static constexpr Field from_u64(uint64_t v) { return from_int(Int::from_u64(v)); }
    static constexpr Field from_hex(std::string_view s) { return from_int(Int::from_hex(s)); }

    // The canonical integer in [0, p).
    constexpr Int to_int() const {
        Field one_raw;
        one_raw.limb[0] = 1;
        const Field c = *this * one_raw;  // a·R · 1 · R^-1 = a
        Int v;
        for (size_t i = 0; i < kLimbs; ++i) v.limb[i] = c.limb[i];
        return v;
    }

    // ---- arithmetic --------------------------------------------------------------------------
    // Sums and differences: generic limb code, or at run time the adc/sbb chains of
    // mont_asm_x86.hpp under the same switch as the product.
    friend constexpr Field operator+(const Field& a, const Field& b) {
        Field r;
#if CUZK_FF_HAVE_ADX_MUL
        if (!std::is_constant_evaluated() && fast_mul_enabled()) {
            mod_add_x86<kLimbs>(r.limb, a.limb, b.limb, modulus().limb);
            return r;
        }
#endif
        mod_add<kLimbs>(r.limb, a.limb, b.limb, modulus().limb);
        return r;
    }
    friend constexpr Field operator-(const Field& a, const Field& b) {
        Field r;
#if CUZK_FF_HAVE_ADX_MUL
        if (!std::is_constant_evaluated() && fast_mul_enabled()) {
            mod_sub_x86<kLimbs>(r.limb, a.limb, b.limb, modulus().limb);
            return r;
        }
#endif
        mod_sub<kLimbs>(r.limb, a.limb, b.limb, modulus().limb);
        return r;
    }
    constexpr Field operator-() const {
        Field r;
        mod_neg<kLimbs>(r.limb, limb, modulus().limb);
        return r;
    }
    // The product: the portable reference in constant evaluation; at run time the mulx/adcx/adox
    // assembly (mont_asm_x86.hpp) for 4 and 6 limbs when it is compiled in and switched on
    // (ff::set_fast_mul_enabled, CUZK_FF_ASM), otherwise Int128Words. Each run-time path is its
    // own function so that this dispatcher stays small and the compiler inlines either path as
    // it would alone (with the switch off, code and speed are those of the generic path).
    friend constexpr Field operator*(const Field& a, const Field& b) {
        if (std::is_constant_evaluated()) {
            Field r;
            mont_mul<kLimbs, PortableWords>(r.limb, a.limb, b.limb, modulus().limb, P::kMont.inv);
            return r;
        }
#if CUZK_FF_HAVE_ADX_MUL
        if constexpr (kLimbs == 4 || kLimbs == 6) {
            if (active_mul_path<kLimbs>() == MulPath::kAdx) return mul_adx(a, b);
        }
#endif
        return mul_int128(a, b);
    }
    // The reference product (portable words) at run time, for cross-checks.
    static constexpr Field mul_reference(const Field& a, const Field& b) {
        Field r;
        mont_mul<kLimbs, PortableWords>(r.limb, a.limb, b.limb, modulus().limb, P::kMont.inv);
        return r;
    }
    constexpr Field& operator+=(const Field& b) { return *this = *this + b; }
    constexpr Field& operator-=(const Field& b) { return *this = *this - b; }
    constexpr Field& operator*=(const Field& b) { return *this = *this * b; }
    constexpr Field square() const { return *this * *this; }
    constexpr Field dbl() const { return *this + *this; }

    // a^e for any exponent width (left-to-right square and multiply).
    template <size_t M>
    constexpr Field pow(const BigInt<M>& e) const {
        Field r = one();
        for (size_t i = e.bit_length(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    constexpr Field pow(uint64_t e) const { return pow(BigInt<1>::from_u64(e)); }

    // a^(p−2); the inverse of zero is zero (callers check is_zero when it matters).
    constexpr Field inverse() const {
        Int e = modulus();
        e.sub_in_place(Int::from_u64(2));
        return pow(e);
    }

    // 1 for a non-zero square, −1 for a non-square, 0 for zero (Euler's criterion).
    constexpr int legendre() const {
        if (is_zero()) return 0;
        const Field t = pow(modulus().shr(1));  // a^((p−1)/2), p odd
        return t == one() ? 1 : -1;
    }

    constexpr bool is_zero() const {
        uint64_t acc = 0;
        for (size_t i = 0; i < kLimbs; ++i) acc |= limb[i];
        return acc == 0;
    }
    friend constexpr bool operator==(const Field& a, const Field& b) {
        for (size_t i = 0; i < kLimbs; ++i)
            if (a.limb[i] != b.limb[i]) return false;
        return true;
    }
    // Compares canonical values: used for the "lexicographically largest" sign of encodings.
    constexpr bool is_lexicographically_largest() const {
        // a > (p−1)/2  ⇔  a > p − 1 − a  ⇔ a is the larger of {a, −a}
        const Int v = to_int();
        const Int half = modulus().shr(1);
        return compare(v, half) > 0;
    }

    // ---- encodings ---------------------------------------------------------------------------
    // Canonical big-endian / little-endian bytes of the value (kBytes long).
    void to_bytes_be(std::span<uint8_t, kBytes> out) const {
        const Int v = to_int();
        for (size_t i = 0; i < kBytes; ++i)
            out[kBytes - 1 - i] = static_cast<uint8_t>(v.limb[i / 8] >> (8 * (i % 8)));
    }
    void to_bytes_le(std::span<uint8_t, kBytes> out) const {
        const Int v = to_int();
        for (size_t i = 0; i < kBytes; ++i)
            out[i] = static_cast<uint8_t>(v.limb[i / 8] >> (8 * (i % 8)));
    }
    // Rejects values ≥ p (non-canonical) with an error naming the field.
    static util::Result<Field> from_bytes_be(std::span<const uint8_t, kBytes> in) {
        Int v;
        for (size_t i = 0; i < kBytes; ++i)
            v.limb[i / 8] |= uint64_t{in[kBytes - 1 - i]} << (8 * (i % 8));
        return checked(v);
    }
    static util::Result<Field> from_bytes_le(std::span<const uint8_t, kBytes> in) {
        Int v;
        for (size_t i = 0; i < kBytes; ++i) v.limb[i / 8] |= uint64_t{in[i]} << (8 * (i % 8));
        return checked(v);
    }

    // Uniform random element (rejection sampling on the masked top limb).
    static Field random(util::TestRng& rng) {
        const size_t top_bits = bits() % 64 == 0 ? 64 : bits() % 64;
        const uint64_t top_mask = top_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << top_bits) - 1;
        for (;;) {
            Int v;
            for (size_t i = 0; i < kLimbs; ++i) v.limb[i] = rng.next_u64();
            v.limb[kLimbs - 1] &= top_mask;
            if (v < modulus()) return raw(v);  // a uniform Montgomery value is a uniform value
        }
    }

    std::string to_hex() const {  // canonical value, big-endian, 0x-prefixed
        static constexpr char kDigits[] = "0123456789abcdef";
        const Int v = to_int();
        std::string s = "0x";
        for (size_t i = kLimbs; i-- > 0;)
            for (int k = 60; k >= 0; k -= 4) s.push_back(kDigits[(v.limb[i] >> k) & 15]);
        return s;
    }

   private:
    static Field mul_int128(const Field& a, const Field& b) {
        Field r;
        mont_mul<kLimbs, Int128Words>(r.limb, a.limb, b.limb, modulus().limb, P::kMont.inv);
        return r;
    }
#if CUZK_FF_HAVE_ADX_MUL
    static Field mul_adx(const Field& a, const Field& b) {
        Field r;
        mont_mul_adx<kLimbs>(r.limb, a.limb, b.limb, modulus().limb, P::kMont.inv);
        return r;
    }
#endif

    static util::Result<Field> checked(const Int& v) {
        if (!(v < modulus()))
            return util::invalid_argument(std::string(P::kName) +
                                          " element is not canonical (value >= modulus)");
        return from_int(v);
    }
};

// Inverts every non-zero element of xs in place with one field inversion (Montgomery's trick);
// zeros stay zero. scratch is resized as needed.
template <class F, class Vec>
void batch_inverse(F* xs, size_t n, Vec& scratch) {
    scratch.resize(n);
    F acc = F::one();
    for (size_t i = 0; i < n; ++i) {
        scratch[i] = acc;
        if (!xs[i].is_zero()) acc *= xs[i];
    }
    F inv = acc.inverse();
    for (size_t i = n; i-- > 0;) {
        if (xs[i].is_zero()) continue;
        const F x = xs[i];
        xs[i] = inv * scratch[i];
        inv *= x;
    }
}

}  // namespace cuzk::ff
