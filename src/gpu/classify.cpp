// Host side of classify.hpp: argument checks, scratch sizing, the launch sequence, and the
// upload / download convenience.
#include "gpu/classify.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "gpu/classify_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"

namespace cuzk::gpu {

static_assert(sizeof(ff::Fr) == 32 && sizeof(ff::BigInt<4>) == 32);

namespace {

util::Status check_size(size_t n) {
    if (n > kMaxClassifyScalars) {
        std::string m = "gpu::classify_scalars: ";
        m += std::to_string(n);
        m += " scalars (at most 2^31 - 1)";
        return util::invalid_argument(std::move(m));
    }
    return util::Status();
}

}  // namespace

util::Result<size_t> classify_scratch_bytes(size_t n) {
    CUZK_RETURN_IF_ERROR(check_size(n));
    size_t bytes = 0;
    CUZK_CUDA_RETURN_IF_ERROR(detail::classify_select_temp_bytes(std::max<size_t>(n, 1), &bytes));
    return std::max<size_t>(bytes, 1);
}

util::Status classify_scalars(const ff::Fr* scalars, size_t n, const ClassifyOutputs& out,
                              void* scratch, size_t scratch_bytes, CUstream_st* stream) {
    CUZK_RETURN_IF_ERROR(check_size(n));
    if (out.counts == nullptr) return util::invalid_argument("gpu::classify_scalars: no counts");
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(out.counts, 0, 2 * sizeof(uint32_t), stream));
    if (n == 0) return util::Status();
    if (scalars == nullptr || out.ones_bits == nullptr || out.other_indices == nullptr ||
        out.other_scalars == nullptr || scratch == nullptr)
        return util::invalid_argument("gpu::classify_scalars: a null device pointer");
    CUZK_ASSIGN_OR_RETURN(const size_t need, classify_scratch_bytes(n));
    if (scratch_bytes < need) {
        std::string m = "gpu::classify_scalars: scratch of ";
        m += std::to_string(scratch_bytes);
        m += " bytes, ";
        m += std::to_string(need);
        m += " needed";
        return util::invalid_argument(std::move(m));
    }
    const uint64_t* limbs = reinterpret_cast<const uint64_t*>(scalars);
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_classify_ones(limbs, n, out.ones_bits, out.counts, stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_classify_select_others(
        scratch, scratch_bytes, limbs, n, out.other_indices, out.counts + 1, stream));
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_classify_gather(limbs, n, out.other_indices, out.counts + 1,
                                       reinterpret_cast<uint64_t*>(out.other_scalars), stream));
    return util::Status();
}

util::Status scalars_to_canonical(const ff::Fr* scalars, size_t n, ff::BigInt<4>* out,
                                  CUstream_st* stream) {
    CUZK_RETURN_IF_ERROR(check_size(n));
    if (n == 0) return util::Status();
    if (scalars == nullptr || out == nullptr)
        return util::invalid_argument("gpu::scalars_to_canonical: a null device pointer");
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_classify_gather(
        reinterpret_cast<const uint64_t*>(scalars), n, nullptr, nullptr,
        reinterpret_cast<uint64_t*>(out), stream));
    return util::Status();
}

util::Result<Classification> classify_scalars(std::span<const ff::Fr> scalars) {
    const size_t n = scalars.size();
    CUZK_RETURN_IF_ERROR(check_size(n));
    Classification result;
    const size_t words = (n + 63) / 64;
    result.ones_bits.assign(words, 0);
    if (n == 0) return result;
    CUZK_RETURN_IF_ERROR(check_device_available());
    CUZK_ASSIGN_OR_RETURN(const size_t scratch_bytes, classify_scratch_bytes(n));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scalars, DeviceBuffer::allocate(scalars.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_bits, DeviceBuffer::allocate(words * 8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_indices, DeviceBuffer::allocate(n * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_others, DeviceBuffer::allocate(n * 32));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_counts, DeviceBuffer::allocate(8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scratch, DeviceBuffer::allocate(scratch_bytes));
    CUZK_RETURN_IF_ERROR(d_scalars.upload(scalars.data(), scalars.size_bytes()));
    ClassifyOutputs out;
    out.ones_bits = static_cast<uint64_t*>(d_bits.data());
    out.other_indices = static_cast<uint32_t*>(d_indices.data());
    out.other_scalars = static_cast<ff::BigInt<4>*>(d_others.data());
    out.counts = static_cast<uint32_t*>(d_counts.data());
    CUZK_RETURN_IF_ERROR(classify_scalars(static_cast<const ff::Fr*>(d_scalars.data()), n, out,
                                          d_scratch.data(), scratch_bytes, nullptr));
    CUZK_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
    uint32_t counts[2] = {};
    CUZK_RETURN_IF_ERROR(d_counts.download(counts, sizeof(counts)));
    if (counts[0] > n || counts[1] > n || size_t{counts[0]} + counts[1] > n)
        return util::internal_error("gpu::classify_scalars: counts exceed the number of scalars");
    result.ones = counts[0];
    CUZK_RETURN_IF_ERROR(d_bits.download(result.ones_bits.data(), words * 8));
    result.other_indices.resize(counts[1]);
    result.other_scalars.resize(counts[1]);
    if (counts[1] > 0) {
        CUZK_RETURN_IF_ERROR(d_indices.download(result.other_indices.data(), counts[1] * 4));
        CUZK_RETURN_IF_ERROR(
            d_others.download(result.other_scalars.data(), size_t{counts[1]} * 32));
    }
    return result;
}

}  // namespace cuzk::gpu
