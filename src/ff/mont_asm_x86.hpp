// Fast host Montgomery products for N = 6 (Fp) and N = 4 (Fr) limbs: x86-64 GCC extended inline
// assembly with mulx / adcx / adox, adc/sbb modular addition and subtraction, and the
// process-wide run-time switch that selects them (all together: CUZK_FF_ASM).
//
// What is computed: exactly mont_mul<N, Int128Words> (mont_arith.hpp) — a·b·R^−1 mod p, fully
// reduced (< p) for inputs < p — under the same conditions on p (odd, top limb < 2^63 − 1, so
// the running value t stays below 2p < 2^(64N) and no (N+1)-th word is carried between rows).
// out may alias a and/or b: the result is written only after every input word has been read.
//
// Algorithm: CIOS, one row per word b_i of b, the multiplication and the reduction of a row
// interleaved (t ← (t + a·b_i + m·p) / 2^64 with m = (t + a·b_i)_0 · inv mod 2^64). Each half
// row is one pass of mulx over the N words with two independent carry chains: adox adds the low
// product words into t_j, adcx the high words into t_(j+1). The running value lives in N + 1
// registers that rotate by one per row instead of being shifted. Row 0 (t = 0) uses one plain
// add/adc chain.
//
// Carry parking (saves one add per row, measurably, on the target AMD EPYC): a multiplication
// pass leaves the OF carry out of its last low-word add pending instead of closing it; m is then
// computed with mulx (which, unlike imul, leaves the flags alone), and the reduction pass's first
// adox — column 0, whose sum is 0 or 2^64 by the choice of m — deposits that carry into the
// register of t0, which would otherwise just become 0. The reduction's closing adox adds it to
// the top word together with its own last OF carry. No carry is ever dropped: every partial sum
// is a prefix of an exact sum that fits (t + a·b_i + m·p < 2^64 · 2p < 2^(64(N+1))).
//
// The final conditional subtraction of p is branch-free (sub/sbb, then cmovc).
//
// Availability: compiled in when the compiler targets x86-64 with ADX and BMI2
// (CUZK_FF_HAVE_ADX_MUL is 1); elsewhere only the switch exists and the generic path is used.
//
// Run-time switch (project rule: every optimization can be turned off for A/B runs):
// fast_mul_enabled() is a relaxed load of one process-wide flag. It starts from the environment
// variable CUZK_FF_ASM the first time it is read: unset, empty or anything but "0" → on, "0" →
// off; set_fast_mul_enabled() overrides it at any time (for other threads "eventually": the flag
// is relaxed, which is fine since both paths give identical results).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#if defined(__x86_64__) && defined(__ADX__) && defined(__BMI2__)
#define CUZK_FF_HAVE_ADX_MUL 1
#else
#define CUZK_FF_HAVE_ADX_MUL 0
#endif

namespace cuzk::ff {

// ---- run-time switch ---------------------------------------------------------------------------

// Which host implementation Field<P>::operator* runs (outside constant evaluation).
enum class MulPath { kInt128, kAdx };

inline constexpr bool kFastMulCompiled = CUZK_FF_HAVE_ADX_MUL != 0;

// The value of CUZK_FF_ASM → on/off (nullptr = unset). Exposed for tests.
constexpr bool fast_mul_setting_from_env_value(const char* value) {
    return !(value != nullptr && value[0] == '0' && value[1] == '\0');
}

namespace detail {
// -1: not read yet (constant-initialised, so it is valid even during static initialisation of
// other translation units); 0: off; 1: on.
inline std::atomic<int> g_fast_mul_state{-1};

[[gnu::cold, gnu::noinline]] inline bool fast_mul_init_from_env() {
    const int from_env = fast_mul_setting_from_env_value(std::getenv("CUZK_FF_ASM")) ? 1 : 0;
    int expected = -1;  // a set_fast_mul_enabled() that raced ahead of us wins
    g_fast_mul_state.compare_exchange_strong(expected, from_env, std::memory_order_relaxed);
    return g_fast_mul_state.load(std::memory_order_relaxed) == 1;
}
}  // namespace detail

// Whether the fast product may be used (whether or not it is compiled in).
inline bool fast_mul_enabled() {
    const int s = detail::g_fast_mul_state.load(std::memory_order_relaxed);
    if (s == 1) [[likely]] return true;
    if (s == 0) return false;
    return detail::fast_mul_init_from_env();
}
inline void set_fast_mul_enabled(bool on) {
    detail::g_fast_mul_state.store(on ? 1 : 0, std::memory_order_relaxed);
}

// The path operator* of an N-limb field takes right now. Field<P>::operator* dispatches through
// this very function, so what it reports is what runs.
template <size_t N>
inline MulPath active_mul_path() {
    if constexpr (kFastMulCompiled && (N == 4 || N == 6)) {
        if (fast_mul_enabled()) return MulPath::kAdx;
    }
    return MulPath::kInt128;
}

#if CUZK_FF_HAVE_ADX_MUL

// ---- assembly building blocks ------------------------------------------------------------------
// AT&T syntax. Operands by name: the running value t0..t(N) and the scratch words lo/hi are
// registers of the compiler's choice; rdx holds the multiplier (b_i, then m) for mulx; a, b, p
// are pointers. The macros take operand names, e.g. CUZK_ADX_MAC(8, "a", "t1", "t2").
#define CUZK_ADX_REG(name) "%[" name "]"

// One product column: (hi:lo) = rdx · src[off]; tlo += lo on the OF chain, thi += hi on the CF
// chain.
#define CUZK_ADX_MAC(off, src, tlo, thi)                                             \
    "mulxq " #off "(" CUZK_ADX_REG(src) "), %[lo], %[hi]\n\t"                         \
    "adoxq %[lo], " CUZK_ADX_REG(tlo) "\n\t"                                         \
    "adcxq %[hi], " CUZK_ADX_REG(thi) "\n\t"

// Clears CF and OF (lo is overwritten by the next mulx).
#define CUZK_ADX_CLEAR_FLAGS "xorl %k[lo], %k[lo]\n\t"

// Last column of a multiplication row (ttop is 0 on entry): tlo += lo on the OF chain and
// ttop = hi + CF. The OF carry out of tlo is left pending; the reduction row absorbs it (below).
#define CUZK_ADX_MUL_LAST(off, tlo, ttop)                                            \
    "mulxq " #off "(%[a]), %[lo], %[hi]\n\t"                                          \
    "adoxq %[lo], " CUZK_ADX_REG(tlo) "\n\t"                                         \
    "adcxq %[hi], " CUZK_ADX_REG(ttop) "\n\t"

// m = t0 · inv mod 2^64 into rdx. After row 0, where the flags are free: imul. After any other
// multiplication row, whose OF carry is still pending: mulx, which leaves the flags alone.
#define CUZK_ADX_M_IMUL(t0)                                                          \
    "movq %[inv], %%rdx\n\t"                                                         \
    "imulq " CUZK_ADX_REG(t0) ", %%rdx\n\t"
#define CUZK_ADX_M_MULX(t0)                                                          \
    "movq %[inv], %%rdx\n\t"                                                         \
    "mulxq " CUZK_ADX_REG(t0) ", %%rdx, %[hi]\n\t"

// Row 0 (t = 0), its first four columns (shared by both sizes): t0..t4 = a[0..3] · b_0 with one
// plain carry chain; the callers finish the row.
#define CUZK_ADX_ROW0_START                                                          \
    "movq 0(%[b]), %%rdx\n\t"                                                        \
    "mulxq 0(%[a]), %[t0], %[t1]\n\t"                                                \
    "mulxq 8(%[a]), %[lo], %[t2]\n\t"                                                \
    "addq %[lo], %[t1]\n\t"                                                          \
    "mulxq 16(%[a]), %[lo], %[t3]\n\t"                                               \
    "adcq %[lo], %[t2]\n\t"                                                          \
    "mulxq 24(%[a]), %[lo], %[t4]\n\t"                                               \
    "adcq %[lo], %[t3]\n\t"

// ---- N = 6 -------------------------------------------------------------------------------------
// Row i > 0, multiplication half: (t0..t6) = (t0..t5) + a · b_i. t6 arrives holding 0 or 1 (the
// carry parked by the previous reduction, already added where it belongs); the xor zeroes it and
// clears CF and OF. On exit CF = 0 and OF holds a carry c into t6 that is not added yet.
#define CUZK_ADX_MULROW6(boff, t0, t1, t2, t3, t4, t5, t6)                           \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                \
    "xorl %k[" t6 "], %k[" t6 "]\n\t"                                                \
    CUZK_ADX_MAC(0, "a", t0, t1) CUZK_ADX_MAC(8, "a", t1, t2)                         \
    CUZK_ADX_MAC(16, "a", t2, t3) CUZK_ADX_MAC(24, "a", t3, t4)                       \
    CUZK_ADX_MAC(32, "a", t4, t5) CUZK_ADX_MUL_LAST(40, t5, t6)

// Reduction half: (t0..t6) += m · p with m in rdx, CF = 0 and OF = c (0 after row 0) on entry.
// Column 0 sums to 0 or 2^64 by the choice of m, so adding lo(m·p0) into t0 with OF = c leaves
// exactly c in t0 and sets OF = (t0 != 0): the pending carry is parked in t0 at no cost. The
// closing adox adds it, together with the OF carry out of t5, into t6. (t1..t6) is the new
// running value; t0 becomes the next row's top word.
#define CUZK_ADX_REDROW6(t0, t1, t2, t3, t4, t5, t6)                                 \
    CUZK_ADX_MAC(0, "p", t0, t1) CUZK_ADX_MAC(8, "p", t1, t2)                         \
    CUZK_ADX_MAC(16, "p", t2, t3) CUZK_ADX_MAC(24, "p", t3, t4)                       \
    CUZK_ADX_MAC(32, "p", t4, t5) CUZK_ADX_MAC(40, "p", t5, t6)                       \
    "adoxq " CUZK_ADX_REG(t0) ", " CUZK_ADX_REG(t6) "\n\t"

// A full row i > 0.
#define CUZK_ADX_ROW6(boff, t0, t1, t2, t3, t4, t5, t6)                              \
    CUZK_ADX_MULROW6(boff, t0, t1, t2, t3, t4, t5, t6)                                \
    CUZK_ADX_M_MULX(t0) CUZK_ADX_REDROW6(t0, t1, t2, t3, t4, t5, t6)

// out = a · b · 2^−384 mod p for a, b < p; p odd with p[5] < 2^63 − 1; inv = −p^−1 mod 2^64.
// Always inlined into its caller (Field<P>::mul_adx, whose own inlining the compiler decides).
[[gnu::always_inline]] inline void mont_mul_6_adx(uint64_t out[6], const uint64_t a[6],
                                                  const uint64_t b[6], const uint64_t p[6],
                                                  uint64_t inv) {
    // Register budget: 13 general registers (t0..t6, lo, hi, rdx, and the pointers a, b, p), so
    // that one is left even when rbp is the frame pointer (-O0, -fno-omit-frame-pointer); inv is
    // a memory operand. The registers of a and b are in-out so that they can hold the last two
    // words of the trial subtraction once the inputs are consumed. The result leaves in
    // registers and is stored below, after every input word has been read (out may alias a, b),
    // by code the compiler sees, so it can place the words where they are used next.
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, m;
    uint64_t ra = reinterpret_cast<uintptr_t>(a);
    uint64_t rb = reinterpret_cast<uintptr_t>(b);
    __asm__(
        CUZK_ADX_ROW0_START
        "mulxq 32(%[a]), %[lo], %[t5]\n\t"
        "adcq %[lo], %[t4]\n\t"
        "mulxq 40(%[a]), %[lo], %[t6]\n\t"
        "adcq %[lo], %[t5]\n\t"
        "adcq $0, %[t6]\n\t"
        // Row 0's reduction: the flags are free here, so imul and a plain flag clear.
        CUZK_ADX_M_IMUL("t0") CUZK_ADX_CLEAR_FLAGS
        CUZK_ADX_REDROW6("t0", "t1", "t2", "t3", "t4", "t5", "t6")
        // Rows 1..5: the value is in the 6 registers after the one that took the parked carry.
        CUZK_ADX_ROW6(8, "t1", "t2", "t3", "t4", "t5", "t6", "t0")
        CUZK_ADX_ROW6(16, "t2", "t3", "t4", "t5", "t6", "t0", "t1")
        CUZK_ADX_ROW6(24, "t3", "t4", "t5", "t6", "t0", "t1", "t2")
        CUZK_ADX_ROW6(32, "t4", "t5", "t6", "t0", "t1", "t2", "t3")
        CUZK_ADX_ROW6(40, "t5", "t6", "t0", "t1", "t2", "t3", "t4")
        // t = (t6, t0, t1, t2, t3, t4) < 2p; t5 is free. d = t − p in (lo, hi, rdx, t5, a, b);
        // where the subtraction borrows (t < p), t is kept.
        "movq %[t6], %[lo]\n\t"
        "movq %[t0], %[hi]\n\t"
        "movq %[t1], %%rdx\n\t"
        "movq %[t2], %[t5]\n\t"
        "movq %[t3], %[a]\n\t"
        "movq %[t4], %[b]\n\t"
        "subq 0(%[p]), %[lo]\n\t"
        "sbbq 8(%[p]), %[hi]\n\t"
        "sbbq 16(%[p]), %%rdx\n\t"
        "sbbq 24(%[p]), %[t5]\n\t"
        "sbbq 32(%[p]), %[a]\n\t"
        "sbbq 40(%[p]), %[b]\n\t"
        "cmovcq %[t6], %[lo]\n\t"
        "cmovcq %[t0], %[hi]\n\t"
        "cmovcq %[t1], %%rdx\n\t"
        "cmovcq %[t2], %[t5]\n\t"
        "cmovcq %[t3], %[a]\n\t"
        "cmovcq %[t4], %[b]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [m] "=&d"(m),
          [a] "+&r"(ra), [b] "+&r"(rb)
        : [p] "r"(p), [inv] "m"(inv)
        : "cc", "memory");
    out[0] = lo;
    out[1] = hi;
    out[2] = m;
    out[3] = t5;
    out[4] = ra;
    out[5] = rb;
}

// ---- N = 4 -------------------------------------------------------------------------------------
// As for N = 6.
#define CUZK_ADX_MULROW4(boff, t0, t1, t2, t3, t4)                                   \
    "movq " #boff "(%[b]), %%rdx\n\t"                                                \
    "xorl %k[" t4 "], %k[" t4 "]\n\t"                                                \
    CUZK_ADX_MAC(0, "a", t0, t1) CUZK_ADX_MAC(8, "a", t1, t2)                         \
    CUZK_ADX_MAC(16, "a", t2, t3) CUZK_ADX_MUL_LAST(24, t3, t4)

#define CUZK_ADX_REDROW4(t0, t1, t2, t3, t4)                                         \
    CUZK_ADX_MAC(0, "p", t0, t1) CUZK_ADX_MAC(8, "p", t1, t2)                         \
    CUZK_ADX_MAC(16, "p", t2, t3) CUZK_ADX_MAC(24, "p", t3, t4)                       \
    "adoxq " CUZK_ADX_REG(t0) ", " CUZK_ADX_REG(t4) "\n\t"

#define CUZK_ADX_ROW4(boff, t0, t1, t2, t3, t4)                                      \
    CUZK_ADX_MULROW4(boff, t0, t1, t2, t3, t4)                                        \
    CUZK_ADX_M_MULX(t0) CUZK_ADX_REDROW4(t0, t1, t2, t3, t4)

// out = a · b · 2^−256 mod p for a, b < p; p odd with p[3] < 2^63 − 1; inv = −p^−1 mod 2^64.
[[gnu::always_inline]] inline void mont_mul_4_adx(uint64_t out[4], const uint64_t a[4],
                                                  const uint64_t b[4], const uint64_t p[4],
                                                  uint64_t inv) {
    // The running value rotates through t0..t4; lo, hi, rdx are scratch (12 registers in all).
    // The result leaves in (lo, hi, rdx, t3) and is stored below.
    uint64_t t0, t1, t2, t3, t4, lo, hi, m;
    __asm__(
        CUZK_ADX_ROW0_START
        "adcq $0, %[t4]\n\t"
        CUZK_ADX_M_IMUL("t0") CUZK_ADX_CLEAR_FLAGS
        CUZK_ADX_REDROW4("t0", "t1", "t2", "t3", "t4")
        CUZK_ADX_ROW4(8, "t1", "t2", "t3", "t4", "t0")
        CUZK_ADX_ROW4(16, "t2", "t3", "t4", "t0", "t1")
        CUZK_ADX_ROW4(24, "t3", "t4", "t0", "t1", "t2")
        // t = (t4, t0, t1, t2) < 2p; t3 is free. d = t − p in (lo, hi, rdx, t3).
        "movq %[t4], %[lo]\n\t"
        "movq %[t0], %[hi]\n\t"
        "movq %[t1], %%rdx\n\t"
        "movq %[t2], %[t3]\n\t"
        "subq 0(%[p]), %[lo]\n\t"
        "sbbq 8(%[p]), %[hi]\n\t"
        "sbbq 16(%[p]), %%rdx\n\t"
        "sbbq 24(%[p]), %[t3]\n\t"
        "cmovcq %[t4], %[lo]\n\t"
        "cmovcq %[t0], %[hi]\n\t"
        "cmovcq %[t1], %%rdx\n\t"
        "cmovcq %[t2], %[t3]\n\t"
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [m] "=&d"(m)
        : [a] "r"(a), [b] "r"(b), [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    out[0] = lo;
    out[1] = hi;
    out[2] = m;
    out[3] = t3;
}

#undef CUZK_ADX_REG
#undef CUZK_ADX_MAC
#undef CUZK_ADX_CLEAR_FLAGS
#undef CUZK_ADX_MUL_LAST
#undef CUZK_ADX_M_IMUL
#undef CUZK_ADX_M_MULX
#undef CUZK_ADX_ROW6
#undef CUZK_ADX_ROW4
#undef CUZK_ADX_ROW0_START
#undef CUZK_ADX_MULROW6
#undef CUZK_ADX_REDROW6
#undef CUZK_ADX_MULROW4
#undef CUZK_ADX_REDROW4

// The product for N limbs (N = 4 or 6), for generic callers.
template <size_t N>
[[gnu::always_inline]] inline void mont_mul_adx(uint64_t out[N], const uint64_t a[N],
                                                const uint64_t b[N], const uint64_t p[N],
                                                uint64_t inv) {
    static_assert(N == 4 || N == 6, "the assembly product exists for 4 and 6 limbs only");
    if constexpr (N == 6) mont_mul_6_adx(out, a, b, p, inv);
    else mont_mul_4_adx(out, a, b, p, inv);
}

// Modular addition and subtraction with the carry-flag intrinsics (adc/sbb chains; the generic
// mod_add/mod_sub in mont_arith.hpp spell carries with comparisons, which GCC does not turn back
// into adc). Same contract as mod_add/mod_sub: inputs and output < p, out may alias.
template <size_t N>
[[gnu::always_inline]] inline void mod_add_x86(uint64_t out[N], const uint64_t a[N],
                                               const uint64_t b[N], const uint64_t p[N]) {
    unsigned long long s[N], d[N];
    unsigned char carry = 0;
    for (size_t i = 0; i < N; ++i) carry = _addcarry_u64(carry, a[i], b[i], &s[i]);
    unsigned char borrow = 0;  // no carry out above: a + b < 2p < 2^(64N)
    for (size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, s[i], p[i], &d[i]);
    const uint64_t keep_sum = 0 - static_cast<uint64_t>(borrow);  // a + b < p
    for (size_t i = 0; i < N; ++i) out[i] = (s[i] & keep_sum) | (d[i] & ~keep_sum);
}
template <size_t N>
[[gnu::always_inline]] inline void mod_sub_x86(uint64_t out[N], const uint64_t a[N],
                                               const uint64_t b[N], const uint64_t p[N]) {
    unsigned long long d[N];
    unsigned char borrow = 0;
    for (size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, a[i], b[i], &d[i]);
    const uint64_t add_p = 0 - static_cast<uint64_t>(borrow);  // a < b: add p back
    unsigned char carry = 0;
    unsigned long long r[N];
    for (size_t i = 0; i < N; ++i) carry = _addcarry_u64(carry, d[i], p[i] & add_p, &r[i]);
    for (size_t i = 0; i < N; ++i) out[i] = r[i];
}

#endif  // CUZK_FF_HAVE_ADX_MUL

}  // namespace cuzk::ff
