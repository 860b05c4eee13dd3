// `cuzk daemon --listen ADDR [--config FILE] [--KNOB VALUE ...]`: runs the proving daemon
// (daemon/server.hpp): the cuzk.v1.ProvingEngine gRPC service, HTTP /metrics and /status, the
// job journal; SIGTERM/SIGINT drain. Settings: defaults < the TOML file < command-line options.
// Exit codes: 0 after a drain, 1 failure (or a second signal during the drain), 2 usage or config
// error. Without gRPC in the build the command says so and exits 2.
#include <cstdio>
#include <set>
#include <string>

#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "daemon/config.hpp"
#include "engine/engine.hpp"

#if CUZK_HAVE_GRPC
#include "daemon/server.hpp"
#endif

namespace cuzk::cli {
namespace {

void usage_daemon(std::FILE* f) {
    std::fprintf(f,
                 "  daemon --listen ADDR [--config FILE] [--KNOB VALUE ...]\n"
                 "                       the proving daemon (gRPC cuzk.v1.ProvingEngine, HTTP\n"
                 "                       /metrics and /status); SIGTERM drains\n");
}

// "--max-batch-size" for "max_batch_size".
std::string option_name(const char* key) {
    std::string s = "--";
    for (const char* p = key; *p != '\0'; ++p) s += *p == '_' ? '-' : *p;
    return s;
}

void help_daemon(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk daemon --listen ADDR [--config FILE] [--KNOB VALUE ...]\n"
        "\n"
        "Serves the cuzk.v1.ProvingEngine gRPC protocol (the one Curio's cuzk client\n"
        "speaks: SubmitProof, AwaitProof, Prove, CancelProof, GetStatus, GetMetrics,\n"
        "PreloadSRS, EvictSRS) for PoRep C2, on ADDR = unix:///path or host:port.\n"
        "Accepted jobs are journaled (journal_dir) and resume after a restart.\n"
        "SIGTERM/SIGINT: stop accepting, finish the accepted jobs, exit 0; a second\n"
        "signal exits at once (status 1; unfinished jobs stay in the journal).\n"
        "Progress and the final counts ('cuzk daemon: exit: completed=...') go to stderr.\n"
        "\n"
        "  --config FILE        TOML settings (docs/daemon.example.toml documents them);\n"
        "                       command-line options override the file\n"
        "Settings ([table] in the file, then the option of the same name):\n");
    size_t n = 0;
    const daemon::ConfigKey* keys = daemon::config_keys(&n);
    for (size_t i = 0; i < n; ++i) {
        std::string head = "  [";
        head += keys[i].table;
        head += "] ";
        head += keys[i].key;
        head += " (";
        head += keys[i].type;
        head += "), ";
        head += option_name(keys[i].key);
        std::fprintf(f, "%s\n      %s\n", head.c_str(), keys[i].help);
    }
    const daemon::DaemonConfig d;
    std::fprintf(f,
                 "Defaults: listen %s, params_dir %s, synthesis_workers %u (automatic: %u here),\n"
                 "max_batch_size %u, max_batch_wait_ms %u, look_ahead %u (automatic), "
                 "max_pending_jobs %llu,\n"
                 "host_memory_budget auto, "
                 "verify_proofs true, use_gpu true; status_listen, journal_dir, trace_dir off.\n",
                 d.listen.c_str(), d.params_dir.c_str(), d.synthesis_workers,
                 engine::resolve_synthesis_workers(d.synthesis_workers), d.max_batch_size,
                 d.max_batch_wait_ms, d.look_ahead,
                 static_cast<unsigned long long>(d.max_pending_jobs));
}

int run_daemon_cmd(int argc, char** argv) {
    const char* cmd = "daemon";
    std::set<std::string> names = {"--config"};
    size_t n = 0;
    const daemon::ConfigKey* keys = daemon::config_keys(&n);
    for (size_t i = 0; i < n; ++i) names.insert(option_name(keys[i].key));
    const std::set<std::string_view> with_value(names.begin(), names.end());
    Args args;
    if (!parse_args(cmd, argc, argv, with_value, {}, args)) return kExitUsage;
    if (args.help) return help_daemon(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::fprintf(stderr, "cuzk daemon: unexpected argument '%s'\n", args.positional[0].c_str());
        return kExitUsage;
    }
    daemon::DaemonConfig config;
    if (args.has("--config")) {
        if (auto st = daemon::load_config_file(args.get("--config"), config); !st.ok()) {
            std::fprintf(stderr, "cuzk daemon: %s\n", st.message().c_str());
            return kExitUsage;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        const std::string opt = option_name(keys[i].key);
        if (!args.has(opt)) continue;
        if (auto st = daemon::set_option(config, keys[i].key, args.get(opt)); !st.ok()) {
            std::fprintf(stderr, "cuzk daemon: %s: %s\n", opt.c_str(), st.message().c_str());
            return kExitUsage;
        }
    }
    if (!args.has("--listen") && !args.has("--config")) {
        std::fprintf(stderr, "cuzk daemon: give --listen ADDR or --config FILE (see --help)\n");
        return kExitUsage;
    }
#if CUZK_HAVE_GRPC
    return daemon::run_daemon(config);
#else
    std::fprintf(stderr,
                 "cuzk daemon: this build has no gRPC (libgrpc++-dev, libprotobuf-dev,\n"
                 "protobuf-compiler, protobuf-compiler-grpc were not found at configure time)\n");
    return kExitUsage;
#endif
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("daemon", 60, cuzk::cli::usage_daemon, cuzk::cli::run_daemon_cmd);
