// Throughput of the device arithmetic the MSM and the NTT are built from, for
// `cuzk bench gpu-arith`: Fp and Fr Montgomery products (gpu/mont_ptx.cuh: the default paired
// chains against the first split ones; for Fr also the sparse reduction, with the modulus as
// immediates and from constant memory), the Fp2 product (lazily reduced against Karatsuba), Fp
// sums and
// differences (PTX carry chains against the shared 64-bit limb code: the A/B of that switch) and
// the G1 XYZZ mixed addition of the bucket kernel (gpu/msm_point_ops.cuh). Host C++ header.
//
// Each thread runs two interleaved dependent chains (a ← a·b, b ← b·a for the fields; an XYZZ
// accumulator plus a fixed affine point for G1) over random non-zero inputs, `iterations` steps,
// on enough threads to fill the device (ops = threads × iterations × ops per step). The results
// of a sample of threads are recomputed on the host with the CPU field/curve code and must match
// limb for limb before any figure is reported. Figures: ms per launch (CUDA events, median of
// the repetitions), G operations per second, and the implied 32-bit multiply-add rate (4n² per
// product for n 32-bit limbs: 576 for Fp, 256 for Fr; 10 products for a G1 mixed addition) —
// to compare with the MSM's bucket rate and the device's IMAD ceiling (spec/performance.md).
#pragma once

#include <string>
#include <vector>

#include "util/status.hpp"

namespace cuzk::gpu {

struct ArithBenchResult {
    std::string what;   // "fp_mul", "fr_mul", "fp_mul_split", "fr_mul_split",
                        // "fp_mul_karatsuba", "fr_mul_karatsuba", "fr_mul_sparse",
                        // "fr_mul_sparse_cmod", "fr_mul_fp64",
                        // "fr_mul_hybrid_fp64", "fp2_mul_lazy",
                        // "fp2_mul_karatsuba", "fp_addsub_ptx",
                        // "fp_addsub_wide", "g1_madd"
    double ms = 0;         // median per launch
    double ops = 0;        // operations per launch
    double gops = 0;       // 1e9 operations per second
    double imad_tera = 0;  // implied 32-bit multiply-adds per second, 1e12
};

util::Result<std::vector<ArithBenchResult>> bench_device_arith(int repetitions);

}  // namespace cuzk::gpu
