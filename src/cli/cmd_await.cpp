// `cuzk await --addr ADDR --job ID --out PROOF [--timeout-ms N]`: waits for a job (AwaitProof)
// and writes its proof bytes (partitions x 192) to PROOF. On a terminal a progress line shows the
// job's state, partitions done and the time waited. Exit codes: 0 completed (proof written);
// 1 failed, cancelled, still running at the timeout, or the daemon went away; 2 usage, unknown
// job (NOT_FOUND), or INVALID_ARGUMENT.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/daemon_client_util.hpp"
#include "cli/registry.hpp"

namespace cuzk::cli {
namespace {

void usage_await(std::FILE* f) {
    std::fprintf(f,
                 "  await --addr ADDR --job ID --out PROOF [--timeout-ms N]\n"
                 "                       wait for a daemon job and write its proof\n");
}

void help_await(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk await --addr ADDR --job ID --out PROOF [--timeout-ms N] [--json]\n"
                 "\n"
                 "Waits for job ID on the daemon at ADDR (AwaitProof) and writes the proof bytes\n"
                 "(one 192-byte Groth16 proof per partition) to PROOF. A job that finished\n"
                 "before (even before a daemon restart, with a journal) answers at once.\n"
                 "  --timeout-ms N   give up after N ms (default 0: wait until the job ends)\n"
                 "On a terminal, stderr shows the job's state and partitions done while waiting.\n"
                 "With --json, one summary line on stdout: status, bytes, and the daemon's\n"
                 "timings (queue_wait, srs_load, synthesis, gpu_compute, total; ms).\n"
                 "exit status: 0 completed; 1 failed, cancelled, timed out or daemon unreachable;\n"
                 "2 usage error or unknown job.\n");
}

#if CUZK_HAVE_GRPC
constexpr uint64_t kSliceMs = 1000;

void draw_progress(const v1::AwaitProofResponse& r, double seconds) {
    const uint32_t total = r.partitions_total();
    const uint32_t done = r.partitions_done();
    constexpr int kWidth = 20;
    std::string bar(kWidth, '-');
    if (total > 0) {
        const auto fill = static_cast<int>(static_cast<double>(done) / total * kWidth);
        for (int i = 0; i < fill && i < kWidth; ++i) bar[static_cast<size_t>(i)] = '#';
    }
    std::fprintf(stderr, "\r[await] %s %-9s [%s] %u/%u partitions %7.1f s ", r.job_id().c_str(),
                 r.state().empty() ? "waiting" : r.state().c_str(), bar.c_str(), done, total,
                 seconds);
    std::fflush(stderr);
}
#endif

int run_await(int argc, char** argv) {
    const char* cmd = "await";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--addr", "--job", "--out", "--timeout-ms"}, {}, args))
        return kExitUsage;
    if (args.help) return help_await(stdout), kExitOk;
    if (!args.positional.empty())
        return fail_json(args, cmd, kExitUsage,
                         std::string("unexpected argument ") + args.positional[0]);
    if (!require(cmd, args, {"--addr", "--job", "--out"})) return kExitUsage;
#if CUZK_HAVE_GRPC
    uint64_t timeout_ms = 0;
    if (args.has("--timeout-ms") && !parse_u64(args.get("--timeout-ms"), timeout_ms))
        return fail_json(args, cmd, kExitUsage, "--timeout-ms must be a decimal integer");
    int code = kExitOk;
    auto client = connect_or_fail(args, cmd, code);
    if (!client) return code;
    const bool tty = isatty(fileno(stderr)) != 0;
    const auto t0 = std::chrono::steady_clock::now();
    const auto elapsed_ms = [&] {
        return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::steady_clock::now() - t0)
                                         .count());
    };
    v1::AwaitProofResponse r;
    while (true) {
        // On a terminal, short slices to redraw the progress line; otherwise one call.
        uint64_t slice = tty ? kSliceMs : timeout_ms;
        if (timeout_ms > 0) {
            const uint64_t spent = elapsed_ms();
            const uint64_t left = spent >= timeout_ms ? 1 : timeout_ms - spent;
            slice = tty ? std::min(slice, left) : left;
        }
        auto resp = client->await(args.get("--job"), slice);
        if (!resp.ok()) {
            if (tty) std::fputc('\n', stderr);
            const util::Status st = resp.status();
            if (st.code() == util::StatusCode::kNotFound)
                return fail_json(args, cmd, kExitUsage, st.to_string());
            return rpc_fail(args, cmd, st);
        }
        r = std::move(*resp);
        if (r.status() != v1::AwaitProofResponse::TIMEOUT) break;
        if (tty) draw_progress(r, static_cast<double>(elapsed_ms()) / 1000.0);
        if (timeout_ms > 0 && elapsed_ms() >= timeout_ms) break;
    }
    if (tty) std::fputc('\n', stderr);
    const std::string& job = r.job_id();
    switch (r.status()) {
        case v1::AwaitProofResponse::COMPLETED:
            break;
        case v1::AwaitProofResponse::TIMEOUT: {
            std::string m = "job ";
            m += job;
            m += " is still ";
            m += r.state();
            m += " after ";
            m += std::to_string(timeout_ms);
            m += " ms (";
            m += std::to_string(r.partitions_done());
            m += "/";
            m += std::to_string(r.partitions_total());
            m += " partitions)";
            return fail_json(args, cmd, kExitFail, m);
        }
        default: {
            std::string m = "job ";
            m += job;
            m += r.status() == v1::AwaitProofResponse::CANCELLED ? " was cancelled" : " failed";
            if (!r.error_message().empty()) {
                m += ": ";
                m += r.error_message();
            }
            return fail_json(args, cmd, kExitFail, m);
        }
    }
    if (auto st = write_file(args.get("--out"), r.proof()); !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    std::fprintf(stderr,
                 "cuzk await: job %s completed: %zu bytes written to %s (queue %llu ms, synthesis "
                 "%llu ms, prover %llu ms, total %llu ms)\n",
                 job.c_str(), r.proof().size(), args.get("--out").c_str(),
                 static_cast<unsigned long long>(r.queue_wait_ms()),
                 static_cast<unsigned long long>(r.synthesis_ms()),
                 static_cast<unsigned long long>(r.gpu_compute_ms()),
                 static_cast<unsigned long long>(r.total_ms()));
    if (args.json) {
        JsonObject ms;
        ms.num("queue_wait", r.queue_wait_ms()).num("srs_load", r.srs_load_ms());
        ms.num("synthesis", r.synthesis_ms()).num("gpu_compute", r.gpu_compute_ms());
        ms.num("total", r.total_ms());
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("job_id", job).str("status", "completed");
        o.num("bytes", r.proof().size()).str("proof", args.get("--out")).raw("ms", ms.done());
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
#else
    return no_grpc(cmd);
#endif
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("await", 62, cuzk::cli::usage_await, cuzk::cli::run_await);
