// SDR encoding of the sealed replica (rust-fil-proofs storage-proofs-porep src/encode.rs):
// replica_v = key_v + data_v in the BLS12-381 scalar field, where key_v is the last layer's label
// of node v and data_v the fr32-padded data node, both 32-byte little-endian canonical scalars.
// decode is the inverse (data_v = replica_v − key_v). Inputs that are not canonical scalars are
// rejected with the index of the offending node. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "util/status.hpp"

namespace cuzk::porep {

// key.size() == data.size(), a multiple of 32.
util::Result<std::vector<uint8_t>> encode_replica(std::span<const uint8_t> key,
                                                  std::span<const uint8_t> data);
util::Result<std::vector<uint8_t>> decode_replica(std::span<const uint8_t> key,
                                                  std::span<const uint8_t> replica);

}  // namespace cuzk::porep
