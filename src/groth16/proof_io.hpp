// The Groth16 proof codec of bellperson (src/groth16/proof.rs `Proof::write`, `read`,
// `read_many`; spec/porep-c2-circuit.md §4.5):
//   proof = A (G1 compressed, 48 B) ‖ B (G2 compressed, 96 B) ‖ C (G1 compressed, 48 B) = 192 B;
//   a multi-partition proof (e.g. 10 partitions for a 32 GiB PoRep, 1,920 B) is the
//   concatenation of the partition proofs, in partition order, with no count or header.
// Decoding checks the flags, canonical x, that x is on the curve and, with SubgroupCheck::kCheck
// (default; bellperson's `from_bytes`), the order-r subgroup, and rejects the point at infinity
// in any of A, B, C as bellperson's `read` does. Errors name the proof index and the component:
//   "proof 3: B: G2 compressed encoding: x is not the abscissa of a curve point".
// Encoding does not validate (an identity component encodes as ZCash's infinity and will be
// rejected when read back).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/keys.hpp"
#include "util/status.hpp"

namespace cuzk::groth16 {

inline constexpr size_t kProofBytes = 192;

std::array<uint8_t, kProofBytes> serialize_proof(const Proof& proof);
// Concatenation of the partition proofs.
std::vector<uint8_t> serialize_proofs(std::span<const Proof> proofs);

// Exactly 192 bytes.
util::Result<Proof> parse_proof(std::span<const uint8_t> bytes,
                                ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);
// Any multiple of 192 bytes (zero proofs is an error: "proofs: empty input").
util::Result<std::vector<Proof>> parse_proofs(std::span<const uint8_t> bytes,
                                              ec::SubgroupCheck check = ec::SubgroupCheck::kCheck);

}  // namespace cuzk::groth16
