// A/B variants of the run-time switches, for benchmarks that compare them in one process (and
// so share one expensive setup): "CUZK_A=1,CUZK_B=2;CUZK_A=0;" is three variants — two sets of
// environment assignments and, after the last ';', the defaults (an empty variant). Only CUZK_*
// names are accepted: the switches are read from the environment when option structs are built
// (util/env.hpp), so a benchmark sets a variant's variables, builds its options and runs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.hpp"

namespace cuzk::cli {

struct EnvVariant {
    std::string label;  // the assignments as written, or "defaults"
    std::vector<std::pair<std::string, std::string>> assignments;
};

// Errors name the offending piece: a name that is not CUZK_[A-Z0-9_]+, a missing '=' or value,
// a name given twice in one variant, or no variant at all.
util::Result<std::vector<EnvVariant>> parse_env_variants(std::string_view spec);

// Sets a variant's variables for its lifetime, then restores each to its previous value or
// absence. Not thread-safe (setenv): use while no other thread reads the environment.
class ScopedEnv {
   public:
    explicit ScopedEnv(const EnvVariant& variant);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

   private:
    struct Saved {
        std::string name;
        bool was_set;
        std::string value;
    };
    std::vector<Saved> saved_;
};

}  // namespace cuzk::cli
