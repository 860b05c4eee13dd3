// The SDR label of one node in R1CS (storage-proofs-porep stacked/circuit/create_label.rs
// create_label_circuit).
//
// Preimage bits (SHA-256 message order, most significant bit of each byte first):
//   replica_id bits (≤ 256, padded with constant false to 256)
//   ‖ layer as 32 constant bits, big-endian (UInt32::constant(layer).into_bits_be)
//   ‖ node as 64 bits, big-endian (the challenge's UInt64, to_bits_be)
//   ‖ constant false up to 512 bits
//   ‖ 37 parents, each padded with constant false to a multiple of 256 bits
// = (1 + 1 + 37)·256 = 9984 bits; sha256 ("hash") pads to 20 blocks. The digest's bits are
// reversed within each byte and the first 254 packed into the label ("result_num", pack_bits).
// Out of circuit this is SHA-256(replica_id ‖ layer BE ‖ node BE ‖ 0^20 ‖ parents) with the two
// top bits of byte 31 cleared, read as a little-endian field element.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/uint64.hpp"

namespace cuzk::porep {

inline constexpr size_t kLabelParents = 37;  // TOTAL_PARENTS

// Errors: replica_id not 32..256 bits, parents.size() != 37.
util::Result<gadgets::AllocatedNum> create_label_circuit(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::Boolean> replica_id,
    const std::vector<std::vector<gadgets::Boolean>>& parents, uint32_t layer,
    const gadgets::UInt64& node);

}  // namespace cuzk::porep
