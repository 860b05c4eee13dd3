// Montgomery product on 32-bit limbs with PTX carry chains (device code only).
//
// Representation: the operands are DeviceField limb arrays (N little-endian 64-bit limbs, a·R mod
// p with R = 2^(64N), fully reduced) read as n = 2N little-endian 32-bit words — the same bytes.
// The result is a·b·R⁻¹ mod p, fully reduced: bit-identical to ff::mont_mul (the host and the
// 64-bit device path), which the GPU tests check on edge and random operands.
//
// Algorithm: CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
// algorithms", IEEE Micro 16(3), 1996) with 32-bit words. For each word b_i of b:
//     t += a·b_i        two carry chains: the low halves of a_j·b_i into t_j (mad.lo.cc,
//                       madc.lo.cc), then the high halves into t_{j+1} (mad.hi.cc, madc.hi.cc)
//     m = t_0·(−p⁻¹) mod 2^32;   t += m·p    (the same two chains; t_0 becomes 0)
//     t >>= 32
// t stays below 2p, so one conditional subtraction of p (sub.cc/subc.cc, the borrow decides)
// ends it. 4n² multiply-adds — 256 for Fr, 576 for Fp — each a single 32-bit IMAD, where the
// 64-bit path spends several instructions per 64×64→128 product and its carries.
//
// Carry chains: each instruction is its own asm statement (volatile, so they keep their order);
// the condition-code register carries between consecutive statements of one chain, the idiom
// CUDA field libraries rely on. Nothing else runs between the statements of a chain.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

#if defined(__CUDA_ARCH__)

// t[0..n+1] += x·w: t[j] += lo(x_j·w) for j < n with the carry into t[n], t[n+1]; then
// t[j+1] += hi(x_j·w) with the carry into t[n+1].
template <int kN>
__device__ __forceinline__ void ptx_mul_add_word(uint32_t* t, const uint32_t* x, uint32_t w) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(x[0]), "r"(w));
#pragma unroll
    for (int j = 1; j < kN; ++j)
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(x[j]), "r"(w));
    asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[kN]));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[kN + 1]));
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(x[0]), "r"(w));
#pragma unroll
    for (int j = 1; j < kN; ++j)
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(x[j]), "r"(w));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[kN + 1]));
}

// r = a·b·2^(−64·kLimbs64) mod p for fully reduced a, b < p (64-bit limb arrays).
template <size_t kLimbs64>
__device__ __forceinline__ void mont_mul_ptx(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                             const uint64_t* p, uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], y[n], q[n], t[n + 2];
#pragma unroll
    for (int i = 0; i < static_cast<int>(kLimbs64); ++i) {
        x[2 * i] = static_cast<uint32_t>(a[i]);
        x[2 * i + 1] = static_cast<uint32_t>(a[i] >> 32);
        y[2 * i] = static_cast<uint32_t>(b[i]);
        y[2 * i + 1] = static_cast<uint32_t>(b[i] >> 32);
        q[2 * i] = static_cast<uint32_t>(p[i]);
        q[2 * i + 1] = static_cast<uint32_t>(p[i] >> 32);
    }
#pragma unroll
    for (int j = 0; j < n + 2; ++j) t[j] = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
        ptx_mul_add_word<n>(t, x, y[i]);
        const uint32_t m = t[0] * inv32;
        ptx_mul_add_word<n>(t, q, m);
#pragma unroll
        for (int j = 0; j < n + 1; ++j) t[j] = t[j + 1];
        t[n + 1] = 0;
    }
    // t (words 0..n) < 2p: subtract p once if t ≥ p.
    uint32_t s[n], borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(t[0]), "r"(q[0]));
#pragma unroll
    for (int j = 1; j < n; ++j)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s[j]) : "r"(t[j]), "r"(q[j]));
    asm volatile("subc.u32 %0, %1, 0;" : "=r"(borrow) : "r"(t[n]));
    // t[n] − borrow-in is 0xffffffff exactly when t < p (t[n] is 0: t < 2p < 2^(32n))
    const bool keep_t = borrow == 0xffffffffu;
#pragma unroll
    for (int i = 0; i < static_cast<int>(kLimbs64); ++i) {
        const uint32_t lo = keep_t ? t[2 * i] : s[2 * i];
        const uint32_t hi = keep_t ? t[2 * i + 1] : s[2 * i + 1];
        r[i] = (static_cast<uint64_t>(hi) << 32) | lo;
    }
}

// ---- additions (same representation and results as ff::mod_add / mod_sub / mod_neg) -------
//
// The shared 64-bit limb code computes each carry with compares (s < a), which the GPU runs as
// several 32-bit instructions per limb; here each word costs one add.cc/addc.cc (or sub) in a
// carry chain, then one chain for the correction and a select per word.

template <size_t kLimbs64>
__device__ __forceinline__ void split_words(uint32_t* w, const uint64_t* v) {
#pragma unroll
    for (int i = 0; i < static_cast<int>(kLimbs64); ++i) {
        w[2 * i] = static_cast<uint32_t>(v[i]);
        w[2 * i + 1] = static_cast<uint32_t>(v[i] >> 32);
    }
}

// s = x + y (kSubtract false) or x − y over n words in one carry chain, whose last carry goes
// into the returned word: top + carry, or top − borrow (so 0xffffffff for top = 0 and a
// borrow).
template <int n, bool kSubtract>
__device__ __forceinline__ uint32_t ptx_chain(uint32_t* s, const uint32_t* x, const uint32_t* y,
                                              uint32_t top) {
    uint32_t out;
    if constexpr (kSubtract) {
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
        for (int j = 1; j < n; ++j)
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s[j]) : "r"(x[j]), "r"(y[j]));
        asm volatile("subc.u32 %0, %1, 0;" : "=r"(out) : "r"(top));
    } else {
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(x[0]), "r"(y[0]));
#pragma unroll
        for (int j = 1; j < n; ++j)
            asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s[j]) : "r"(x[j]), "r"(y[j]));
        asm volatile("addc.u32 %0, %1, 0;" : "=r"(out) : "r"(top));
    }
    return out;
}

// r = x − p if x ≥ p else x, for x = (top·2^(32n) + words x) < 2p; r as 64-bit limbs.
template <size_t kLimbs64>
__device__ __forceinline__ void ptx_reduce_once(uint64_t* r, const uint32_t* x, uint32_t top,
                                                const uint32_t* q) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t d[n];
    const bool keep_x = ptx_chain<n, true>(d, x, q, top) == 0xffffffffu;  // wrapped: x < p
#pragma unroll
    for (int i = 0; i < static_cast<int>(kLimbs64); ++i) {
        const uint32_t lo = keep_x ? x[2 * i] : d[2 * i];
        const uint32_t hi = keep_x ? x[2 * i + 1] : d[2 * i + 1];
        r[i] = (static_cast<uint64_t>(hi) << 32) | lo;
    }
}

// r = a ± b mod p for a, b < p: the sum reduced once, or the difference plus p when it
// borrowed.
template <size_t kLimbs64, bool kSubtract>
__device__ __forceinline__ void mod_add_sub_ptx(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                const uint64_t* p) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], y[n], q[n], s[n];
    split_words<kLimbs64>(x, a);
    split_words<kLimbs64>(y, b);
    split_words<kLimbs64>(q, p);
    const uint32_t top = ptx_chain<n, kSubtract>(s, x, y, 0);
    if constexpr (!kSubtract) {
        ptx_reduce_once<kLimbs64>(r, s, top, q);
    } else {
#pragma unroll
        for (int j = 0; j < n; ++j) q[j] &= top;  // top: all ones when a < b
        (void)ptx_chain<n, false>(s, s, q, 0);     // the carry out is dropped
#pragma unroll
        for (int i = 0; i < static_cast<int>(kLimbs64); ++i)
            r[i] = (static_cast<uint64_t>(s[2 * i + 1]) << 32) | s[2 * i];
    }
}

#endif  // __CUDA_ARCH__

}  // namespace cuzk::gpu::detail
