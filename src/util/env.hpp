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

}  // namespace cuzk::util
