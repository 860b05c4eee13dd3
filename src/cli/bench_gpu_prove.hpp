// `cuzk bench gpu-prove`: whole Groth16 proofs on the GPU with the phase breakdown.
#pragma once

#include <cstdio>

namespace cuzk::cli {

void print_bench_gpu_prove_usage(std::FILE* out);
// argv[0] is "gpu-prove".
int run_bench_gpu_prove(int argc, char** argv);

}  // namespace cuzk::cli
