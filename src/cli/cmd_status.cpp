// `cuzk status --addr ADDR [--json] [--metrics]`: the daemon's GetStatus (queues, totals, loaded
// parameters, backend, memory) as text, or as one JSON object with --json; --metrics prints the
// Prometheus text (GetMetrics) instead. Exit codes: 0 ok, 1 daemon unreachable, 2 usage.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/daemon_client_util.hpp"
#include "cli/registry.hpp"
#include "util/json.hpp"

namespace cuzk::cli {
namespace {

void usage_status(std::FILE* f) {
    std::fprintf(f,
                 "  status --addr ADDR [--json] [--metrics]\n"
                 "                       the daemon's queues, totals and loaded parameters\n");
}

void help_status(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk status --addr ADDR [--json] [--metrics]\n"
                 "\n"
                 "Asks the daemon at ADDR for its status (GetStatus): jobs pending and in\n"
                 "progress, totals completed/failed/cancelled, loaded parameter sets, backend,\n"
                 "host memory reserved against the budget, uptime, whether it is draining.\n"
                 "  --json      one JSON object on stdout\n"
                 "  --metrics   print the Prometheus text exposition (GetMetrics) instead\n"
                 "exit status: 0 ok; 1 daemon unreachable; 2 usage error.\n");
}

#if CUZK_HAVE_GRPC
std::string status_to_json(const v1::GetStatusResponse& s) {
    util::json::Writer w;
    const auto u64 = [&](const char* k, uint64_t v) {
        w.key(k);
        w.u64_value(v);
    };
    w.begin_object();
    w.key("ok");
    w.bool_value(true);
    w.key("backend");
    w.string_value(s.backend());
    w.key("draining");
    w.bool_value(s.draining());
    uint64_t pending = 0, running = 0;
    for (const auto& q : s.queues()) {
        pending += q.pending();
        running += q.in_progress();
    }
    u64("pending", pending);
    u64("in_progress", running);
    u64("completed", s.total_proofs_completed());
    u64("failed", s.total_proofs_failed());
    u64("cancelled", s.total_proofs_cancelled());
    u64("uptime_seconds", s.uptime_seconds());
    u64("host_reserved_bytes", s.pinned_memory_bytes());
    u64("host_budget_bytes", s.pinned_memory_limit_bytes());
    w.key("loaded_srs");
    w.begin_array();
    for (const auto& p : s.loaded_srs()) {
        w.begin_object();
        w.key("circuit_id");
        w.string_value(p.circuit_id());
        u64("size_bytes", p.size_bytes());
        w.end_object();
    }
    w.end_array();
    w.key("gpus");
    w.begin_array();
    for (const auto& g : s.gpus()) {
        w.begin_object();
        u64("ordinal", g.ordinal());
        w.key("name");
        w.string_value(g.name());
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.take();
}

double gib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }
#endif

int run_status(int argc, char** argv) {
    const char* cmd = "status";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--addr"}, {"--metrics"}, args)) return kExitUsage;
    if (args.help) return help_status(stdout), kExitOk;
    if (!args.positional.empty())
        return fail_json(args, cmd, kExitUsage,
                         std::string("unexpected argument ") + args.positional[0]);
    if (!require(cmd, args, {"--addr"})) return kExitUsage;
#if CUZK_HAVE_GRPC
    int code = kExitOk;
    auto client = connect_or_fail(args, cmd, code);
    if (!client) return code;
    if (args.has("--metrics")) {
        auto m = client->metrics();
        if (!m.ok()) return rpc_fail(args, cmd, m.status());
        std::fputs(m->c_str(), stdout);
        return kExitOk;
    }
    auto s = client->status();
    if (!s.ok()) return rpc_fail(args, cmd, s.status());
    if (args.json) {
        std::printf("%s\n", status_to_json(*s).c_str());
        return kExitOk;
    }
    std::printf("daemon %s: backend %s, up %llu s%s\n", client->address().c_str(),
                s->backend().c_str(), static_cast<unsigned long long>(s->uptime_seconds()),
                s->draining() ? ", DRAINING" : "");
    for (const auto& q : s->queues())
        std::printf("  %-8s %u pending, %u in progress\n", q.proof_kind().c_str(), q.pending(),
                    q.in_progress());
    std::printf("  totals   %llu completed, %llu failed, %llu cancelled\n",
                static_cast<unsigned long long>(s->total_proofs_completed()),
                static_cast<unsigned long long>(s->total_proofs_failed()),
                static_cast<unsigned long long>(s->total_proofs_cancelled()));
    std::printf("  memory   %.2f GiB reserved of %.2f GiB\n", gib(s->pinned_memory_bytes()),
                gib(s->pinned_memory_limit_bytes()));
    for (const auto& p : s->loaded_srs())
        std::printf("  params   %s (%.2f GiB)\n", p.circuit_id().c_str(), gib(p.size_bytes()));
    for (const auto& g : s->gpus()) std::printf("  gpu %u    %s\n", g.ordinal(), g.name().c_str());
    return kExitOk;
#else
    return no_grpc(cmd);
#endif
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("status", 63, cuzk::cli::usage_status, cuzk::cli::run_status);
