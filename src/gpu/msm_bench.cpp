#include "gpu/msm_bench.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "msm/pippenger.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

namespace {

// Host types and entry points of one curve.
struct G1 {
    static constexpr const char* kName = "G1";
    using Affine = ec::G1Affine;
    using Jacobian = ec::G1Jacobian;
    static constexpr Affine generator() { return ec::kG1Generator; }
    static auto msm(const DeviceG1Bases& b, std::span<const ff::BigInt<4>> k,
                    const GpuMsmOptions& o, GpuMsmTimings* t) {
        return msm_g1(b, k, o, t);
    }
};
struct G2 {
    static constexpr const char* kName = "G2";
    using Affine = ec::G2Affine;
    using Jacobian = ec::G2Jacobian;
    static constexpr Affine generator() { return ec::kG2Generator; }
    static auto msm(const DeviceG2Bases& b, std::span<const ff::BigInt<4>> k,
                    const GpuMsmOptions& o, GpuMsmTimings* t) {
        return msm_g2(b, k, o, t);
    }
};

template <class G>
util::Result<MsmBenchResult> bench_msm(unsigned log_size, int repetitions,
                                       const GpuMsmOptions& options) {
    using Affine = typename G::Affine;
    using Jacobian = typename G::Jacobian;
    MsmBenchResult result;
    result.log_size = log_size;
    const size_t n = size_t{1} << log_size;
    const size_t distinct = std::min<size_t>(n, size_t{1} << 20);
    util::TestRng rng(0x6d736d + log_size);
    // Distinct points: P_0 random, P_(d+1) = P_d + Q_(d mod 3).
    const Jacobian g = Jacobian::from_affine(G::generator());
    const Jacobian steps[3] = {ec::mul(g, ff::Fr::random(rng)), ec::mul(g, ff::Fr::random(rng)),
                               ec::mul(g, ff::Fr::random(rng))};
    std::vector<Jacobian> jac(distinct);
    Jacobian p = ec::mul(g, ff::Fr::random(rng));
    for (size_t d = 0; d < distinct; ++d) {
        jac[d] = p;
        p += steps[d % 3];
    }
    std::vector<Affine> points(distinct);
    ec::batch_to_affine(jac.data(), points.data(), distinct);
    std::vector<Affine> bases(n);
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
    const Jacobian want = msm::msm(points, folded);

    CUZK_ASSIGN_OR_RETURN(DeviceBases<Affine> dev, DeviceBases<Affine>::upload(bases));
    std::vector<Affine>().swap(bases);
    GpuMsmTimings t;
    CUZK_ASSIGN_OR_RETURN(Jacobian got, G::msm(dev, canonical, options, &t));
    if (!(got == want)) {
        std::string m = G::kName;
        m += ": gpu msm differs from the CPU result at 2^";
        m += std::to_string(log_size);
        return util::internal_error(std::move(m));
    }
    result.window_bits = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    for (int rep = 0; rep < repetitions; ++rep) {
        CUZK_ASSIGN_OR_RETURN(got, G::msm(dev, canonical, options, &t));
        if (!(got == want)) return util::internal_error("gpu msm result changed between runs");
        result.runs.push_back(t);
    }
    return result;
}

}  // namespace

util::Result<MsmBenchResult> bench_msm_g1(unsigned log_size, int repetitions,
                                          const GpuMsmOptions& options) {
    return bench_msm<G1>(log_size, repetitions, options);
}
util::Result<MsmBenchResult> bench_msm_g2(unsigned log_size, int repetitions,
                                          const GpuMsmOptions& options) {
    return bench_msm<G2>(log_size, repetitions, options);
}

}  // namespace cuzk::gpu
