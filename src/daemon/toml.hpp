// A reader for the subset of TOML 1.0 (https://toml.io/en/v1.0.0) that the daemon's config uses:
// comments, [table] headers (dotted names such as [a.b] are kept as the string "a.b"), and
// `key = value` lines whose value is a string (basic "…" with TOML's escapes, or literal '…'),
// an integer (decimal with an optional sign and single underscores between digits; 0x, 0o, 0b
// prefixes), a boolean, or an array of integers on one line ("[0, 1]", a trailing comma
// allowed). Everything else TOML has — other arrays, arrays over several lines, inline tables,
// floats, dates, multi-line strings, dotted keys on the left of `=`, arrays of tables — is
// reported as unsupported, naming the line, rather than misread.
//
// Errors are util::Status kInvalidArgument with "line N: …" (1-based). Keys and table names are
// unique: a second definition is an error, as in TOML. Keys before the first header belong to
// the root table "".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::daemon::toml {

struct Value {
    enum class Kind : uint8_t { kString, kInteger, kBoolean, kIntegerArray };
    Kind kind = Kind::kString;
    std::string string;             // kString: the decoded UTF-8 text
    int64_t integer = 0;            // kInteger
    std::vector<int64_t> integers;  // kIntegerArray
    bool boolean = false;
    int line = 0;  // where it was defined (for the caller's own messages)
};

const char* kind_name(Value::Kind kind);  // "string", "integer", "boolean", "array"

struct Table {
    int line = 0;  // the header's line; 0 for the root table
    std::map<std::string, Value, std::less<>> values;
};

struct Document {
    // By table name; "" is the root table (always present).
    std::map<std::string, Table, std::less<>> tables;
};

util::Result<Document> parse(std::string_view text);

}  // namespace cuzk::daemon::toml
