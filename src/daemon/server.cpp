#include "daemon/server.hpp"

namespace cuzk::daemon {

void block_termination_signals() {}

int run_daemon(const DaemonConfig&) { return 1; }

}  // namespace cuzk::daemon
