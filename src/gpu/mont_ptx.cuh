// Montgomery product on 32-bit limbs with PTX carry chains (device code only).
//
// Representation: the operands are DeviceField limb arrays (N little-endian 64-bit limbs, a·R mod
// p with R = 2^(64N), fully reduced) read as n = 2N little-endian 32-bit words — the same bytes.
// The result is a·b·R⁻¹ mod p, fully reduced: bit-identical to ff::mont_mul (the host and the
// 64-bit device path), which the GPU tests check on edge and random operands.
//
// Algorithm: CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
// algorithms", IEEE Micro 16(3), 1996) with 32-bit words. For each word b_i of b:
//     t += a·b_i;   m = t_0·(−p⁻¹) mod 2^32;   t += m·p   (t_0 becomes 0);   t >>= 32
// t stays below 2p, so one conditional subtraction of p (sub.cc/subc.cc, the borrow decides)
// ends it. 4n² 32-bit multiply-adds (lo and hi halves) — 256 for Fr, 576 for Fp.
//
// Two arrangements of the rows, the same arithmetic:
//   mont_mul_ptx (the default) — each product's low and high halves are adjacent statements of
//     one chain (even and odd words of a in two accumulators): ptxas fuses each pair into one
//     wide multiply-add with carry, ~390 SASS instructions per Fp product;
//   mont_mul_ptx_split (the first version, kept for the A/B) — the low halves of a row in one
//     chain, the high halves in another: each half costs its own multiply plus carry
//     additions, ~1,280 SASS instructions per Fp product (sm_90, CUDA 13; the .text of a
//     two-product loop: 784 against 2,552 instructions).
//
// Carry chains: each instruction is its own asm statement (volatile, so they keep their order);
// the condition-code register carries between consecutive statements of one chain, the idiom
// CUDA field libraries rely on. Nothing else runs between the statements of a chain.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

// The arrangements of the product below (DeviceField::mul_ptx_with): paired halves (the
// default), split chains (the first version), Karatsuba then REDC.
enum class PtxProduct { kPaired, kSplit, kKaratsuba };

#if defined(__CUDA_ARCH__)

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

// ---- the product with split chains (the first version) ------------------------------------

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

// r = a·b·2^(−64·kLimbs64) mod p for fully reduced a, b < p (64-bit limb arrays): the first
// version, with the low and the high halves of each row in two separate chains (so no two
// adjacent statements of a chain share a product). Kept for the A/B of `cuzk bench gpu-arith`.
template <size_t kLimbs64>
__device__ __forceinline__ void mont_mul_ptx_split(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                             const uint64_t* p, uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], y[n], q[n], t[n + 2];
    split_words<kLimbs64>(x, a);
    split_words<kLimbs64>(y, b);
    split_words<kLimbs64>(q, p);
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
    ptx_reduce_once<kLimbs64>(r, t, t[n], q);  // t (words 0..n) < 2p
}

// ---- the product with paired halves (the default) -------------------------------------------
//
// The same CIOS steps, arranged so that the low and the high half of one 32×32 product are
// adjacent statements of one carry chain (mad.lo.cc then madc.hi.cc, same operands): ptxas can
// then issue the pair as one wide multiply-add with carry in and out instead of a low product,
// a high product and separate carry additions. That needs the row a·b_i split in two:
//     ev — the products a_j·b_i for even j: low half at word j, high half at word j+1;
//     od — the products for odd j, stored one word down (od[k] weighs 2^(32(k+1))).
// So the running value is T = ev + 2^32·od, ev and od n words each (T reaches word n).
//
// One step for b_i (i > 0), from (ev, od) with ev[0] = 0 after the previous reduction:
//   shift:  T/2^32 = od (now aligned: the next even part) + ev[1] at word 0 + ev[2..] at words
//           1.. (the next odd part, read two words down as the odd row is added: one chain
//           that adds, shifts and starts from the carry of od[0] + ev[1]);
//   add a·b_i: the odd row into the shifted ev, the even row into od (a second chain, whose
//           carry out of word n−1 goes into the top odd word);
//   reduce: m = T_0·(−p⁻¹) mod 2^32, then the odd and even rows of m·p the same way; T_0 = 0.
// The even and odd arrays swap roles every step, so the code alternates the two names.
//
// Bounds (p < 2^(32n−1) for both fields): T < 2p at each step's start and T + a·b_i + m·p <
// 2^(33)·p < 2^(32(n+1)), so T never needs more than words 0..n. Every contribution is
// non-negative and the odd part weighs 2^32, so od < 2^(32n) at all times: its chains never
// carry out of word n, and the even chain's carry out (word n) fits in od's top word.

// acc[2k] = lo(x[2k]·w), acc[2k+1] = hi(x[2k]·w) for 2k < n (no carries: the pairs are disjoint).
template <int n>
__device__ __forceinline__ void ptx_row_mul(uint32_t* acc, const uint32_t* x, uint32_t w) {
#pragma unroll
    for (int j = 0; j < n; j += 2) {
        asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(acc[j]) : "r"(x[j]), "r"(w));
        asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(acc[j + 1]) : "r"(x[j]), "r"(w));
    }
}

// The pairs j = j0, j0 + 2, … < n of a row, continuing a chain: acc[j] += lo(x[j]·w) and
// acc[j+1] += hi(x[j]·w) with carries; the carry out of acc[n−1] is left in the flag.
template <int n, int j0>
__device__ __forceinline__ void ptx_row_madc_from(uint32_t* acc, const uint32_t* x, uint32_t w) {
#pragma unroll
    for (int j = j0; j < n; j += 2) {
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(x[j]), "r"(w));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(x[j]), "r"(w));
    }
}

// acc += Σ_k x[2k]·w·2^(64k) in a new chain; its carry out of acc[n−1] is left in the flag.
template <int n>
__device__ __forceinline__ void ptx_row_mad(uint32_t* acc, const uint32_t* x, uint32_t w) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(x[0]), "r"(w));
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(x[0]), "r"(w));
    ptx_row_madc_from<n, 2>(acc, x, w);
}

// The reduction of one step: (ev, od) += m·p with m = ev[0]·(−p⁻¹), so ev[0] becomes 0.
//
// kSparse: for moduli whose two low words are 1 and 2^32 − 1 (p ≡ 2^64 − 2^32 + 1 mod 2^64, as
// BLS12-381's r; so −p⁻¹ ≡ −1 mod 2^32 and m = −ev[0]), the row products by those two words
// are additions: m·1 = m, and m·(2^32 − 1) = m·2^32 − m has low word −m = ev[0] and high word
// m − [m ≠ 0] (one subtraction with borrow). ptxas turns the products by these immediates into
// multiply-adds on the FMA pipe, which bounds the NTT's passes (ncu: FMA the busiest pipe,
// math-pipe-throttle stalls); here they go to the integer ALU: 16 multiply-adds fewer per Fr
// product. Same values: ev[0] + m = 0 with carry [ev[0] ≠ 0], exactly what mad.lo gives.
template <int n, bool kSparse = false>
__device__ __forceinline__ void ptx_paired_reduce(uint32_t* ev, uint32_t* od, const uint32_t* q,
                                                  uint32_t inv32) {
    if constexpr (kSparse) {
        const uint32_t e0 = ev[0];
        uint32_t m, hi1;
        asm volatile("sub.cc.u32 %0, 0, %1;" : "=r"(m) : "r"(e0));  // m = −e0, borrow [e0 ≠ 0]
        asm volatile("subc.u32 %0, %1, 0;" : "=r"(hi1) : "r"(m));   // hi(m·(2^32 − 1))
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(od[0]) : "r"(e0));  // lo(m·(2^32 − 1)) = −m
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(od[1]) : "r"(hi1));
        ptx_row_madc_from<n, 2>(od, q + 1, m);  // od < 2^(32n): no carry out
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(ev[0]) : "r"(m));  // m·1: ev[0] becomes 0
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(ev[1]));
        ptx_row_madc_from<n, 2>(ev, q, m);
    } else {
        const uint32_t m = ev[0] * inv32;
        ptx_row_mad<n>(od, q + 1, m);  // od < 2^(32n): no carry out
        ptx_row_mad<n>(ev, q, m);
    }
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(od[n - 1]));  // ev's carry: word n
}

// One step for b-word w after the first: shift, add x·w, reduce; on return the roles have
// swapped (`od` holds the even part and `ev` the odd part). x's words below i0 are zero and
// skipped (the squaring's rows; the product's i0 = 0): the odd part's pairs below jz then only
// shift, as plain additions with carry, and the even chain starts at its first word ≥ i0. Two
// loops without branches for the odd part, so that both unroll (with a branch in the body the
// compiler kept a loop and moved the arrays to local memory).
template <int n, int i0, bool kSparse>
__device__ __forceinline__ void ptx_paired_step_from(uint32_t* ev, uint32_t* od,
                                                     const uint32_t* x, const uint32_t* q,
                                                     uint32_t w, uint32_t inv32) {
    const uint32_t zero = 0;
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(od[0]) : "r"(ev[1]));  // word 0 of T/2^32
    constexpr int jz = i0 & ~1;  // the first even j with x[j + 1] ≠ 0 (j + 1 ≥ i0)
#pragma unroll
    for (int j = 0; j < jz; j += 2) {
        asm volatile("addc.cc.u32 %0, %1, 0;" : "=r"(ev[j]) : "r"(ev[j + 2]));
        asm volatile("addc.cc.u32 %0, %1, 0;" : "=r"(ev[j + 1]) : "r"(ev[j + 3]));
    }
#pragma unroll
    for (int j = jz; j < n - 2; j += 2) {  // the odd part, shifted down two words
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;"
                     : "=r"(ev[j])
                     : "r"(x[j + 1]), "r"(w), "r"(ev[j + 2]));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;"
                     : "=r"(ev[j + 1])
                     : "r"(x[j + 1]), "r"(w), "r"(ev[j + 3]));
    }
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;"
                 : "=r"(ev[n - 2])
                 : "r"(x[n - 1]), "r"(w), "r"(zero));
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(ev[n - 1]) : "r"(x[n - 1]), "r"(w), "r"(zero));
    constexpr int j0 = (i0 + 1) / 2 * 2;  // the even part's first word
    if constexpr (j0 < n) {
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(od[j0]) : "r"(x[j0]), "r"(w));
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(od[j0 + 1]) : "r"(x[j0]), "r"(w));
        ptx_row_madc_from<n, j0 + 2>(od, x, w);
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(ev[n - 1]));
    }
    ptx_paired_reduce<n, kSparse>(od, ev, q, inv32);
}
template <int n, bool kSparse>
__device__ __forceinline__ void ptx_paired_step(uint32_t* ev, uint32_t* od, const uint32_t* x,
                                                const uint32_t* q, uint32_t w, uint32_t inv32) {
    ptx_paired_step_from<n, 0, kSparse>(ev, od, x, q, w, inv32);
}

// r = a·b·2^(−64·kLimbs64) mod p for fully reduced a, b < p (64-bit limb arrays). kSparse: the
// reduction of ptx_paired_reduce for p ≡ 2^64 − 2^32 + 1 mod 2^64 (the caller guarantees it).
template <size_t kLimbs64, bool kSparse = false>
__device__ __forceinline__ void mont_mul_ptx(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                             const uint64_t* p, uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], y[n], q[n], ev[n], od[n];
    split_words<kLimbs64>(x, a);
    split_words<kLimbs64>(y, b);
    split_words<kLimbs64>(q, p);
    ptx_row_mul<n>(ev, x, y[0]);
    ptx_row_mul<n>(od, x + 1, y[0]);
    ptx_paired_reduce<n, kSparse>(ev, od, q, inv32);
    // n is even: the steps come in pairs, the second with the names swapped back.
#pragma unroll
    for (int i = 1; i + 1 < n; i += 2) {
        ptx_paired_step<n, kSparse>(ev, od, x, q, y[i], inv32);
        ptx_paired_step<n, kSparse>(od, ev, x, q, y[i + 1], inv32);
    }
    ptx_paired_step<n, kSparse>(ev, od, x, q, y[n - 1], inv32);
    // Now od is the even part (od[0] = 0) and ev the odd part: T/2^32 = ev + od[1..] (< 2p).
    uint32_t t[n];
    const uint32_t top = ptx_chain<n - 1, false>(t, ev, od + 1, ev[n - 1]);
    t[n - 1] = top;
    ptx_reduce_once<kLimbs64>(r, t, 0, q);
}

// ---- the squaring: the product's rows over the upper triangle ------------------------------
//
// a² = Σ_i a_i·2^(32i)·V_i with V_i = a_i·2^(32i) + 2·Σ_{j>i} a_j·2^(32j) (the square's cross
// products a_i·a_j, i < j, taken once and doubled). So the CIOS step for word w = a_i multiplies
// w by the vector x^(i) whose words are 0 below i, a_i at i, (a_{i+1} << 1) mod 2^32 at i + 1
// and the words of 2a at i + 2 … n − 1 (2a < 2^(32n): it has no word n); its zero words are
// skipped (ptx_paired_step_from). Row i then has n − i word products instead of n: n(n+1)/2
// in all (Fp 78 instead of 144) beside the n² of the reductions; the steps, the paired
// arrangement and the final subtraction are mont_mul_ptx's.
// Bounds: rows 0..i sum to a_lo·(2a − a_lo) with a_lo = a mod 2^(32(i+1)), below
// 2^(32(i+1))·2a; with the reductions' M·p < 2^(32(i+1))·p a step's value before its shift is
// below 2^32·(2a + p) < 2^32·3p. For 3p < 2^(32n) (two spare bits above p: Fp, not Fr) that
// fits words 0..n and od < 3p < 2^(32n), as the product's bounds need. The result
// (a² + M·p)/2^(32n) < p·(p/2^(32n)) + p < 2p, so the one conditional subtraction ends it.

// x = x^(i) (words below i are never read); d holds 2a's words 2 … n − 1.
template <int n, int i>
__device__ __forceinline__ void ptx_square_row(uint32_t* x, const uint32_t* a, const uint32_t* d) {
    x[i] = a[i];
    if constexpr (i + 1 < n) x[i + 1] = a[i + 1] << 1;
#pragma unroll
    for (int j = i + 2; j < n; ++j) x[j] = d[j];
}

// Steps i … n − 1, the names swapping from step to step as in mont_mul_ptx.
template <int n, int i>
__device__ __forceinline__ void ptx_square_steps(uint32_t* ev, uint32_t* od, const uint32_t* a,
                                                 const uint32_t* d, const uint32_t* q,
                                                 uint32_t inv32) {
    if constexpr (i < n) {
        uint32_t x[n];
        ptx_square_row<n, i>(x, a, d);
        ptx_paired_step_from<n, i, false>(ev, od, x, q, a[i], inv32);  // x's words < i: 0
        ptx_square_steps<n, i + 1>(od, ev, a, d, q, inv32);
    }
}

// r = a²·2^(−64·kLimbs64) mod p for a fully reduced a < p, p < 2^(64·kLimbs64 − 2): the values
// of mont_mul_ptx(a, a).
template <size_t kLimbs64>
__device__ __forceinline__ void mont_sqr_ptx(uint64_t* r, const uint64_t* a, const uint64_t* p,
                                             uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], d[n], q[n], ev[n], od[n];
    split_words<kLimbs64>(x, a);
    split_words<kLimbs64>(q, p);
    d[0] = d[1] = 0;  // never read
#pragma unroll
    for (int j = 2; j < n; ++j) d[j] = __funnelshift_l(x[j - 1], x[j], 1);  // word j of 2a
    uint32_t row[n];
    ptx_square_row<n, 0>(row, x, d);
    ptx_row_mul<n>(ev, row, x[0]);
    ptx_row_mul<n>(od, row + 1, x[0]);
    ptx_paired_reduce<n>(ev, od, q, inv32);
    ptx_square_steps<n, 1>(ev, od, x, d, q, inv32);
    // n − 1 steps after the first (odd): od is the even part, ev the odd part, as there.
    uint32_t t[n];
    const uint32_t top = ptx_chain<n - 1, false>(t, ev, od + 1, ev[n - 1]);
    t[n - 1] = top;
    ptx_reduce_once<kLimbs64>(r, t, 0, q);
}

// ---- double-width products and Montgomery reduction: the lazy Fp2 product ------------------
//
// Karatsuba over unreduced double-width products, with one reduction per output coefficient
// instead of one per product (lazy reduction: Aranha, Karabina, Longa, Gebotys, López, "Faster
// explicit formulas for computing pairings over ordinary curves", EUROCRYPT 2011, §3):
//     v0 = a0·b0,  v1 = a1·b1,  v2 = (a0 + a1)·(b0 + b1)   (2n-word integers)
//     c0 = REDC(v0 − v1, plus p² when that is negative),  c1 = REDC(v2 − v0 − v1)
// For Fp2 = Fp[u]/(u² + 1): c0 + c1·u = (a0 + a1·u)(b0 + b1·u). Three double-width products
// (n² wide multiply-adds each) and two reductions (n² each) against three Montgomery products
// (2n² each): 5n² instead of 6n², and two fewer modular additions.
// Bounds (p < 2^(32n − 2), true of BLS12-381's Fp: 381 bits in 384): a_i, b_i < p, so
// a0 + a1 < 2p fits n words; v2 − v0 − v1 = a0·b1 + a1·b0 < 2p² and v0 − v1 (+ p²) < p², both
// below p·2^(32n), the input bound of ptx_redc, whose result is then fully reduced.

// t[0..2n) = x·y for n-word x, y. One accumulator; row i adds its even-word products
// (ptx_row_mad's pairs) at words i.. and its odd-word products at words i + 1..; every partial
// sum is at most x·y < 2^(64n), so the last row's carries out of word 2n − 1 are zero.
template <int n>
__device__ __forceinline__ void ptx_mul_wide(uint32_t* t, const uint32_t* x, const uint32_t* y) {
    ptx_row_mul<n>(t, x, y[0]);  // words 0..n−1
    t[n] = 0;
    ptx_row_mad<n>(t + 1, x + 1, y[0]);  // words 1..n, carry out of word n
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(t[n + 1]));
#pragma unroll
    for (int i = 1; i < n; ++i) {
        ptx_row_mad<n>(t + i, x, y[i]);  // words i..i+n−1; carry into word i + n
        if (i + 1 < n) {
            asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[i + n]));
            asm volatile("addc.u32 %0, 0, 0;" : "=r"(t[i + n + 1]));
            ptx_row_mad<n>(t + i + 1, x + 1, y[i]);  // words i+1..i+n; carry into word i+n+1
            asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[i + n + 1]));
        } else {
            asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[i + n]));  // word 2n − 1
            ptx_row_mad<n>(t + i + 1, x + 1, y[i]);               // words n..2n−1
        }
    }
}

// r = t·2^(−32n) mod p, fully reduced (64-bit limbs), for a 2n-word t < p·2^(32n) and q = p's
// words. n steps over an (n+1)-word window acc: m = acc_0·(−p⁻¹) mod 2^32, acc += m·p (so
// acc_0 = 0), acc >>= 32, and t's next high word enters at word n − 1. The window stays below
// 2^(32n) + 2p, so acc + m·p fits n + 1 words; at the end it is REDC(t) < 2p. Each step's
// m·p is ptx_paired_reduce's with the odd part at acc + 1 (its word n − 1 is acc's word n, where
// the even row's carry goes): acc + m·p never exceeds n + 1 words, so neither row carries out.
// kSparse as ptx_paired_reduce's (p ≡ 2^64 − 2^32 + 1 mod 2^64, Fr).
template <size_t kLimbs64, bool kSparse = false>
__device__ __forceinline__ void ptx_redc(uint64_t* r, const uint32_t* t, const uint32_t* q,
                                         uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t acc[n + 1];
#pragma unroll
    for (int j = 0; j < n; ++j) acc[j] = t[j];
    acc[n] = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
        ptx_paired_reduce<n, kSparse>(acc, acc + 1, q, inv32);
#pragma unroll
        for (int j = 0; j < n; ++j) acc[j] = acc[j + 1];
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(acc[n - 1]) : "r"(t[n + i]));
        asm volatile("addc.u32 %0, 0, 0;" : "=r"(acc[n]));
    }
    ptx_reduce_once<kLimbs64>(r, acc, acc[n], q);
}

// (c0, c1) = (a0 + a1·u)(b0 + b1·u) in Fp[u]/(u² + 1) for fully reduced a_i, b_i < p (64-bit
// limb arrays; p2 = p² as 2·kLimbs64 limbs). Results fully reduced, equal to the Karatsuba
// product of three Montgomery products. c0, c1 may alias the inputs.
template <size_t kLimbs64>
__device__ __forceinline__ void fp2_mul_lazy_ptx(uint64_t* c0, uint64_t* c1, const uint64_t* a0,
                                                 const uint64_t* a1, const uint64_t* b0,
                                                 const uint64_t* b1, const uint64_t* p,
                                                 const uint64_t* p2, uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    uint32_t x[n], y[n], u[n], w[n], q[n], v0[2 * n], v1[2 * n], t[2 * n];
    split_words<kLimbs64>(x, a0);
    split_words<kLimbs64>(y, b0);
    split_words<kLimbs64>(u, a1);
    split_words<kLimbs64>(w, b1);
    split_words<kLimbs64>(q, p);
    ptx_mul_wide<n>(v0, x, y);
    ptx_mul_wide<n>(v1, u, w);
    // The sums of the coefficients (< 2p: no carry out of word n − 1).
    (void)ptx_chain<n, false>(x, x, u, 0);
    (void)ptx_chain<n, false>(y, y, w, 0);
    // c0: v0 − v1, plus p² when it borrowed (the words of p² masked by the borrow).
    const uint32_t borrow = ptx_chain<2 * n, true>(t, v0, v1, 0);  // all ones: v0 < v1
    uint32_t pp[2 * n];
    split_words<2 * kLimbs64>(pp, p2);
#pragma unroll
    for (int j = 0; j < 2 * n; ++j) pp[j] &= borrow;
    (void)ptx_chain<2 * n, false>(t, t, pp, 0);
    uint64_t r0[kLimbs64];
    ptx_redc<kLimbs64>(r0, t, q, inv32);
    // c1: v2 − (v0 + v1), non-negative.
    (void)ptx_chain<2 * n, false>(v0, v0, v1, 0);
    ptx_mul_wide<n>(t, x, y);
    (void)ptx_chain<2 * n, true>(t, t, v0, 0);
    ptx_redc<kLimbs64>(c1, t, q, inv32);
#pragma unroll
    for (int i = 0; i < static_cast<int>(kLimbs64); ++i) c0[i] = r0[i];
}

// ---- the Karatsuba product: one level of subtractive Karatsuba, then REDC ----------------
//
// With h = n/2 words per half, x = x0 + 2^(32h)·x1 and y = y0 + 2^(32h)·y1 (Karatsuba, Ofman,
// "Multiplication of multidigit numbers on automata", 1962; the subtractive form, Knuth TAOCP
// vol. 2 §4.3.3):
//     x·y = v0 + 2^(32h)·(v0 + v1 + (x0 − x1)(y1 − y0)) + 2^(64h)·v1,  v0 = x0·y0, v1 = x1·y1,
// where the middle term equals x0·y1 + x1·y0 ≥ 0 (< 2^(32n+1): n + 1 words). The difference
// product is formed from |x0 − x1| and |y1 − y0| (h words each, no carry bit) and negated when
// exactly one of the differences borrowed. So the double-width product takes 3h² = 3n²/4
// multiply-add pairs instead of n² (Fp: 108 instead of 144, Fr: 48 instead of 64), for ~6n
// additions and bit operations on the integer ALU; the REDC (ptx_redc) is unchanged. Bounds:
// x·y < p² < p·2^(32n), ptx_redc's input bound. Measured slower than mont_mul_ptx on the H200
// (2026-12-05, `cuzk bench gpu-arith`): Fp 24.2 against 26.8 G/s, Fr (sparse REDC both) 52.0
// against 65.4 — as the lazy Fp2 product, the double-width form does not keep the paired CIOS
// rate per multiply-add. Kept for the A/B (NttOptions::karatsuba_product).

// w ← (w XOR mask) − mask over k words: w when mask is 0, −w mod 2^(32k) when it is all ones
// (subtracting the all-ones k-word value adds 1).
template <int k>
__device__ __forceinline__ void ptx_negate_if(uint32_t* w, uint32_t mask) {
    uint32_t f[k];
#pragma unroll
    for (int j = 0; j < k; ++j) f[j] = w[j] ^ mask;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(w[0]) : "r"(f[0]), "r"(mask));
#pragma unroll
    for (int j = 1; j < k; ++j)
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(w[j]) : "r"(f[j]), "r"(mask));
}

// r = a·b·2^(−64·kLimbs64) mod p for fully reduced a, b < p: mont_mul_ptx's values. kSparse as
// ptx_redc's (the caller guarantees p's form).
template <size_t kLimbs64, bool kSparse = false>
__device__ __forceinline__ void mont_mul_ptx_karatsuba(uint64_t* r, const uint64_t* a,
                                                       const uint64_t* b, const uint64_t* p,
                                                       uint32_t inv32) {
    constexpr int n = static_cast<int>(2 * kLimbs64);
    constexpr int h = n / 2;
    static_assert(h % 2 == 0, "ptx_mul_wide pairs the words of a half");
    uint32_t x[n], y[n], q[n], t[2 * n];
    split_words<kLimbs64>(x, a);
    split_words<kLimbs64>(y, b);
    split_words<kLimbs64>(q, p);
    ptx_mul_wide<h>(t, x, y);              // v0 at words 0..n−1
    ptx_mul_wide<h>(t + n, x + h, y + h);  // v1 at words n..2n−1
    uint32_t dx[h], dy[h];
    const uint32_t sx = ptx_chain<h, true>(dx, x, x + h, 0);  // all ones: x0 < x1
    const uint32_t sy = ptx_chain<h, true>(dy, y + h, y, 0);  // all ones: y1 < y0
    ptx_negate_if<h>(dx, sx);
    ptx_negate_if<h>(dy, sy);
    uint32_t d[n + 1], mid[n + 1];
    ptx_mul_wide<h>(d, dx, dy);
    d[n] = 0;
    ptx_negate_if<n + 1>(d, sx ^ sy);  // (x0 − x1)(y1 − y0) mod 2^(32(n+1))
    mid[n] = ptx_chain<n, false>(mid, t, t + n, 0);  // v0 + v1
    const uint32_t top = mid[n] + d[n];
    mid[n] = ptx_chain<n, false>(mid, mid, d, top);  // x0·y1 + x1·y0 (the carry out is 0)
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(t[h]) : "r"(mid[0]));
#pragma unroll
    for (int j = 1; j <= n; ++j)
        asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(t[h + j]) : "r"(mid[j]));
#pragma unroll
    for (int j = h + n + 1; j < 2 * n; ++j)
        asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[j]));  // x·y < 2^(64n): no carry out
    ptx_redc<kLimbs64, kSparse>(r, t, q, inv32);
}

#endif  // __CUDA_ARCH__

}  // namespace cuzk::gpu::detail
