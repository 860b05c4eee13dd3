// Host side of arith_bench.hpp: inputs, launches, the host recomputation, the figures.
#include "gpu/arith_bench.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "ec/curves.hpp"
#include "ff/fp2.hpp"
#include "gpu/arith_bench_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/test_inputs.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {

namespace {

constexpr size_t kThreads = size_t{1} << 20;
// Threads whose results are recomputed on the host.
constexpr size_t kSample[] = {0, 1, 255, 256, 4097, 77777, 500000, kThreads - 1};

// Median ms of `repetitions` timed launches (after one untimed).
util::Result<double> time_launches(int repetitions, const std::function<cudaError_t()>& launch) {
    cudaEvent_t start, stop;
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&start));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&stop));
    std::vector<double> ms;
    util::Status st;
    for (int r = 0; r <= repetitions && st.ok(); ++r) {
        if (cudaError_t e = cudaEventRecord(start); e != cudaSuccess) st = cuda_status(e, "record");
        if (cudaError_t e = launch(); st.ok() && e != cudaSuccess) st = cuda_status(e, "launch");
        if (cudaError_t e = cudaEventRecord(stop); st.ok() && e != cudaSuccess)
            st = cuda_status(e, "record");
        if (cudaError_t e = cudaEventSynchronize(stop); st.ok() && e != cudaSuccess)
            st = cuda_status(e, "synchronize");
        float t = 0;
        if (st.ok() && cudaEventElapsedTime(&t, start, stop) == cudaSuccess && r > 0)
            ms.push_back(t);
    }
    (void)cudaEventDestroy(start);
    (void)cudaEventDestroy(stop);
    CUZK_RETURN_IF_ERROR(st);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The host replays of the chain kernels' steps.
template <class F>
void mul_step(F& x, F& y) {
    x = x * y;
    y = y * x;
}
template <class F>
void square_step(F& x, F& y) {
    x = x * x;
    y = y * y;
}
template <class F>
void addsub_step(F& x, F& y) {
    x = x + y;
    y = x - y;
}

// Field chains: `repetitions` + 1 launches in place, so the host replays (repetitions + 1) ×
// iterations steps from the initial values for the sampled threads.
template <class F>
util::Result<ArithBenchResult> bench_field(const std::string& what, int repetitions, int iterations,
                                           double imads_per_op,
                                           const std::function<cudaError_t(uint64_t*, uint64_t*,
                                                                           size_t, int)>& launch,
                                           void (*host_step)(F&, F&)) {
    util::TestRng rng(7);
    std::vector<F> a(kThreads), b(kThreads);
    for (size_t i = 0; i < kThreads; ++i) {
        do a[i] = F::random(rng); while (a[i].is_zero());
        do b[i] = F::random(rng); while (b[i].is_zero());
    }
    const size_t bytes = kThreads * sizeof(F);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer da, DeviceBuffer::allocate(bytes));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer db, DeviceBuffer::allocate(bytes));
    CUZK_RETURN_IF_ERROR(da.upload(a.data(), bytes));
    CUZK_RETURN_IF_ERROR(db.upload(b.data(), bytes));
    CUZK_ASSIGN_OR_RETURN(double ms, time_launches(repetitions, [&] {
                              return launch(static_cast<uint64_t*>(da.data()),
                                            static_cast<uint64_t*>(db.data()), kThreads,
                                            iterations);
                          }));
    std::vector<F> ga(kThreads), gb(kThreads);
    CUZK_RETURN_IF_ERROR(da.download(ga.data(), bytes));
    CUZK_RETURN_IF_ERROR(db.download(gb.data(), bytes));
    const long steps = long{repetitions + 1} * iterations;
    for (size_t i : kSample) {
        F x = a[i], y = b[i];
        for (long k = 0; k < steps; ++k) host_step(x, y);
        if (!(x == ga[i]) || !(y == gb[i])) {
            std::string m = "bench gpu-arith: ";
            m += what;
            m += ": the device result of thread ";
            m += std::to_string(i);
            m += " differs from the host's";
            return util::internal_error(std::move(m));
        }
    }
    ArithBenchResult r;
    r.what = what;
    r.ms = ms;
    r.ops = 2.0 * static_cast<double>(kThreads) * iterations;
    r.gops = r.ops / (ms * 1e6);
    r.imad_tera = r.gops * imads_per_op / 1e3;
    return r;
}

util::Result<ArithBenchResult> bench_g1_madd(int repetitions, int iterations) {
    util::TestRng rng(9);
    const std::vector<ec::G1Affine> points = testing::g1_random_points(rng, kThreads + 1);
    std::vector<ec::G1Affine> q(points.begin(), points.begin() + kThreads);
    std::vector<ec::G1Xyzz> acc(kThreads);
    for (size_t i = 0; i < kThreads; ++i) acc[i] = ec::G1Xyzz::from_affine(points[i + 1]);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer dq, DeviceBuffer::allocate(kThreads * sizeof(ec::G1Affine)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer dacc,
                          DeviceBuffer::allocate(kThreads * sizeof(ec::G1Xyzz)));
    CUZK_RETURN_IF_ERROR(dq.upload(q.data(), kThreads * sizeof(ec::G1Affine)));
    CUZK_RETURN_IF_ERROR(dacc.upload(acc.data(), kThreads * sizeof(ec::G1Xyzz)));
    CUZK_ASSIGN_OR_RETURN(double ms, time_launches(repetitions, [&] {
                              return detail::launch_g1_madd_chains(dacc.data(), dq.data(),
                                                                   kThreads, iterations);
                          }));
    std::vector<ec::G1Xyzz> got(kThreads);
    CUZK_RETURN_IF_ERROR(dacc.download(got.data(), kThreads * sizeof(ec::G1Xyzz)));
    const long steps = long{repetitions + 1} * iterations;
    for (size_t i : kSample) {
        ec::G1Xyzz x = acc[i];
        for (long k = 0; k < steps; ++k) x = x.add_mixed(q[i]);
        if (std::memcmp(&x, &got[i], sizeof x) != 0)
            return util::internal_error(
                "bench gpu-arith: g1_madd: a device result differs from the host's");
    }
    ArithBenchResult r;
    r.what = "g1_madd";
    r.ms = ms;
    r.ops = static_cast<double>(kThreads) * iterations;
    r.gops = r.ops / (ms * 1e6);
    r.imad_tera = r.gops * 10 * 576 / 1e3;
    return r;
}

}  // namespace

util::Result<std::vector<ArithBenchResult>> bench_device_arith(int repetitions) {
    CUZK_RETURN_IF_ERROR(check_device_available());
    if (repetitions < 1) return util::invalid_argument("bench gpu-arith: repetitions >= 1");
    std::vector<ArithBenchResult> out;
    // The products: the default (paired halves), the first PTX version (split chains), and one
    // level of Karatsuba before the reduction (Fr's with the sparse reduction).
    using detail::FieldProduct;
    for (const FieldProduct product :
         {FieldProduct::kPaired, FieldProduct::kSplit, FieldProduct::kKaratsuba}) {
        const std::string suffix = product == FieldProduct::kSplit       ? "_split"
                                   : product == FieldProduct::kKaratsuba ? "_karatsuba"
                                                                         : "";
        const auto fp_launch = [product](uint64_t* a, uint64_t* b, size_t n, int it) {
            return detail::launch_fp_mul_chains(a, b, n, it, product);
        };
        const auto fr_launch = [product](uint64_t* a, uint64_t* b, size_t n, int it) {
            return detail::launch_fr_mul_chains(a, b, n, it, product);
        };
        CUZK_ASSIGN_OR_RETURN(ArithBenchResult fp,
                              bench_field<ff::Fp>("fp_mul" + suffix, repetitions, 256, 576,
                                                  fp_launch, mul_step<ff::Fp>));
        out.push_back(fp);
        CUZK_ASSIGN_OR_RETURN(ArithBenchResult fr,
                              bench_field<ff::Fr>("fr_mul" + suffix, repetitions, 512, 256,
                                                  fr_launch, mul_step<ff::Fr>));
        out.push_back(fr);
    }
    // Fp's dedicated squaring (nominally a product's 576 multiply-adds, so that its rate
    // compares with fp_mul's: 78 + 144 word products instead of 144 + 144).
    CUZK_ASSIGN_OR_RETURN(ArithBenchResult fp_sqr,
                          bench_field<ff::Fp>("fp_sqr", repetitions, 256, 576,
                                              [](uint64_t* a, uint64_t* b, size_t n, int it) {
                                                  return detail::launch_fp_mul_chains(
                                                      a, b, n, it, FieldProduct::kSquare);
                                              },
                                              square_step<ff::Fp>));
    out.push_back(fp_sqr);
    // The Fr product with the sparse reduction (the modulus' two low words as additions), with
    // the modulus as immediates and from constant memory.
    for (const bool constant_modulus : {false, true}) {
        const FieldProduct product =
            constant_modulus ? FieldProduct::kSparseConstantModulus : FieldProduct::kSparse;
        CUZK_ASSIGN_OR_RETURN(
            ArithBenchResult fr_sparse,
            bench_field<ff::Fr>(constant_modulus ? "fr_mul_sparse_cmod" : "fr_mul_sparse",
                                repetitions, 512, 256,
                                [product](uint64_t* a, uint64_t* b, size_t n, int it) {
                                    return detail::launch_fr_mul_chains(a, b, n, it, product);
                                },
                                mul_step<ff::Fr>));
        out.push_back(fr_sparse);
    }
    // The Fr product on the FP64 pipe, alone and alternating with the sparse one (so that both
    // pipes multiply).
    for (const bool hybrid : {false, true}) {
        const FieldProduct product = hybrid ? FieldProduct::kHybridFp64 : FieldProduct::kFp64;
        CUZK_ASSIGN_OR_RETURN(
            ArithBenchResult fr_fp64,
            bench_field<ff::Fr>(hybrid ? "fr_mul_hybrid_fp64" : "fr_mul_fp64", repetitions, 512,
                                256,
                                [product](uint64_t* a, uint64_t* b, size_t n, int it) {
                                    return detail::launch_fr_mul_chains(a, b, n, it, product);
                                },
                                mul_step<ff::Fr>));
        out.push_back(fr_fp64);
    }
    // The Fp2 product, lazily reduced against Karatsuba (3 Fp products' worth of multiply-adds
    // nominally, so that the two rates compare).
    for (const bool lazy : {true, false}) {
        CUZK_ASSIGN_OR_RETURN(
            ArithBenchResult fp2,
            bench_field<ff::Fp2>(lazy ? "fp2_mul_lazy" : "fp2_mul_karatsuba", repetitions, 128,
                                 3 * 576,
                                 [lazy](uint64_t* a, uint64_t* b, size_t n, int it) {
                                     return detail::launch_fp2_mul_chains(a, b, n, it, lazy);
                                 },
                                 mul_step<ff::Fp2>));
        out.push_back(fp2);
    }
    // The sum and difference, PTX against the 64-bit limb code (a pair of them per op).
    for (const bool ptx : {true, false}) {
        CUZK_ASSIGN_OR_RETURN(
            ArithBenchResult add,
            bench_field<ff::Fp>(ptx ? "fp_addsub_ptx" : "fp_addsub_wide", repetitions, 1024, 0,
                                [ptx](uint64_t* a, uint64_t* b, size_t n, int it) {
                                    return detail::launch_fp_addsub_chains(a, b, n, it, ptx);
                                },
                                addsub_step<ff::Fp>));
        out.push_back(add);
    }
    CUZK_ASSIGN_OR_RETURN(ArithBenchResult g1, bench_g1_madd(repetitions, 32));
    out.push_back(g1);
    return out;
}

}  // namespace cuzk::gpu
