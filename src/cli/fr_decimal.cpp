#include "cli/fr_decimal.hpp"

#include <cstdio>

namespace cuzk::cli {
namespace {

using Int = ff::Fr::Int;
using Wide = ff::BigInt<Int::kLimbs + 1>;

}  // namespace

std::string fr_to_decimal(const ff::Fr& x) {
    // At most 78 decimal digits for a value below r < 2^255; filled from the right.
    Int v = x.to_int();
    char buf[96];
    size_t pos = sizeof buf;
    do {
        const uint64_t d = v.div_small_in_place(10);
        buf[--pos] = static_cast<char>('0' + d);
    } while (!v.is_zero());
    return std::string(buf + pos, sizeof buf - pos);
}

util::Result<ff::Fr> fr_from_decimal(std::string_view s) {
    if (s.empty()) return util::invalid_argument("decimal field element: empty string");
    const Wide r = ff::Fr::modulus().resize<Int::kLimbs + 1>();
    Wide v;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c < '0' || c > '9') {
            std::string msg = "decimal field element: character ";
            msg += std::to_string(i);
            msg += " is not a digit";
            return util::invalid_argument(std::move(msg));
        }
        // v < r < 2^255 here, so 10·v + 9 fits in the wide integer.
        Wide ten_v = v.shl(3);
        ten_v.add_in_place(v.shl(1));
        ten_v.add_in_place(Wide::from_u64(static_cast<uint64_t>(c - '0')));
        v = ten_v;
        if (v >= r) {
            return util::invalid_argument(
                "decimal field element: value is not below the scalar field modulus r");
        }
    }
    return ff::Fr::from_int(v.resize<Int::kLimbs>());
}

util::Result<std::vector<ff::Fr>> parse_fr_json_array(std::string_view text) {
    std::vector<ff::Fr> out;
    size_t pos = 0;
    auto skip_ws = [&] {
        while (pos < text.size() &&
               (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
            ++pos;
    };
    auto fail = [&](std::string what) -> util::Status {
        std::string msg = "public inputs JSON: ";
        msg += what;
        msg += " at byte ";
        msg += std::to_string(pos);
        return util::invalid_argument(std::move(msg));
    };
    skip_ws();
    if (pos >= text.size() || text[pos] != '[') return fail("expected '['");
    ++pos;
    skip_ws();
    if (pos < text.size() && text[pos] == ']') {
        ++pos;
    } else {
        for (;;) {
            skip_ws();
            if (pos >= text.size()) return fail("unexpected end of input");
            std::string_view token;
            if (text[pos] == '"') {
                const size_t close = text.find('"', pos + 1);
                if (close == std::string_view::npos) return fail("unterminated string");
                token = text.substr(pos + 1, close - pos - 1);
                pos = close + 1;
            } else {
                const size_t start = pos;
                while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
                if (pos == start) return fail("expected a decimal string or number");
                token = text.substr(start, pos - start);
            }
            auto x = fr_from_decimal(token);
            if (!x.ok()) {
                std::string msg = "public inputs JSON: element ";
                msg += std::to_string(out.size());
                msg += ": ";
                msg += x.status().message();
                return util::invalid_argument(std::move(msg));
            }
            out.push_back(*x);
            skip_ws();
            if (pos < text.size() && text[pos] == ',') {
                ++pos;
                continue;
            }
            if (pos < text.size() && text[pos] == ']') {
                ++pos;
                break;
            }
            return fail("expected ',' or ']'");
        }
    }
    skip_ws();
    if (pos != text.size()) return fail("trailing characters");
    return out;
}

std::string fr_json_array(const std::vector<ff::Fr>& xs) {
    std::string s = "[";
    for (size_t i = 0; i < xs.size(); ++i) {
        if (i) s += ",";
        s += "\"";
        s += fr_to_decimal(xs[i]);
        s += "\"";
    }
    s += "]";
    return s;
}

std::string json_quote(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    out += "\"";
    return out;
}

}  // namespace cuzk::cli
