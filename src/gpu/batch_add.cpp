// Host side of batch_add.hpp: argument checks, scratch sizing, launches, and the synchronous
// conveniences — one template over the curve, instantiated for G1 and G2.
#include "gpu/batch_add.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>

#include "gpu/batch_add_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"

namespace cuzk::gpu {

namespace {

template <class Host, class Device>
constexpr bool same_layout() {
    return sizeof(Host) == sizeof(Device) && alignof(Host) == alignof(Device) &&
           std::is_trivially_copyable_v<Host> && std::is_trivially_copyable_v<Device>;
}
static_assert(same_layout<ec::G1Affine, DeviceG1Affine>() &&
              same_layout<ec::G1Xyzz, DeviceG1Xyzz>());
static_assert(same_layout<ec::G2Affine, DeviceG2Affine>() &&
              same_layout<ec::G2Xyzz, DeviceG2Xyzz>());

// The host and device types and the launchers of one curve.
struct G1Traits {
    using Affine = ec::G1Affine;
    using Xyzz = ec::G1Xyzz;
    using Jacobian = ec::G1Jacobian;
    using DAffine = DeviceG1Affine;
    using DXyzz = DeviceG1Xyzz;
    static constexpr const char* kName = "gpu::batch_add_g1: ";
    static detail::BatchAddShape shape(size_t n, size_t wpt) {
        return detail::batch_add_shape_g1(n, wpt);
    }
    static cudaError_t launch(const DAffine* b, size_t n, const uint64_t* bits,
                              const detail::BatchAddShape& s, DXyzz* partial, DXyzz* result,
                              cudaStream_t stream) {
        return detail::launch_batch_add_g1(b, n, bits, s, partial, result, stream);
    }
};
struct G2Traits {
    using Affine = ec::G2Affine;
    using Xyzz = ec::G2Xyzz;
    using Jacobian = ec::G2Jacobian;
    using DAffine = DeviceG2Affine;
    using DXyzz = DeviceG2Xyzz;
    static constexpr const char* kName = "gpu::batch_add_g2: ";
    static detail::BatchAddShape shape(size_t n, size_t wpt) {
        return detail::batch_add_shape_g2(n, wpt);
    }
    static cudaError_t launch(const DAffine* b, size_t n, const uint64_t* bits,
                              const detail::BatchAddShape& s, DXyzz* partial, DXyzz* result,
                              cudaStream_t stream) {
        return detail::launch_batch_add_g2(b, n, bits, s, partial, result, stream);
    }
};

template <class T>
util::Status check_size(size_t n, const GpuBatchAddOptions& options) {
    if (options.words_per_thread > kMaxBatchAddWordsPerThread) {
        std::string m = T::kName;
        m += "words_per_thread above 2^20";
        return util::invalid_argument(std::move(m));
    }
    if (n > kMaxBatchAddBases) {
        std::string m = T::kName;
        m += std::to_string(n);
        m += " bases (at most 2^31 - 1)";
        return util::invalid_argument(std::move(m));
    }
    return util::Status();
}

template <class T>
util::Result<size_t> scratch_bytes(size_t n, const GpuBatchAddOptions& options) {
    CUZK_RETURN_IF_ERROR(check_size<T>(n, options));
    const detail::BatchAddShape shape = T::shape(n, options.words_per_thread);
    return (shape.blocks > 0 ? shape.blocks : 1) * sizeof(typename T::Xyzz);
}

template <class T>
util::Status enqueue(const typename T::Affine* bases, size_t n, const uint64_t* bits,
                     typename T::Xyzz* result, void* scratch, size_t scratch_size,
                     CUstream_st* stream, const GpuBatchAddOptions& options) {
    CUZK_ASSIGN_OR_RETURN(const size_t need, scratch_bytes<T>(n, options));
    if (result == nullptr) {
        std::string m = T::kName;
        m += "no result pointer";
        return util::invalid_argument(std::move(m));
    }
    if (n > 0 && (bases == nullptr || bits == nullptr || scratch == nullptr)) {
        std::string m = T::kName;
        m += "a null device pointer";
        return util::invalid_argument(std::move(m));
    }
    if (n > 0 && scratch_size < need) {
        std::string m = T::kName;
        m += "scratch of ";
        m += std::to_string(scratch_size);
        m += " bytes, ";
        m += std::to_string(need);
        m += " needed";
        return util::invalid_argument(std::move(m));
    }
    CUZK_CUDA_RETURN_IF_ERROR(T::launch(reinterpret_cast<const typename T::DAffine*>(bases), n,
                                        bits, T::shape(n, options.words_per_thread),
                                        static_cast<typename T::DXyzz*>(scratch),
                                        reinterpret_cast<typename T::DXyzz*>(result), stream));
    return util::Status();
}

// Bases already on the device; bits on the host. Synchronous.
template <class T>
util::Result<typename T::Jacobian> run(const typename T::Affine* d_bases, size_t n,
                                       std::span<const uint64_t> bits,
                                       const GpuBatchAddOptions& options) {
    const size_t words = (n + 63) / 64;
    if (bits.size() != words) {
        std::string m = T::kName;
        m += "bit vector has ";
        m += std::to_string(bits.size());
        m += " words, expected ";
        m += std::to_string(words);
        return util::invalid_argument(std::move(m));
    }
    CUZK_ASSIGN_OR_RETURN(const size_t scratch_size, scratch_bytes<T>(n, options));
    if (n == 0) return T::Jacobian::identity();
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_bits, DeviceBuffer::allocate(bits.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_result, DeviceBuffer::allocate(sizeof(typename T::Xyzz)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scratch, DeviceBuffer::allocate(scratch_size));
    CUZK_RETURN_IF_ERROR(d_bits.upload(bits.data(), bits.size_bytes()));
    CUZK_RETURN_IF_ERROR(enqueue<T>(d_bases, n, static_cast<const uint64_t*>(d_bits.data()),
                                    static_cast<typename T::Xyzz*>(d_result.data()),
                                    d_scratch.data(), scratch_size, nullptr, options));
    CUZK_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
    typename T::Xyzz sum;
    CUZK_RETURN_IF_ERROR(d_result.download(&sum, sizeof(sum)));
    return sum.to_jacobian();
}

// Host bases and bits: uploads the bases, then run().
template <class T>
util::Result<typename T::Jacobian> upload_and_run(std::span<const typename T::Affine> bases,
                                                  std::span<const uint64_t> bits,
                                                  const GpuBatchAddOptions& options) {
    if (bases.empty() || bits.size() != (bases.size() + 63) / 64)
        return run<T>(nullptr, bases.size(), bits, options);  // checks, or the empty sum
    CUZK_RETURN_IF_ERROR(check_size<T>(bases.size(), options));
    CUZK_RETURN_IF_ERROR(check_device_available());
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_bases, DeviceBuffer::allocate(bases.size_bytes()));
    CUZK_RETURN_IF_ERROR(d_bases.upload(bases.data(), bases.size_bytes()));
    return run<T>(static_cast<const typename T::Affine*>(d_bases.data()), bases.size(), bits,
                  options);
}

}  // namespace

util::Result<size_t> batch_add_scratch_bytes_g1(size_t n, const GpuBatchAddOptions& options) {
    return scratch_bytes<G1Traits>(n, options);
}
util::Status batch_add_g1(const ec::G1Affine* bases, size_t n, const uint64_t* bits,
                          ec::G1Xyzz* result, void* scratch, size_t scratch_size,
                          CUstream_st* stream, const GpuBatchAddOptions& options) {
    return enqueue<G1Traits>(bases, n, bits, result, scratch, scratch_size, stream, options);
}
util::Result<ec::G1Jacobian> batch_add_g1(const DeviceG1Bases& bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    return run<G1Traits>(bases.device_data(), bases.size(), bits, options);
}
util::Result<ec::G1Jacobian> batch_add_g1(std::span<const ec::G1Affine> bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    return upload_and_run<G1Traits>(bases, bits, options);
}

util::Result<size_t> batch_add_scratch_bytes_g2(size_t n, const GpuBatchAddOptions& options) {
    return scratch_bytes<G2Traits>(n, options);
}
util::Status batch_add_g2(const ec::G2Affine* bases, size_t n, const uint64_t* bits,
                          ec::G2Xyzz* result, void* scratch, size_t scratch_size,
                          CUstream_st* stream, const GpuBatchAddOptions& options) {
    return enqueue<G2Traits>(bases, n, bits, result, scratch, scratch_size, stream, options);
}
util::Result<ec::G2Jacobian> batch_add_g2(const DeviceG2Bases& bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    return run<G2Traits>(bases.device_data(), bases.size(), bits, options);
}
util::Result<ec::G2Jacobian> batch_add_g2(std::span<const ec::G2Affine> bases,
                                          std::span<const uint64_t> bits,
                                          const GpuBatchAddOptions& options) {
    return upload_and_run<G2Traits>(bases, bits, options);
}

}  // namespace cuzk::gpu
