// CPU MSM and NTT benchmarks at the sizes of spec/performance.md's CPU anchors
// (blst: G1 MSM 2^16 0.50 s and 2^20 6.5 s single-threaded).
// Arguments: log2 size, threads. Bases are distinct random multiples of G (a random walk,
// normalized once); scalars are uniform in Fr.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

#include "msm/batch_add.hpp"
#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace {

using namespace cuzk;

template <class Jac, class Aff>
const std::vector<Aff>& bases(size_t n, const Aff& gen) {
    static std::map<size_t, std::vector<Aff>> cache;
    auto& v = cache[n];
    if (v.size() == n) return v;
    util::TestRng rng(n);
    const Jac step = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng));
    std::vector<Jac> jac(n);
    jac[0] = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng));
    for (size_t i = 1; i < n; ++i) jac[i] = jac[i - 1] + step;
    v.resize(n);
    ec::batch_to_affine(jac.data(), v.data(), n);
    return v;
}

std::vector<ff::Fr> random_scalars(size_t n) {
    util::TestRng rng(n + 7);
    std::vector<ff::Fr> s(n);
    for (auto& x : s) x = ff::Fr::random(rng);
    return s;
}

util::ThreadPool& pool_of(unsigned threads) {
    static std::map<unsigned, std::unique_ptr<util::ThreadPool>> pools;
    auto& p = pools[threads];
    if (!p) p = std::make_unique<util::ThreadPool>(threads);
    return *p;
}

void BM_G1Msm(benchmark::State& state) {
    const size_t n = size_t{1} << state.range(0);
    const auto& b = bases<ec::G1Jacobian>(n, ec::kG1Generator);
    const auto s = random_scalars(n);
    msm::MsmOptions opt;
    opt.pool = &pool_of(static_cast<unsigned>(state.range(1)));
    for (auto _ : state) benchmark::DoNotOptimize(msm::msm(std::span(b), std::span(s), opt));
}
void BM_G2Msm(benchmark::State& state) {
    const size_t n = size_t{1} << state.range(0);
    const auto& b = bases<ec::G2Jacobian>(n, ec::kG2Generator);
    const auto s = random_scalars(n);
    msm::MsmOptions opt;
    opt.pool = &pool_of(static_cast<unsigned>(state.range(1)));
    for (auto _ : state) benchmark::DoNotOptimize(msm::msm(std::span(b), std::span(s), opt));
}
// Batch addition of the bases selected by a random bitmap of density 1/2.
void BM_G1BatchAdd(benchmark::State& state) {
    const size_t n = size_t{1} << state.range(0);
    const auto& b = bases<ec::G1Jacobian>(n, ec::kG1Generator);
    util::TestRng rng(3);
    std::vector<uint64_t> bits((n + 63) / 64);
    for (auto& w : bits) w = rng.next_u64();
    msm::BatchAddOptions opt;
    opt.pool = &pool_of(static_cast<unsigned>(state.range(1)));
    for (auto _ : state) benchmark::DoNotOptimize(msm::batch_add(std::span(b), std::span(bits), opt));
}
void BM_NttForward(benchmark::State& state) {
    const size_t n = size_t{1} << state.range(0);
    auto data = random_scalars(n);
    auto& pool = pool_of(static_cast<unsigned>(state.range(1)));
    for (auto _ : state) {
        if (!ntt::forward(data, &pool).ok()) state.SkipWithError("ntt failed");
        benchmark::ClobberMemory();
    }
}

BENCHMARK(BM_G1Msm)->Name("G1_msm")->Args({16, 1})->Args({16, 2})->Args({20, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_G2Msm)->Name("G2_msm")->Args({16, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_G1BatchAdd)->Name("G1_batch_add_half")->Args({20, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_NttForward)->Name("Fr_ntt_forward")->Args({20, 1})->Args({20, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
