// `cuzk bench pipeline`: N synthetic jobs of one sector size through the proving engine;
// reports proofs per hour, per-phase medians, the prover's busy fraction and peak host RAM (a
// table, or one JSON line with --json).
#pragma once

namespace cuzk::cli {

// argv[0] is "pipeline" (skipped, like a program name), the options follow; `cuzk bench`
// calls it as run_bench_pipeline(argc - 1, argv + 1). Returns the exit code: 0 every job
// completed, 1 a job failed, 2 usage error.
int run_bench_pipeline(int argc, char** argv);

}  // namespace cuzk::cli
