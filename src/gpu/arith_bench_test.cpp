// The arithmetic throughput kernels of `cuzk bench gpu-arith` against the host: bench_device_arith
// recomputes sampled threads' chains (Fp and Fr products, Fp squarings, Fp sums and differences
// on both paths, G1 mixed additions) with the CPU field and curve code and fails on any
// difference. Skips without a device.
#include "gpu/arith_bench.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/device.hpp"

namespace cuzk::gpu {
namespace {

TEST(GpuArithBench, ChainsMatchTheHost) {
    if (device_count() == 0) GTEST_SKIP() << "no usable CUDA device";
    auto results = bench_device_arith(1);
    ASSERT_TRUE(results.ok()) << results.status().to_string();
    std::vector<std::string> names;
    for (const ArithBenchResult& r : *results) names.push_back(r.what);
    EXPECT_EQ(names, (std::vector<std::string>{"fp_mul", "fr_mul", "fp_mul_split",
                                               "fr_mul_split", "fp_mul_karatsuba",
                                               "fr_mul_karatsuba", "fp_sqr", "fr_mul_sparse",
                                               "fr_mul_sparse_cmod", "fr_mul_fp64",
                                               "fr_mul_hybrid_fp64", "fp2_mul_lazy",
                                               "fp2_mul_karatsuba",
                                               "fp_addsub_ptx", "fp_addsub_wide",
                                               "g1_madd"}));
    for (const ArithBenchResult& r : *results) {
        EXPECT_GT(r.ops, 0) << r.what;
        EXPECT_GT(r.ms, 0) << r.what;
    }
}

TEST(GpuArithBench, RefusesZeroRepetitions) {
    if (device_count() == 0) GTEST_SKIP() << "no usable CUDA device";
    EXPECT_FALSE(bench_device_arith(0).ok());
}

}  // namespace
}  // namespace cuzk::gpu
