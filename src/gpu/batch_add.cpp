// Host side of batch_add.hpp: argument checks, scratch sizing, launches, and the synchronous
// conveniences — one template over the curve, instantiated for G1 and G2.
#include "gpu/batch_add.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "gpu/batch_add_launch.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/msm_launch.hpp"
#include "gpu/msm_variant.hpp"

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
    using Curve = DeviceG1Curve;
    static constexpr size_t kFieldBytes = 48;
    static detail::BatchAddShape shape(size_t n, size_t wpt) {
        return detail::batch_add_shape_g1(n, wpt);
    }
    static detail::BatchAddShape sum_shape(size_t count) {
        return detail::batch_add_sum_shape_g1(count);
    }
    static cudaError_t launch(const DAffine* b, size_t n, const uint64_t* bits,
                              const detail::BatchAddShape& s, const GpuBatchAddOptions& o,
                              DXyzz* partial, DXyzz* result, cudaStream_t stream) {
        return detail::launch_batch_add_g1(b, n, bits, s, o.warp_compact, o.dedicated_square,
                                           partial, result, stream);
    }
    static cudaError_t sum(const DXyzz* in, size_t count, const detail::BatchAddShape& s,
                           DXyzz* partial, DXyzz* result, cudaStream_t stream) {
        return detail::launch_sum_points_g1(in, count, s, partial, result, stream);
    }
};
struct G2Traits {
    using Affine = ec::G2Affine;
    using Xyzz = ec::G2Xyzz;
    using Jacobian = ec::G2Jacobian;
    using DAffine = DeviceG2Affine;
    using DXyzz = DeviceG2Xyzz;
    static constexpr const char* kName = "gpu::batch_add_g2: ";
    using Curve = DeviceG2Curve;
    static constexpr size_t kFieldBytes = 96;
    static detail::BatchAddShape shape(size_t n, size_t wpt) {
        return detail::batch_add_shape_g2(n, wpt);
    }
    static detail::BatchAddShape sum_shape(size_t count) {
        return detail::batch_add_sum_shape_g2(count);
    }
    static cudaError_t launch(const DAffine* b, size_t n, const uint64_t* bits,
                              const detail::BatchAddShape& s, const GpuBatchAddOptions& o,
                              DXyzz* partial, DXyzz* result, cudaStream_t stream) {
        return detail::launch_batch_add_g2(b, n, bits, s, o.warp_compact, partial, result,
                                           stream);
    }
    static cudaError_t sum(const DXyzz* in, size_t count, const detail::BatchAddShape& s,
                           DXyzz* partial, DXyzz* result, cudaStream_t stream) {
        return detail::launch_sum_points_g2(in, count, s, partial, result, stream);
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

// The batch-affine method's scratch for n bases (every list sized for n selected), in order:
// the set bits' indices, the lane keys, the lane-major records (keys, values), the affine step's
// state, the lanes' sums, the bucket step's first/last pieces (never written: every lane is its
// own bucket), the sum's partials, the count, CUB's select storage.
struct AffineLayout {
    uint32_t chunk = 0;
    size_t lanes_max = 0, affine_bytes = 0, select_bytes = 0;
    size_t indices = 0, keys = 0, lane_keys = 0, lane_values = 0, affine = 0, sums = 0,
           first = 0, last = 0, partial = 0, count = 0, select = 0, total = 0;
};

template <class T>
util::Result<AffineLayout> affine_layout(size_t n, const GpuBatchAddOptions& options) {
    AffineLayout l;
    l.chunk = options.affine_chunk != 0 ? options.affine_chunk : 32;
    if (options.affine_chunk == 0)
        while ((n + l.chunk - 1) / l.chunk > kMaxBatchAddLanes) l.chunk *= 2;
    l.lanes_max = (n + l.chunk - 1) / l.chunk;
    if (l.lanes_max > kMaxBatchAddLanes) {
        std::string m = T::kName;
        m += "affine_chunk ";
        m += std::to_string(l.chunk);
        m += " leaves more than 2^24 lanes for ";
        m += std::to_string(n);
        m += " bases";
        return util::invalid_argument(std::move(m));
    }
    l.affine_bytes = detail::msm_affine_scratch_bytes(n, l.chunk, T::kFieldBytes);
    CUZK_CUDA_RETURN_IF_ERROR(detail::select_set_bits_temp_bytes(n, &l.select_bytes));
    const size_t lane_words = l.lanes_max * l.chunk;
    const size_t xyzz = sizeof(typename T::Xyzz);
    const size_t partials =
        std::max<size_t>(T::sum_shape(std::min(l.lanes_max, detail::kBatchAddTargetThreads)).blocks,
                         1);
    size_t at = 0;
    auto take = [&](size_t& offset, size_t bytes) {
        offset = at;
        at += (bytes + 255) / 256 * 256;
    };
    take(l.indices, n * 4);
    take(l.keys, n * 4);
    take(l.lane_keys, lane_words * 4);
    take(l.lane_values, lane_words * 4);
    take(l.affine, l.affine_bytes);
    take(l.sums, l.lanes_max * xyzz);
    take(l.first, l.lanes_max * xyzz);
    take(l.last, l.lanes_max * xyzz);
    take(l.partial, partials * xyzz);
    take(l.count, 4);
    take(l.select, l.select_bytes);
    l.total = at;
    return l;
}

template <class T>
util::Result<size_t> scratch_bytes(size_t n, const GpuBatchAddOptions& options) {
    CUZK_RETURN_IF_ERROR(check_size<T>(n, options));
    if (options.uses_batch_affine(n)) {
        CUZK_ASSIGN_OR_RETURN(const AffineLayout l, affine_layout<T>(n, options));
        return l.total;
    }
    const detail::BatchAddShape shape = T::shape(n, options.words_per_thread);
    return (shape.blocks > 0 ? shape.blocks : 1) * sizeof(typename T::Xyzz);
}

// The batch-affine method (batch_add.hpp): list, lanes, bucket step, tree.
template <class T>
util::Status enqueue_affine(const typename T::Affine* bases, size_t n, const uint64_t* bits,
                            typename T::Xyzz* result, void* scratch, CUstream_st* stream,
                            const GpuBatchAddOptions& options) {
    using DXyzz = typename T::DXyzz;
    CUZK_ASSIGN_OR_RETURN(const AffineLayout l, affine_layout<T>(n, options));
    auto* base = static_cast<uint8_t*>(scratch);
    auto* indices = reinterpret_cast<uint32_t*>(base + l.indices);
    auto* keys = reinterpret_cast<uint32_t*>(base + l.keys);
    auto* count = reinterpret_cast<uint32_t*>(base + l.count);
    auto* sums = reinterpret_cast<DXyzz*>(base + l.sums);
    auto* partial = reinterpret_cast<DXyzz*>(base + l.partial);
    auto* out = reinterpret_cast<DXyzz*>(result);
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_select_set_bits(base + l.select, l.select_bytes, bits,
                                                             n, indices, count, stream));
    uint32_t items = 0;
    CUZK_CUDA_RETURN_IF_ERROR(
        cudaMemcpyAsync(&items, count, sizeof(items), cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    if (items > n) {
        std::string m = T::kName;
        m += "the device counted more selected bases than there are";
        return util::internal_error(std::move(m));
    }
    const size_t lanes = (items + l.chunk - 1) / l.chunk;
    if (items > 0) {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_chunk_keys(keys, items, l.chunk, stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_fill_identity<typename T::Curve>(
            sums, static_cast<uint32_t>(lanes), stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate_affine<typename T::Curve>(
            reinterpret_cast<const typename T::DAffine*>(bases), keys, indices, items,
            static_cast<uint32_t>(lanes), l.chunk, sums, reinterpret_cast<DXyzz*>(base + l.first),
            reinterpret_cast<DXyzz*>(base + l.last), reinterpret_cast<uint32_t*>(base + l.lane_keys),
            reinterpret_cast<uint32_t*>(base + l.lane_values), base + l.affine, l.affine_bytes,
            detail::affine_variant(options.affine_step, std::is_same_v<T, G2Traits>), stream));
    }
    CUZK_CUDA_RETURN_IF_ERROR(T::sum(sums, lanes, T::sum_shape(lanes), partial, out, stream));
    return util::Status();
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
    if (options.uses_batch_affine(n))
        return enqueue_affine<T>(bases, n, bits, result, scratch, stream, options);
    CUZK_CUDA_RETURN_IF_ERROR(T::launch(reinterpret_cast<const typename T::DAffine*>(bases), n,
                                        bits, T::shape(n, options.words_per_thread), options,
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
