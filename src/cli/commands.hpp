// The cuzk subcommands; each returns the process exit code (0 ok, 1 failure, 2 usage error).
#pragma once

namespace cuzk::cli {

int run_info(int argc, char** argv);
int run_selfcheck(int argc, char** argv);

}  // namespace cuzk::cli
