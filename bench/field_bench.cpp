// Field micro-benchmarks: one dependent chain of products so the figure is latency per op,
// comparable with blst's per-product numbers in spec/performance.md.
#include <benchmark/benchmark.h>

#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "util/rng.hpp"

namespace {

using namespace cuzk;

template <class F>
void BM_Mul(benchmark::State& state) {
    util::TestRng rng(1);
    F a = F::random(rng);
    const F b = F::random(rng);
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void BM_MulReference(benchmark::State& state) {
    util::TestRng rng(1);
    F a = F::random(rng);
    const F b = F::random(rng);
    for (auto _ : state) {
        a = F::mul_reference(a, b);
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void BM_Square(benchmark::State& state) {
    util::TestRng rng(2);
    F a = F::random(rng);
    for (auto _ : state) {
        a = a.square();
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void BM_Add(benchmark::State& state) {
    util::TestRng rng(3);
    F a = F::random(rng);
    const F b = F::random(rng);
    for (auto _ : state) {
        a = a + b;
        benchmark::DoNotOptimize(a);
    }
}
template <class F>
void BM_Inverse(benchmark::State& state) {
    util::TestRng rng(4);
    F a = F::random(rng);
    for (auto _ : state) {
        a = a.inverse() + F::one();
        benchmark::DoNotOptimize(a);
    }
}

void BM_Fp2Mul(benchmark::State& state) {
    util::TestRng rng(5);
    ff::Fp2 a{ff::Fp::random(rng), ff::Fp::random(rng)};
    const ff::Fp2 b{ff::Fp::random(rng), ff::Fp::random(rng)};
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}

void BM_Fp12Mul(benchmark::State& state) {
    util::TestRng rng(6);
    auto rnd6 = [&] {
        return ff::Fp6{{ff::Fp::random(rng), ff::Fp::random(rng)},
                       {ff::Fp::random(rng), ff::Fp::random(rng)},
                       {ff::Fp::random(rng), ff::Fp::random(rng)}};
    };
    ff::Fp12 a{rnd6(), rnd6()};
    const ff::Fp12 b{rnd6(), rnd6()};
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}

BENCHMARK(BM_Mul<ff::Fp>)->Name("Fp_mul");
BENCHMARK(BM_MulReference<ff::Fp>)->Name("Fp_mul_portable_reference");
BENCHMARK(BM_Square<ff::Fp>)->Name("Fp_square");
BENCHMARK(BM_Add<ff::Fp>)->Name("Fp_add");
BENCHMARK(BM_Inverse<ff::Fp>)->Name("Fp_inverse");
BENCHMARK(BM_Mul<ff::Fr>)->Name("Fr_mul");
BENCHMARK(BM_MulReference<ff::Fr>)->Name("Fr_mul_portable_reference");
BENCHMARK(BM_Square<ff::Fr>)->Name("Fr_square");
BENCHMARK(BM_Add<ff::Fr>)->Name("Fr_add");
BENCHMARK(BM_Inverse<ff::Fr>)->Name("Fr_inverse");
BENCHMARK(BM_Fp2Mul)->Name("Fp2_mul");
BENCHMARK(BM_Fp12Mul)->Name("Fp12_mul");

}  // namespace
