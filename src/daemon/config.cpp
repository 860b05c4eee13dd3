#include "daemon/config.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "daemon/toml.hpp"
#include "groth16/coset_bases.hpp"

namespace cuzk::daemon {
namespace {

// A setting's value before it is checked against the key: what TOML or the command line gave.
struct Given {
    toml::Value::Kind kind = toml::Value::Kind::kString;
    std::string text;  // kString
    int64_t integer = 0;
    bool boolean = false;
    std::vector<int64_t> integers;  // kIntegerArray
};

enum class Type : uint8_t { kString, kCount, kBool, kSize, kDeviceList };

struct KeyDef {
    ConfigKey doc;
    Type type;
    uint64_t min, max;  // kCount bounds
    void (*set_string)(DaemonConfig&, std::string);
    void (*set_number)(DaemonConfig&, uint64_t);  // kCount, kSize
    void (*set_bool)(DaemonConfig&, bool);
    void (*set_list)(DaemonConfig&, std::vector<unsigned>) = nullptr;  // kDeviceList
    util::Status (*check_string)(const std::string&) = nullptr;        // kString, optional
};

constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

const KeyDef kKeys[] = {
    {{"daemon", "listen", "string", "gRPC address: \"unix:///path\" or \"host:port\""},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.listen = std::move(v); },
     nullptr,
     nullptr},
    {{"daemon", "status_listen", "string",
      "HTTP address for GET /metrics and /status (\"host:port\", port 0 = any); empty: off"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.status_listen = std::move(v); },
     nullptr,
     nullptr},
    {{"daemon", "journal_dir", "string",
      "accepted jobs and finished proofs are kept here; a restart resumes them (empty: off)"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.journal_dir = std::move(v); },
     nullptr,
     nullptr},
    {{"daemon", "trace_dir", "string",
      "writes <trace_dir>/<job id>.trace.json (Chrome trace) per finished job (empty: off)"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.trace_dir = std::move(v); },
     nullptr,
     nullptr},
    {{"srs", "params_dir", "string",
      "parameter files porep_<size>.params/.vk (as 'cuzk setup --circuit porep:SIZE' writes)"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.params_dir = std::move(v); },
     nullptr,
     nullptr},
    {{"srs", "params_subgroup_check", "boolean",
      "check that every parameter point is in its subgroup when loading (slow on the CPU: "
      "minutes for 2 KiB; turn off only for files you made or verified)"},
     Type::kBool,
     0,
     0,
     nullptr,
     nullptr,
     [](DaemonConfig& c, bool v) { c.params_subgroup_check = v; }},
    {{"srs", "params_h_basis", "string",
      "H bases the GPU proves over: \"monomial\" (the files') or \"coset-lagrange\" (each "
      "file converted on each GPU at its first proof, minutes at 32 GiB; then the H step in four "
      "NTTs instead of six, the same proofs)"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.params_h_basis = std::move(v); },
     nullptr,
     nullptr,
     nullptr,
     [](const std::string& v) { return groth16::parse_h_basis(v).status(); }},
    {{"srs", "params_h_basis_dir", "string",
      "with params_h_basis = \"coset-lagrange\": a directory where each file's converted H "
      "bases are saved after its first conversion (<file name>.coset-lagrange, ~25 GB for "
      "32 GiB) and read back after a restart or on another GPU, in seconds instead of minutes "
      "(empty: converted again by every process)"},
     Type::kString,
     0,
     0,
     [](DaemonConfig& c, std::string v) { c.params_h_basis_dir = std::move(v); },
     nullptr,
     nullptr},
    {{"scheduler", "synthesis_workers", "integer",
      "partitions synthesized at once (0: automatic, one per 5 CPU threads, at least 1)"},
     Type::kCount,
     0,
     1024,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.synthesis_workers = static_cast<unsigned>(v); },
     nullptr},
    {{"scheduler", "prover_workers", "integer",
      "threads feeding the prover (0: one per device — the GPUs in use, or 1 on the CPU)"},
     Type::kCount,
     0,
     64,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.prover_workers = static_cast<unsigned>(v); },
     nullptr},
    {{"scheduler", "max_batch_size", "integer",
      "partitions (of any jobs) proved in one prover call (>= 1)"},
     Type::kCount,
     1,
     1024,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.max_batch_size = static_cast<unsigned>(v); },
     nullptr},
    {{"scheduler", "max_batch_wait_ms", "integer",
      "how long the prover waits for a batch to fill (0: take what is ready)"},
     Type::kCount,
     0,
     3600000,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.max_batch_wait_ms = static_cast<unsigned>(v); },
     nullptr},
    {{"scheduler", "look_ahead", "integer",
      "partitions synthesized (or being synthesized) ahead of the provers, each holding a "
      "witness in host memory (0: 2 x max_batch_size x prover_workers, at least "
      "synthesis_workers + prover_workers)"},
     Type::kCount,
     0,
     4096,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.look_ahead = static_cast<unsigned>(v); },
     nullptr},
    {{"scheduler", "max_pending_jobs", "integer",
      "unfinished jobs accepted at most; more are refused with RESOURCE_EXHAUSTED"},
     Type::kCount,
     1,
     kU32Max,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.max_pending_jobs = v; },
     nullptr},
    {{"scheduler", "compiled_synthesis", "boolean",
      "compile each proof type's circuit once and synthesize partitions as witness + sparse "
      "products (on the GPU when it proves); default: the CUZK_COMPILED_SYNTHESIS environment"},
     Type::kBool,
     0,
     0,
     nullptr,
     nullptr,
     [](DaemonConfig& c, bool v) { c.compiled_synthesis = v; }},
    {{"memory", "host_memory_budget", "size",
      "host memory the engine may reserve: \"96GiB\", bytes, or \"auto\" (3/4 of RAM)"},
     Type::kSize,
     0,
     0,
     nullptr,
     [](DaemonConfig& c, uint64_t v) { c.host_memory_budget_bytes = v; },
     nullptr},
    {{"prover", "verify_proofs", "boolean",
      "verify every proof before returning it (a bad proof fails the job)"},
     Type::kBool,
     0,
     0,
     nullptr,
     nullptr,
     [](DaemonConfig& c, bool v) { c.verify_proofs = v; }},
    {{"prover", "use_gpu", "boolean", "prove on the GPU when built with CUDA and one is present"},
     Type::kBool,
     0,
     0,
     nullptr,
     nullptr,
     [](DaemonConfig& c, bool v) { c.use_gpu = v; }},
    {{"prover", "gpus", "integer list",
      "CUDA devices to prove on, e.g. [0, 1] (each once; [] or unset: every visible device)"},
     Type::kDeviceList,
     0,
     1023,
     nullptr,
     nullptr,
     nullptr,
     [](DaemonConfig& c, std::vector<unsigned> v) { c.gpus = std::move(v); }},
};

const KeyDef* find_key(std::string_view table, std::string_view key, bool any_table) {
    for (const KeyDef& k : kKeys) {
        if (key == k.doc.key && (any_table || table == k.doc.table)) return &k;
    }
    return nullptr;
}

util::Status apply(const KeyDef& def, const Given& g, DaemonConfig& config) {
    const auto wrong_type = [&](const char* want) {
        std::string m = def.doc.key;
        m += " must be ";
        m += want;
        m += ", not a";
        m += g.kind == toml::Value::Kind::kInteger || g.kind == toml::Value::Kind::kIntegerArray
                 ? "n "
                 : " ";
        m += toml::kind_name(g.kind);
        return util::invalid_argument(std::move(m));
    };
    switch (def.type) {
        case Type::kDeviceList: {
            if (g.kind != toml::Value::Kind::kIntegerArray)
                return wrong_type("an array of device numbers such as [0, 1]");
            std::vector<unsigned> out;
            for (int64_t x : g.integers) {
                if (x < 0 || static_cast<uint64_t>(x) > def.max) {
                    std::string m = def.doc.key;
                    m += ": device ";
                    m += std::to_string(x);
                    m += " is outside 0..";
                    m += std::to_string(def.max);
                    return util::invalid_argument(std::move(m));
                }
                const auto ordinal = static_cast<unsigned>(x);
                if (std::find(out.begin(), out.end(), ordinal) != out.end()) {
                    std::string m = def.doc.key;
                    m += ": device ";
                    m += std::to_string(x);
                    m += " is listed twice";
                    return util::invalid_argument(std::move(m));
                }
                out.push_back(ordinal);
            }
            def.set_list(config, std::move(out));
            return util::Status();
        }
        case Type::kString:
            if (g.kind != toml::Value::Kind::kString) return wrong_type("a string");
            if (def.check_string != nullptr) {
                if (util::Status st = def.check_string(g.text); !st.ok()) {
                    std::string m = def.doc.key;
                    m += ": ";
                    m += st.message();
                    return util::invalid_argument(std::move(m));
                }
            }
            def.set_string(config, g.text);
            return util::Status();
        case Type::kBool:
            if (g.kind != toml::Value::Kind::kBoolean) return wrong_type("true or false");
            def.set_bool(config, g.boolean);
            return util::Status();
        case Type::kCount: {
            if (g.kind != toml::Value::Kind::kInteger) return wrong_type("an integer");
            if (g.integer < 0 || static_cast<uint64_t>(g.integer) < def.min ||
                static_cast<uint64_t>(g.integer) > def.max) {
                std::string m = def.doc.key;
                m += " = ";
                m += std::to_string(g.integer);
                m += " is outside ";
                m += std::to_string(def.min);
                m += "..";
                m += std::to_string(def.max);
                return util::invalid_argument(std::move(m));
            }
            def.set_number(config, static_cast<uint64_t>(g.integer));
            return util::Status();
        }
        case Type::kSize: {
            uint64_t bytes = 0;
            if (g.kind == toml::Value::Kind::kInteger) {
                if (g.integer < 0) {
                    std::string m = def.doc.key;
                    m += " cannot be negative";
                    return util::invalid_argument(std::move(m));
                }
                bytes = static_cast<uint64_t>(g.integer);
            } else if (g.kind == toml::Value::Kind::kString) {
                auto parsed = parse_byte_size(g.text);
                if (!parsed.ok()) {
                    std::string m = def.doc.key;
                    m += ": ";
                    m += parsed.status().message();
                    return util::invalid_argument(std::move(m));
                }
                bytes = *parsed;
            } else {
                return wrong_type("a size (\"96GiB\") or an integer of bytes");
            }
            def.set_number(config, bytes);
            return util::Status();
        }
    }
    return util::internal_error("unknown key type");
}

std::string with_file(std::string_view file, const std::string& message) {
    std::string m(file);
    m += " ";
    m += message;
    return m;
}

}  // namespace

const ConfigKey* config_keys(size_t* count) {
    static const auto table = [] {
        std::vector<ConfigKey> v;
        for (const KeyDef& k : kKeys) v.push_back(k.doc);
        return v;
    }();
    *count = table.size();
    return table.data();
}

util::Result<uint64_t> parse_byte_size(std::string_view text) {
    const auto bad = [&](const char* why) {
        std::string m = "size '";
        m += text;
        m += "': ";
        m += why;
        return util::invalid_argument(std::move(m));
    };
    std::string_view s = text;
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s == "auto") return uint64_t{0};
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    size_t i = 0;
    uint64_t whole = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        const auto d = static_cast<uint64_t>(s[i] - '0');
        if (whole > (kMax - d) / 10) return bad("too large");
        whole = whole * 10 + d;
        ++i;
    }
    if (i == 0) return bad("expected a number followed by a unit (\"96GiB\") or \"auto\"");
    // At most 6 fraction digits: frac < 10^6 < 2^20, so frac << 40 stays below 2^64.
    uint64_t frac = 0, frac_scale = 1;
    if (i < s.size() && s[i] == '.') {
        ++i;
        const size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            if (i - start >= 6) return bad("at most 6 digits after '.'");
            frac = frac * 10 + static_cast<uint64_t>(s[i] - '0');
            frac_scale *= 10;
            ++i;
        }
        if (i == start) return bad("expected digits after '.'");
    }
    while (i < s.size() && s[i] == ' ') ++i;
    const std::string_view unit = s.substr(i);
    unsigned shift = 0;
    if (unit.empty() || unit == "B") {
        shift = 0;
    } else if (unit == "KiB" || unit == "K" || unit == "KB" || unit == "k" || unit == "kB") {
        shift = 10;
    } else if (unit == "MiB" || unit == "M" || unit == "MB") {
        shift = 20;
    } else if (unit == "GiB" || unit == "G" || unit == "GB") {
        shift = 30;
    } else if (unit == "TiB" || unit == "T" || unit == "TB") {
        shift = 40;
    } else {
        return bad("unknown unit (use B, KiB, MiB, GiB or TiB)");
    }
    if (frac_scale > 1 && shift == 0) return bad("a byte count must be whole");
    if (whole > (kMax >> shift)) return bad("too large");
    const uint64_t base = whole << shift;
    const uint64_t extra = (frac << shift) / frac_scale;
    if (base > kMax - extra) return bad("too large");
    return base + extra;
}

util::Status apply_toml(std::string_view text, std::string_view file_name, DaemonConfig& config) {
    auto doc = toml::parse(text);
    if (!doc.ok()) return util::invalid_argument(with_file(file_name, doc.status().message()));
    // Work on a copy so a bad file leaves `config` untouched.
    DaemonConfig next = config;
    for (const auto& [table_name, table] : doc->tables) {
        bool known_table = false;
        for (const KeyDef& k : kKeys) known_table |= table_name == k.doc.table;
        if (!known_table && !(table_name.empty() && table.values.empty())) {
            if (table_name.empty()) {
                const auto& [key, v] = *table.values.begin();
                std::string m = "line ";
                m += std::to_string(v.line);
                m += ": key '";
                m += key;
                m += "' must be inside a table";
                if (const KeyDef* def = find_key("", key, true)) {
                    m += " ([";
                    m += def->doc.table;
                    m += "])";
                }
                return util::invalid_argument(with_file(file_name, m));
            }
            std::string m = "line ";
            m += std::to_string(table.line);
            m += ": unknown table [";
            m += table_name;
            m += "] (known: daemon, srs, scheduler, memory, prover)";
            return util::invalid_argument(with_file(file_name, m));
        }
        for (const auto& [key, v] : table.values) {
            std::string where = "line ";
            where += std::to_string(v.line);
            where += ": ";
            const KeyDef* def = find_key(table_name, key, false);
            if (def == nullptr) {
                std::string m = where;
                m += "unknown key '";
                m += key;
                m += "' in [";
                m += table_name;
                m += "]";
                if (const KeyDef* elsewhere = find_key("", key, true)) {
                    m += " (it belongs in [";
                    m += elsewhere->doc.table;
                    m += "])";
                }
                return util::invalid_argument(with_file(file_name, m));
            }
            Given g;
            g.kind = v.kind;
            g.text = v.string;
            g.integer = v.integer;
            g.boolean = v.boolean;
            g.integers = v.integers;
            if (auto st = apply(*def, g, next); !st.ok())
                return util::invalid_argument(with_file(file_name, where + st.message()));
        }
    }
    config = std::move(next);
    return util::Status();
}

util::Status load_config_file(const std::string& path, DaemonConfig& config) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::io_error(path + ": cannot open the config file");
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) return util::io_error(path + ": cannot read the config file");
    return apply_toml(buf.str(), path + ":", config);
}

util::Status set_option(DaemonConfig& config, std::string_view key, std::string_view value) {
    const KeyDef* def = find_key("", key, true);
    if (def == nullptr) {
        std::string m = "unknown setting '";
        m += key;
        m += "'";
        return util::invalid_argument(std::move(m));
    }
    Given g;
    switch (def->type) {
        case Type::kDeviceList: {
            // "0,1" or "[0, 1]" (TOML's form); "" or "[]": every device.
            std::string line = "v = ";
            const bool bracketed = !value.empty() && value.front() == '[';
            if (!bracketed) line += '[';
            line += value;
            if (!bracketed) line += ']';
            auto doc = toml::parse(line);
            const toml::Value* v = nullptr;
            if (doc.ok()) {
                auto it = doc->tables[""].values.find("v");
                if (it != doc->tables[""].values.end()) v = &it->second;
            }
            if (v == nullptr || v->kind != toml::Value::Kind::kIntegerArray) {
                std::string m = def->doc.key;
                m += " must list device numbers such as 0,1, not '";
                m += value;
                m += "'";
                return util::invalid_argument(std::move(m));
            }
            g.kind = toml::Value::Kind::kIntegerArray;
            g.integers = v->integers;
            break;
        }
        case Type::kString:
        case Type::kSize:
            g.kind = toml::Value::Kind::kString;
            g.text = std::string(value);
            break;
        case Type::kBool:
            g.kind = toml::Value::Kind::kBoolean;
            if (value == "true" || value == "1" || value == "yes" || value == "on") {
                g.boolean = true;
            } else if (value == "false" || value == "0" || value == "no" || value == "off") {
                g.boolean = false;
            } else {
                std::string m = def->doc.key;
                m += " must be true or false, not '";
                m += value;
                m += "'";
                return util::invalid_argument(std::move(m));
            }
            break;
        case Type::kCount: {
            g.kind = toml::Value::Kind::kInteger;
            std::string line = "v = ";
            line += value;
            auto doc = toml::parse(line);
            const toml::Value* v = nullptr;
            if (doc.ok()) {
                auto it = doc->tables[""].values.find("v");
                if (it != doc->tables[""].values.end()) v = &it->second;
            }
            if (v == nullptr || v->kind != toml::Value::Kind::kInteger) {
                std::string m = def->doc.key;
                m += " must be an integer, not '";
                m += value;
                m += "'";
                return util::invalid_argument(std::move(m));
            }
            g.integer = v->integer;
            break;
        }
    }
    return apply(*def, g, config);
}

}  // namespace cuzk::daemon
