// SHA-256 in R1CS, constraint-for-constraint as bellperson/bellpepper `gadgets/sha256.rs`
// (FIPS 180-4 on UInt32 words of Booleans).
//
// Input and output bits are big-endian within each 32-bit word and bytes are in message order,
// i.e. bit 8·k + j of the input is bit (7 − j) of message byte k — the bit order of
// `bytes_to_bits` in multipack.hpp. Constant input bits cost nothing: the UInt32/Boolean
// short-cuts fold them, so a constant message hashes with 0 constraints.
//
// Structure of sha256_compression_function (the R1CS depends on every detail):
//   - one MultiEq for the whole block; its final batch is emitted at the end of the block;
//   - message schedule w[16..64) in namespaces "w extension i" (xors, then one addmany of
//     [w[i−16], s0, w[i−7], s1] in "computation of w[i]");
//   - 64 rounds in "compression round i": e ("deferred e computation") and a ("deferred a
//     computation") are kept as deferred operand lists and summed only when used — e = temp1 ‖ d
//     (6 operands), a = temp1 ‖ temp2 (7 operands); temp1 = [h, S1, ch, K_i, w_i],
//     temp2 = [S0, maj];
//   - final addition: h0 = deferred a ‖ H0 ("deferred h0 computation"), h4 = deferred e ‖ H4
//     ("deferred h4 computation"), the others addmany([H_k, x]) in "new hk".
// Measured against bellperson's tests: one block of 512 allocated bits with the constant IV
// costs 25,840 constraints; sha256 of 512 allocated bits (two blocks) 44,874.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::gadgets {

// The SHA-256 initial hash value as constant words.
std::array<UInt32, 8> sha256_iv();

// One compression of a 512-bit block into `state`, inside namespace `name`. Errors: input not
// 512 bits.
util::Result<std::array<UInt32, 8>> sha256_compression_function(ConstraintSystem& cs,
                                                                const Name& name,
                                                                std::span<const Boolean> input,
                                                                const std::array<UInt32, 8>& state);

// The compression of one 512-bit block from the IV, without padding; 256 output bits.
util::Result<std::vector<Boolean>> sha256_block_no_padding(ConstraintSystem& cs, const Name& name,
                                                           std::span<const Boolean> input);

// SHA-256 of a message of input.size() bits (a multiple of 8), padded with constant bits, one
// compression per block in namespaces "block i", all inside namespace `name`; 256 output bits.
// Errors: length not a multiple of 8.
util::Result<std::vector<Boolean>> sha256(ConstraintSystem& cs, const Name& name,
                                          std::span<const Boolean> input);

}  // namespace cuzk::gadgets
