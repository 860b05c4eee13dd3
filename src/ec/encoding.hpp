// The ZCash / bellperson serialization of BLS12-381 points (zkcrypto/bls12_381
// src/notes/serialization.rs; blst's p1/p2 compress and serialize produce the same bytes).
//
//   G1 compressed 48 B = x;  G1 uncompressed 96 B = x ‖ y;
//   G2 compressed 96 B = x;  G2 uncompressed 192 B = x ‖ y;  an Fp2 value c0 + c1·u is c1 ‖ c0;
//   Fp values are 48-byte big-endian. The top three bits of byte 0 are flags:
//     0x80 compression (set iff compressed), 0x40 point at infinity (then every other bit is 0),
//     0x20 sign: y is the lexicographically largest of {y, −y} (compressed, finite points only).
// Decoding rejects every malformed case with an INVALID_ARGUMENT that names the reason.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"
#include "util/status.hpp"

namespace cuzk::ec {

inline constexpr size_t kG1CompressedBytes = 48;
inline constexpr size_t kG1UncompressedBytes = 96;
inline constexpr size_t kG2CompressedBytes = 96;
inline constexpr size_t kG2UncompressedBytes = 192;

// What decoding verifies beyond the format: the subgroup check costs about one scalar
// multiplication by a 64-bit scalar; trusted inputs (our own files) may skip it.
enum class SubgroupCheck { kCheck, kSkip };

std::array<uint8_t, kG1CompressedBytes> g1_compress(const G1Affine& p);
std::array<uint8_t, kG1UncompressedBytes> g1_serialize(const G1Affine& p);
std::array<uint8_t, kG2CompressedBytes> g2_compress(const G2Affine& p);
std::array<uint8_t, kG2UncompressedBytes> g2_serialize(const G2Affine& p);

// Decodes either form, chosen by the length (48/96 for G1, 96/192 for G2) and checked against
// the compression flag.
util::Result<G1Affine> g1_decode(std::span<const uint8_t> bytes,
                                 SubgroupCheck check = SubgroupCheck::kCheck);
util::Result<G2Affine> g2_decode(std::span<const uint8_t> bytes,
                                 SubgroupCheck check = SubgroupCheck::kCheck);

}  // namespace cuzk::ec
