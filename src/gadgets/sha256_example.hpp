// The `sha256:N` example circuit: prove knowledge of an N-byte preimage of a public SHA-256
// digest. Used by the CLI / groth16 example registry, tests and benchmarks.
//
// Synthesis, in order:
//   1. namespace "preimage": 8·N AllocatedBits ("bit i"), the message bits in SHA-256 order
//      (bit 8k + j = bit 7 − j of byte k);
//   2. namespace "sha256": the SHA-256 gadget over those bits (sha256.hpp);
//   3. namespace "digest": pack_into_inputs of the 256 digest bits (in SHA-256 bit order) →
//      2 public inputs (bits 0..253 and 254..255, little-endian weights, multipack.hpp).
// Cost: 8·N + sha256(8·N bits) + 2 constraints; for N = 64, 512 + 44,874 + 2 = 45,388.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// `preimage` with data() == nullptr means "no values" (shape-only constraint systems);
// otherwise it must hold exactly n_bytes bytes. Errors: size mismatch (kInvalidArgument);
// a value-computing constraint system without a preimage (assignment missing).
util::Status synthesize_sha256_example(ConstraintSystem& cs, std::span<const uint8_t> preimage,
                                       size_t n_bytes);

// The public inputs the circuit exposes for `preimage` (ONE excluded): the multipacking of the
// SHA-256 digest bits, computed outside the circuit (util::sha256).
std::vector<Fr> sha256_example_public_inputs(std::span<const uint8_t> preimage);

}  // namespace cuzk::gadgets
