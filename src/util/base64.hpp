// Base64 (RFC 4648 §4): the standard alphabet A-Z a-z 0-9 + / with '=' padding — the form Go's
// encoding/json uses for []byte (base64.StdEncoding), e.g. lotus-bench's Commit2In.Phase1Out.
//
// Decoding is strict: the length must be a multiple of 4, only alphabet characters may appear
// (no whitespace, no URL-safe '-' '_'), '=' only as the last one or two characters, and the
// unused low bits before the padding must be zero (the canonical encoding). Errors name the
// offending character and its offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::util {

std::string base64_encode(std::span<const uint8_t> bytes);
inline std::string base64_encode(std::string_view bytes) {
    return base64_encode(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

Result<std::vector<uint8_t>> base64_decode(std::string_view text);
// Same, into a std::string (for text payloads such as an embedded JSON document).
Result<std::string> base64_decode_to_string(std::string_view text);

}  // namespace cuzk::util
