// Fr32 padding of unsealed sector data (rust-fil-proofs fr32/src/padding.rs, FR32_PADDING_MAP).
//
// The raw bytes are read as one bit stream, least significant bit of each byte first; every 254
// bits become one 32-byte element followed by 2 zero bits, so each element read as a little-endian
// integer is < 2^254 (a canonical BLS12-381 scalar). 127 raw bytes ↔ 128 padded bytes; a 2 KiB
// sector holds 2032 user bytes in 64 nodes. A trailing incomplete unit of fewer than 254 bits is
// copied without padding and the last byte is filled with zero bits (padding.rs "extra bits").
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/status.hpp"

namespace cuzk::porep {

// Bytes after padding (rounded up to whole bytes) / raw bytes recoverable from a padded length.
uint64_t fr32_padded_size(uint64_t unpadded_bytes);
uint64_t fr32_unpadded_size(uint64_t padded_bytes);

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw);
// Recovers the first `unpadded_len` raw bytes; fails when `padded` is too short for them.
util::Result<std::vector<uint8_t>> fr32_unpad(std::span<const uint8_t> padded,
                                              uint64_t unpadded_len);

}  // namespace cuzk::porep
