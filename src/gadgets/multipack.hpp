// Packing bits into field elements (bellperson/bellpepper `gadgets/multipack.rs`; pack_bits is
// also storage-proofs-core `gadgets/multipack.rs`, identical).
//
// Bits are packed little-endian: bit i of a chunk has weight 2^i. Chunks hold CAPACITY = 254
// bits, so every packed value is < 2^254 < r.
//
//   pack_into_inputs  per chunk i: one alloc_input "input i" and one constraint
//                     "packing constraint i": A = Σ 2^j·bit_j, B = ONE, C = input
//   pack_bits         the first 254 bits only: one aux ("input" namespace) and one
//                     "packing constraint": A = Σ 2^j·bit_j, B = ONE, C = num
// Constant bits enter A as multiples of ONE; Not(v) bits as 2^j·ONE − 2^j·v.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

inline constexpr size_t kFrCapacity = 254;

// Exposes `bits` as ⌈n/254⌉ public inputs, inside namespace `name`.
util::Status pack_into_inputs(ConstraintSystem& cs, const Name& name,
                              std::span<const Boolean> bits);

// Packs the first 254 of `bits` into one new aux number, inside namespace `name`.
util::Result<AllocatedNum> pack_bits(ConstraintSystem& cs, const Name& name,
                                     std::span<const Boolean> bits);

// The values pack_into_inputs exposes, computed outside the circuit.
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);

// Bits of bytes, most significant bit of each byte first (SHA-256 message order).
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
// Bits of bytes, least significant bit of each byte first.
std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes);

}  // namespace cuzk::gadgets
