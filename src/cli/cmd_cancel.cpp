// `cuzk cancel --addr ADDR --job ID`: cancels a daemon job (CancelProof). A job that already
// finished is left as it is. Exit codes: 0 done, 1 daemon unreachable or other failure, 2 usage
// or unknown job.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/daemon_client_util.hpp"
#include "cli/registry.hpp"

namespace cuzk::cli {
namespace {

void usage_cancel(std::FILE* f) {
    std::fprintf(f,
                 "  cancel --addr ADDR --job ID\n"
                 "                       cancel a daemon job that has not finished\n");
}

void help_cancel(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk cancel --addr ADDR --job ID [--json]\n"
                 "\n"
                 "Cancels job ID on the daemon at ADDR (CancelProof): its partitions not yet\n"
                 "proved are dropped and the job ends CANCELLED (awaiting it says so). A job that\n"
                 "already finished is not changed.\n"
                 "exit status: 0 done; 1 daemon unreachable; 2 usage error or unknown job.\n");
}

int run_cancel(int argc, char** argv) {
    const char* cmd = "cancel";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--addr", "--job"}, {}, args)) return kExitUsage;
    if (args.help) return help_cancel(stdout), kExitOk;
    if (!args.positional.empty())
        return fail_json(args, cmd, kExitUsage,
                         std::string("unexpected argument ") + args.positional[0]);
    if (!require(cmd, args, {"--addr", "--job"})) return kExitUsage;
#if CUZK_HAVE_GRPC
    int code = kExitOk;
    auto client = connect_or_fail(args, cmd, code);
    if (!client) return code;
    auto resp = client->cancel(args.get("--job"));
    if (!resp.ok()) {
        const util::Status st = resp.status();
        if (st.code() == util::StatusCode::kNotFound)
            return fail_json(args, cmd, kExitUsage, st.to_string());
        return rpc_fail(args, cmd, st);
    }
    std::fprintf(stderr, "cuzk cancel: job %s cancelled (it was %s)\n", args.get("--job").c_str(),
                 resp->was_running() ? "running" : "not running");
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("job_id", args.get("--job"));
        o.boolean("was_running", resp->was_running());
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
#else
    return no_grpc(cmd);
#endif
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("cancel", 64, cuzk::cli::usage_cancel, cuzk::cli::run_cancel);
