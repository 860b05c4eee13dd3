// Timing of the GPU NTT on device-resident data, for `cuzk bench gpu-ntt`. Host C++ header.
//
// The input is random (never zeros): 2^min(L,20) random Fr from util::TestRng, tiled over the
// 2^L values. Each repetition times one transform with CUDA events on one stream (kernels
// only: the data stays on the device). Before timing, the result of every kind is checked:
// against the CPU reference transform when L ≤ verify_cpu_max_log, else by the round trip
// (forward then inverse, coset forward then coset inverse give the input back).
#pragma once

#include <string>
#include <vector>

#include "gpu/ntt.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct NttBenchResult {
    unsigned log_size = 0;
    std::string algorithm;                 // "dif" or "dit"
    std::string mul;  // "sparse" (PTX, sparse reduction), "karatsuba" (PTX, Karatsuba and the
                      // sparse reduction), "ptx" or "wide"
    std::vector<double> forward_ms, inverse_ms, coset_forward_ms, coset_inverse_ms;
    std::string verified;                  // how the result was checked
};

util::Result<NttBenchResult> bench_ntt(unsigned log_size, int repetitions,
                                       const NttOptions& options, unsigned verify_cpu_max_log = 22);

}  // namespace cuzk::gpu
