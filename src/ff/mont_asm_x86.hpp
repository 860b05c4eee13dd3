// Fast host Montgomery products for N = 6 (Fp) and N = 4 (Fr) limbs: x86-64 GCC extended inline
// assembly with mulx / adcx / adox, plus the process-wide run-time switch that selects them.
//
// What is computed: exactly mont_mul<N, Int128Words> (mont_arith.hpp) — a·b·R^−1 mod p, fully
// reduced (< p) for inputs < p — under the same conditions on p (odd, top limb < 2^63 − 1, so
// the running value t stays below 2p < 2^(64N) and no (N+1)-th word is carried between rows).
// out may alias a and/or b: the result is written only after every input word has been read.
//
// Algorithm: CIOS, one row per word b_i of b, the multiplication and the reduction of a row
// interleaved (t ← (t + a·b_i + m·p) / 2^64 with m = (t + a·b_i)_0 · inv mod 2^64). Both halves
// of a row are one pass of mulx over the N words with two independent carry chains: adox adds
// the low words of the products into t_j, adcx adds the high words into t_(j+1). The running
// value lives in N + 1 registers that rotate by one per row instead of being shifted: after the
// reduction the lowest register holds exactly 0 (m is chosen so), and it becomes the next row's
// zero top word (and the zero operand that closes the OF chain). The final conditional
// subtraction of p is branch-free (sub/sbb, then cmovc).
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

// Last column of a multiplication row: ttop is 0 on entry and becomes hi + CF + OF (ttop serves
// as the zero operand of the adcx before it is written).
#define CUZK_ADX_MUL_LAST(off, tlo, ttop)                                            \
    "mulxq " #off "(%[a]), %[lo], %[hi]\n\t"                                          \
    "adoxq %[lo], " CUZK_ADX_REG(tlo) "\n\t"                                         \
    "adcxq " CUZK_ADX_REG(ttop) ", %[hi]\n\t"                                        \
    "adoxq %[hi], " CUZK_ADX_REG(ttop) "\n\t"

// m = t0 · inv mod 2^64 into rdx (inv is loaded first, so only the imul waits for t0).
#define CUZK_ADX_M(t0)                                                               \
    "movq %[inv], %%rdx\n\t"                                                         \
    "imulq " CUZK_ADX_REG(t0) ", %%rdx\n\t"

// Row 0 (t = 0), shared by both sizes up to column `last`: t0..t(last+1) = a · b_0 with one
// plain carry chain.
#define CUZK_ADX_ROW0_START                                                          \
    "movq 0(%[b]), %%rdx\n\t"                                                        \
    "mulxq 0(%[a]), %[t0], %[t1]\n\t"                                                \
    "mulxq 8(%[a]), %[lo], %[t2]\n\t"                                                \
    "addq %[lo], %[t1]\n\t"                                                          \
    "mulxq 16(%[a]), %[lo], %[t3]\n\t"                                               \
    "adcq %[lo], %[t2]\n\t"                                                          \
    "mulxq 24(%[a]), %[lo], %[t4]\n\t"                                               \
    "adcq %[lo], %[t3]\n\t"

// Stores two result words as one 16-byte store at out + off, so that a 16-byte load of them
// (compilers copy field elements with SSE moves) is forwarded from the store.
#if defined(__AVX__)
#define CUZK_ADX_STORE_PAIR(off, w0, w1)                                             \
    "vmovq " w0 ", %[x0]\n\t"                                                        \
    "vmovq " w1 ", %[x1]\n\t"                                                        \
    "vpunpcklqdq %[x1], %[x0], %[x0]\n\t"                                            \
    "vmovdqu %[x0], " #off "(%[out])\n\t"
#else
#define CUZK_ADX_STORE_PAIR(off, w0, w1)                                             \
    "movq " w0 ", %[x0]\n\t"                                                         \
    "movq " w1 ", %[x1]\n\t"                                                         \
    "punpcklqdq %[x1], %[x0]\n\t"                                                    \
    "movdqu %[x0], " #off "(%[out])\n\t"
#endif

// ---- N = 6 -------------------------------------------------------------------------------------
// Row i > 0, multiplication half: (t0..t6) = (t0..t5) + a · b_i, with t6 = 0 on entry.
#define CUZK_ADX_MULROW6(boff, t0, t1, t2, t3, t4, t5, t6)                           \
    "movq " #boff "(%[b]), %%rdx\n\t" CUZK_ADX_CLEAR_FLAGS                            \
    CUZK_ADX_MAC(0, "a", t0, t1) CUZK_ADX_MAC(8, "a", t1, t2)                         \
    CUZK_ADX_MAC(16, "a", t2, t3) CUZK_ADX_MAC(24, "a", t3, t4)                       \
    CUZK_ADX_MAC(32, "a", t4, t5) CUZK_ADX_MUL_LAST(40, t5, t6)

// Reduction half: (t0..t6) += m · p; afterwards t0 == 0 and (t1..t6) is the new running value.
// The final adox adds the OF carry into t6 using t0 (now 0) as the zero operand.
#define CUZK_ADX_REDROW6(t0, t1, t2, t3, t4, t5, t6)                                 \
    CUZK_ADX_M(t0) CUZK_ADX_CLEAR_FLAGS                                               \
    CUZK_ADX_MAC(0, "p", t0, t1) CUZK_ADX_MAC(8, "p", t1, t2)                         \
    CUZK_ADX_MAC(16, "p", t2, t3) CUZK_ADX_MAC(24, "p", t3, t4)                       \
    CUZK_ADX_MAC(32, "p", t4, t5) CUZK_ADX_MAC(40, "p", t5, t6)                       \
    "adoxq " CUZK_ADX_REG(t0) ", " CUZK_ADX_REG(t6) "\n\t"

// out = a · b · 2^−384 mod p for a, b < p; p odd with p[5] < 2^63 − 1; inv = −p^−1 mod 2^64.
[[gnu::always_inline]] inline void mont_mul_6_adx(uint64_t out[6], const uint64_t a[6], const uint64_t b[6],
                           const uint64_t p[6], uint64_t inv) {
    // The running value rotates through t0..t6. The result leaves in registers (lo, hi, rdx,
    // t5, and the registers that held the pointers a and b) and is stored by the compiler, so it
    // can forward the words to whatever reads them next.
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, m;
    double x0, x1;
    uint64_t ra = reinterpret_cast<uintptr_t>(a);
    uint64_t rb = reinterpret_cast<uintptr_t>(b);
    __asm__ volatile(
        CUZK_ADX_ROW0_START
        "mulxq 32(%[a]), %[lo], %[t5]\n\t"
        "adcq %[lo], %[t4]\n\t"
        "mulxq 40(%[a]), %[lo], %[t6]\n\t"
        "adcq %[lo], %[t5]\n\t"
        "adcq $0, %[t6]\n\t"
        CUZK_ADX_REDROW6("t0", "t1", "t2", "t3", "t4", "t5", "t6")
        // Rows 1..5: the value is in the 6 registers after the one that became zero.
        CUZK_ADX_MULROW6(8, "t1", "t2", "t3", "t4", "t5", "t6", "t0")
        CUZK_ADX_REDROW6("t1", "t2", "t3", "t4", "t5", "t6", "t0")
        CUZK_ADX_MULROW6(16, "t2", "t3", "t4", "t5", "t6", "t0", "t1")
        CUZK_ADX_REDROW6("t2", "t3", "t4", "t5", "t6", "t0", "t1")
        CUZK_ADX_MULROW6(24, "t3", "t4", "t5", "t6", "t0", "t1", "t2")
        CUZK_ADX_REDROW6("t3", "t4", "t5", "t6", "t0", "t1", "t2")
        CUZK_ADX_MULROW6(32, "t4", "t5", "t6", "t0", "t1", "t2", "t3")
        CUZK_ADX_REDROW6("t4", "t5", "t6", "t0", "t1", "t2", "t3")
        CUZK_ADX_MULROW6(40, "t5", "t6", "t0", "t1", "t2", "t3", "t4")
        CUZK_ADX_REDROW6("t5", "t6", "t0", "t1", "t2", "t3", "t4")
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
        CUZK_ADX_STORE_PAIR(0, "%[lo]", "%[hi]")
        CUZK_ADX_STORE_PAIR(16, "%%rdx", "%[t5]")
        CUZK_ADX_STORE_PAIR(32, "%[a]", "%[b]")
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [m] "=&d"(m),
          [a] "+&r"(ra), [b] "+&r"(rb), [x0] "=&x"(x0), [x1] "=&x"(x1)
        : [p] "r"(p), [out] "r"(out), [inv] "rm"(inv)
        : "cc", "memory");
}

// ---- N = 4 -------------------------------------------------------------------------------------
#define CUZK_ADX_MULROW4(boff, t0, t1, t2, t3, t4)                                   \
    "movq " #boff "(%[b]), %%rdx\n\t" CUZK_ADX_CLEAR_FLAGS                            \
    CUZK_ADX_MAC(0, "a", t0, t1) CUZK_ADX_MAC(8, "a", t1, t2)                         \
    CUZK_ADX_MAC(16, "a", t2, t3) CUZK_ADX_MUL_LAST(24, t3, t4)

#define CUZK_ADX_REDROW4(t0, t1, t2, t3, t4)                                         \
    CUZK_ADX_M(t0) CUZK_ADX_CLEAR_FLAGS                                               \
    CUZK_ADX_MAC(0, "p", t0, t1) CUZK_ADX_MAC(8, "p", t1, t2)                         \
    CUZK_ADX_MAC(16, "p", t2, t3) CUZK_ADX_MAC(24, "p", t3, t4)                       \
    "adoxq " CUZK_ADX_REG(t0) ", " CUZK_ADX_REG(t4) "\n\t"

// out = a · b · 2^−256 mod p for a, b < p; p odd with p[3] < 2^63 − 1; inv = −p^−1 mod 2^64.
[[gnu::always_inline]] inline void mont_mul_4_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t inv) {
    // The running value rotates through t0..t4; the result leaves in (lo, hi, rdx, t3).
    uint64_t t0, t1, t2, t3, t4, lo, hi, m;
    double x0, x1;
    __asm__ volatile(
        CUZK_ADX_ROW0_START
        "adcq $0, %[t4]\n\t"
        CUZK_ADX_REDROW4("t0", "t1", "t2", "t3", "t4")
        CUZK_ADX_MULROW4(8, "t1", "t2", "t3", "t4", "t0")
        CUZK_ADX_REDROW4("t1", "t2", "t3", "t4", "t0")
        CUZK_ADX_MULROW4(16, "t2", "t3", "t4", "t0", "t1")
        CUZK_ADX_REDROW4("t2", "t3", "t4", "t0", "t1")
        CUZK_ADX_MULROW4(24, "t3", "t4", "t0", "t1", "t2")
        CUZK_ADX_REDROW4("t3", "t4", "t0", "t1", "t2")
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
        CUZK_ADX_STORE_PAIR(0, "%[lo]", "%[hi]")
        CUZK_ADX_STORE_PAIR(16, "%%rdx", "%[t3]")
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [m] "=&d"(m), [x0] "=&x"(x0), [x1] "=&x"(x1)
        : [a] "r"(a), [b] "r"(b), [p] "r"(p), [out] "r"(out), [inv] "rm"(inv)
        : "cc", "memory");
}

#undef CUZK_ADX_REG
#undef CUZK_ADX_MAC
#undef CUZK_ADX_CLEAR_FLAGS
#undef CUZK_ADX_MUL_LAST
#undef CUZK_ADX_M
#undef CUZK_ADX_ROW0_START
#undef CUZK_ADX_MULROW6
#undef CUZK_ADX_REDROW6
#undef CUZK_ADX_MULROW4
#undef CUZK_ADX_REDROW4
#undef CUZK_ADX_STORE_PAIR

// The product for N limbs (N = 4 or 6), for generic callers.
template <size_t N>
[[gnu::always_inline]] inline void mont_mul_adx(uint64_t out[N], const uint64_t a[N], const uint64_t b[N],
                         const uint64_t p[N], uint64_t inv) {
    static_assert(N == 4 || N == 6, "the assembly product exists for 4 and 6 limbs only");
    if constexpr (N == 6) mont_mul_6_adx(out, a, b, p, inv);
    else mont_mul_4_adx(out, a, b, p, inv);
}

#endif  // CUZK_FF_HAVE_ADX_MUL

}  // namespace cuzk::ff
