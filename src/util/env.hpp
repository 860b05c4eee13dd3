// Run-time switches read from the environment (the A/B switches of bench/RESULTS.md).
#pragma once

#include <cstdlib>
#include <string_view>

namespace cuzk::util {

// Environment variable `name` read as a switch: "1" is on, "0" is off; unset or any other
// value gives `fallback`.
inline bool env_switch(const char* name, bool fallback) {
    const char* v = std::getenv(name);
    if (v == nullptr) return fallback;
    const std::string_view s(v);
    return s == "1" ? true : s == "0" ? false : fallback;
}

// Environment variable `name` read as a decimal number (the run-time sizes of bench/RESULTS.md's
// A/B matrix); unset, empty, non-numeric or trailing characters give `fallback`.
inline unsigned env_unsigned(const char* name, unsigned fallback) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v < '0' || *v > '9') return fallback;  // also "", " 5", "-3"
    char* end = nullptr;
    const unsigned long x = std::strtoul(v, &end, 10);
    if (*end != '\0' || x > 0xffffffffUL) return fallback;
    return static_cast<unsigned>(x);
}

// Environment variable `name` as text; unset gives "".
inline std::string_view env_string(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string_view() : std::string_view(v);
}

}  // namespace cuzk::util
