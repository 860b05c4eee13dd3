// The daemon's GET /status document: the engine's EngineStatus plus the daemon's own facts, as one
// JSON object (util::json::Writer, compact unless `pretty`). Fields:
//   {"service":"cuzk","version":…,"uptime_seconds":…,"listen":…,"status_listen":…,
//    "backend":…,"draining":bool,
//    "jobs":{"queued","running","completed","failed","cancelled"},
//    "partitions":{"queued","synthesizing","ready","proving"},
//    "memory":{"host_budget_bytes","host_reserved_bytes","host_reserved_peak_bytes",
//              "process_rss_bytes","process_rss_peak_bytes"},
//    "prover_busy_fraction":…,
//    "params":[{"path","circuit_id","host_bytes","device_bytes"}],
//    "journal_errors":[…]}
#pragma once

#include <cstdint>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::daemon {

struct DaemonInfo {
    std::string version;
    std::string listen;
    std::string status_listen;
    uint64_t uptime_seconds = 0;
    bool draining = false;  // the daemon's own flag (OR-ed with the engine's)
};

std::string status_json(const engine::EngineStatus& status, const DaemonInfo& info,
                        bool pretty = false);

}  // namespace cuzk::daemon
