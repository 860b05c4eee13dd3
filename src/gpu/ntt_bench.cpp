#include "gpu/ntt_bench.hpp"

#include <cuda_runtime_api.h>

#include <vector>

#include "gpu/cuda_status.hpp"
#include "ntt/ntt.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

namespace {

using ff::Fr;

std::vector<Fr> tiled_random(unsigned log_size) {
    const size_t n = size_t{1} << log_size;
    const size_t distinct = size_t{1} << (log_size < 20 ? log_size : 20);
    util::TestRng rng(0x6e7474 + log_size);
    std::vector<Fr> v(n);
    for (size_t i = 0; i < distinct; ++i) v[i] = Fr::random(rng);
    util::ThreadPool::global().parallel_ranges(n - distinct, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) v[distinct + i] = v[i % distinct];
    });
    return v;
}

// RAII pair of CUDA events.
struct EventPair {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~EventPair() {
        if (start != nullptr) (void)cudaEventDestroy(start);
        if (stop != nullptr) (void)cudaEventDestroy(stop);
    }
};

}  // namespace

util::Result<NttBenchResult> bench_ntt(unsigned log_size, int repetitions,
                                       const NttOptions& options, unsigned verify_cpu_max_log) {
    NttBenchResult result;
    result.log_size = log_size;
    result.algorithm = options.algorithm == NttAlgorithm::kDif ? "dif" : "dit";
    result.mul = !options.ptx_mul             ? "wide"
                 : options.karatsuba_product ? "karatsuba"
                 : options.sparse_reduction  ? "sparse"
                                             : "ptx";
    CUZK_ASSIGN_OR_RETURN(auto domain, NttDomain::create(log_size, options));
    const std::vector<Fr> input = tiled_random(log_size);
    const size_t bytes = input.size() * sizeof(Fr);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer buf, DeviceBuffer::allocate(bytes));
    Fr* d = static_cast<Fr*>(buf.data());
    std::vector<Fr> out(input.size());

    using Method = util::Status (NttDomain::*)(Fr*, CUstream_st*, const NttOptions&) const;
    const Method methods[4] = {&NttDomain::forward, &NttDomain::inverse,
                               &NttDomain::coset_forward, &NttDomain::coset_inverse};
    // Verification.
    if (log_size <= verify_cpu_max_log) {
        using CpuFn = util::Status (*)(std::span<Fr>, util::ThreadPool*);
        const CpuFn cpu[4] = {
            [](std::span<Fr> a, util::ThreadPool* p) { return ntt::forward(a, p); },
            [](std::span<Fr> a, util::ThreadPool* p) { return ntt::inverse(a, p); },
            [](std::span<Fr> a, util::ThreadPool* p) { return ntt::coset_forward(a, p); },
            [](std::span<Fr> a, util::ThreadPool* p) { return ntt::coset_inverse(a, p); }};
        for (int k = 0; k < 4; ++k) {
            CUZK_RETURN_IF_ERROR(buf.upload(input.data(), bytes));
            CUZK_RETURN_IF_ERROR(((*domain).*methods[k])(d, nullptr, options));
            CUZK_RETURN_IF_ERROR(buf.download(out.data(), bytes));
            std::vector<Fr> want = input;
            CUZK_RETURN_IF_ERROR(cpu[k](want, nullptr));
            if (want != out)
                return util::internal_error("gpu NTT differs from the CPU reference (kind " +
                                            std::to_string(k) + ")");
        }
        result.verified = "equal to the CPU reference (all four kinds)";
    } else {
        for (int pair = 0; pair < 2; ++pair) {
            CUZK_RETURN_IF_ERROR(buf.upload(input.data(), bytes));
            CUZK_RETURN_IF_ERROR(((*domain).*methods[2 * pair])(d, nullptr, options));
            CUZK_RETURN_IF_ERROR(((*domain).*methods[2 * pair + 1])(d, nullptr, options));
            CUZK_RETURN_IF_ERROR(buf.download(out.data(), bytes));
            if (out != input) return util::internal_error("gpu NTT round trip failed");
        }
        result.verified = "round trips (forward∘inverse, coset_forward∘coset_inverse)";
    }
    // Timing.
    CUZK_RETURN_IF_ERROR(buf.upload(input.data(), bytes));
    EventPair ev;
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&ev.start));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&ev.stop));
    std::vector<double>* sinks[4] = {&result.forward_ms, &result.inverse_ms,
                                     &result.coset_forward_ms, &result.coset_inverse_ms};
    for (int rep = 0; rep < repetitions + 1; ++rep) {  // the first round warms up
        for (int k = 0; k < 4; ++k) {
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev.start, nullptr));
            CUZK_RETURN_IF_ERROR(((*domain).*methods[k])(d, nullptr, options));
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev.stop, nullptr));
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(ev.stop));
            float ms = 0;
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, ev.start, ev.stop));
            if (rep > 0) sinks[k]->push_back(ms);
        }
    }
    return result;
}

}  // namespace cuzk::gpu
