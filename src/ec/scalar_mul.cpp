// Scalar multiplication and batch normalization for G1 and G2.
#include <vector>

#include "ec/curves.hpp"

namespace cuzk::ec {
namespace {

constexpr int kWnafWidth = 5;  // digits odd in (−16, 16): 8 precomputed odd multiples

// Width-w NAF of k, least significant digit first (Hankerson, Menezes, Vanstone, "Guide to
// Elliptic Curve Cryptography", Alg. 3.35). Every non-zero digit is odd and followed by at least
// w − 1 zeros.
std::vector<int> wnaf_digits(const ff::BigInt<4>& scalar) {
    ff::BigInt<5> k = scalar.resize<5>();  // one spare limb: k + |d| may exceed 2^256
    std::vector<int> digits;
    digits.reserve(260);
    const int modulus = 1 << kWnafWidth;
    while (!k.is_zero()) {
        int d = 0;
        if (k.is_odd()) {
            d = static_cast<int>(k.limb[0] & static_cast<uint64_t>(modulus - 1));
            if (d >= modulus / 2) d -= modulus;
            if (d > 0) {
                k.sub_in_place(ff::BigInt<5>::from_u64(static_cast<uint64_t>(d)));
            } else {
                k.add_in_place(ff::BigInt<5>::from_u64(static_cast<uint64_t>(-d)));
            }
        }
        digits.push_back(d);
        k = k.shr(1);
    }
    return digits;
}

template <class C>
Jacobian<C> wnaf_mul(const Jacobian<C>& p, const ff::BigInt<4>& k) {
    const std::vector<int> digits = wnaf_digits(k);
    // table[i] = (2i + 1)·P
    Jacobian<C> table[1 << (kWnafWidth - 2)];
    table[0] = p;
    const Jacobian<C> twice = p.dbl();
    for (size_t i = 1; i < std::size(table); ++i) table[i] = table[i - 1] + twice;
    Jacobian<C> acc = Jacobian<C>::identity();
    for (size_t i = digits.size(); i-- > 0;) {
        acc = acc.dbl();
        const int d = digits[i];
        if (d > 0) acc += table[d / 2];
        if (d < 0) acc += -table[-d / 2];
    }
    return acc;
}

template <class C>
Jacobian<C> double_and_add(const Jacobian<C>& p, uint64_t k) {
    Jacobian<C> acc = Jacobian<C>::identity();
    for (int i = 63; i >= 0; --i) {
        acc = acc.dbl();
        if ((k >> i) & 1) acc += p;
    }
    return acc;
}

template <class C>
void batch_normalize(const Jacobian<C>* in, Affine<C>* out, size_t n) {
    using F = typename C::Field;
    std::vector<F> z(n), scratch;
    for (size_t i = 0; i < n; ++i) z[i] = in[i].Z;  // identities have Z = 0 and stay 0
    ff::batch_inverse(z.data(), n, scratch);
    for (size_t i = 0; i < n; ++i) {
        if (in[i].is_identity()) {
            out[i] = Affine<C>::identity();
            continue;
        }
        const F zinv2 = z[i].square();
        out[i] = {in[i].X * zinv2, in[i].Y * zinv2 * z[i]};
    }
}

}  // namespace

G1Jacobian mul(const G1Jacobian& p, const ff::BigInt<4>& k) { return wnaf_mul(p, k); }
G2Jacobian mul(const G2Jacobian& p, const ff::BigInt<4>& k) { return wnaf_mul(p, k); }
G1Jacobian mul_u64(const G1Jacobian& p, uint64_t k) { return double_and_add(p, k); }
G2Jacobian mul_u64(const G2Jacobian& p, uint64_t k) { return double_and_add(p, k); }
void batch_to_affine(const G1Jacobian* in, G1Affine* out, size_t n) { batch_normalize(in, out, n); }
void batch_to_affine(const G2Jacobian* in, G2Affine* out, size_t n) { batch_normalize(in, out, n); }

}  // namespace cuzk::ec
