// Timing of the GPU G1 and G2 MSMs with resident bases, for `cuzk bench gpu-msm [--curve g1|g2]`.
// Host C++ header.
//
// Inputs: D = min(n, 2^20) distinct points (a random walk) tiled over the n bases, and n random
// Fr scalars (never zeros). Before timing, the result is checked against the CPU Pippenger
// (msm::msm) on the folded problem: Σ_i k_i·P_(i mod D) = Σ_d (Σ_(i ≡ d) k_i mod r)·P_d, a CPU
// MSM of D points — an independent route to the same group element at any n.
#pragma once

#include <vector>

#include "gpu/msm.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct MsmBenchResult {
    unsigned log_size = 0;
    unsigned window_bits = 0;
    std::vector<GpuMsmTimings> runs;  // one per timed repetition
};

util::Result<MsmBenchResult> bench_msm_g1(unsigned log_size, int repetitions,
                                          const GpuMsmOptions& options);
util::Result<MsmBenchResult> bench_msm_g2(unsigned log_size, int repetitions,
                                          const GpuMsmOptions& options);

}  // namespace cuzk::gpu
