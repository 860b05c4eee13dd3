// Poseidon round numbers (R_F full rounds, R_P partial rounds) for a ~256-bit prime field at
// the 128-bit security level, as neptune 11 computes them (neptune `src/round_numbers.rs`, a
// port of the Poseidon authors' `calc_round_numbers.py`).
//
// The search runs in single-precision floats exactly as neptune does (its inequalities use f32,
// and its 7.5% partial-round margin is ceil(1.075f · R_P)), so the table it yields is bit-for-bit
// neptune's: for BLS12-381 every width gives R_F = 8 and R_P = 55 (t = 2, 3), 56 (t = 4..7),
// 57 (t = 8..15), 59 (t = 16..25), 60 (t = 37) …  Pure functions; thread-safe.
#pragma once

#include <cstddef>

namespace cuzk::poseidon {

// Security variant (neptune `Strength`): Standard is what Filecoin uses; Strengthened adds 25%
// partial rounds (rounded up).
enum class Strength { kStandard, kStrengthened };

struct RoundNumbers {
    size_t full_rounds;     // R_F (even; half before and half after the partial rounds)
    size_t partial_rounds;  // R_P
};

// neptune `calc_round_numbers(t, security_margin)`: the cheapest (t·R_F + R_P S-boxes) secure
// pair, ties broken towards fewer full rounds; with the margin, R_F + 2 and ceil(1.075·R_P).
RoundNumbers calc_round_numbers(size_t width, bool security_margin);

// neptune `round_numbers(arity, strength)`: calc_round_numbers(arity + 1, true), and for
// Strengthened R_P ← ceil(1.25·R_P) (in double precision, as neptune).
RoundNumbers round_numbers(size_t arity, Strength strength);

}  // namespace cuzk::poseidon
