// Hexadecimal encoding of byte strings (lowercase, no "0x" prefix on output; decoding accepts an
// optional "0x" prefix and either case).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::util {

std::string to_hex(std::span<const uint8_t> bytes);
Result<std::vector<uint8_t>> from_hex(std::string_view text);

}  // namespace cuzk::util
