// Decimal text ↔ ff::Fr for the CLI's public-input files, and the tiny JSON pieces the CLI
// needs (an array of decimal strings; string escaping for summaries).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"
#include "util/status.hpp"

namespace cuzk::cli {

// The canonical value in decimal, no leading zeros ("0" for zero).
std::string fr_to_decimal(const ff::Fr& x);

// Digits only (leading zeros allowed), value < r. Errors: empty string, a non-digit (named
// with its position), a value >= r.
util::Result<ff::Fr> fr_from_decimal(std::string_view s);

// A JSON array whose elements are decimal strings ("123") or bare non-negative integers (123),
// e.g. ["35"] or []. Errors name the problem and the element index.
util::Result<std::vector<ff::Fr>> parse_fr_json_array(std::string_view text);

// ["d1","d2",...]
std::string fr_json_array(const std::vector<ff::Fr>& xs);

// s as a JSON string literal (quotes included).
std::string json_quote(std::string_view s);

}  // namespace cuzk::cli
