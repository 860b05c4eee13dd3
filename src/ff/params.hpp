// The one source of BLS12-381 field constants. Everything else is derived here at compile time
// and checked with static_assert.
//
// Sources: the BLS12-381 parameters (Bowe, "BLS12-381: New zk-SNARK Elliptic Curve Construction",
// electriccoin.co/blog/new-snark-curve; IETF draft-irtf-cfrg-pairing-friendly-curves §4.2.1).
// Curve parameter x = −0xd201000000010000;  p = (x − 1)² (x⁴ − x² + 1)/3 + x;  r = x⁴ − x² + 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/mont_arith.hpp"

namespace cuzk::ff {

// Montgomery constants of an odd modulus with N limbs.
template <size_t N>
struct MontgomeryConstants {
    BigInt<N> modulus;
    uint64_t inv;  // −p^−1 mod 2^64
    BigInt<N> r;   // R mod p = Montgomery form of 1
    BigInt<N> r2;  // R² mod p: multiplying by it converts into Montgomery form
};

template <size_t N>
constexpr MontgomeryConstants<N> derive_montgomery(const BigInt<N>& p) {
    MontgomeryConstants<N> c{};
    c.modulus = p;
    // Newton iteration for p0^−1 mod 2^64: x ← x(2 − p0·x); x = p0 is exact to 3 bits.
    uint64_t x = p.limb[0];
    for (int i = 0; i < 6; ++i) x *= 2 - p.limb[0] * x;
    c.inv = 0 - x;
    BigInt<2 * N + 1> wide_p = p.template resize<2 * N + 1>();
    BigInt<2 * N + 1> big_r;
    big_r.limb[N] = 1;  // 2^(64N)
    c.r = mod(big_r, wide_p).template resize<N>();
    BigInt<2 * N + 1> big_r2;
    big_r2.limb[2 * N] = 1;  // 2^(128N)
    c.r2 = mod(big_r2, wide_p).template resize<N>();
    return c;
}

// Checks of the derivation that do not repeat it: p·inv ≡ −1, and Montgomery products of the
// derived constants behave as 1 and R should.
template <size_t N>
constexpr bool montgomery_constants_consistent(const MontgomeryConstants<N>& c) {
    if (c.modulus.limb[0] * c.inv != ~uint64_t{0}) return false;
    uint64_t one[N] = {1};
    uint64_t out[N] = {};
    // mont(R², 1) = R
    mont_mul<N, PortableWords>(out, c.r2.limb, one, c.modulus.limb, c.inv);
    for (size_t i = 0; i < N; ++i)
        if (out[i] != c.r.limb[i]) return false;
    // mont(R, R) = R  (one · one = one)
    mont_mul<N, PortableWords>(out, c.r.limb, c.r.limb, c.modulus.limb, c.inv);
    for (size_t i = 0; i < N; ++i)
        if (out[i] != c.r.limb[i]) return false;
    // mont(1, R) = 1 (leaving Montgomery form)
    mont_mul<N, PortableWords>(out, one, c.r.limb, c.modulus.limb, c.inv);
    if (out[0] != 1) return false;
    for (size_t i = 1; i < N; ++i)
        if (out[i] != 0) return false;
    return true;
}

// |x|, the BLS parameter's absolute value; x itself is negative.
inline constexpr uint64_t kBlsX = 0xd201000000010000ULL;
inline constexpr bool kBlsXIsNegative = true;

struct FpParams {
    static constexpr size_t kLimbs = 6;
    static constexpr size_t kBytes = 48;
    static constexpr const char* kName = "Fp";
    static constexpr BigInt<6> kModulus = BigInt<6>::from_hex(
        "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
    static constexpr MontgomeryConstants<6> kMont = derive_montgomery(kModulus);
};

struct FrParams {
    static constexpr size_t kLimbs = 4;
    static constexpr size_t kBytes = 32;
    static constexpr const char* kName = "Fr";
    static constexpr BigInt<4> kModulus = BigInt<4>::from_hex(
        "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    static constexpr MontgomeryConstants<4> kMont = derive_montgomery(kModulus);
    // r − 1 = 2^S · t with t odd; 7 generates F_r^* (so 7^t has order exactly 2^S).
    static constexpr size_t kTwoAdicity = 32;
    static constexpr uint64_t kMultiplicativeGenerator = 7;
};

namespace detail {
// The polynomials in x that define p and r, evaluated exactly (x negative: use u = |x|).
//   r = u⁴ − u² + 1;  p = (u + 1)² · r / 3 − u     (x − 1 = −(u + 1), x = −u)
constexpr BigInt<8> bls_r_from_x() {
    const BigInt<8> u = BigInt<8>::from_u64(kBlsX);
    const BigInt<8> u2 = u * u;
    return u2 * u2 - u2 + BigInt<8>::from_u64(1);
}
constexpr BigInt<8> bls_p_from_x() {
    const BigInt<8> u = BigInt<8>::from_u64(kBlsX);
    const BigInt<8> u1 = u + BigInt<8>::from_u64(1);
    BigInt<8> t = u1 * u1 * bls_r_from_x();
    if (t.div_small_in_place(3) != 0) throw "p: (x−1)²·r not divisible by 3";
    return t - u;
}
}  // namespace detail

static_assert(detail::bls_r_from_x() == FrParams::kModulus.resize<8>(), "r = x⁴ − x² + 1");
static_assert(detail::bls_p_from_x() == FpParams::kModulus.resize<8>(),
              "p = (x − 1)²(x⁴ − x² + 1)/3 + x");
static_assert(FpParams::kModulus.bit_length() == 381 && FrParams::kModulus.bit_length() == 255);
// Spare top bit required by the no-carry Montgomery product and by lazy additions.
static_assert(FpParams::kModulus.limb[5] < (uint64_t{1} << 63) - 1);
static_assert(FrParams::kModulus.limb[3] < (uint64_t{1} << 63) - 1);
static_assert(montgomery_constants_consistent(FpParams::kMont));
static_assert(montgomery_constants_consistent(FrParams::kMont));
static_assert(FpParams::kModulus.limb[0] % 4 == 3, "p ≡ 3 (mod 4): sqrt is a^((p+1)/4)");
static_assert((FrParams::kModulus - BigInt<4>::from_u64(1)).trailing_zeros() ==
              FrParams::kTwoAdicity);

}  // namespace cuzk::ff
