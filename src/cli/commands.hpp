// The cuzk subcommands; each returns the process exit code (0 ok, 1 failure, 2 usage error).
#pragma once

#include <cstdio>

namespace cuzk::cli {

int run_info(int argc, char** argv);
int run_selfcheck(int argc, char** argv);

// Groth16 on the built-in example circuits (groth16_cmds.cpp).
int run_setup(int argc, char** argv);
int run_prove(int argc, char** argv);
int run_verify(int argc, char** argv);
int run_inspect_params(int argc, char** argv);
// Their lines for `cuzk help`.
void print_groth16_usage(std::FILE* out);

// `cuzk bench gpu-ntt …` (bench_cmds.cpp) and its line for `cuzk help`.
int run_bench(int argc, char** argv);
void print_bench_line(std::FILE* out);

}  // namespace cuzk::cli
