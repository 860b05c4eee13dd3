// Fr Montgomery product on the FP64 pipe (device code only).
//
// Why: the 32-bit PTX product (mont_ptx.cuh) runs its multiply-adds on the FMA-heavy pipe, which
// bounds the NTT passes (77 % of its cycles active, session 19). Hopper's FP64 pipe multiplies
// at the same rate per SM and sits idle; this product moves the limb products there, so that
// a kernel mixing the two products (FieldArith::kHybridFp64, ntt_kernels.cu) can use both.
//
// Representation: as mont_ptx.cuh — the operands are four little-endian 64-bit limbs of a·R mod
// p, R = 2^256, fully reduced; the result a·b·R⁻¹ mod p, fully reduced, bit-identical to
// ff::mont_mul (the GPU tests check it on edge and random operands). Inside, an operand is five
// 52-bit limbs held as doubles (exact integers): a = Σ A_k·2^(52k), A_4 < 2^48.
//
// Limb products (Emmart, Zheng, Weems, "Faster Modular Exponentiation Using Double Precision
// Floating Point Arithmetic on the GPU", ARITH 2018): for integers x, y < 2^52,
//   h = fma_rz(x, y, 2^104)       = 2^104 + ⌊xy / 2^52⌋·2^52   (the binade's ulp is 2^52)
//   s = h − (2^104 + 2^52)        = (⌊xy / 2^52⌋ − 1)·2^52      (exact)
//   l = fma_rn(x, y, −s)          = 2^52 + (xy mod 2^52)         (exact: in [2^52, 2^53))
// so the bit patterns of h and l are the integers kHiBias + hi and kLoBias + lo. Column k
// (weight 2^(52k)) sums those patterns as 64-bit integers less their bias (a constant the
// compiler folds into the additions); a column's true value stays below 2^57, so the 64-bit
// sums are exact.
//
// Reduction: Montgomery by 2^256 in rounds of 52, 52, 52, 52 and 48 bits. Fr's p ≡ 1 − 2^32
// mod 2^52 (its low word is 2^64 − 2^32 + 1), so −p⁻¹ ≡ −(1 + 2^32) and a round's
// m = −c·(1 + 2^32) mod 2^bits needs no product; and since lo(m·p_0) ≡ −c mod 2^52, a 52-bit
// round adds only hi(m·p_0) and the column's carry ⌈c / 2^52⌉. The result
// T = (a·b + M·p) / 2^256 with M < 2^256 and p < 2^255 is below 1.5p: one conditional subtraction.
// Per product: 157 FP64 operations (75 for a·b, 10 conversions, 72 in the reduction); the
// column sums, carries and conversions run on the integer ALU.
// Measured (H100, 2026-12-07, `cuzk bench gpu-arith`): 51.1 G products/s against the sparse
// PTX product's 65.4; chains alternating the two 58.4, their harmonic mean — no overlap of the
// pipes, so not used by default (NttOptions::fp64_products).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/mont_ptx.cuh"

namespace cuzk::gpu::detail {

namespace fp64_limbs {

inline constexpr uint64_t kMask52 = (uint64_t{1} << 52) - 1;
inline constexpr uint64_t kMask48 = (uint64_t{1} << 48) - 1;

// The 52-bit limb k (k < 5) of a 256-bit value given as four 64-bit limbs.
constexpr uint64_t limb52(const uint64_t (&v)[4], int k) {
    const int bit = 52 * k;
    const int word = bit / 64, shift = bit % 64;
    uint64_t x = v[word] >> shift;
    if (shift > 12 && word + 1 < 4) x |= v[word + 1] << (64 - shift);
    return x & kMask52;
}

// Limb k of the modulus (P0, P1, P2, P3) as a double: a scalar constant device code may use.
template <uint64_t P0, uint64_t P1, uint64_t P2, uint64_t P3, int K>
inline constexpr double kModulusLimb = static_cast<double>(limb52({P0, P1, P2, P3}, K));

}  // namespace fp64_limbs

#if defined(__CUDA_ARCH__)

namespace fp64_limbs {

inline constexpr uint64_t kLoBias = 0x4330000000000000ull;  // the bit pattern of 2^52
inline constexpr uint64_t kHiBias = 0x4670000000000000ull;  // the bit pattern of 2^104
inline constexpr double kTwo52 = 0x1p52;
inline constexpr double kTwo104 = 0x1p104;
inline constexpr double kTwo104Plus52 = 0x1p104 + 0x1p52;

// x < 2^52 as a double: the pattern of 2^52 + x, less 2^52 (exact).
__device__ __forceinline__ double to_double(uint64_t x) {
    return __dsub_rn(__longlong_as_double(static_cast<long long>(x | kLoBias)), kTwo52);
}
__device__ __forceinline__ uint64_t pattern(double x) {
    return static_cast<uint64_t>(__double_as_longlong(x));
}

// The five 52-bit limbs of v < 2^256 (four 64-bit limbs) as doubles.
__device__ __forceinline__ void split(double (&d)[5], const uint64_t* v) {
    d[0] = to_double(v[0] & kMask52);
    d[1] = to_double(((v[0] >> 52) | (v[1] << 12)) & kMask52);
    d[2] = to_double(((v[1] >> 40) | (v[2] << 24)) & kMask52);
    d[3] = to_double(((v[2] >> 28) | (v[3] << 36)) & kMask52);
    d[4] = to_double(v[3] >> 16);
}

// c[k] += x·y mod 2^52, c[k + 1] += ⌊x·y / 2^52⌋ for integers x, y < 2^52.
__device__ __forceinline__ void mul_add(uint64_t* c, int k, double x, double y) {
    const double h = __fma_rz(x, y, kTwo104);
    const double l = __fma_rn(x, y, -__dsub_rn(h, kTwo104Plus52));
    c[k] += pattern(l) - kLoBias;
    c[k + 1] += pattern(h) - kHiBias;
}

}  // namespace fp64_limbs

// r = a·b·2^−256 mod p for a, b < p (four 64-bit limbs each); p = (p0, p1, p2, p3) with
// p0 = 2^64 − 2^32 + 1 and p < 2^255 (Fr). q: p's eight 32-bit words (the final subtraction).
template <uint64_t P0, uint64_t P1, uint64_t P2, uint64_t P3>
__device__ __forceinline__ void mont_mul_fp64(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                              const uint32_t* q) {
    using namespace fp64_limbs;
    static_assert(P0 == 0xffffffff00000001ull, "m = −c·(1 + 2^32) needs p ≡ 1 − 2^32 mod 2^64");
    static_assert(P3 >> 63 == 0, "the bound T < 2p needs p < 2^255");
    const double kPd[5] = {kModulusLimb<P0, P1, P2, P3, 0>, kModulusLimb<P0, P1, P2, P3, 1>,
                           kModulusLimb<P0, P1, P2, P3, 2>, kModulusLimb<P0, P1, P2, P3, 3>,
                           kModulusLimb<P0, P1, P2, P3, 4>};
    double x[5], y[5];
    split(x, a);
    split(y, b);
    uint64_t c[10];
#pragma unroll
    for (int k = 0; k < 10; ++k) c[k] = 0;
#pragma unroll
    for (int i = 0; i < 5; ++i) {
#pragma unroll
        for (int j = 0; j < 5; ++j) mul_add(c, i + j, x[i], y[j]);
    }
#pragma unroll
    for (int i = 0; i < 5; ++i) {
        const uint64_t ci = c[i];
        const uint64_t m = (uint64_t{0} - (ci + (ci << 32))) & (i < 4 ? kMask52 : kMask48);
        const double md = to_double(m);
        if (i < 4) {
            // c_i + lo(m·p_0) is a multiple of 2^52: only its carry and hi(m·p_0) go on.
            c[i + 1] += pattern(__fma_rz(md, kPd[0], kTwo104)) - kHiBias;
            c[i + 1] += (ci >> 52) + ((ci & kMask52) != 0 ? 1 : 0);
        } else {
            mul_add(c, 4, md, kPd[0]);  // c_4 becomes a multiple of 2^48
        }
#pragma unroll
        for (int j = 1; j < 5; ++j) mul_add(c, i + j, md, kPd[j]);
    }
    // T = c_4 / 2^48 + Σ_{k ≥ 5} c_k·2^(52k − 256), with the columns first carried to 52 bits.
#pragma unroll
    for (int k = 4; k < 9; ++k) {
        c[k + 1] += c[k] >> 52;
        c[k] &= kMask52;
    }
    const uint64_t t[4] = {(c[4] >> 48) | (c[5] << 4) | (c[6] << 56), (c[6] >> 8) | (c[7] << 44),
                           (c[7] >> 20) | (c[8] << 32), (c[8] >> 32) | (c[9] << 20)};
    uint32_t w[8];
    split_words<4>(w, t);
    ptx_reduce_once<4>(r, w, 0, q);
}

#endif  // __CUDA_ARCH__

}  // namespace cuzk::gpu::detail
