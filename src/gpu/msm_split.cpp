// Host side of msm_split.hpp: classification, batch addition and the tail MSM in sequence.
#include "gpu/msm_split.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "gpu/batch_add.hpp"
#include "gpu/classify.hpp"
#include "gpu/classify_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"

namespace cuzk::gpu {

util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    const size_t n = bases.size();
    if (counts != nullptr) *counts = {};
    if (n == 0) return ec::G1Jacobian::identity();
    if (scalars == nullptr) return util::invalid_argument("gpu::msm_g1_split: no scalars");
    CUZK_ASSIGN_OR_RETURN(const size_t classify_scratch, classify_scratch_bytes(n));
    CUZK_ASSIGN_OR_RETURN(const size_t add_scratch, batch_add_scratch_bytes_g1(n));
    const size_t words = (n + 63) / 64;
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_bits, DeviceBuffer::allocate(words * 8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_indices, DeviceBuffer::allocate(n * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_others, DeviceBuffer::allocate(n * sizeof(ff::BigInt<4>)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_counts, DeviceBuffer::allocate(8));
    CUZK_ASSIGN_OR_RETURN(
        DeviceBuffer d_scratch,
        DeviceBuffer::allocate(classify_scratch > add_scratch ? classify_scratch : add_scratch));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_sum, DeviceBuffer::allocate(sizeof(ec::G1Xyzz)));

    ClassifyOutputs out;
    out.ones_bits = static_cast<uint64_t*>(d_bits.data());
    out.other_indices = static_cast<uint32_t*>(d_indices.data());
    out.other_scalars = static_cast<ff::BigInt<4>*>(d_others.data());
    out.counts = static_cast<uint32_t*>(d_counts.data());
    // Both steps on the default stream: the batch addition reads the bitmap after it is written,
    // and reuses the classification's scratch after CUB is done with it.
    CUZK_RETURN_IF_ERROR(
        classify_scalars(scalars, n, out, d_scratch.data(), d_scratch.size(), nullptr));
    CUZK_RETURN_IF_ERROR(batch_add_g1(bases.device_data(), n, out.ones_bits,
                                      static_cast<ec::G1Xyzz*>(d_sum.data()), d_scratch.data(),
                                      d_scratch.size(), nullptr));
    uint32_t host_counts[2] = {};
    CUZK_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
    CUZK_RETURN_IF_ERROR(d_counts.download(host_counts, sizeof(host_counts)));
    ec::G1Xyzz ones_sum;
    CUZK_RETURN_IF_ERROR(d_sum.download(&ones_sum, sizeof(ones_sum)));
    const size_t k = host_counts[1];
    if (host_counts[0] > n || k > n || host_counts[0] + k > n)
        return util::internal_error("gpu::msm_g1_split: counts exceed the number of scalars");
    if (counts != nullptr) *counts = {host_counts[0], k};
    ec::G1Jacobian result = ones_sum.to_jacobian();
    if (k == 0) return result;

    // The tail: gather the bases of the other scalars, then msm_g1 over them.
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_gathered,
                          DeviceBuffer::allocate(k * sizeof(ec::G1Affine)));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_gather_g1_bases(
        reinterpret_cast<const DeviceG1Affine*>(bases.device_data()), out.other_indices, k,
        static_cast<DeviceG1Affine*>(d_gathered.data()), nullptr));
    CUZK_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
    std::vector<ec::G1Affine> tail_bases(k);
    std::vector<ff::BigInt<4>> tail_scalars(k);
    CUZK_RETURN_IF_ERROR(d_gathered.download(tail_bases.data(), k * sizeof(ec::G1Affine)));
    CUZK_RETURN_IF_ERROR(d_others.download(tail_scalars.data(), k * sizeof(ff::BigInt<4>)));
    CUZK_ASSIGN_OR_RETURN(DeviceG1Bases tail_dev, DeviceG1Bases::upload(tail_bases));
    CUZK_ASSIGN_OR_RETURN(const ec::G1Jacobian tail, msm_g1(tail_dev, tail_scalars, options));
    return result + tail;
}

util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options, SplitMsmCounts* counts) {
    if (scalars.size() != bases.size()) {
        std::string m = "gpu::msm_g1_split: ";
        m += std::to_string(bases.size());
        m += " bases but ";
        m += std::to_string(scalars.size());
        m += " scalars";
        return util::invalid_argument(std::move(m));
    }
    if (counts != nullptr) *counts = {};
    if (scalars.empty()) return ec::G1Jacobian::identity();
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scalars, DeviceBuffer::allocate(scalars.size_bytes()));
    CUZK_RETURN_IF_ERROR(d_scalars.upload(scalars.data(), scalars.size_bytes()));
    return msm_g1_split(bases, static_cast<const ff::Fr*>(d_scalars.data()), options, counts);
}

}  // namespace cuzk::gpu
