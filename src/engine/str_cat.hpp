// String concatenation without `"literal" + std::string` chains (GCC 12 reports a false
// -Werror=restrict on those).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace cuzk::engine {

inline std::string str_cat(std::initializer_list<std::string_view> parts) {
    size_t n = 0;
    for (std::string_view p : parts) n += p.size();
    std::string out;
    out.reserve(n);
    for (std::string_view p : parts) out += p;
    return out;
}

}  // namespace cuzk::engine
