// Shared pieces of the daemon client commands (cmd_submit, cmd_await, cmd_status, cmd_cancel):
// connecting, turning an RPC error into an exit code, and the no-gRPC message. Header-only so the
// command files stay self-registering (registry.hpp) without a shared .cpp.
//
// Exit codes: 0 ok; 1 the daemon answered with a failure (job failed or cancelled, daemon
// unreachable, RESOURCE_EXHAUSTED, ...); 2 usage error or a request the daemon refused as
// INVALID_ARGUMENT (the message names the problem).
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include "cli/args.hpp"

#if CUZK_HAVE_GRPC
#include "daemon/client.hpp"
#endif

namespace cuzk::cli {

inline int no_grpc(const char* cmd) {
    std::fprintf(stderr,
                 "cuzk %s: this build has no gRPC (libgrpc++-dev, libprotobuf-dev,\n"
                 "protobuf-compiler, protobuf-compiler-grpc were not found at configure time)\n",
                 cmd);
    return kExitUsage;
}

#if CUZK_HAVE_GRPC
// "INVALID_ARGUMENT: message" on stderr (and {"ok":false,...} with --json); the exit code.
inline int rpc_fail(const Args& args, const char* cmd, const util::Status& st) {
    const int code = st.code() == util::StatusCode::kInvalidArgument ? kExitUsage : kExitFail;
    return fail_json(args, cmd, code, st.to_string());
}

inline std::optional<daemon::Client> connect_or_fail(const Args& args, const char* cmd,
                                                     int& exit_code) {
    auto c = daemon::Client::connect(args.get("--addr"));
    if (!c.ok()) {
        exit_code = fail_json(args, cmd, kExitUsage, c.status().message());
        return std::nullopt;
    }
    return std::move(*c);
}
#endif

}  // namespace cuzk::cli
