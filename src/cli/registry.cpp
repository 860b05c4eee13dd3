#include "cli/registry.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::cli {

namespace {

// Function-local, so registrars in other translation units may run first.
std::vector<CommandSpec>& table() {
    static std::vector<CommandSpec> commands;
    return commands;
}

}  // namespace

CommandRegistrar::CommandRegistrar(const CommandSpec& spec) { table().push_back(spec); }

std::vector<CommandSpec> registered_commands() {
    std::vector<CommandSpec> out = table();
    std::sort(out.begin(), out.end(), [](const CommandSpec& a, const CommandSpec& b) {
        return a.order != b.order ? a.order < b.order : std::strcmp(a.name, b.name) < 0;
    });
    return out;
}

const CommandSpec* find_command(std::string_view name) {
    for (const CommandSpec& c : table())
        if (name == c.name) return &c;
    return nullptr;
}

}  // namespace cuzk::cli
