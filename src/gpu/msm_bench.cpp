#include "gpu/msm_bench.hpp"

#include <algorithm>

#include "msm/pippenger.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

util::Result<MsmBenchResult> bench_msm_g1(unsigned log_size, int repetitions,
                                          const GpuMsmOptions& options) {
    MsmBenchResult result;
    result.log_size = log_size;
    const size_t n = size_t{1} << log_size;
    const size_t distinct = std::min<size_t>(n, size_t{1} << 20);
    util::TestRng rng(0x6d736d + log_size);
    // Distinct points: P_0 random, P_(d+1) = P_d + Q_(d mod 3).
    const ec::G1Jacobian g = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const ec::G1Jacobian steps[3] = {ec::mul(g, ff::Fr::random(rng)),
                                     ec::mul(g, ff::Fr::random(rng)),
                                     ec::mul(g, ff::Fr::random(rng))};
    std::vector<ec::G1Jacobian> jac(distinct);
    ec::G1Jacobian p = ec::mul(g, ff::Fr::random(rng));
    for (size_t d = 0; d < distinct; ++d) {
        jac[d] = p;
        p += steps[d % 3];
    }
    std::vector<ec::G1Affine> points(distinct);
    ec::batch_to_affine(jac.data(), points.data(), distinct);
    std::vector<ec::G1Affine> bases(n);
    std::vector<ff::Fr> scalars(n);
    for (ff::Fr& k : scalars) k = ff::Fr::random(rng);
    util::ThreadPool::global().parallel_ranges(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) bases[i] = points[i % distinct];
    });
    std::vector<ff::BigInt<4>> canonical(n);
    util::ThreadPool::global().parallel_ranges(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) canonical[i] = scalars[i].to_int();
    });
    std::vector<ff::Fr> folded(distinct, ff::Fr::zero());
    for (size_t i = 0; i < n; ++i) folded[i % distinct] += scalars[i];
    const ec::G1Jacobian want = msm::msm(points, folded);

    CUZK_ASSIGN_OR_RETURN(DeviceG1Bases dev, DeviceG1Bases::upload(bases));
    std::vector<ec::G1Affine>().swap(bases);
    GpuMsmTimings t;
    CUZK_ASSIGN_OR_RETURN(ec::G1Jacobian got, msm_g1(dev, canonical, options, &t));
    if (!(got == want))
        return util::internal_error("gpu msm differs from the CPU result at 2^" +
                                    std::to_string(log_size));
    result.window_bits = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    for (int rep = 0; rep < repetitions; ++rep) {
        CUZK_ASSIGN_OR_RETURN(got, msm_g1(dev, canonical, options, &t));
        if (!(got == want)) return util::internal_error("gpu msm result changed between runs");
        result.runs.push_back(t);
    }
    return result;
}

}  // namespace cuzk::gpu
