// BLS12-381's two groups on the host.
//
//   G1: E(Fp)  : y² = x³ + 4,          order h1·r,  G1 = the subgroup of order r;
//   G2: E'(Fp2): y² = x³ + 4(1 + u),   the M-type sextic twist, G2 = its subgroup of order r.
// Generators as fixed by the ZCash BLS12-381 specification (also in
// draft-irtf-cfrg-pairing-friendly-curves, §4.2.1).
#pragma once

#include <cstdint>

#include "ec/point.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "util/rng.hpp"

namespace cuzk::ec {

struct G1Curve {
    using Field = ff::Fp;
    static constexpr Field b() { return Field::from_u64(4); }
};
struct G2Curve {
    using Field = ff::Fp2;
    static constexpr Field b() { return {ff::Fp::from_u64(4), ff::Fp::from_u64(4)}; }
};

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1Xyzz = Xyzz<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2Xyzz = Xyzz<G2Curve>;

inline constexpr G1Affine kG1Generator = {
    ff::Fp::from_hex("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
    ff::Fp::from_hex("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")};

inline constexpr G2Affine kG2Generator = {
    {ff::Fp::from_hex("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
     ff::Fp::from_hex("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
    {ff::Fp::from_hex("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
     ff::Fp::from_hex("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")}};

static_assert(kG1Generator.is_on_curve(), "G1 generator satisfies y² = x³ + 4");

// ---- scalar multiplication (scalar_mul.cpp) ----------------------------------------------------
// k·P for k given as a canonical integer (any 256-bit value, not reduced), by width-5 wNAF.
G1Jacobian mul(const G1Jacobian& p, const ff::BigInt<4>& k);
G2Jacobian mul(const G2Jacobian& p, const ff::BigInt<4>& k);
inline G1Jacobian mul(const G1Jacobian& p, const ff::Fr& k) { return mul(p, k.to_int()); }
inline G2Jacobian mul(const G2Jacobian& p, const ff::Fr& k) { return mul(p, k.to_int()); }
// k·P for a 64-bit k by double-and-add (used with |x|).
G1Jacobian mul_u64(const G1Jacobian& p, uint64_t k);
G2Jacobian mul_u64(const G2Jacobian& p, uint64_t k);

// Affine normalization of many points with one inversion.
void batch_to_affine(const G1Jacobian* in, G1Affine* out, size_t n);
void batch_to_affine(const G2Jacobian* in, G2Affine* out, size_t n);

// ---- endomorphisms and subgroup membership (subgroup.cpp) --------------------------------------
// σ(x, y) = (β x, y) on E(Fp), β a primitive cube root of unity chosen so that σ acts on G1 as
// multiplication by −x² (an eigenvalue of σ: λ² + λ + 1 ≡ 0 mod r).
G1Affine sigma(const G1Affine& p);
const ff::Fp& sigma_beta();  // σ's β, for code that applies σ itself (the GPU's)
// k = k1 + k2·x² as integers, k1 = k mod x² and k2 = ⌊k/x²⌋ (x² = 0xd201000000010000² < 2^128,
// so k1 < 2^128, and k2 < 2^128 for any k < r). Then k·P = k1·P + k2·[x²]P on G1 with
// [x²]P = −σ(P) = (β·x, −y): a 255-bit multiplication as two 128-bit ones that share their
// doublings (the GLV method: Gallant, Lambert, Vanstone, CRYPTO 2001; here the lattice basis is
// just (x², −1), since σ's eigenvalue is −x² and r = x⁴ − x² + 1).
struct SigmaSplit {
    ff::BigInt<2> k1, k2;
};
SigmaSplit split_by_x_squared(const ff::Fr& k);
// ψ = twist⁻¹ ∘ Frobenius ∘ twist on E'(Fp2): ψ(x, y) = (conj(x)·c_x, conj(y)·c_y) with
// c_x = 1/ξ^((p−1)/3), c_y = 1/ξ^((p−1)/2). On G2, ψ acts as multiplication by p ≡ x (mod r).
G2Affine psi(const G2Affine& p);

// Membership in the order-r subgroup, for points already known to be on the curve:
//   G1: σ(P) = [−x²]P   (Scott, "A note on group membership tests for G1, G2 and GT on BLS
//       pairing-friendly curves", eprint 2021/1130, §6);
//   G2: ψ(P) = [x]P     (same paper, §4).
bool is_in_subgroup(const G1Affine& p);
bool is_in_subgroup(const G2Affine& p);
// A uniformly random point of the whole curve E(Fp) / E'(Fp2) — in general NOT in the order-r
// subgroup (the cofactors are ≈ 2^126 and ≈ 2^381); for testing subgroup checks and decoders.
G1Affine random_curve_point_g1(util::TestRng& rng);
G2Affine random_curve_point_g2(util::TestRng& rng);
// The slow definition [r]P = O, for tests.
bool is_in_subgroup_by_order(const G1Affine& p);
bool is_in_subgroup_by_order(const G2Affine& p);

}  // namespace cuzk::ec
