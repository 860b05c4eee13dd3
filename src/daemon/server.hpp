// run_daemon(): the `cuzk daemon` process — starts the engine (replaying its journal), serves
// cuzk.v1.ProvingEngine over gRPC on config.listen and GET /metrics, /status over HTTP on
// config.status_listen, and handles signals:
//   SIGTERM or SIGINT: drain — new submissions get UNAVAILABLE, accepted jobs run to the end
//     (clients may keep awaiting them), then the servers stop and run_daemon returns 0.
//   a second SIGTERM/SIGINT during the drain: stop at once — waiting clients get UNAVAILABLE,
//     unfinished jobs stay in the journal and resume on the next start; returns 1.
// SIGPIPE is ignored. Progress lines go to stderr ("cuzk daemon: ..."), including the exit line
// "cuzk daemon: exit: completed=C failed=F cancelled=X queued=Q running=R" that tests read.
#pragma once

#include "daemon/config.hpp"

namespace cuzk::daemon {

// Blocks SIGTERM/SIGINT in the calling thread (and the threads it starts later) — call before
// anything starts threads; run_daemon() does it itself first thing.
void block_termination_signals();

int run_daemon(const DaemonConfig& config);

}  // namespace cuzk::daemon
