// JSON (RFC 8259): a read-only document model, a parser, and a streaming writer.
//
// Representation. Document::parse keeps the input text and builds a flat "tape": one 12-byte node
// per value, in document order (about 3.4 bytes of tape per input byte for a C1 document). A
// container node records its element (or member) count and the tape index just past its last
// descendant, so siblings are reached by a jump and a whole subtree is skipped in O(1). Object
// members are stored as key node, value node, in input order (duplicate keys are kept; find()
// returns the first). Numbers keep their exact text (no rounding on the way in); typed accessors
// convert on demand and report range errors. Strings without escapes point into the input text;
// escaped strings are decoded once into an arena (UTF-8).
//
// Invariants. A Document that parse() returned is well-formed JSON: strings are valid UTF-8 with
// no lone surrogates, numbers match the RFC grammar, nesting is at most ParseOptions::max_depth.
// Value is a cheap handle (pointer + index) valid while its Document lives; moving a Document
// keeps its Values valid. Documents are immutable and safe to read from several threads.
//
// Errors never throw: parse errors carry "line L, column C" (1-based, columns in characters) and
// the path of the innermost open value, e.g. "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs".
//
// Writer produces compact text identical to serde_json::to_vec, or pretty text identical to
// serde_json::to_vec_pretty (two-space indent, "key": value, empty containers as [] and {}), with
// serde's string escapes; doubles use the shortest round-trip digits in ryu's layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::util::json {

enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

// "null", "boolean", "number", "string", "array", "object".
const char* type_name(Type type);

struct ParseOptions {
    size_t max_depth = 128;             // serde_json's default recursion limit
    size_t max_size = size_t{1} << 30;  // bytes; hard ceiling 4 GiB - 1
};

namespace detail {
struct Node {
    Type type;
    uint8_t flags;  // bool: value; number: kNeg|kNonInteger; string: kInArena
    uint16_t reserved;
    uint32_t count;    // array: elements; object: members; string/number: byte length
    uint32_t payload;  // container: tape index past the subtree; string/number: byte offset
};
// 32-bit offsets suffice: inputs are below 4 GiB, every node consumes at least one input byte,
// and decoded strings are never longer than their escaped text (so the arena is smaller too).
static_assert(sizeof(Node) == 12);
struct DocData;
}  // namespace detail

class Value;

// One object member as seen while iterating.
struct Member;

class Value {
   public:
    Value() = default;

    bool valid() const { return doc_ != nullptr; }
    Type type() const;
    bool is_null() const { return type() == Type::kNull; }
    bool is_bool() const { return type() == Type::kBool; }
    bool is_number() const { return type() == Type::kNumber; }
    bool is_string() const { return type() == Type::kString; }
    bool is_array() const { return type() == Type::kArray; }
    bool is_object() const { return type() == Type::kObject; }

    // Typed accessors: an error names the expected and the actual type, or the range violated.
    Result<bool> get_bool() const;
    Result<uint64_t> get_u64() const;  // integer text only ("1.0", "1e2" are rejected)
    Result<int64_t> get_i64() const;
    Result<double> get_double() const;  // any number; out of double range is an error
    Result<std::string_view> get_string() const;

    // Unchecked views (empty when the type differs).
    std::string_view number_text() const;
    std::string_view string_text() const;
    bool bool_value() const;

    // Elements of an array or members of an object; 0 for scalars.
    size_t size() const;

    // Array access. at() walks i siblings (O(i)); iterate elements() for sequential access.
    Value at(size_t i) const;
    class ElementIterator;
    struct Elements;
    Elements elements() const;

    // Object access: the first member with this key, or nullopt.
    std::optional<Value> find(std::string_view key) const;
    class MemberIterator;
    struct Members;
    Members members() const;

    // Fast path for byte arrays (serde's [u8; N] / Vec<u8>): when this is an array of exactly
    // out.size() integers in 0..255 written as plain digits, stores them and returns true;
    // otherwise returns false and leaves out unspecified (use the checked accessors to find out
    // what is wrong).
    bool try_get_bytes(uint8_t* out, size_t n) const;

    // Tape position (for fast paths that know the layout, e.g. arrays of numbers).
    size_t tape_index() const { return index_; }

   private:
    friend class Document;
    Value(const detail::DocData* doc, size_t index) : doc_(doc), index_(index) {}
    const detail::Node& node() const;
    size_t next_sibling() const;

    const detail::DocData* doc_ = nullptr;
    size_t index_ = 0;
};

struct Member {
    std::string_view key;
    Value value;
};

class Value::ElementIterator {
   public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    ElementIterator() = default;
    ElementIterator(Value v, size_t remaining) : v_(v), remaining_(remaining) {}
    Value operator*() const { return v_; }
    ElementIterator& operator++() {
        if (--remaining_ != 0) v_ = Value(v_.doc_, v_.next_sibling());
        return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const ElementIterator& o) const { return remaining_ == o.remaining_; }

   private:
    Value v_;
    size_t remaining_ = 0;
};

struct Value::Elements {
    ElementIterator first, last;
    ElementIterator begin() const { return first; }
    ElementIterator end() const { return last; }
};

class Value::MemberIterator {
   public:
    using value_type = Member;
    using difference_type = std::ptrdiff_t;
    MemberIterator() = default;
    MemberIterator(Value key, size_t remaining) : key_(key), remaining_(remaining) {}
    Member operator*() const;
    MemberIterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const MemberIterator& o) const { return remaining_ == o.remaining_; }

   private:
    Value key_;
    size_t remaining_ = 0;
};

struct Value::Members {
    MemberIterator first, last;
    MemberIterator begin() const { return first; }
    MemberIterator end() const { return last; }
};

class Document {
   public:
    Document();
    ~Document();
    Document(Document&&) noexcept;
    Document& operator=(Document&&) noexcept;

    // Parses text (taken over; no copy). Errors: INVALID_ARGUMENT with position and path,
    // OUT_OF_RANGE for the size and depth limits.
    static Result<Document> parse(std::string text, const ParseOptions& options = {});
    static Result<Document> parse_view(std::string_view text, const ParseOptions& options = {}) {
        return parse(std::string(text), options);
    }

    Value root() const;
    size_t tape_size() const;  // number of nodes, for memory estimates

   private:
    std::unique_ptr<detail::DocData> data_;
};

// Streaming writer. Calls must form one JSON value (begin/end balanced, key() before each
// member value); misuse is a programming error caught by assertions.
class Writer {
   public:
    explicit Writer(bool pretty = false) : pretty_(pretty) {}

    void begin_object();
    void end_object();
    void begin_array();
    void end_array();
    void key(std::string_view name);
    void null_value();
    void bool_value(bool v);
    void u64_value(uint64_t v);
    void i64_value(int64_t v);
    void double_value(double v);  // shortest round-trip form, "1.0" style; non-finite → null
    // Writes text verbatim; the caller guarantees it is a valid JSON number.
    void raw_number(std::string_view text);
    void string_value(std::string_view utf8);
    // Writes a whole parsed value (numbers verbatim, strings re-escaped).
    void value(Value v);

    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }
    void reserve(size_t n) { out_.reserve(n); }

   private:
    void before_value();
    void newline_indent(size_t depth);
    void write_escaped(std::string_view s);

    bool pretty_;
    std::string out_;
    // Per open container: whether it has an element yet.
    std::vector<uint8_t> has_items_;
    bool after_key_ = false;
};

// Convenience: serialize a parsed value.
std::string write(Value v, bool pretty = false);

// Appends the path syntax used in error messages: ".key" (no dot at the root; ["key"] with JSON
// escapes when the key is not a plain identifier) and "[i]".
void append_key(std::string& path, std::string_view key);
void append_index(std::string& path, size_t index);

}  // namespace cuzk::util::json
