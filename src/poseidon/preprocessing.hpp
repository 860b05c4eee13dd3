// Compression of the round constants for the optimised permutation (neptune 11
// `src/preprocessing.rs` `compress_round_constants`, fully preprocessed: all R_P partial rounds).
//
// Round keys k_r (r < R_F + R_P, t values each) are pushed back through the linear layers so
// that every S-box is followed by one addition and only the first round adds before an S-box:
//   out = k_0
//       ‖ M⁻¹k_1 ‖ … ‖ M⁻¹k_{h−1}                         (h = R_F/2)
//       ‖ M⁻¹acc ‖ p_0 … p_{R_P−1}
//       ‖ M⁻¹k_{h+R_P+1} ‖ … ‖ M⁻¹k_{R_F+R_P−1}
// where, walking the partial rounds backwards from acc = k_{h+R_P}: u = M⁻¹acc, the partial
// key u_0 is saved (p in forward order), u_0 ← 0, acc ← k_{previous round} + u.
// Length R_F·t + R_P. M⁻¹ is symmetric (M is), so M⁻¹·k = k·M⁻¹.
#pragma once

#include <vector>

#include "poseidon/matrix.hpp"

namespace cuzk::poseidon {

std::vector<Fr> compress_round_constants(size_t width, size_t full_rounds, size_t partial_rounds,
                                         const std::vector<Fr>& round_constants,
                                         const Matrix& mds_inverse);

}  // namespace cuzk::poseidon
