// Host side of msm_split.hpp: classification, batch addition and the tail MSM in sequence, one
// template over the curve.
#include "gpu/msm_split.hpp"

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "gpu/batch_add.hpp"
#include "gpu/classify.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/scratch_cache.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

namespace {

struct G1Split {
    using Affine = ec::G1Affine;
    using Xyzz = ec::G1Xyzz;
    using Jacobian = ec::G1Jacobian;
    static util::Result<size_t> add_scratch(size_t n) { return batch_add_scratch_bytes_g1(n); }
    static util::Status add(const Affine* b, size_t n, const uint64_t* bits, Xyzz* out,
                            void* scratch, size_t bytes, CUstream_st* stream) {
        return batch_add_g1(b, n, bits, out, scratch, bytes, stream);
    }
    static util::Result<Jacobian> tail(const Affine* b, size_t nb, const ff::BigInt<4>* k,
                                       const uint32_t* idx, size_t count, const GpuMsmOptions& o,
                                       GpuMsmTimings* steps) {
        return msm_g1_device(b, nb, k, idx, count, o, steps);
    }
};
struct G2Split {
    using Affine = ec::G2Affine;
    using Xyzz = ec::G2Xyzz;
    using Jacobian = ec::G2Jacobian;
    static util::Result<size_t> add_scratch(size_t n) { return batch_add_scratch_bytes_g2(n); }
    static util::Status add(const Affine* b, size_t n, const uint64_t* bits, Xyzz* out,
                            void* scratch, size_t bytes, CUstream_st* stream) {
        return batch_add_g2(b, n, bits, out, scratch, bytes, stream);
    }
    static util::Result<Jacobian> tail(const Affine* b, size_t nb, const ff::BigInt<4>* k,
                                       const uint32_t* idx, size_t count, const GpuMsmOptions& o,
                                       GpuMsmTimings* steps) {
        return msm_g2_device(b, nb, k, idx, count, o, steps);
    }
};

template <class T>
util::Result<typename T::Jacobian> split(const typename T::Affine* bases, size_t n,
                                         const ff::Fr* scalars, const GpuMsmOptions& options,
                                         SplitMsmCounts* counts) {
    if (counts != nullptr) *counts = {};
    if (n == 0) return T::Jacobian::identity();
    if (scalars == nullptr) return util::invalid_argument("gpu::msm_split: no scalars");
    CUZK_ASSIGN_OR_RETURN(const size_t classify_scratch, classify_scratch_bytes(n));
    CUZK_ASSIGN_OR_RETURN(const size_t add_scratch, T::add_scratch(n));
    const size_t words = (n + 63) / 64;
    // The split's buffers (the other scalars alone are 32 bytes per scalar: 4 GiB for the L of
    // a 32 GiB partition) come from the MSM's pool when options.pool_scratch is on, like the
    // tail MSM's: cudaMalloc and cudaFree of them cost ~18 ms per 32 GiB partition between the
    // split MSMs (H200 trace, 2026-12-03), and a cudaFree waits for the whole device.
    const cudaStream_t stream = options.stream;
    const ScratchSource source =
        options.pool_scratch ? ScratchSource::kPool : ScratchSource::kAllocate;
    ScratchLeases leases(source, stream);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * d_bits, leases.take(words * 8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * d_indices, leases.take(n * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * d_others, leases.take(n * sizeof(ff::BigInt<4>)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * d_counts, leases.take(8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * d_sum, leases.take(sizeof(typename T::Xyzz)));
    // The classification's and the batch addition's scratch (gigabytes with the batch-affine
    // method): its own lease, given back before the tail MSM takes its own.
    std::optional<ScratchLeases> step_leases(std::in_place, source, stream);
    CUZK_ASSIGN_OR_RETURN(
        DeviceBuffer * d_scratch,
        step_leases->take(classify_scratch > add_scratch ? classify_scratch : add_scratch));

    ClassifyOutputs out;
    out.ones_bits = static_cast<uint64_t*>(d_bits->data());
    out.other_indices = static_cast<uint32_t*>(d_indices->data());
    out.other_scalars = static_cast<ff::BigInt<4>*>(d_others->data());
    out.counts = static_cast<uint32_t*>(d_counts->data());
    // Both steps on options.stream: the batch addition reads the bitmap after it is written,
    // and reuses the classification's scratch after CUB is done with it. The waits are for that
    // stream only, not the device: a witness upload or another MSM may run on another stream.
    util::Stopwatch sw;
    CUZK_RETURN_IF_ERROR(
        classify_scalars(scalars, n, out, d_scratch->data(), d_scratch->size(), stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    const double classify_ms = sw.elapsed_ms();
    sw.reset();
    CUZK_RETURN_IF_ERROR(T::add(bases, n, out.ones_bits,
                                static_cast<typename T::Xyzz*>(d_sum->data()), d_scratch->data(),
                                d_scratch->size(), stream));
    uint32_t host_counts[2] = {};
    typename T::Xyzz ones_sum;
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(host_counts, d_counts->data(), sizeof(host_counts),
                                              cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(&ones_sum, d_sum->data(), sizeof(ones_sum),
                                              cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    const double batch_add_ms = sw.elapsed_ms();
    step_leases.reset();
    const size_t ones = host_counts[0], k = host_counts[1];
    if (ones > n || k > n || ones + k > n)
        return util::internal_error("gpu::msm_split: counts exceed the number of scalars");
    if (counts != nullptr) *counts = {ones, k, classify_ms, batch_add_ms, 0, {}};
    typename T::Jacobian result = ones_sum.to_jacobian();
    if (k == 0) return result;
    sw.reset();
    CUZK_ASSIGN_OR_RETURN(const typename T::Jacobian tail,
                          T::tail(bases, n, out.other_scalars, out.other_indices, k, options,
                                  counts != nullptr ? &counts->tail_steps : nullptr));
    if (counts != nullptr) counts->tail_ms = sw.elapsed_ms();
    return result + tail;
}

template <class T, class Bases>
util::Result<typename T::Jacobian> upload_and_split(const Bases& bases,
                                                    std::span<const ff::Fr> scalars,
                                                    const GpuMsmOptions& options,
                                                    SplitMsmCounts* counts) {
    if (counts != nullptr) *counts = {};
    if (scalars.size() != bases.size()) {
        std::string m = "gpu::msm_split: ";
        m += std::to_string(bases.size());
        m += " bases but ";
        m += std::to_string(scalars.size());
        m += " scalars";
        return util::invalid_argument(std::move(m));
    }
    if (scalars.empty()) return T::Jacobian::identity();
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scalars, DeviceBuffer::allocate(scalars.size_bytes()));
    CUZK_RETURN_IF_ERROR(d_scalars.upload(scalars.data(), scalars.size_bytes()));
    return split<T>(bases.device_data(), bases.size(), static_cast<const ff::Fr*>(d_scalars.data()),
                    options, counts);
}

}  // namespace

util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    return split<G1Split>(bases.device_data(), bases.size(), scalars, options, counts);
}
util::Result<ec::G2Jacobian> msm_g2_split(const DeviceG2Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    return split<G2Split>(bases.device_data(), bases.size(), scalars, options, counts);
}
util::Result<ec::G1Jacobian> msm_g1_split(const ec::G1Affine* bases, size_t n,
                                          const ff::Fr* scalars, const GpuMsmOptions& options,
                                          SplitMsmCounts* counts) {
    return split<G1Split>(bases, n, scalars, options, counts);
}
util::Result<ec::G2Jacobian> msm_g2_split(const ec::G2Affine* bases, size_t n,
                                          const ff::Fr* scalars, const GpuMsmOptions& options,
                                          SplitMsmCounts* counts) {
    return split<G2Split>(bases, n, scalars, options, counts);
}
util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    return upload_and_split<G1Split>(bases, scalars, options, counts);
}
util::Result<ec::G2Jacobian> msm_g2_split(const DeviceG2Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    return upload_and_split<G2Split>(bases, scalars, options, counts);
}

}  // namespace cuzk::gpu
