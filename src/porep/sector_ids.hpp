// Per-sector identifiers and challenges of the interactive SDR PoRep.
//
// Node: a 32-byte value read as a little-endian BLS12-381 scalar ("Domain" in rust-fil-proofs);
// values produced by SHA-256 have the top two bits of byte 31 cleared (`& 0x3f`).
// replica_id = trim(SHA-256(prover_id ‖ sector_id as u64 BE ‖ ticket ‖ comm_d ‖ porep_id))
//   (storage-proofs-porep stacked/vanilla/params.rs generate_replica_id).
// Interactive challenge i of partition k (C per partition), j = C·k + i as u32:
//   h = SHA-256(replica_id ‖ seed ‖ j LE); challenge = (h as LE integer) mod (nodes − 1) + 1,
//   so node 0 is never challenged (stacked/vanilla/challenges.rs derive_porep).
// Pure functions; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "porep/registered_proof.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

using Node = std::array<uint8_t, 32>;

Node compute_replica_id(const Node& prover_id, uint64_t sector_id, const Node& ticket,
                        const Node& comm_d, const PoRepId& porep_id);

// nodes ≥ 3 (rust-fil-proofs asserts sector_nodes > 2), < 2^32.
util::Result<std::vector<uint64_t>> interactive_challenges(uint64_t nodes, const Node& replica_id,
                                                           const Node& seed, uint32_t partition,
                                                           uint32_t challenges_per_partition);

// Non-interactive PoRep (challenges.rs NiChallenges::derive), j = C·k + i as u32:
//   h = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j LE), reduced as
//   above.
util::Result<std::vector<uint64_t>> non_interactive_challenges(uint64_t nodes,
                                                               const Node& replica_id,
                                                               const Node& comm_r,
                                                               uint32_t partition,
                                                               uint32_t challenges_per_partition);

// Synthetic PoRep (challenges.rs synthetic::SynthChallengeGenerator), N = min(nodes, 2^18)
// synthetic challenges; ChaCha20 = RFC 8439 with nonce "synth-porep\0":
//   key_gen = BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Generation" of replica_id ‖
//   comm_r; synthetic challenge s = (keystream(key_gen) bytes [32s, 32s + 32) as LE integer)
//                           mod (nodes − 1) + 1;
//   key_sel = BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Selection" of replica_id ‖ seed;
//   porep challenge t = C·k + i selects s = (keystream(key_sel) bytes [4t, 4t + 4) as LE u32) mod
//   N.
util::Result<std::vector<uint64_t>> synthetic_challenges(uint64_t nodes, const Node& replica_id,
                                                         const Node& comm_r, const Node& seed,
                                                         uint32_t partition,
                                                         uint32_t challenges_per_partition);

// (256-bit little-endian integer) mod m, for 0 < m < 2^32.
uint64_t le_bytes_mod(const uint8_t bytes[32], uint64_t m);

}  // namespace cuzk::porep
