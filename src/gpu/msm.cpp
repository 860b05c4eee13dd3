// Host side of msm.hpp: buffers, the launch sequence, the final window combination.
#include "gpu/msm.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/msm_launch.hpp"
#include "msm/pippenger.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

struct DeviceG1Bases::Buffer {
    DeviceBuffer memory;
};

DeviceG1Bases::DeviceG1Bases() = default;
DeviceG1Bases::~DeviceG1Bases() { delete buffer_; }
DeviceG1Bases::DeviceG1Bases(DeviceG1Bases&& o) noexcept : buffer_(o.buffer_), size_(o.size_) {
    o.buffer_ = nullptr;
    o.size_ = 0;
}
DeviceG1Bases& DeviceG1Bases::operator=(DeviceG1Bases&& o) noexcept {
    if (this != &o) {
        delete buffer_;
        buffer_ = o.buffer_;
        size_ = o.size_;
        o.buffer_ = nullptr;
        o.size_ = 0;
    }
    return *this;
}

util::Result<DeviceG1Bases> DeviceG1Bases::upload(std::span<const ec::G1Affine> bases) {
    DeviceG1Bases out;
    if (bases.empty()) return out;
    CUZK_RETURN_IF_ERROR(check_device_available());
    if (bases.size() >= detail::kNegativeFlag)
        return util::invalid_argument("gpu::DeviceG1Bases: more than 2^31 - 1 bases");
    out.buffer_ = new Buffer;
    CUZK_ASSIGN_OR_RETURN(out.buffer_->memory, DeviceBuffer::allocate(bases.size_bytes()));
    CUZK_RETURN_IF_ERROR(out.buffer_->memory.upload(bases.data(), bases.size_bytes()));
    out.size_ = bases.size();
    return out;
}

const ec::G1Affine* DeviceG1Bases::device_data() const {
    return buffer_ == nullptr ? nullptr : static_cast<const ec::G1Affine*>(buffer_->memory.data());
}

namespace {

unsigned bit_length(uint64_t v) { return v == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(v)); }

// Elapsed ms between two recorded events.
util::Result<double> elapsed(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, a, b));
    return static_cast<double>(ms);
}

}  // namespace

unsigned default_window_bits(size_t n) {
    if (n < (size_t{1} << 12)) return std::min(msm::default_window_bits(n), 8u);
    if (n < (size_t{1} << 18)) return 13;
    if (n < (size_t{1} << 23)) return 16;
    return 20;
}

util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options, GpuMsmTimings* timings) {
    util::Stopwatch total;
    const size_t n = bases.size();
    if (scalars.size() != n) {
        std::string m = "gpu::msm_g1: ";
        m += std::to_string(n);
        m += " bases but ";
        m += std::to_string(scalars.size());
        m += " scalars";
        return util::invalid_argument(std::move(m));
    }
    for (const ff::BigInt<4>& k : scalars)
        if (k.limb[3] >> 63) return util::invalid_argument("gpu::msm_g1: a scalar is not below 2^255");
    if (n == 0) return ec::G1Jacobian::identity();
    const unsigned c = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    if (options.chunk == 0 || options.chunk > 4096)
        return util::invalid_argument("gpu::msm_g1: chunk must be 1..4096");
    if (c < 1 || c > GpuMsmOptions::kMaxWindowBits)
        return util::invalid_argument("gpu::msm_g1: window_bits must be 1.." +
                                      std::to_string(GpuMsmOptions::kMaxWindowBits));
    const unsigned windows = msm::kScalarBits / c + 1;
    const uint32_t h = uint32_t{1} << (c - 1);
    const uint32_t num_keys = windows * h;
    const size_t items = n * windows;
    const unsigned key_bits = bit_length(num_keys);  // the empty key W·h included
    // Segments: ~8 K aggregation threads, segments of ≥ 16 buckets, a divisor of h.
    uint32_t segment_len = h;
    while (segment_len > 16 && size_t{windows} * (h / segment_len) < 8192) segment_len /= 2;
    const uint32_t segments = h / segment_len;

    size_t sort_temp = 0;
    CUZK_CUDA_RETURN_IF_ERROR(detail::msm_sort_temp_bytes(items, &sort_temp));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer d_scalars, DeviceBuffer::allocate(scalars.size_bytes()));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer keys, DeviceBuffer::allocate(items * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer values, DeviceBuffer::allocate(items * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer keys_sorted, DeviceBuffer::allocate(items * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer values_sorted, DeviceBuffer::allocate(items * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer temp, DeviceBuffer::allocate(std::max<size_t>(sort_temp, 1)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer ranges, DeviceBuffer::allocate(size_t{num_keys} * 8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer buckets,
                          DeviceBuffer::allocate(size_t{num_keys} * sizeof(DeviceG1Xyzz)));
    const size_t chunks = (items + options.chunk - 1) / options.chunk;
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer pieces,
                          DeviceBuffer::allocate(2 * std::max<size_t>(chunks, 1) *
                                                 sizeof(DeviceG1Xyzz)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer partial,
                          DeviceBuffer::allocate(size_t{windows} * segments * sizeof(DeviceG1Xyzz)));

    cudaEvent_t ev[6] = {};
    for (cudaEvent_t& e : ev) CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&e));
    struct Destroy {
        cudaEvent_t* ev;
        ~Destroy() {
            for (int i = 0; i < 6; ++i) (void)cudaEventDestroy(ev[i]);
        }
    } destroy{ev};
    const cudaStream_t stream = nullptr;
    uint32_t* start = static_cast<uint32_t*>(ranges.data());
    uint32_t* end = start + num_keys;

    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[0], stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_scalars.data(), scalars.data(), scalars.size_bytes(),
                                              cudaMemcpyHostToDevice, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[1], stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_digits(
        static_cast<const uint64_t*>(d_scalars.data()), n, c, windows,
        static_cast<uint32_t*>(keys.data()), static_cast<uint32_t*>(values.data()), stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[2], stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_sort(
        temp.data(), sort_temp, static_cast<const uint32_t*>(keys.data()),
        static_cast<uint32_t*>(keys_sorted.data()), static_cast<const uint32_t*>(values.data()),
        static_cast<uint32_t*>(values_sorted.data()), items, key_bits, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(ranges.data(), 0, ranges.size(), stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_bucket_ranges(
        static_cast<const uint32_t*>(keys_sorted.data()), items, num_keys, start, end, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[3], stream));
    DeviceG1Xyzz* first = static_cast<DeviceG1Xyzz*>(pieces.data());
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate_g1(
        reinterpret_cast<const DeviceG1Affine*>(bases.device_data()),
        static_cast<const uint32_t*>(keys_sorted.data()),
        static_cast<const uint32_t*>(values_sorted.data()), items, start, end, num_keys,
        options.chunk, static_cast<DeviceG1Xyzz*>(buckets.data()), first,
        first + std::max<size_t>(chunks, 1), stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[4], stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_aggregate_g1(
        static_cast<const DeviceG1Xyzz*>(buckets.data()), windows, h, segment_len,
        static_cast<DeviceG1Xyzz*>(partial.data()), stream));
    std::vector<ec::G1Xyzz> host_partial(size_t{windows} * segments);
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(host_partial.data(), partial.data(),
                                              host_partial.size() * sizeof(ec::G1Xyzz),
                                              cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    // Σ_j 2^(c·j)·S_j, highest window first.
    ec::G1Jacobian acc = ec::G1Jacobian::identity();
    for (unsigned j = windows; j-- > 0;) {
        for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        ec::G1Xyzz s = ec::G1Xyzz::identity();
        for (uint32_t seg = 0; seg < segments; ++seg) s += host_partial[size_t{j} * segments + seg];
        acc += s.to_jacobian();
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[5], stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(ev[5]));
    if (timings != nullptr) {
        CUZK_ASSIGN_OR_RETURN(timings->upload, elapsed(ev[0], ev[1]));
        CUZK_ASSIGN_OR_RETURN(timings->digits, elapsed(ev[1], ev[2]));
        CUZK_ASSIGN_OR_RETURN(timings->sort, elapsed(ev[2], ev[3]));
        CUZK_ASSIGN_OR_RETURN(timings->buckets, elapsed(ev[3], ev[4]));
        CUZK_ASSIGN_OR_RETURN(timings->windows, elapsed(ev[4], ev[5]));
        timings->total = total.elapsed_ms();
    }
    return acc;
}

util::Result<ec::G1Jacobian> msm_g1(std::span<const ec::G1Affine> bases,
                                    std::span<const ff::Fr> scalars,
                                    const GpuMsmOptions& options) {
    if (bases.size() != scalars.size())
        return util::invalid_argument("gpu::msm_g1: bases and scalars differ in length");
    std::vector<ff::BigInt<4>> k(scalars.size());
    for (size_t i = 0; i < k.size(); ++i) k[i] = scalars[i].to_int();
    CUZK_ASSIGN_OR_RETURN(DeviceG1Bases dev, DeviceG1Bases::upload(bases));
    return msm_g1(dev, k, options);
}

}  // namespace cuzk::gpu
