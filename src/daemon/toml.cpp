#include "daemon/toml.hpp"

#include <limits>
#include <utility>

#include "util/utf8.hpp"

namespace cuzk::daemon::toml {
namespace {

util::Status error_at(int line, std::string_view what) {
    std::string m = "line ";
    m += std::to_string(line);
    m += ": ";
    m += what;
    return util::invalid_argument(std::move(m));
}

// Length of the UTF-8 sequence starting at s[i] (1..4), or 0 when it is not well-formed
// (overlong forms, surrogates and values above U+10FFFF are rejected, per RFC 3629).
size_t utf8_sequence_length(std::string_view s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t b0 = byte(i);
    if (b0 < 0x80) return 1;
    size_t n = 0;
    uint32_t cp = 0, min = 0;
    if ((b0 & 0xE0) == 0xC0) {
        n = 2, cp = b0 & 0x1Fu, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        n = 3, cp = b0 & 0x0Fu, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        n = 4, cp = b0 & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

bool is_bare_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

// TOML forbids control characters other than tab inside strings and comments.
bool is_forbidden_control(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7F;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A cursor over one line (without its newline).
class LineParser {
   public:
    LineParser(std::string_view text, int line) : s_(text), line_(line) {}

    void skip_ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    }
    bool at_end() const { return pos_ >= s_.size(); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
    void advance(size_t n = 1) { pos_ += n; }

    // Whitespace, then nothing or a comment.
    util::Status expect_line_end() {
        skip_ws();
        if (at_end()) return util::Status();
        if (peek() != '#') {
            std::string m = "unexpected '";
            m += s_.substr(pos_, 1);
            m += "' after the value (one key = value per line; comments start with #)";
            return error_at(line_, m);
        }
        for (size_t i = pos_ + 1; i < s_.size(); ++i) {
            if (is_forbidden_control(s_[i])) return error_at(line_, "control character in comment");
        }
        pos_ = s_.size();
        return util::Status();
    }

    // A bare or quoted key.
    util::Result<std::string> key() {
        if (peek() == '"' || peek() == '\'') {
            if (peek(1) == peek() && peek(2) == peek())
                return error_at(line_, "a multi-line string cannot be a key");
            return string_value();
        }
        const size_t start = pos_;
        while (!at_end() && is_bare_key_char(peek())) ++pos_;
        if (pos_ == start) {
            if (at_end()) return error_at(line_, "expected a key");
            std::string m = "expected a key, found '";
            m += s_.substr(pos_, 1);
            m += "' (bare keys use A-Z a-z 0-9 _ -; quote other keys)";
            return error_at(line_, m);
        }
        return std::string(s_.substr(start, pos_ - start));
    }

    // A basic ("…") or literal ('…') single-line string; the cursor is on the opening quote.
    util::Result<std::string> string_value() {
        const char quote = peek();
        if (peek(1) == quote && peek(2) == quote)
            return error_at(line_, "multi-line strings are not supported");
        advance();
        std::string out;
        while (true) {
            if (at_end()) return error_at(line_, "unterminated string");
            const char c = peek();
            if (c == quote) {
                advance();
                return out;
            }
            if (is_forbidden_control(c))
                return error_at(line_, "control character in string (use an escape)");
            if (c == '\\' && quote == '"') {
                CUZK_RETURN_IF_ERROR(escape(out));
                continue;
            }
            out += c;
            advance();
        }
    }

    util::Result<Value> value() {
        Value v;
        v.line = line_;
        const char c = peek();
        if (at_end()) return error_at(line_, "expected a value after '='");
        if (c == '"' || c == '\'') {
            CUZK_ASSIGN_OR_RETURN(v.string, string_value());
            v.kind = Value::Kind::kString;
            return v;
        }
        if (c == '[') {
            CUZK_ASSIGN_OR_RETURN(v.integers, integer_array());
            v.kind = Value::Kind::kIntegerArray;
            return v;
        }
        if (c == '{')
            return error_at(line_, "inline tables are not supported by this config reader");
        // A bare token: boolean, integer, or something unsupported.
        const size_t start = pos_;
        while (!at_end() && peek() != ' ' && peek() != '\t' && peek() != '#') ++pos_;
        const std::string_view tok = s_.substr(start, pos_ - start);
        if (tok == "true" || tok == "false") {
            v.kind = Value::Kind::kBoolean;
            v.boolean = tok == "true";
            return v;
        }
        CUZK_ASSIGN_OR_RETURN(v.integer, integer(tok));
        v.kind = Value::Kind::kInteger;
        return v;
    }

   private:
    // "[1, 2, 3]" on one line, a trailing comma allowed; the cursor is on the '['.
    util::Result<std::vector<int64_t>> integer_array() {
        advance();
        std::vector<int64_t> out;
        for (;;) {
            skip_ws();
            if (at_end() || peek() == '#')
                return error_at(line_,
                                "an array must close with ']' on its line in this config reader");
            if (peek() == ']') {
                advance();
                return out;
            }
            const char c = peek();
            if (c == '"' || c == '\'' || c == '[' || c == '{')
                return error_at(line_, "arrays hold only integers in this config reader");
            const size_t start = pos_;
            while (!at_end() && peek() != ' ' && peek() != '\t' && peek() != '#' && peek() != ',' &&
                   peek() != ']')
                ++pos_;
            const std::string_view tok = s_.substr(start, pos_ - start);
            if (tok == "true" || tok == "false")
                return error_at(line_, "arrays hold only integers in this config reader");
            CUZK_ASSIGN_OR_RETURN(int64_t x, integer(tok));
            out.push_back(x);
            skip_ws();
            if (!at_end() && peek() == ',') {
                advance();
                continue;
            }
            if (!at_end() && peek() == ']') continue;
            return error_at(line_, "expected ',' or ']' in the array");
        }
    }

    // Cursor on the backslash of a basic string's escape; appends the decoded character.
    util::Status escape(std::string& out) {
        const char e = peek(1);
        advance(2);
        switch (e) {
            case 'b':
                out += '\b';
                return util::Status();
            case 't':
                out += '\t';
                return util::Status();
            case 'n':
                out += '\n';
                return util::Status();
            case 'f':
                out += '\f';
                return util::Status();
            case 'r':
                out += '\r';
                return util::Status();
            case '"':
                out += '"';
                return util::Status();
            case '\\':
                out += '\\';
                return util::Status();
            case 'u':
            case 'U': {
                const size_t digits = e == 'u' ? 4 : 8;
                uint32_t cp = 0;
                for (size_t k = 0; k < digits; ++k) {
                    const int d = hex_digit(peek(k));
                    if (d < 0) {
                        std::string m = "\\";
                        m += e;
                        m += " escape needs ";
                        m += std::to_string(digits);
                        m += " hex digits";
                        return error_at(line_, m);
                    }
                    cp = (cp << 4) | static_cast<uint32_t>(d);
                }
                advance(digits);
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                    return error_at(line_, "escape is not a Unicode scalar value");
                util::append_utf8(out, cp);
                return util::Status();
            }
            default: {
                std::string m = "invalid escape '\\";
                if (e != '\0') m += e;
                m += "' in string";
                return error_at(line_, m);
            }
        }
    }

    util::Result<int64_t> integer(std::string_view tok) {
        const auto unsupported = [&](const char* what) {
            std::string m = "'";
            m += tok;
            m += "': ";
            m += what;
            return error_at(line_, m);
        };
        if (tok == "inf" || tok == "+inf" || tok == "-inf" || tok == "nan" || tok == "+nan" ||
            tok == "-nan")
            return unsupported("floats are not supported by this config reader");
        if (tok.find(':') != std::string_view::npos ||
            (tok.size() >= 5 && tok[4] == '-' && tok[0] >= '0' && tok[0] <= '9'))
            return unsupported("dates and times are not supported by this config reader");
        bool negative = false;
        std::string_view body = tok;
        if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
            negative = body[0] == '-';
            body.remove_prefix(1);
        }
        unsigned base = 10;
        if (body.size() >= 2 && body[0] == '0' &&
            (body[1] == 'x' || body[1] == 'o' || body[1] == 'b')) {
            if (body.size() != tok.size()) return unsupported("a prefixed integer takes no sign");
            base = body[1] == 'x' ? 16 : body[1] == 'o' ? 8 : 2;
            body.remove_prefix(2);
        }
        if (body.empty()) return unsupported("expected a value (string, integer or boolean)");
        if (base == 10 && (body.find('.') != std::string_view::npos ||
                           body.find_first_of("eE") != std::string_view::npos)) {
            bool digits_only = true;
            for (char ch : body)
                digits_only &= (ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' ||
                               ch == '_' || ch == '+' || ch == '-';
            if (digits_only) return unsupported("floats are not supported by this config reader");
        }
        if (base == 10 && body.size() > 1 && body[0] == '0')
            return unsupported("leading zeros are not allowed in integers");
        // Magnitude limit: 2^63 for negative numbers, 2^63 - 1 otherwise.
        const uint64_t limit = negative
                                   ? uint64_t{1} << 63
                                   : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
        uint64_t mag = 0;
        bool prev_digit = false;
        for (size_t i = 0; i < body.size(); ++i) {
            const char ch = body[i];
            if (ch == '_') {
                if (!prev_digit || i + 1 == body.size())
                    return unsupported("underscores must sit between digits");
                prev_digit = false;
                continue;
            }
            const int d = hex_digit(ch);
            if (d < 0 || static_cast<unsigned>(d) >= base) {
                if (base == 10 && !(ch >= '0' && ch <= '9'))
                    return unsupported(
                        "expected a value (a \"string\", an integer, true or false; strings "
                        "need quotes)");
                return unsupported("digit out of range for the integer's base");
            }
            if (mag > (limit - static_cast<uint64_t>(d)) / base)
                return unsupported("integer out of the 64-bit signed range");
            mag = mag * base + static_cast<uint64_t>(d);
            prev_digit = true;
        }
        if (negative)
            return mag == (uint64_t{1} << 63) ? std::numeric_limits<int64_t>::min()
                                              : -static_cast<int64_t>(mag);
        return static_cast<int64_t>(mag);
    }

    std::string_view s_;
    size_t pos_ = 0;
    int line_;
};

}  // namespace

const char* kind_name(Value::Kind kind) {
    switch (kind) {
        case Value::Kind::kString:
            return "string";
        case Value::Kind::kInteger:
            return "integer";
        case Value::Kind::kBoolean:
            return "boolean";
        case Value::Kind::kIntegerArray:
            return "array";
    }
    return "?";
}

util::Result<Document> parse(std::string_view text) {
    Document doc;
    doc.tables[""];
    std::string current;  // the table that key/value lines go into
    int line_no = 0;
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        ++line_no;
        const bool last = end == text.size();
        begin = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (size_t i = 0; i < line.size();) {
            const size_t n = utf8_sequence_length(line, i);
            if (n == 0) return error_at(line_no, "not valid UTF-8");
            if (line[i] == '\r') return error_at(line_no, "carriage return without a newline");
            i += n;
        }

        LineParser p(line, line_no);
        p.skip_ws();
        if (p.at_end() || p.peek() == '#') {
            CUZK_RETURN_IF_ERROR(p.expect_line_end());
        } else if (p.peek() == '[') {
            if (p.peek(1) == '[')
                return error_at(line_no,
                                "arrays of tables are not supported by this config reader");
            p.advance();
            std::string name;
            while (true) {
                p.skip_ws();
                CUZK_ASSIGN_OR_RETURN(std::string part, p.key());
                if (!name.empty()) name += '.';
                name += part;
                p.skip_ws();
                if (p.peek() == '.') {
                    p.advance();
                    continue;
                }
                if (p.peek() == ']') {
                    p.advance();
                    break;
                }
                return error_at(line_no, "expected ']' to close the table header");
            }
            CUZK_RETURN_IF_ERROR(p.expect_line_end());
            auto [it, inserted] = doc.tables.try_emplace(name);
            if (!inserted || name.empty()) {
                std::string m = "table [";
                m += name;
                m += "] is defined twice";
                if (it->second.line > 0) {
                    m += " (first on line ";
                    m += std::to_string(it->second.line);
                    m += ")";
                }
                return error_at(line_no, m);
            }
            it->second.line = line_no;
            current = name;
        } else {
            CUZK_ASSIGN_OR_RETURN(std::string key, p.key());
            p.skip_ws();
            if (p.peek() == '.')
                return error_at(line_no, "dotted keys are not supported; use a [table] header");
            if (p.peek() != '=') {
                std::string m = "expected '=' after key '";
                m += key;
                m += "'";
                return error_at(line_no, m);
            }
            p.advance();
            p.skip_ws();
            CUZK_ASSIGN_OR_RETURN(Value v, p.value());
            CUZK_RETURN_IF_ERROR(p.expect_line_end());
            Table& table = doc.tables[current];
            auto [it, inserted] = table.values.try_emplace(key, std::move(v));
            if (!inserted) {
                std::string m = "key '";
                m += key;
                m += "' is defined twice (first on line ";
                m += std::to_string(it->second.line);
                m += ")";
                return error_at(line_no, m);
            }
        }
        if (last) break;
    }
    return doc;
}

}  // namespace cuzk::daemon::toml
