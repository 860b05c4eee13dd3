// Self-registering subcommands: a command file defines its run and usage functions and
// registers them with one CUZK_CLI_COMMAND line, so adding a command touches no shared file
// (main.cpp looks commands up here and lists their usage lines in `cuzk help`).
//
// Command files are compiled into the cuzk executable itself (not a static library), so their
// registrar objects are always linked and constructed before main().
#pragma once

#include <cstdio>
#include <string_view>
#include <vector>

namespace cuzk::cli {

struct CommandSpec {
    const char* name;               // "seal", "circuit-info"
    int order;                      // position in `cuzk help` (ascending)
    void (*usage)(std::FILE* out);  // its lines for `cuzk help` (two-space indented)
    int (*run)(int argc, char** argv);  // argv[0] is the command name; returns the exit code
};

struct CommandRegistrar {
    explicit CommandRegistrar(const CommandSpec& spec);
};

// Registered commands sorted by order, then name.
std::vector<CommandSpec> registered_commands();
// The command called `name`, or nullptr.
const CommandSpec* find_command(std::string_view name);

}  // namespace cuzk::cli

#define CUZK_CLI_CONCAT_INNER_(a, b) a##b
#define CUZK_CLI_CONCAT_(a, b) CUZK_CLI_CONCAT_INNER_(a, b)
#define CUZK_CLI_COMMAND(name, order, usage_fn, run_fn)                             \
    static const ::cuzk::cli::CommandRegistrar CUZK_CLI_CONCAT_(cuzk_cli_registrar_, \
                                                               __LINE__)(            \
        ::cuzk::cli::CommandSpec{name, order, usage_fn, run_fn})
