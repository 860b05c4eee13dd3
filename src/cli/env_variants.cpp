// parse_env_variants and ScopedEnv (env_variants.hpp).
#include "cli/env_variants.hpp"

#include <cstdlib>

namespace cuzk::cli {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    size_t begin = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(begin, i - begin));
            begin = i + 1;
        }
    }
    return out;
}

bool is_switch_name(std::string_view name) {
    if (name.size() <= 5 || name.substr(0, 5) != "CUZK_") return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

util::Status bad(std::string_view piece, const char* why) {
    std::string m = "--variants: \"";
    m += piece;
    m += "\" ";
    m += why;
    return util::invalid_argument(std::move(m));
}

}  // namespace

util::Result<std::vector<EnvVariant>> parse_env_variants(std::string_view spec) {
    if (spec.empty()) return bad(spec, "gives no variant (e.g. \"CUZK_X=0;CUZK_X=1\")");
    std::vector<EnvVariant> out;
    for (std::string_view text : split(spec, ';')) {
        EnvVariant v;
        v.label = text.empty() ? "defaults" : std::string(text);
        if (!text.empty()) {
            for (std::string_view a : split(text, ',')) {
                const size_t eq = a.find('=');
                if (eq == std::string_view::npos) return bad(a, "is not NAME=VALUE");
                const std::string_view name = a.substr(0, eq), value = a.substr(eq + 1);
                if (!is_switch_name(name))
                    return bad(a, "does not set a CUZK_ switch (CUZK_ then A-Z, 0-9, _)");
                if (value.empty()) return bad(a, "has no value");
                for (const auto& [n, unused] : v.assignments)
                    if (n == name) return bad(a, "sets a name twice in one variant");
                v.assignments.emplace_back(std::string(name), std::string(value));
            }
        }
        out.push_back(std::move(v));
    }
    return out;
}

ScopedEnv::ScopedEnv(const EnvVariant& variant) {
    for (const auto& [name, value] : variant.assignments) {
        const char* old = std::getenv(name.c_str());
        saved_.push_back({name, old != nullptr, old != nullptr ? std::string(old) : std::string()});
        ::setenv(name.c_str(), value.c_str(), 1);
    }
}

ScopedEnv::~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
        if (it->was_set) ::setenv(it->name.c_str(), it->value.c_str(), 1);
        else ::unsetenv(it->name.c_str());
    }
}

}  // namespace cuzk::cli
