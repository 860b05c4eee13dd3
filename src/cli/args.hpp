// Shared plumbing of the cuzk subcommands: exit codes, "--key value" options, whole-file
// reads and atomic writes, and the one-line JSON summary builder.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::cli {

constexpr int kExitOk = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

struct Args {
    std::map<std::string, std::string, std::less<>> values;
    std::vector<std::string> positional;
    bool json = false;
    bool help = false;
    bool has(std::string_view k) const { return values.find(k) != values.end(); }
    const std::string& get(std::string_view k) const { return values.find(k)->second; }
};

// Parses "--key value" for keys in `with_value`, the flags in `flags`, --json and --help.
// Prints the problem (naming `cmd`) and returns false on an unknown option or a missing value.
bool parse_args(const char* cmd, int argc, char** argv, const std::set<std::string_view>& with_value,
                const std::set<std::string_view>& flags, Args& out);

// False (after printing which) when one of `keys` is missing.
bool require(const char* cmd, const Args& args, std::initializer_list<const char*> keys);

// A whole decimal u64, nothing else.
bool parse_u64(std::string_view s, uint64_t& out);

util::Result<std::vector<uint8_t>> read_file(const std::string& path);
// Written to "<path>.tmp", then renamed over path.
util::Status write_file(const std::string& path, std::string_view bytes);

// "%.3f" milliseconds.
std::string ms_str(double ms);

// {"k":v,...} builder for the summary line.
class JsonObject {
   public:
    JsonObject& raw(std::string_view key, std::string_view value);
    JsonObject& str(std::string_view key, std::string_view value);
    JsonObject& num(std::string_view key, uint64_t value);
    JsonObject& ms(std::string_view key, double value);
    JsonObject& boolean(std::string_view key, bool value);
    std::string done() const { return body_ + "}"; }

   private:
    std::string body_ = "{";
};

// Prints "cuzk CMD: message" to stderr and, with --json, {"ok":false,...} to stdout; returns code.
int fail_json(const Args& args, const char* cmd, int code, const std::string& message);

}  // namespace cuzk::cli
