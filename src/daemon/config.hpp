// The daemon's settings: where it listens, and the engine's knobs, read from a TOML file
// (toml.hpp) and then overridden by command-line options. docs/daemon.example.toml documents
// every key; `cuzk daemon --help` lists them too (config_help_text()).
//
// File layout (every key optional; unknown tables and keys are errors naming the line, so a
// typo is never silently ignored):
//   [daemon]    listen, status_listen, journal_dir, trace_dir
//   [srs]       params_dir, params_subgroup_check, params_h_basis, params_h_basis_dir
//   [scheduler] synthesis_workers, prover_workers, max_batch_size, max_batch_wait_ms,
//               look_ahead, max_pending_jobs, compiled_synthesis
//   [memory]    host_memory_budget   ("96GiB", "512MiB", "auto", or an integer of bytes)
//   [prover]    verify_proofs, use_gpu, gpus
// This header has no gRPC or engine dependency: it is built (and tested) everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.hpp"

namespace cuzk::daemon {

struct DaemonConfig {
    std::string listen = "127.0.0.1:9820";  // gRPC: "unix:///path" or "host:port"
    std::string status_listen;              // HTTP /metrics and /status: "host:port"; empty: off
    std::string params_dir = "/var/tmp/filecoin-proof-parameters";
    std::string journal_dir;            // empty: no journal (jobs do not survive a restart)
    std::string trace_dir;              // empty: no per-job traces
    bool params_subgroup_check = true;  // check every parameter point's subgroup when loading
    std::string params_h_basis = "monomial";  // groth16::parse_h_basis' names (checked on parse)
    std::string params_h_basis_dir;  // converted sets kept here across restarts; empty: not kept
    unsigned synthesis_workers = 0;  // 0: automatic (engine::resolve_synthesis_workers)
    unsigned prover_workers = 0;  // 0: one per device (1 on the CPU)
    unsigned max_batch_size = 1;
    unsigned max_batch_wait_ms = 0;
    unsigned look_ahead = 0;  // partitions synthesized ahead of the provers; 0: the engine's rule
    uint64_t max_pending_jobs = 64;
    uint64_t host_memory_budget_bytes = 0;  // 0 = auto (3/4 of physical memory)
    bool verify_proofs = true;
    bool use_gpu = true;
    // [scheduler] compiled_synthesis; unset: the engine's default (CUZK_COMPILED_SYNTHESIS).
    std::optional<bool> compiled_synthesis;
    std::vector<unsigned> gpus;  // CUDA device ordinals; empty: every visible device
};

// Applies a TOML document's settings on top of `config`. Errors: "FILE line N: …".
util::Status apply_toml(std::string_view text, std::string_view file_name, DaemonConfig& config);

// Reads and applies a config file.
util::Status load_config_file(const std::string& path, DaemonConfig& config);

// "96GiB", "512 MiB", "2048", "1.5GiB", "auto" (→ 0). Units B, KiB, MiB, GiB, TiB (also K, M, G,
// T and KB/MB/GB/TB, all read as powers of 1024, as cuzk does). Errors name the text.
util::Result<uint64_t> parse_byte_size(std::string_view text);

// Applies one knob given as text (a command-line override): `key` is the bare key name
// ("max_batch_size"), `value` is parsed per the key's type. kInvalidArgument for an unknown key
// or a bad value.
util::Status set_option(DaemonConfig& config, std::string_view key, std::string_view value);

// The keys set_option() knows, each with a one-line description (for --help).
struct ConfigKey {
    const char* table;
    const char* key;
    const char* type;  // "string", "integer", "boolean", "size", "integer list"
    const char* help;
};
const ConfigKey* config_keys(size_t* count);

}  // namespace cuzk::daemon
