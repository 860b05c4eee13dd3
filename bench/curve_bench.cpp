// Curve and pairing micro-benchmarks.
#include <benchmark/benchmark.h>

#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "pairing/pairing.hpp"
#include "util/rng.hpp"

namespace {

using namespace cuzk;

template <class Jac, class Aff>
void BM_MixedAddJacobian(benchmark::State& state, const Aff& gen) {
    util::TestRng rng(1);
    Jac acc = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng));
    const Aff q = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng)).to_affine();
    for (auto _ : state) {
        acc = acc.add_mixed(q);
        benchmark::DoNotOptimize(acc);
    }
}
template <class Xyzz, class Jac, class Aff>
void BM_MixedAddXyzz(benchmark::State& state, const Aff& gen) {
    util::TestRng rng(2);
    Xyzz acc = Xyzz::from_affine(ec::mul(Jac::from_affine(gen), ff::Fr::random(rng)).to_affine()).dbl();
    const Aff q = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng)).to_affine();
    for (auto _ : state) {
        acc = acc.add_mixed(q);
        benchmark::DoNotOptimize(acc);
    }
}
template <class Jac, class Aff>
void BM_Double(benchmark::State& state, const Aff& gen) {
    util::TestRng rng(3);
    Jac acc = ec::mul(Jac::from_affine(gen), ff::Fr::random(rng));
    for (auto _ : state) {
        acc = acc.dbl();
        benchmark::DoNotOptimize(acc);
    }
}
template <class Jac, class Aff>
void BM_ScalarMul(benchmark::State& state, const Aff& gen) {
    util::TestRng rng(4);
    Jac p = Jac::from_affine(gen);
    const ff::Fr k = ff::Fr::random(rng);
    for (auto _ : state) {
        p = ec::mul(p, k);
        benchmark::DoNotOptimize(p);
    }
}

void BM_G1Decompress(benchmark::State& state) {
    util::TestRng rng(5);
    const auto bytes = ec::g1_compress(
        ec::mul(ec::G1Jacobian::from_affine(ec::kG1Generator), ff::Fr::random(rng)).to_affine());
    for (auto _ : state) benchmark::DoNotOptimize(ec::g1_decode(bytes));
}
void BM_G2Decompress(benchmark::State& state) {
    util::TestRng rng(6);
    const auto bytes = ec::g2_compress(
        ec::mul(ec::G2Jacobian::from_affine(ec::kG2Generator), ff::Fr::random(rng)).to_affine());
    for (auto _ : state) benchmark::DoNotOptimize(ec::g2_decode(bytes));
}

void BM_Pairing(benchmark::State& state) {
    util::TestRng rng(7);
    const auto p = ec::mul(ec::G1Jacobian::from_affine(ec::kG1Generator), ff::Fr::random(rng)).to_affine();
    const auto q = ec::mul(ec::G2Jacobian::from_affine(ec::kG2Generator), ff::Fr::random(rng)).to_affine();
    for (auto _ : state) benchmark::DoNotOptimize(pairing::pairing(p, q));
}
void BM_MillerLoop(benchmark::State& state) {
    util::TestRng rng(8);
    const auto p = ec::mul(ec::G1Jacobian::from_affine(ec::kG1Generator), ff::Fr::random(rng)).to_affine();
    const auto q = ec::mul(ec::G2Jacobian::from_affine(ec::kG2Generator), ff::Fr::random(rng)).to_affine();
    for (auto _ : state) benchmark::DoNotOptimize(pairing::miller_loop(p, q));
}
void BM_FinalExponentiation(benchmark::State& state) {
    const auto f = pairing::miller_loop(ec::kG1Generator, ec::kG2Generator);
    for (auto _ : state) benchmark::DoNotOptimize(pairing::final_exponentiation(f));
}

// Named wrappers: one registered benchmark per group and operation.
void G1_mixed_add_jacobian(benchmark::State& s) { BM_MixedAddJacobian<ec::G1Jacobian>(s, ec::kG1Generator); }
void G1_mixed_add_xyzz(benchmark::State& s) { BM_MixedAddXyzz<ec::G1Xyzz, ec::G1Jacobian>(s, ec::kG1Generator); }
void G1_double(benchmark::State& s) { BM_Double<ec::G1Jacobian>(s, ec::kG1Generator); }
void G1_scalar_mul_wnaf(benchmark::State& s) { BM_ScalarMul<ec::G1Jacobian>(s, ec::kG1Generator); }
void G2_mixed_add_jacobian(benchmark::State& s) { BM_MixedAddJacobian<ec::G2Jacobian>(s, ec::kG2Generator); }
void G2_mixed_add_xyzz(benchmark::State& s) { BM_MixedAddXyzz<ec::G2Xyzz, ec::G2Jacobian>(s, ec::kG2Generator); }
void G2_double(benchmark::State& s) { BM_Double<ec::G2Jacobian>(s, ec::kG2Generator); }
void G2_scalar_mul_wnaf(benchmark::State& s) { BM_ScalarMul<ec::G2Jacobian>(s, ec::kG2Generator); }
BENCHMARK(G1_mixed_add_jacobian);
BENCHMARK(G1_mixed_add_xyzz);
BENCHMARK(G1_double);
BENCHMARK(G1_scalar_mul_wnaf)->Unit(benchmark::kMicrosecond);
BENCHMARK(G2_mixed_add_jacobian);
BENCHMARK(G2_mixed_add_xyzz);
BENCHMARK(G2_double);
BENCHMARK(G2_scalar_mul_wnaf)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1Decompress)->Name("G1_decompress_checked");
BENCHMARK(BM_G2Decompress)->Name("G2_decompress_checked");
BENCHMARK(BM_MillerLoop)->Name("miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExponentiation)->Name("final_exponentiation")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Pairing)->Name("pairing")->Unit(benchmark::kMicrosecond);

}  // namespace
