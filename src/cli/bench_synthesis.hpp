// `cuzk bench synthesis`: the CPU witness path alone (synthesis into a ProvingAssignment).
#pragma once

#include <cstdio>

namespace cuzk::cli {

void print_bench_synthesis_usage(std::FILE* out);
// argv[0] is "synthesis".
int run_bench_synthesis(int argc, char** argv);

}  // namespace cuzk::cli
