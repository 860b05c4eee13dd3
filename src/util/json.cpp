#include "util/json.hpp"

#include <sys/mman.h>

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <system_error>

#include "util/env.hpp"
#include "util/utf8.hpp"

namespace cuzk::util::json {

namespace detail {

enum : uint8_t {
    kNumNegative = 1,
    kNumNonInteger = 2,  // has a fraction or an exponent
    kStrInArena = 1,
};

// Large tapes (hundreds of MB for a big C1) are mapped directly and marked for transparent huge
// pages, which removes most of the page-fault cost of touching them the first time.
// Switch: CUZK_JSON_HUGEPAGES=0 uses the ordinary allocator for every size (A/B runs).
inline bool tape_hugepages_enabled() {
    static const bool enabled = env_switch("CUZK_JSON_HUGEPAGES", true);
    return enabled;
}

template <class T>
struct TapeAllocator {
    using value_type = T;
    static constexpr size_t kLarge = size_t{4} << 20;
    TapeAllocator() = default;
    template <class U>
    TapeAllocator(const TapeAllocator<U>&) {}  // NOLINT: allocator rebinding
    static size_t mapped_bytes(size_t n) {
        const size_t huge = size_t{2} << 20;
        return (n * sizeof(T) + huge - 1) / huge * huge;
    }
    static bool is_large(size_t n) { return n * sizeof(T) >= kLarge && tape_hugepages_enabled(); }
    T* allocate(size_t n) {
        if (!is_large(n)) return std::allocator<T>().allocate(n);
        void* p = mmap(nullptr, mapped_bytes(n), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        madvise(p, mapped_bytes(n), MADV_HUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) {
        if (!is_large(n)) {
            std::allocator<T>().deallocate(p, n);
        } else {
            munmap(p, mapped_bytes(n));
        }
    }
    template <class U>
    bool operator==(const TapeAllocator<U>&) const {
        return true;
    }
};

struct DocData {
    std::string text;   // the input, NUL-terminated by std::string
    std::string arena;  // decoded escaped strings
    std::vector<Node, TapeAllocator<Node>> tape;
};

}  // namespace detail

using detail::DocData;
using detail::Node;

const char* type_name(Type type) {
    switch (type) {
        case Type::kNull:
            return "null";
        case Type::kBool:
            return "boolean";
        case Type::kNumber:
            return "number";
        case Type::kString:
            return "string";
        case Type::kArray:
            return "array";
        case Type::kObject:
            return "object";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------------
// Paths

static bool is_plain_key(std::string_view key) {
    if (key.empty()) return false;
    for (char c : key) {
        const bool ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

static void append_escaped(std::string& out, std::string_view s);

void append_key(std::string& path, std::string_view key) {
    if (is_plain_key(key)) {
        if (!path.empty()) path += '.';
        path += key;
    } else {
        path += '[';
        append_escaped(path, key);
        path += ']';
    }
}

void append_index(std::string& path, size_t index) {
    path += '[';
    path += std::to_string(index);
    path += ']';
}

// ---------------------------------------------------------------------------------------------
// Parser

namespace {

// 1: the byte ends the fast scan of a string body ('"', '\\', control, non-ASCII).
struct StringTable {
    uint8_t special[256];
    constexpr StringTable() : special() {
        for (int c = 0; c < 256; ++c) {
            special[c] = (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) ? 1 : 0;
        }
    }
};
constexpr StringTable kStringTable;

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Length of the valid UTF-8 sequence starting at p (lead byte >= 0x80), or 0 when invalid
// (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). Relies on a NUL sentinel.
size_t utf8_sequence_length(const unsigned char* p) {
    const unsigned char c = p[0];
    auto cont = [](unsigned char b) { return (b & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(p[1]) ? 2 : 0;
    if (c == 0xE0) return (p[1] >= 0xA0 && p[1] <= 0xBF && cont(p[2])) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
        return (cont(p[1]) && cont(p[2])) ? 3 : 0;
    }
    if (c == 0xED) return (p[1] >= 0x80 && p[1] <= 0x9F && cont(p[2])) ? 3 : 0;
    if (c == 0xF0) return (p[1] >= 0x90 && p[1] <= 0xBF && cont(p[2]) && cont(p[3])) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return (cont(p[1]) && cont(p[2]) && cont(p[3])) ? 4 : 0;
    if (c == 0xF4) return (p[1] >= 0x80 && p[1] <= 0x8F && cont(p[2]) && cont(p[3])) ? 4 : 0;
    return 0;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class Parser {
   public:
    Parser(DocData& doc, const ParseOptions& options)
        : doc_(doc),
          options_(options),
          begin_(doc.text.data()),
          p_(doc.text.data()),
          end_(doc.text.data() + doc.text.size()) {}

    Status run();

   private:
    struct Frame {
        size_t node;     // tape index of the container
        uint32_t count;  // completed children
        bool is_object;
        bool open_child;  // a child value is being parsed (its path component applies)
        size_t key_node;  // tape index of the current member's key (objects)
    };

    void skip_ws() {
        while (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t') ++p_;
    }
    bool at_end() const { return p_ >= end_; }

    Status error(const char* at, std::string_view what) const;
    std::string describe_here(const char* at) const;

    Status parse_string(bool is_key);
    Status parse_number();
    Status parse_literal();
    Status parse_key();  // key string, whitespace, ':'
    Status open(bool is_object);
    void close() {
        Frame& f = stack_.back();
        Node& n = doc_.tape[f.node];
        n.count = f.count;
        n.payload = static_cast<uint32_t>(doc_.tape.size());
        stack_.pop_back();
    }

    DocData& doc_;
    const ParseOptions& options_;
    const char* begin_;
    const char* p_;
    const char* end_;
    std::vector<Frame> stack_;
};

std::string Parser::describe_here(const char* at) const {
    if (at >= end_) return "end of input";
    const unsigned char c = static_cast<unsigned char>(*at);
    std::string s;
    if (c >= 0x20 && c < 0x7F) {
        s += '\'';
        s += static_cast<char>(c);
        s += '\'';
    } else {
        static constexpr char kHex[] = "0123456789abcdef";
        s += "byte 0x";
        s += kHex[c >> 4];
        s += kHex[c & 15];
    }
    return s;
}

Status Parser::error(const char* at, std::string_view what) const {
    // Line and column (1-based; columns count UTF-8 characters, not continuation bytes).
    size_t line = 1, column = 1;
    for (const char* q = begin_; q < at && q < end_; ++q) {
        if (*q == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(*q) & 0xC0) != 0x80) {
            ++column;
        }
    }
    std::string path;
    for (const Frame& f : stack_) {
        if (!f.open_child) break;
        if (f.is_object) {
            const Node& k = doc_.tape[f.key_node];
            const char* base = (k.flags & detail::kStrInArena) ? doc_.arena.data() : begin_;
            append_key(path, std::string_view(base + k.payload, k.count));
        } else {
            append_index(path, f.count);
        }
    }
    std::string msg = "JSON parse error at line ";
    msg += std::to_string(line);
    msg += ", column ";
    msg += std::to_string(column);
    msg += " (path ";
    msg += path.empty() ? std::string("<root>") : path;
    msg += "): ";
    msg += what;
    return invalid_argument(std::move(msg));
}

Status Parser::open(bool is_object) {
    if (stack_.size() >= options_.max_depth) {
        std::string what = "nesting deeper than the limit of ";
        what += std::to_string(options_.max_depth);
        Status s = error(p_, what);
        return Status(StatusCode::kOutOfRange, s.message());
    }
    doc_.tape.push_back(Node{is_object ? Type::kObject : Type::kArray, 0, 0, 0, 0});
    stack_.push_back(Frame{doc_.tape.size() - 1, 0, is_object, false, 0});
    ++p_;
    return Status();
}

Status Parser::parse_string(bool is_key) {
    const char* start = ++p_;  // after the opening quote
    const unsigned char* q = reinterpret_cast<const unsigned char*>(p_);
    // Fast scan: plain ASCII and valid UTF-8 without escapes.
    for (;;) {
        while (!kStringTable.special[*q]) ++q;
        if (*q >= 0x80) {
            const size_t n = utf8_sequence_length(q);
            if (n == 0) return error(reinterpret_cast<const char*>(q), "invalid UTF-8 in string");
            q += n;
            continue;
        }
        break;
    }
    const char* stop = reinterpret_cast<const char*>(q);
    if (*q == '"') {
        doc_.tape.push_back(Node{Type::kString, 0, 0, static_cast<uint32_t>(stop - start),
                                 static_cast<uint32_t>(start - begin_)});
        p_ = stop + 1;
        return Status();
    }
    if (*q != '\\') {
        if (stop >= end_) return error(stop, "unterminated string");
        return error(stop, "control character in string (must be escaped)");
    }
    // Slow path: decode into the arena.
    std::string& arena = doc_.arena;
    const size_t arena_start = arena.size();
    arena.append(start, stop);
    const char* s = stop;
    for (;;) {
        const unsigned char c = static_cast<unsigned char>(*s);
        if (c == '"') break;
        if (c == '\\') {
            const char e = s[1];
            switch (e) {
                case '"':
                    arena += '"';
                    s += 2;
                    continue;
                case '\\':
                    arena += '\\';
                    s += 2;
                    continue;
                case '/':
                    arena += '/';
                    s += 2;
                    continue;
                case 'b':
                    arena += '\b';
                    s += 2;
                    continue;
                case 'f':
                    arena += '\f';
                    s += 2;
                    continue;
                case 'n':
                    arena += '\n';
                    s += 2;
                    continue;
                case 'r':
                    arena += '\r';
                    s += 2;
                    continue;
                case 't':
                    arena += '\t';
                    s += 2;
                    continue;
                case 'u':
                    break;
                default:
                    if (s + 1 >= end_) return error(s + 1, "unterminated string");
                    return error(s, "invalid escape sequence in string");
            }
            auto read_hex4 = [&](const char* h, uint32_t& out) -> bool {
                out = 0;
                for (int i = 0; i < 4; ++i) {
                    const int v = hex_value(h[i]);  // a NUL stops the scan before the end
                    if (v < 0) return false;
                    out = (out << 4) | static_cast<uint32_t>(v);
                }
                return true;
            };
            uint32_t cp;
            if (!read_hex4(s + 2, cp)) return error(s, "\\u escape needs four hex digits");
            s += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (s[0] != '\\' || s[1] != 'u' || !read_hex4(s + 2, lo) || lo < 0xDC00 ||
                    lo > 0xDFFF) {
                    return error(s - 6, "lone leading surrogate in \\u escape");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                s += 6;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return error(s - 6, "lone trailing surrogate in \\u escape");
            }
            util::append_utf8(arena, cp);
            continue;
        }
        if (c < 0x20) {
            if (s >= end_) return error(s, "unterminated string");
            return error(s, "control character in string (must be escaped)");
        }
        if (c >= 0x80) {
            const size_t n = utf8_sequence_length(reinterpret_cast<const unsigned char*>(s));
            if (n == 0) return error(s, "invalid UTF-8 in string");
            arena.append(s, n);
            s += n;
            continue;
        }
        // Copy a run of plain bytes.
        const char* run = s;
        while (!kStringTable.special[static_cast<unsigned char>(*s)]) ++s;
        arena.append(run, s);
    }
    const size_t len = arena.size() - arena_start;
    if (len > UINT32_MAX) return error(start, "string longer than 4 GiB");
    doc_.tape.push_back(Node{Type::kString, detail::kStrInArena, 0, static_cast<uint32_t>(len),
                             static_cast<uint32_t>(arena_start)});
    p_ = s + 1;
    (void)is_key;
    return Status();
}

Status Parser::parse_number() {
    const char* start = p_;
    uint8_t flags = 0;
    if (*p_ == '-') {
        flags |= detail::kNumNegative;
        ++p_;
    }
    if (*p_ == '0') {
        ++p_;
        if (is_digit(*p_)) return error(p_ - 1, "leading zeros are not allowed in numbers");
    } else if (is_digit(*p_)) {
        while (is_digit(*p_)) ++p_;
    } else {
        return error(p_, "expected a digit after '-'");
    }
    if (*p_ == '.') {
        ++p_;
        if (!is_digit(*p_)) return error(p_, "expected a digit after the decimal point");
        while (is_digit(*p_)) ++p_;
        flags |= detail::kNumNonInteger;
    }
    if (*p_ == 'e' || *p_ == 'E') {
        ++p_;
        if (*p_ == '+' || *p_ == '-') ++p_;
        if (!is_digit(*p_)) return error(p_, "expected a digit in the exponent");
        while (is_digit(*p_)) ++p_;
        flags |= detail::kNumNonInteger;
    }
    const size_t len = static_cast<size_t>(p_ - start);
    if (len > UINT32_MAX) return error(start, "number text longer than 4 GiB");
    doc_.tape.push_back(Node{Type::kNumber, flags, 0, static_cast<uint32_t>(len),
                             static_cast<uint32_t>(start - begin_)});
    return Status();
}

Status Parser::parse_literal() {
    const size_t left = static_cast<size_t>(end_ - p_);
    if (left >= 4 && std::memcmp(p_, "true", 4) == 0) {
        doc_.tape.push_back(Node{Type::kBool, 1, 0, 0, 0});
        p_ += 4;
    } else if (left >= 5 && std::memcmp(p_, "false", 5) == 0) {
        doc_.tape.push_back(Node{Type::kBool, 0, 0, 0, 0});
        p_ += 5;
    } else if (left >= 4 && std::memcmp(p_, "null", 4) == 0) {
        doc_.tape.push_back(Node{Type::kNull, 0, 0, 0, 0});
        p_ += 4;
    } else {
        return error(p_, "invalid literal (expected true, false or null)");
    }
    // "truex", "null1": the literal must end at a delimiter.
    const char c = *p_;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c)) {
        return error(p_, "invalid literal (expected true, false or null)");
    }
    return Status();
}

Status Parser::parse_key() {
    if (*p_ != '"') {
        std::string what = "expected a string key, found ";
        what += describe_here(p_);
        return error(p_, what);
    }
    Frame& f = stack_.back();
    CUZK_RETURN_IF_ERROR(parse_string(true));
    f.key_node = doc_.tape.size() - 1;
    skip_ws();
    if (*p_ != ':') {
        std::string what = "expected ':' after an object key, found ";
        what += describe_here(p_);
        return error(p_, what);
    }
    ++p_;
    f.open_child = true;
    return Status();
}

Status Parser::run() {
    for (;;) {
        // A value is expected at p_.
        skip_ws();
        switch (*p_) {
            case '{': {
                CUZK_RETURN_IF_ERROR(open(true));
                skip_ws();
                if (*p_ == '}') {
                    ++p_;
                    close();
                    break;
                }
                CUZK_RETURN_IF_ERROR(parse_key());
                continue;
            }
            case '[': {
                CUZK_RETURN_IF_ERROR(open(false));
                skip_ws();
                if (*p_ == ']') {
                    ++p_;
                    close();
                    break;
                }
                stack_.back().open_child = true;
                continue;
            }
            case '"':
                CUZK_RETURN_IF_ERROR(parse_string(false));
                break;
            case '-':
            case '0':
            case '1':
            case '2':
            case '3':
            case '4':
            case '5':
            case '6':
            case '7':
            case '8':
            case '9':
                CUZK_RETURN_IF_ERROR(parse_number());
                break;
            case 't':
            case 'f':
            case 'n':
                CUZK_RETURN_IF_ERROR(parse_literal());
                break;
            default: {
                if (at_end()) return error(p_, "unexpected end of input, expected a value");
                std::string what = "expected a value, found ";
                what += describe_here(p_);
                return error(p_, what);
            }
        }
        // A value was completed; consume separators and closing brackets.
        for (;;) {
            if (stack_.empty()) {
                skip_ws();
                if (!at_end()) {
                    std::string what = "trailing characters after the JSON value: ";
                    what += describe_here(p_);
                    return error(p_, what);
                }
                return Status();
            }
            Frame& f = stack_.back();
            ++f.count;
            f.open_child = false;
            skip_ws();
            const char c = *p_;
            if (c == ',') {
                ++p_;
                skip_ws();
                if (f.is_object) {
                    CUZK_RETURN_IF_ERROR(parse_key());
                    break;
                }
                f.open_child = true;
                // Runs of numbers (byte arrays) stay in this loop.
                if (is_digit(*p_) || *p_ == '-') {
                    CUZK_RETURN_IF_ERROR(parse_number());
                    continue;
                }
                break;
            }
            if (c == (f.is_object ? '}' : ']')) {
                ++p_;
                close();
                continue;
            }
            std::string what = f.is_object ? "expected ',' or '}' after an object member, found "
                                           : "expected ',' or ']' after an array element, found ";
            what += describe_here(p_);
            return error(p_, what);
        }
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Document

Document::Document() = default;
Document::~Document() = default;
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;

Result<Document> Document::parse(std::string text, const ParseOptions& options) {
    const size_t hard_max = size_t{UINT32_MAX};
    const size_t limit = options.max_size < hard_max ? options.max_size : hard_max;
    if (text.size() > limit) {
        std::string msg = "JSON input is ";
        msg += std::to_string(text.size());
        msg += " bytes, more than the limit of ";
        msg += std::to_string(limit);
        return out_of_range(std::move(msg));
    }
    Document doc;
    doc.data_ = std::make_unique<DocData>();
    doc.data_->text = std::move(text);
    // Typical machine-written JSON has a value every 3-6 bytes; avoid most regrowth.
    doc.data_->tape.reserve(doc.data_->text.size() / 3 + 16);
    Parser parser(*doc.data_, options);
    CUZK_RETURN_IF_ERROR(parser.run());
    return doc;
}

Value Document::root() const {
    if (!data_ || data_->tape.empty()) return Value();
    return Value(data_.get(), 0);
}

size_t Document::tape_size() const { return data_ ? data_->tape.size() : 0; }

// ---------------------------------------------------------------------------------------------
// Value

const Node& Value::node() const { return doc_->tape[index_]; }

size_t Value::next_sibling() const {
    const Node& n = node();
    if (n.type == Type::kArray || n.type == Type::kObject) return static_cast<size_t>(n.payload);
    return index_ + 1;
}

Type Value::type() const { return doc_ ? node().type : Type::kNull; }

static Status wrong_type(Type expected, const Value& v) {
    std::string msg = "expected ";
    msg += type_name(expected);
    msg += ", found ";
    msg += v.valid() ? type_name(v.type()) : "nothing";
    return invalid_argument(std::move(msg));
}

Result<bool> Value::get_bool() const {
    if (!doc_ || node().type != Type::kBool) return wrong_type(Type::kBool, *this);
    return node().flags != 0;
}

bool Value::bool_value() const { return doc_ && node().type == Type::kBool && node().flags != 0; }

std::string_view Value::number_text() const {
    if (!doc_ || node().type != Type::kNumber) return {};
    const Node& n = node();
    return std::string_view(doc_->text.data() + n.payload, n.count);
}

std::string_view Value::string_text() const {
    if (!doc_ || node().type != Type::kString) return {};
    const Node& n = node();
    const char* base = (n.flags & detail::kStrInArena) ? doc_->arena.data() : doc_->text.data();
    return std::string_view(base + n.payload, n.count);
}

Result<std::string_view> Value::get_string() const {
    if (!doc_ || node().type != Type::kString) return wrong_type(Type::kString, *this);
    return string_text();
}

static Status number_error(std::string_view text, const char* what) {
    std::string msg = "number ";
    if (text.size() > 40) {
        msg += text.substr(0, 40);
        msg += "...";
    } else {
        msg += text;
    }
    msg += ' ';
    msg += what;
    return out_of_range(std::move(msg));
}

Result<uint64_t> Value::get_u64() const {
    if (!doc_ || node().type != Type::kNumber) return wrong_type(Type::kNumber, *this);
    const Node& n = node();
    const std::string_view t = number_text();
    if (n.flags & detail::kNumNonInteger) return number_error(t, "is not an integer");
    size_t i = 0;
    if (n.flags & detail::kNumNegative) {
        // Only -0 is a non-negative value.
        if (t == "-0") return uint64_t{0};
        return number_error(t, "is negative, expected an unsigned integer");
    }
    uint64_t v = 0;
    for (; i < t.size(); ++i) {
        const uint64_t d = static_cast<uint64_t>(t[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return number_error(t, "does not fit in 64 bits");
        v = v * 10 + d;
    }
    return v;
}

Result<int64_t> Value::get_i64() const {
    if (!doc_ || node().type != Type::kNumber) return wrong_type(Type::kNumber, *this);
    const Node& n = node();
    const std::string_view t = number_text();
    if (n.flags & detail::kNumNonInteger) return number_error(t, "is not an integer");
    const bool neg = (n.flags & detail::kNumNegative) != 0;
    const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    uint64_t v = 0;
    for (size_t i = neg ? 1 : 0; i < t.size(); ++i) {
        const uint64_t d = static_cast<uint64_t>(t[i] - '0');
        if (v > (limit - d) / 10) return number_error(t, "does not fit in a signed 64-bit integer");
        v = v * 10 + d;
    }
    if (neg) return v == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(v);
    return static_cast<int64_t>(v);
}

Result<double> Value::get_double() const {
    if (!doc_ || node().type != Type::kNumber) return wrong_type(Type::kNumber, *this);
    const std::string_view t = number_text();
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc::result_out_of_range) {
        // from_chars also reports underflow this way; tiny values round to zero as in serde_json.
        bool nonzero_mantissa = false;
        for (char c : t) {
            if (c == 'e' || c == 'E') break;
            if (c >= '1' && c <= '9') nonzero_mantissa = true;
        }
        const size_t e = t.find_first_of("eE");
        const bool negative_exponent =
            e != std::string_view::npos && e + 1 < t.size() && t[e + 1] == '-';
        if (!nonzero_mantissa || negative_exponent) return (t[0] == '-') ? -0.0 : 0.0;
        return number_error(t, "is out of the range of a double");
    }
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
        return number_error(t, "could not be converted to a double");
    }
    return v;
}

bool Value::try_get_bytes(uint8_t* out, size_t n) const {
    if (!doc_) return false;
    const Node& a = node();
    if (a.type != Type::kArray || a.count != n) return false;
    // Scalars take one tape node each, so the elements are the next n nodes.
    const Node* e = &doc_->tape[index_ + 1];
    const char* text = doc_->text.data();
    for (size_t i = 0; i < n; ++i) {
        if (e[i].type != Type::kNumber || e[i].flags != 0 || e[i].count > 3) return false;
        const char* t = text + e[i].payload;
        unsigned v = static_cast<unsigned>(t[0] - '0');
        for (uint32_t k = 1; k < e[i].count; ++k) v = v * 10 + static_cast<unsigned>(t[k] - '0');
        if (v > 255) return false;
        out[i] = static_cast<uint8_t>(v);
    }
    return true;
}

size_t Value::size() const {
    if (!doc_) return 0;
    const Node& n = node();
    return (n.type == Type::kArray || n.type == Type::kObject) ? n.count : 0;
}

Value Value::at(size_t i) const {
    if (!doc_ || node().type != Type::kArray || i >= node().count) return Value();
    size_t idx = index_ + 1;
    for (size_t k = 0; k < i; ++k) idx = Value(doc_, idx).next_sibling();
    return Value(doc_, idx);
}

Value::Elements Value::elements() const {
    if (!doc_ || node().type != Type::kArray || node().count == 0) return {};
    return Elements{ElementIterator(Value(doc_, index_ + 1), node().count), ElementIterator()};
}

Member Value::MemberIterator::operator*() const {
    return Member{key_.string_text(), Value(key_.doc_, key_.index_ + 1)};
}

Value::MemberIterator& Value::MemberIterator::operator++() {
    if (--remaining_ != 0)
        key_ = Value(key_.doc_, Value(key_.doc_, key_.index_ + 1).next_sibling());
    return *this;
}

Value::Members Value::members() const {
    if (!doc_ || node().type != Type::kObject || node().count == 0) return {};
    return Members{MemberIterator(Value(doc_, index_ + 1), node().count), MemberIterator()};
}

std::optional<Value> Value::find(std::string_view key) const {
    for (const Member m : members()) {
        if (m.key == key) return m.value;
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Writer

static void append_escaped(std::string& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    size_t run = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
        }
    }
    out.append(s.data() + run, s.size() - run);
    out += '"';
}

void Writer::newline_indent(size_t depth) {
    out_ += '\n';
    out_.append(depth * 2, ' ');
}

void Writer::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (has_items_.empty()) return;
    if (has_items_.back()) out_ += ',';
    has_items_.back() = 1;
    if (pretty_) newline_indent(has_items_.size());
}

void Writer::begin_object() {
    before_value();
    out_ += '{';
    has_items_.push_back(0);
}

void Writer::end_object() {
    assert(!has_items_.empty() && !after_key_);
    const bool had = has_items_.back() != 0;
    has_items_.pop_back();
    if (pretty_ && had) newline_indent(has_items_.size());
    out_ += '}';
}

void Writer::begin_array() {
    before_value();
    out_ += '[';
    has_items_.push_back(0);
}

void Writer::end_array() {
    assert(!has_items_.empty() && !after_key_);
    const bool had = has_items_.back() != 0;
    has_items_.pop_back();
    if (pretty_ && had) newline_indent(has_items_.size());
    out_ += ']';
}

void Writer::key(std::string_view name) {
    assert(!after_key_);
    before_value();
    append_escaped(out_, name);
    out_ += pretty_ ? ": " : ":";
    after_key_ = true;
}

void Writer::null_value() {
    before_value();
    out_ += "null";
}

void Writer::bool_value(bool v) {
    before_value();
    out_ += v ? "true" : "false";
}

void Writer::u64_value(uint64_t v) {
    before_value();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    out_.append(buf, r.ptr);
}

void Writer::i64_value(int64_t v) {
    before_value();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    out_.append(buf, r.ptr);
}

void Writer::double_value(double v) {
    before_value();
    if (!std::isfinite(v)) {
        out_ += "null";
        return;
    }
    // Shortest round-trip digits, laid out by ryu's rule (serde_json's float format): with
    // value = digits x 10^k and kk = len + k, plain decimal when -5 < kk <= 16, else d.ddde±x.
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
    const std::string_view t(buf, static_cast<size_t>(r.ptr - buf));
    size_t i = 0;
    if (t[0] == '-') {
        out_ += '-';
        i = 1;
    }
    std::string digits;
    for (; i < t.size() && t[i] != 'e'; ++i) {
        if (t[i] != '.') digits += t[i];
    }
    int exp10 = 0;
    std::from_chars(t.data() + i + 1 + (t[i + 1] == '+' ? 1 : 0), t.data() + t.size(), exp10);
    const int len = static_cast<int>(digits.size());
    const int k = exp10 - (len - 1);
    const int kk = exp10 + 1;
    if (k >= 0 && kk <= 16) {
        out_ += digits;
        out_.append(static_cast<size_t>(k), '0');
        out_ += ".0";
    } else if (kk > 0 && kk <= 16) {
        out_.append(digits, 0, static_cast<size_t>(kk));
        out_ += '.';
        out_.append(digits, static_cast<size_t>(kk));
    } else if (kk > -5 && kk <= 0) {
        out_ += "0.";
        out_.append(static_cast<size_t>(-kk), '0');
        out_ += digits;
    } else {
        out_ += digits[0];
        if (len > 1) {
            out_ += '.';
            out_.append(digits, 1);
        }
        out_ += 'e';
        out_ += std::to_string(kk - 1);
    }
}

void Writer::raw_number(std::string_view text) {
    before_value();
    out_.append(text);
}

void Writer::string_value(std::string_view utf8) {
    before_value();
    append_escaped(out_, utf8);
}

void Writer::value(Value v) {
    switch (v.type()) {
        case Type::kNull:
            null_value();
            return;
        case Type::kBool:
            bool_value(v.bool_value());
            return;
        case Type::kNumber:
            raw_number(v.number_text());
            return;
        case Type::kString:
            string_value(v.string_text());
            return;
        case Type::kArray:
            begin_array();
            for (Value e : v.elements()) value(e);
            end_array();
            return;
        case Type::kObject:
            begin_object();
            for (const Member m : v.members()) {
                key(m.key);
                value(m.value);
            }
            end_object();
            return;
    }
}

std::string write(Value v, bool pretty) {
    Writer w(pretty);
    w.value(v);
    return w.take();
}

}  // namespace cuzk::util::json
