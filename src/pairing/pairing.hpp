// The optimal ate pairing on BLS12-381: e: G1 × G2 → GT ⊂ Fp12*.
//
// Miller loop over |x| = 0xd201000000010000 with G2 in homogeneous projective coordinates on
// the M-type twist, lines evaluated at P ∈ G1 and multiplied in as sparse "014" elements (line
// formulas derived as in Costello, Lange, Naehrig, "Faster pairing computations on curves with
// high-degree twists", eprint 2009/615); the result is conjugated because x < 0.
//
// Final exponentiation: easy part f^((p^6 − 1)(p^2 + 1)), hard part by the x-chain for
// 3·(p^4 − p^2 + 1)/r = λ0 + λ1 p + λ2 p² + λ3 p³ with λ3 = (x−1)², λ2 = x·λ3, λ1 = x·λ2 − λ3,
// λ0 = x·λ1 + 3 (Hayashida, Hayasaka, Teruya, eprint 2020/875). The reduced pairing is thus the
// cube of f^((p^12 − 1)/r) — the same value as blst, zkcrypto/bls12_381 and @noble/curves return.
// Any product check (Π e(P_i, Q_i) = 1) is unaffected.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fp12;
using ff::Fp2;

// Line coefficients for a fixed Q ∈ G2: each step contributes ell0 + (ell1·xP)·v + (ell4·yP)·v·w.
struct LineCoeffs {
    Fp2 ell0, ell1, ell4;
};
struct G2Prepared {
    std::vector<LineCoeffs> lines;  // empty for the point at infinity
    bool is_identity() const { return lines.empty(); }
};
G2Prepared prepare(const G2Affine& q);

// Π f_{x,Q_i}(P_i), sharing the squarings. Pairs with an identity are skipped (contribute 1).
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> terms);
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

Fp12 final_exponentiation(const Fp12& f);

// e(P, Q) (see the header comment for the exponent).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

// Π e(P_i, Q_i) == 1, with one shared Miller loop and one final exponentiation.
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);

}  // namespace cuzk::pairing
