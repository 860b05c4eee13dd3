// Host side of batch_add.hpp: argument checks, scratch sizing, launches, and the synchronous
// conveniences.
#include "gpu/batch_add.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>

#include "gpu/batch_add_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"

namespace cuzk::gpu {

static_assert(sizeof(ec::G1Affine) == sizeof(DeviceG1Affine) &&
              sizeof(ec::G1Xyzz) == sizeof(DeviceG1Xyzz) &&
              std::is_trivially_copyable_v<ec::G1Xyzz>);

namespace {

util::Status check_size(size_t n, const GpuBatchAddOptions& options) {
    if (options.words_per_thread > kMaxBatchAddWordsPerThread)
        return util::invalid_argument("gpu::batch_add_g1: words_per_thread above 2^20");
    if (n > kMaxBatchAddBases) {
        std::string m = "gpu::batch_add_g1: ";
        m += std::to_string(n);
        m += " bases (at most 2^31 - 1)";
        return util::invalid_argument(std::move(m));
    }
    return util::Status();
}

}  // namespace

util::Result<size_t> batch_add_scratch_bytes_g1(size_t n, const GpuBatchAddOptions& options) {
    CUZK_RETURN_IF_ERROR(check_size(n, options));
    const detail::BatchAddShape shape = detail::batch_add_shape_g1(n, options.words_per_thread);
    return (shape.blocks > 0 ? shape.blocks : 1) * sizeof(ec::G1Xyzz);
}

util::Status batch_add_g1(const ec::G1Affine* bases, size_t n, const uint64_t* bits,
                          ec::G1Xyzz* result, void* scratch, size_t scratch_bytes,
                          CUstream_st* stream, const GpuBatchAddOptions& options) {
    CUZK_ASSIGN_OR_RETURN(const size_t need, batch_add_scratch_bytes_g1(n, options));
    if (result == nullptr) return util::invalid_argument("gpu::batch_add_g1: no result pointer");
    if (n > 0 && (bases == nullptr || bits == nullptr || scratch == nullptr))
        return util::invalid_argument("gpu::batch_add_g1: a null device pointer");
    if (n > 0 && scratch_bytes < need) {
        std::string m = "gpu::batch_add_g1: scratch of ";
        m += std::to_string(scratch_bytes);
        m += " bytes, ";
        m += std::to_string(need);
        m += " needed";
        return util::invalid_argument(std::move(m));
    }
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_batch_add_g1(
        reinterpret_cast<const DeviceG1Affine*>(bases), n, bits,
        detail::batch_add_shape_g1(n, options.words_per_thread),
        static_cast<DeviceG1Xyzz*>(scratch), reinterpret_cast<DeviceG1Xyzz*>(result), stream));
    return util::Status();
}

util::Result<ec::G1Jacobian> batch_add_g1(const DeviceG1Bases& bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    const size_t n = bases.size();
    const size_t words = (n + 63) / 64;
    if (bits.size() != words) {
        std::string m = "gpu::batch_add_g1: bit vector has ";
        m += std::to_string(bits.size());
        m += " words, expected ";
        m += std::to_string(words);
        return util::invalid_argument(std::move(m));
    }
    if (n == 0) return ec::G1Jacobian::identity();
    CUZK_ASSIGN_OR_RETURN(const size_t scratch_bytes, batch_add_scratch_bytes_g1(n, options));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_bits, DeviceBuffer::allocate(bits.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_result, DeviceBuffer::allocate(sizeof(ec::G1Xyzz)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scratch, DeviceBuffer::allocate(scratch_bytes));
    CUZK_RETURN_IF_ERROR(d_bits.upload(bits.data(), bits.size_bytes()));
    CUZK_RETURN_IF_ERROR(batch_add_g1(bases.device_data(), n,
                                      static_cast<const uint64_t*>(d_bits.data()),
                                      static_cast<ec::G1Xyzz*>(d_result.data()), d_scratch.data(),
                                      scratch_bytes, nullptr, options));
    CUZK_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
    ec::G1Xyzz sum;
    CUZK_RETURN_IF_ERROR(d_result.download(&sum, sizeof(sum)));
    return sum.to_jacobian();
}

util::Result<ec::G1Jacobian> batch_add_g1(std::span<const ec::G1Affine> bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    if (bits.size() != (bases.size() + 63) / 64)
        return util::invalid_argument("gpu::batch_add_g1: bit vector length");
    if (bases.empty()) return ec::G1Jacobian::identity();
    CUZK_ASSIGN_OR_RETURN(DeviceG1Bases dev, DeviceG1Bases::upload(bases));
    return batch_add_g1(dev, bits, options);
}

}  // namespace cuzk::gpu
