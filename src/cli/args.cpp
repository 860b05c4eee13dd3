#include "cli/args.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "cli/fr_decimal.hpp"

namespace cuzk::cli {

bool parse_args(const char* cmd, int argc, char** argv, const std::set<std::string_view>& with_value,
                const std::set<std::string_view>& flags, Args& out) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--json") {
            out.json = true;
        } else if (a == "--help" || a == "-h") {
            out.help = true;
        } else if (with_value.count(a)) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "cuzk %s: option %s needs a value\n", cmd, argv[i]);
                return false;
            }
            out.values.insert_or_assign(std::string(a), std::string(argv[++i]));
        } else if (flags.count(a)) {
            out.values.insert_or_assign(std::string(a), std::string(1, '1'));
        } else if (a.starts_with("-") && a.size() > 1) {
            std::fprintf(stderr, "cuzk %s: unknown option '%s' (see 'cuzk %s --help')\n", cmd,
                         argv[i], cmd);
            return false;
        } else {
            out.positional.emplace_back(a);
        }
    }
    return true;
}

bool require(const char* cmd, const Args& args, std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
        if (!args.has(k)) {
            std::fprintf(stderr, "cuzk %s: missing %s (see 'cuzk %s --help')\n", cmd, k, cmd);
            return false;
        }
    }
    return true;
}

bool parse_u64(std::string_view s, uint64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

util::Result<std::vector<uint8_t>> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::string msg = path;
        msg += ": cannot open for reading";
        return util::io_error(std::move(msg));
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes;
}

// Written to "<path>.tmp", then renamed over path.
util::Status write_file(const std::string& path, std::string_view bytes) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            std::string msg = tmp;
            msg += ": cannot open for writing";
            return util::io_error(std::move(msg));
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) {
            std::string msg = tmp;
            msg += ": write failed";
            return util::io_error(std::move(msg));
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::string msg = path;
        msg += ": rename failed: ";
        msg += ec.message();
        return util::io_error(std::move(msg));
    }
    return util::Status();
}

std::string ms_str(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms);
    return buf;
}

JsonObject& JsonObject::raw(std::string_view key, std::string_view value) {
    if (body_.size() > 1) body_ += ",";
    body_ += json_quote(key);
    body_ += ":";
    body_ += value;
    return *this;
}
JsonObject& JsonObject::str(std::string_view key, std::string_view value) {
    return raw(key, json_quote(value));
}
JsonObject& JsonObject::num(std::string_view key, uint64_t value) {
    return raw(key, std::to_string(value));
}
JsonObject& JsonObject::ms(std::string_view key, double value) { return raw(key, ms_str(value)); }
JsonObject& JsonObject::boolean(std::string_view key, bool value) {
    return raw(key, value ? "true" : "false");
}

int fail_json(const Args& args, const char* cmd, int code, const std::string& message) {
    std::fprintf(stderr, "cuzk %s: %s\n", cmd, message.c_str());
    if (args.json) {
        JsonObject o;
        o.boolean("ok", false).str("command", cmd).str("error", message);
        if (code == kExitFail) o.boolean("valid", false);
        std::printf("%s\n", o.done().c_str());
    }
    return code;
}

}  // namespace cuzk::cli
