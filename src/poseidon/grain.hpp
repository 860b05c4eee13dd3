// Poseidon round constants from the Grain LFSR in self-shrinking mode, as neptune 11
// `src/round_constants.rs` `generate_constants` (after the Poseidon authors'
// `create_rcs_grain.sage`).
//
// State: 80 bits b0..b79 initialised MSB-first with field (2 bits) ‖ S-box (4) ‖ field size n
// (12) ‖ t (12) ‖ R_F (10) ‖ R_P (10) ‖ thirty ones; b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕
// b_{i+23} ⊕ b_{i+13} ⊕ b_i; the first 160 bits are discarded. Output bits come in pairs: when
// the first bit is 1 the second is emitted, otherwise both are dropped. A constant is n bits
// read as a big-endian integer (for n = 255: 7 bits, then 31 whole bytes); a value ≥ r is
// rejected and the next n bits are drawn. (R_F + R_P)·t constants are produced, round-major.
// Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::poseidon {

// field = 1 (GF(p)), sbox = 1 (x^5) for neptune; field_size = Fr::NUM_BITS = 255.
std::vector<ff::Fr> grain_round_constants(unsigned field, unsigned sbox, unsigned field_size,
                                          unsigned width, unsigned full_rounds,
                                          unsigned partial_rounds);

}  // namespace cuzk::poseidon
