// DeviceField<P>: the prime field F_p of params.hpp's P (FpParams, FrParams) for CUDA device code.
// DeviceField<P, true> is the same field whose square() is the dedicated squaring
// (detail::mont_sqr_ptx: the cross products once, 78 instead of 144 word products for Fp) in
// device code instead of the product a·a; the same limbs and values (GpuMsmOptions::
// dedicated_square selects the G1 MSM kernels over it).
//
// Layout: identical to the host ff::Field<P> — N = P::kLimbs little-endian 64-bit limbs holding
// a·R mod p (Montgomery form, R = 2^(64N)), always fully reduced (< p), nothing else. A host
// buffer of ff::Fp / ff::Fr is a device buffer of DeviceField<FpParams> / <FrParams> byte for
// byte (ff_kernels.cpp static_asserts size, alignment and trivial copyability of both).
//
// Arithmetic: the shared limb-level algorithms of ff/mont_arith.hpp (mont_mul, mod_add, mod_sub,
// mod_neg) — the same code the host field runs — with DeviceWords as the 64×64→128 multiplier.
//
// Constants: never retyped. params.hpp's constexpr MontgomeryConstants are host objects, which
// device code may not reference; but a constexpr *scalar* may be used in device code as a value.
// So each limb of each constant is exposed as a scalar variable template (detail::kLimb<V, I>,
// evaluated by the compiler from params.hpp), and the limb array is rebuilt from those scalars
// where needed: it becomes immediate operands in the generated code, with no memory access.
//
// The type is trivial (default construction leaves the limbs uninitialised, unlike the host
// Field, so that it can live in __shared__ memory); use zero() for zero. Everything here also
// compiles as plain host C++ (CUZK_HD empty, DeviceWords' portable path), which is how it is
// tested without a GPU (device_field_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ff/bigint.hpp"
#include "ff/mont_arith.hpp"
#include "ff/params.hpp"
#include "gpu/mont_fp64.cuh"
#include "gpu/mont_ptx.cuh"
#include "util/hd.hpp"

namespace cuzk::gpu {

// 64×64 → 128-bit multiply-add for mont_mul: the low word by the native 64-bit multiply, the
// high word by __umul64hi on the device (mul.hi.u64) and by the portable product on the host.
// A 32-bit-limb PTX carry-chain version comes later.
struct DeviceWords {
    static CUZK_HD uint64_t mul_hi(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
        return __umul64hi(a, b);
#else
        return ff::mul_wide_portable(a, b).hi;
#endif
    }
    // a·b + c + d as (lo, hi); cannot overflow (see ff::PortableWords).
    static CUZK_HD ff::Wide64 madd(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
        ff::Wide64 r{a * b, mul_hi(a, b)};
        uint64_t carry = 0;
        r.lo = ff::add_carry(r.lo, c, carry);
        r.hi += carry;
        carry = 0;
        r.lo = ff::add_carry(r.lo, d, carry);
        r.hi += carry;
        return r;
    }
};

namespace detail {

// Limb I of a compile-time BigInt, as a scalar constant that device code may use.
template <auto V, size_t I>
inline constexpr uint64_t kLimb = V.limb[I];

// The limbs of a compile-time BigInt as an array of scalar constants (immediates in device code).
template <size_t M>
struct LimbArray {
    uint64_t limb[M];
};
template <auto V, size_t... I>
constexpr CUZK_HD LimbArray<sizeof...(I)> limbs_of(std::index_sequence<I...>) {
    return {{kLimb<V, I>...}};
}

// p², the bound the lazy Fp2 product adds to a negative difference of double-width products.
template <class P>
inline constexpr ff::BigInt<2 * P::kLimbs> kModulusSquared =
    P::kModulus.template resize<2 * P::kLimbs>() * P::kModulus.template resize<2 * P::kLimbs>();

// v·R mod p (the Montgomery form of a small integer), computed at compile time by the reference
// product: mont(v, R²) = v·R. Any 64-bit v is below p for the moduli here (p > 2^64).
template <class P>
constexpr ff::BigInt<P::kLimbs> montgomery_of_u64(uint64_t v) {
    constexpr size_t N = P::kLimbs;
    static_assert(N >= 2, "a 64-bit integer must be below the modulus");
    uint64_t in[N] = {v};
    ff::BigInt<N> out;
    ff::mont_mul<N, ff::PortableWords>(out.limb, in, P::kMont.r2.limb, P::kMont.modulus.limb,
                                       P::kMont.inv);
    return out;
}
// As a constant (a host object, usable as a template argument where device code needs it).
template <class P, uint64_t V>
inline constexpr ff::BigInt<P::kLimbs> kMontgomeryOfU64 = montgomery_of_u64<P>(V);

// −p^−1 mod 2^64, as a scalar constant.
template <class P>
inline constexpr uint64_t kInv = P::kMont.inv;

}  // namespace detail

template <class P, bool kDedicatedSquare = false>
struct DeviceField {
    static constexpr size_t kLimbs = P::kLimbs;
    using Int = ff::BigInt<kLimbs>;
    static constexpr Int kFermatExponent = P::kModulus - Int::from_u64(2);  // p − 2
    static constexpr int kFermatExponentBits = static_cast<int>(kFermatExponent.bit_length());
    static constexpr size_t kModulusBits = P::kModulus.bit_length();

    uint64_t limb[kLimbs];

    // ---- constants ---------------------------------------------------------------------------
    // The element whose Montgomery-form limbs are the compile-time constant V (no reduction).
    template <Int V>
    static constexpr CUZK_HD DeviceField constant() {
        return from_limbs<V>(std::make_index_sequence<kLimbs>{});
    }
    // The element v for a compile-time v (converted to Montgomery form by the compiler).
    template <uint64_t V>
    static constexpr CUZK_HD DeviceField constant_u64() {
        return constant<detail::kMontgomeryOfU64<P, V>>();
    }
    static constexpr CUZK_HD DeviceField zero() {
        DeviceField f;
        for (size_t i = 0; i < kLimbs; ++i) f.limb[i] = 0;
        return f;
    }
    static constexpr CUZK_HD DeviceField one() { return constant<P::kMont.r>(); }

    // The element v for a run-time v: mont(v, R²) = v·R.
    static CUZK_HD DeviceField from_u64(uint64_t v) {
        DeviceField f = zero();
        f.limb[0] = v;
        return f * constant<P::kMont.r2>();
    }

    // ---- arithmetic --------------------------------------------------------------------------
    // Sums and differences: on the device the 32-bit PTX carry chains (gpu/mont_ptx.cuh), on the
    // host the shared 64-bit limb code; the same fully reduced limbs either way.
    friend CUZK_HD DeviceField operator+(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        return add_ptx(a, b);
#else
        return add_wide(a, b);
#endif
    }
    friend CUZK_HD DeviceField operator-(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        return sub_ptx(a, b);
#else
        return sub_wide(a, b);
#endif
    }
    CUZK_HD DeviceField operator-() const {
#if defined(__CUDA_ARCH__)
        return sub_ptx(zero(), *this);  // 0 − a: p − a, and 0 for a = 0
#else
        const DeviceField p = modulus_limbs();
        DeviceField r;
        ff::mod_neg<kLimbs>(r.limb, limb, p.limb);
        return r;
#endif
    }
    // The shared 64-bit limb algorithms (ff::mod_add, mod_sub), on host and device.
    static constexpr CUZK_HD DeviceField add_wide(const DeviceField& a, const DeviceField& b) {
        return with_modulus(a, b, [](auto... limbs) { ff::mod_add<kLimbs>(limbs...); });
    }
    static constexpr CUZK_HD DeviceField sub_wide(const DeviceField& a, const DeviceField& b) {
        return with_modulus(a, b, [](auto... limbs) { ff::mod_sub<kLimbs>(limbs...); });
    }
    // The PTX versions in device code; host code gets the wide ones.
    static CUZK_HD DeviceField add_ptx(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        return with_modulus(a, b, [](auto... limbs) {
            detail::mod_add_sub_ptx<kLimbs, false>(limbs...);
        });
#else
        return add_wide(a, b);
#endif
    }
    static CUZK_HD DeviceField sub_ptx(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        return with_modulus(a, b, [](auto... limbs) {
            detail::mod_add_sub_ptx<kLimbs, true>(limbs...);
        });
#else
        return sub_wide(a, b);
#endif
    }
    // The product: on the device the 32-bit PTX carry-chain path (gpu/mont_ptx.cuh), on the
    // host the shared 64-bit limb code. Both give the same fully reduced limbs.
    friend CUZK_HD DeviceField operator*(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        return mul_ptx(a, b);
#else
        return mul_wide(a, b);
#endif
    }
    // The shared 64-bit limb algorithm (ff::mont_mul with DeviceWords), on host and device.
    static CUZK_HD DeviceField mul_wide(const DeviceField& a, const DeviceField& b) {
        const DeviceField p = modulus_limbs();
        DeviceField r;
        ff::mont_mul<kLimbs, DeviceWords>(r.limb, a.limb, b.limb, p.limb, detail::kInv<P>);
        return r;
    }
    // The 32-bit-limb PTX product in device code (detail::mont_mul_ptx); host code (which has
    // no PTX) gets mul_wide.
    static CUZK_HD DeviceField mul_ptx(const DeviceField& a, const DeviceField& b) {
        return mul_ptx_with<detail::PtxProduct::kPaired>(a, b);
    }
    // The first PTX product (two chains per row; detail::mont_mul_ptx_split), for the A/B of
    // `cuzk bench gpu-arith`; host code gets mul_wide.
    static CUZK_HD DeviceField mul_ptx_split(const DeviceField& a, const DeviceField& b) {
        return mul_ptx_with<detail::PtxProduct::kSplit>(a, b);
    }
    // Whether the modulus' two low 32-bit words are 1 and 2^32 − 1 (p ≡ 2^64 − 2^32 + 1 mod 2^64,
    // true of Fr), which the sparse reduction of detail::ptx_paired_reduce needs.
    static constexpr bool kSparseModulus = P::kModulus.limb[0] == 0xffffffff00000001ull;
    // The PTX product with the sparse reduction (mul_ptx's values; for the A/B of
    // NttOptions::sparse_reduction and `cuzk bench gpu-arith`); host code gets mul_wide.
    static CUZK_HD DeviceField mul_ptx_sparse(const DeviceField& a, const DeviceField& b) {
        static_assert(kSparseModulus, "the sparse reduction needs p ≡ 2^64 − 2^32 + 1 mod 2^64");
        return mul_ptx_with<detail::PtxProduct::kPaired, true>(a, b);
    }
    // The PTX product with one level of Karatsuba before the reduction
    // (detail::mont_mul_ptx_karatsuba: 3/4 of the double-width product's multiply-adds), with
    // the sparse reduction where kSparseModulus: mul_ptx's values. Host code gets mul_wide.
    static CUZK_HD DeviceField mul_ptx_karatsuba(const DeviceField& a, const DeviceField& b) {
        return mul_ptx_with<detail::PtxProduct::kKaratsuba, kSparseModulus>(a, b);
    }
    // The product on the FP64 pipe (detail::mont_mul_fp64: 52-bit limbs as doubles; mul_ptx's
    // values), for Fr only (its reduction needs p ≡ 1 − 2^32 mod 2^64 and p < 2^255). Host code
    // gets mul_wide.
    static CUZK_HD DeviceField mul_fp64(const DeviceField& a, const DeviceField& b) {
        static_assert(kSparseModulus && kLimbs == 4, "the FP64 product is Fr's");
#if defined(__CUDA_ARCH__)
        uint32_t q[2 * kLimbs];
        detail::split_words<kLimbs>(q, modulus_limbs().limb);
        DeviceField r;
        detail::mont_mul_fp64<detail::kLimb<P::kMont.modulus, 0>, detail::kLimb<P::kMont.modulus, 1>,
                              detail::kLimb<P::kMont.modulus, 2>,
                              detail::kLimb<P::kMont.modulus, 3>>(r.limb, a.limb, b.limb, q);
        return r;
#else
        return mul_wide(a, b);
#endif
    }
    template <detail::PtxProduct kForm, bool kSparse = false>
    static CUZK_HD DeviceField mul_ptx_with(const DeviceField& a, const DeviceField& b) {
#if defined(__CUDA_ARCH__)
        const DeviceField p = modulus_limbs();
        const uint32_t inv32 = static_cast<uint32_t>(detail::kInv<P>);
        DeviceField r;
        if constexpr (kForm == detail::PtxProduct::kSplit)
            detail::mont_mul_ptx_split<kLimbs>(r.limb, a.limb, b.limb, p.limb, inv32);
        else if constexpr (kForm == detail::PtxProduct::kKaratsuba)
            detail::mont_mul_ptx_karatsuba<kLimbs, kSparse>(r.limb, a.limb, b.limb, p.limb,
                                                            inv32);
        else
            detail::mont_mul_ptx<kLimbs, kSparse>(r.limb, a.limb, b.limb, p.limb, inv32);
        return r;
#else
        return mul_wide(a, b);
#endif
    }
    // (c0 + c1·u) = (a0 + a1·u)(b0 + b1·u) in F[u]/(u² + 1): the product hook of ff::Fp2T with
    // kLazyProduct (DeviceFp2). On the device the lazily reduced Karatsuba product
    // (detail::fp2_mul_lazy_ptx: two Montgomery reductions instead of three products); on the
    // host the plain Karatsuba formula. The same fully reduced limbs either way. Only for
    // moduli below 2^(64N − 2) (Fp).
    static CUZK_HD void fp2_product(const DeviceField& a0, const DeviceField& a1,
                                    const DeviceField& b0, const DeviceField& b1, DeviceField& c0,
                                    DeviceField& c1) {
        static_assert(kModulusBits <= 64 * kLimbs - 2,
                      "the lazy Fp2 product needs two spare bits above p");
#if defined(__CUDA_ARCH__)
        const DeviceField p = modulus_limbs();
        const auto p2 = detail::limbs_of<detail::kModulusSquared<P>>(
            std::make_index_sequence<2 * kLimbs>{});
        detail::fp2_mul_lazy_ptx<kLimbs>(c0.limb, c1.limb, a0.limb, a1.limb, b0.limb, b1.limb,
                                         p.limb, p2.limb, static_cast<uint32_t>(detail::kInv<P>));
#else
        const DeviceField v0 = a0 * b0, v1 = a1 * b1;
        const DeviceField s = (a0 + a1) * (b0 + b1);
        c0 = v0 - v1;
        c1 = s - v0 - v1;
#endif
    }
    CUZK_HD DeviceField& operator+=(const DeviceField& b) { return *this = *this + b; }
    CUZK_HD DeviceField& operator-=(const DeviceField& b) { return *this = *this - b; }
    CUZK_HD DeviceField& operator*=(const DeviceField& b) { return *this = *this * b; }
    // a² — by the dedicated squaring where kDedicatedSquare (square_ptx), else as a·a.
    CUZK_HD DeviceField square() const {
        if constexpr (kDedicatedSquare)
            return square_ptx(*this);
        else
            return *this * *this;
    }
    // The dedicated PTX squaring (detail::mont_sqr_ptx) in device code, for moduli with two
    // spare bits (Fp); host code gets mul_wide(a, a). The values of a·a.
    static CUZK_HD DeviceField square_ptx(const DeviceField& a) {
#if defined(__CUDA_ARCH__)
        static_assert(kModulusBits <= 64 * kLimbs - 2,
                      "the dedicated squaring needs two spare bits above p");
        const DeviceField p = modulus_limbs();
        DeviceField r;
        detail::mont_sqr_ptx<kLimbs>(r.limb, a.limb, p.limb,
                                     static_cast<uint32_t>(detail::kInv<P>));
        return r;
#else
        return mul_wide(a, a);
#endif
    }
    CUZK_HD DeviceField dbl() const { return *this + *this; }

    // a^(p−2) = a⁻¹ (Fermat); the inverse of zero is zero, as the host Field's. Left to right over
    // the exponent's bits in windows of up to 4 bits that end in a set bit (sliding window): the
    // odd powers a, a³, …, a^15 first (8 products), then a squaring per bit below the top window
    // and a product per window — for Fp 8 + 377 + 78 = 463 products in all, for Fr 8 + 252 + 53
    // = 313 (the bit-by-bit ladder took 384 + 229 = 613 and 256 + 164 = 420). Callers amortize it over many elements (Montgomery's batch trick:
    // batch_inverse.cuh, fixed_base_kernels.cu); its latency bounds the batch-affine MSM's steps.
    CUZK_HD DeviceField inverse() const {
        const DeviceField e = constant<kFermatExponent>();
        auto bit = [&](int i) -> unsigned { return (e.limb[i / 64] >> (i % 64)) & 1; };
        DeviceField odd[8];  // odd[k] = a^(2k+1)
        odd[0] = *this;
        const DeviceField a2 = square();
        for (int k = 1; k < 8; ++k) odd[k] = odd[k - 1] * a2;
        DeviceField r = one();
        bool started = false;
        for (int i = kFermatExponentBits - 1; i >= 0;) {
            if (!bit(i)) {  // the top bit is set, so a window came first: r is a power of a
                r = r.square();
                --i;
                continue;
            }
            int low = i >= 3 ? i - 3 : 0;
            while (!bit(low)) ++low;  // the window [low, i] ends in a set bit
            unsigned w = 0;
            for (int j = i; j >= low; --j) w = 2 * w + bit(j);
            if (started) {
                for (int j = i; j >= low; --j) r = r.square();
                r *= odd[w >> 1];
            } else {
                r = odd[w >> 1];
                started = true;
            }
            i = low - 1;
        }
        return r;
    }

    constexpr CUZK_HD bool is_zero() const {
        uint64_t acc = 0;
        for (size_t i = 0; i < kLimbs; ++i) acc |= limb[i];
        return acc == 0;
    }
    friend constexpr CUZK_HD bool operator==(const DeviceField& a, const DeviceField& b) {
        uint64_t diff = 0;
        for (size_t i = 0; i < kLimbs; ++i) diff |= a.limb[i] ^ b.limb[i];
        return diff == 0;
    }
    friend constexpr CUZK_HD bool operator!=(const DeviceField& a, const DeviceField& b) {
        return !(a == b);
    }

   private:
    // p itself is not a field element (it is not reduced); it only feeds the limb algorithms.
    static constexpr CUZK_HD DeviceField modulus_limbs() { return constant<P::kMont.modulus>(); }
    // r = op(r.limb, a.limb, b.limb, p.limb) for a limb algorithm op(out, a, b, modulus).
    template <class Op>
    static constexpr CUZK_HD DeviceField with_modulus(const DeviceField& a, const DeviceField& b,
                                                      Op op) {
        const DeviceField p = modulus_limbs();
        DeviceField r;
        op(r.limb, a.limb, b.limb, p.limb);
        return r;
    }

    template <Int V, size_t... I>
    static constexpr CUZK_HD DeviceField from_limbs(std::index_sequence<I...>) {
        return DeviceField{{detail::kLimb<V, I>...}};
    }
};

using DeviceFp = DeviceField<ff::FpParams>;
using DeviceFr = DeviceField<ff::FrParams>;
using DeviceFpSquare = DeviceField<ff::FpParams, true>;  // square() by the dedicated squaring

static_assert(std::is_trivial_v<DeviceFp> && std::is_standard_layout_v<DeviceFp>);
static_assert(std::is_trivial_v<DeviceFr> && std::is_standard_layout_v<DeviceFr>);
static_assert(sizeof(DeviceFp) == ff::FpParams::kLimbs * sizeof(uint64_t));
static_assert(sizeof(DeviceFr) == ff::FrParams::kLimbs * sizeof(uint64_t));
static_assert(sizeof(DeviceFpSquare) == sizeof(DeviceFp) && std::is_trivial_v<DeviceFpSquare>);

}  // namespace cuzk::gpu
