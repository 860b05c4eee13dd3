#include "util/base64.hpp"

namespace cuzk::util {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

struct DecodeTable {
    int8_t value[256];
    constexpr DecodeTable() : value() {
        for (int i = 0; i < 256; ++i) value[i] = -1;
        for (int i = 0; i < 64; ++i)
            value[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
    }
};
constexpr DecodeTable kDecode;

Status bad_char(std::string_view text, size_t pos, const char* why) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string msg = "base64: ";
    msg += why;
    msg += " at offset ";
    msg += std::to_string(pos);
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c >= 0x21 && c < 0x7F) {
        msg += " ('";
        msg += static_cast<char>(c);
        msg += "')";
    } else {
        msg += " (byte 0x";
        msg += kHex[c >> 4];
        msg += kHex[c & 15];
        msg += ')';
    }
    return invalid_argument(std::move(msg));
}

// Decodes into out (resized by the caller to the decoded length).
template <class Out>
Status decode_into(std::string_view text, Out& out) {
    if (text.size() % 4 != 0) {
        std::string msg = "base64: length ";
        msg += std::to_string(text.size());
        msg += " is not a multiple of 4";
        return invalid_argument(std::move(msg));
    }
    size_t pad = 0;
    if (!text.empty() && text.back() == '=') pad = (text[text.size() - 2] == '=') ? 2 : 1;
    const size_t n = text.size();
    out.resize(n / 4 * 3 - pad);
    const unsigned char* s = reinterpret_cast<const unsigned char*>(text.data());
    size_t o = 0;
    const size_t full_end = (pad == 0) ? n : n - 4;
    for (size_t i = 0; i < full_end; i += 4) {
        const int a = kDecode.value[s[i]], b = kDecode.value[s[i + 1]];
        const int c = kDecode.value[s[i + 2]], d = kDecode.value[s[i + 3]];
        if ((a | b | c | d) < 0) {
            for (size_t k = i; k < i + 4; ++k) {
                if (kDecode.value[s[k]] < 0) {
                    return bad_char(text, k,
                                    s[k] == '=' ? "padding before the end" : "invalid character");
                }
            }
        }
        const uint32_t v = (static_cast<uint32_t>(a) << 18) | (static_cast<uint32_t>(b) << 12) |
                           (static_cast<uint32_t>(c) << 6) | static_cast<uint32_t>(d);
        out[o++] = static_cast<typename Out::value_type>(v >> 16);
        out[o++] = static_cast<typename Out::value_type>((v >> 8) & 0xFF);
        out[o++] = static_cast<typename Out::value_type>(v & 0xFF);
    }
    if (pad != 0) {
        const size_t i = n - 4;
        const size_t data_chars = 4 - pad;
        uint32_t v = 0;
        for (size_t k = 0; k < data_chars; ++k) {
            const int x = kDecode.value[s[i + k]];
            if (x < 0) {
                return bad_char(text, i + k,
                                s[i + k] == '=' ? "misplaced padding" : "invalid character");
            }
            v |= static_cast<uint32_t>(x) << (18 - 6 * k);
        }
        if (pad == 1 ? (v & 0xFF) != 0 : (v & 0xFFFF) != 0) {
            return bad_char(text, i + data_chars - 1, "non-zero unused bits before the padding");
        }
        out[o++] = static_cast<typename Out::value_type>(v >> 16);
        if (pad == 1) out[o++] = static_cast<typename Out::value_type>((v >> 8) & 0xFF);
    }
    return Status();
}

}  // namespace

std::string base64_encode(std::span<const uint8_t> bytes) {
    std::string out;
    out.resize((bytes.size() + 2) / 3 * 4);
    size_t o = 0, i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const uint32_t v =
            (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
        out[o++] = kAlphabet[v >> 18];
        out[o++] = kAlphabet[(v >> 12) & 63];
        out[o++] = kAlphabet[(v >> 6) & 63];
        out[o++] = kAlphabet[v & 63];
    }
    const size_t rest = bytes.size() - i;
    if (rest != 0) {
        uint32_t v = uint32_t{bytes[i]} << 16;
        if (rest == 2) v |= uint32_t{bytes[i + 1]} << 8;
        out[o++] = kAlphabet[v >> 18];
        out[o++] = kAlphabet[(v >> 12) & 63];
        out[o++] = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    return out;
}

Result<std::vector<uint8_t>> base64_decode(std::string_view text) {
    std::vector<uint8_t> out;
    CUZK_RETURN_IF_ERROR(decode_into(text, out));
    return out;
}

Result<std::string> base64_decode_to_string(std::string_view text) {
    std::string out;
    CUZK_RETURN_IF_ERROR(decode_into(text, out));
    return out;
}

}  // namespace cuzk::util
