#include "util/hex.hpp"

namespace cuzk::util {

std::string to_hex(std::span<const uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (uint8_t b : bytes) {
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 15]);
    }
    return out;
}

static int hex_digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

Result<std::vector<uint8_t>> from_hex(std::string_view text) {
    if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
    if (text.size() % 2 != 0) return invalid_argument("hex string has an odd number of digits");
    std::vector<uint8_t> out(text.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int hi = hex_digit_value(text[2 * i]);
        const int lo = hex_digit_value(text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return invalid_argument("invalid hex digit at position " + std::to_string(2 * i));
        }
        out[i] = static_cast<uint8_t>(hi * 16 + lo);
    }
    return out;
}

}  // namespace cuzk::util
