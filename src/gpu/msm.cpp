// Host side of msm.hpp: buffers, the launch sequence, the final window combination.
#include "gpu/msm.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/device_curve.cuh"
#include "gpu/msm_grid_launch.hpp"
#include "gpu/msm_launch.hpp"
#include "gpu/msm_variant.hpp"
#include "gpu/scratch_cache.hpp"
#include "msm/pippenger.hpp"
#include "util/timer.hpp"

namespace cuzk::gpu {

// Host buffers go to the device byte for byte: each host point type must have exactly the layout
// of its device counterpart, and the curve constants must agree (G1's b is asserted in
// ff_kernels.cpp).
template <class Host, class Device>
constexpr bool same_layout() {
    return sizeof(Host) == sizeof(Device) && alignof(Host) == alignof(Device) &&
           std::is_trivially_copyable_v<Host> && std::is_trivially_copyable_v<Device> &&
           std::is_standard_layout_v<Host> && std::is_standard_layout_v<Device>;
}
static_assert(same_layout<ff::Fp2, DeviceFp2>());
static_assert(same_layout<ec::G2Affine, DeviceG2Affine>());
static_assert(same_layout<ec::G2Xyzz, DeviceG2Xyzz>());
static_assert(same_layout<ec::G1Affine, DeviceG1Affine>());
static_assert(same_layout<ec::G1Xyzz, DeviceG1Xyzz>());
constexpr bool same_fp(const ff::Fp& h, const DeviceFp& d) {
    for (size_t i = 0; i < ff::Fp::kLimbs; ++i)
        if (h.limb[i] != d.limb[i]) return false;
    return true;
}
static_assert(same_fp(ec::G2Curve::b().c0, DeviceG2Curve::b().c0) &&
                  same_fp(ec::G2Curve::b().c1, DeviceG2Curve::b().c1),
              "G2: b = 4(1 + u) on both sides");

template <class Affine>
struct DeviceBases<Affine>::Buffer {
    DeviceBuffer memory;
};

template <class Affine>
DeviceBases<Affine>::DeviceBases() = default;
template <class Affine>
DeviceBases<Affine>::~DeviceBases() {
    delete buffer_;
}
template <class Affine>
DeviceBases<Affine>::DeviceBases(DeviceBases&& o) noexcept : buffer_(o.buffer_), size_(o.size_) {
    o.buffer_ = nullptr;
    o.size_ = 0;
}
template <class Affine>
DeviceBases<Affine>& DeviceBases<Affine>::operator=(DeviceBases&& o) noexcept {
    if (this != &o) {
        delete buffer_;
        buffer_ = o.buffer_;
        size_ = o.size_;
        o.buffer_ = nullptr;
        o.size_ = 0;
    }
    return *this;
}

template <class Affine>
util::Result<DeviceBases<Affine>> DeviceBases<Affine>::upload(std::span<const Affine> bases) {
    DeviceBases out;
    if (bases.empty()) return out;
    CUZK_RETURN_IF_ERROR(check_device_available());
    if (bases.size() >= detail::kNegativeFlag)
        return util::invalid_argument("gpu::DeviceBases: more than 2^31 - 1 bases");
    out.buffer_ = new Buffer;
    CUZK_ASSIGN_OR_RETURN(out.buffer_->memory, DeviceBuffer::allocate(bases.size_bytes()));
    CUZK_RETURN_IF_ERROR(out.buffer_->memory.upload(bases.data(), bases.size_bytes()));
    out.size_ = bases.size();
    return out;
}

template <class Affine>
const Affine* DeviceBases<Affine>::device_data() const {
    return buffer_ == nullptr ? nullptr : static_cast<const Affine*>(buffer_->memory.data());
}

template class DeviceBases<ec::G1Affine>;
template class DeviceBases<ec::G2Affine>;

namespace {

unsigned bit_length(uint64_t v) {
    return v == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(v));
}

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

unsigned default_batch_affine_chunk(size_t items, bool g2) {
    const size_t max_chunks = (g2 ? 6 : 24) * (size_t{1} << 20);
    for (unsigned chunk : {8u, 16u}) {
        if (items / chunk <= max_chunks) return chunk;
    }
    return 32;
}

MsmPlan plan_msm(const GpuMsmOptions& options, size_t n, bool g2) {
    MsmPlan plan;
    plan.window_bits = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    plan.windows = msm::kScalarBits / std::max(plan.window_bits, 1u) + 1;
    plan.batch_affine = options.uses_batch_affine(n, g2);
    if (!plan.batch_affine) {
        plan.chunk = options.chunk;
    } else if (options.batch_affine_chunk != 0) {
        plan.chunk = options.batch_affine_chunk;
    } else {
        plan.chunk = default_batch_affine_chunk(n * plan.windows, g2);
    }
    return plan;
}

namespace {

// The device and host point types that go with each host affine type.
template <class Affine>
struct MsmTypes;
template <>
struct MsmTypes<ec::G1Affine> {
    using DeviceCurve = DeviceG1Curve;
    using HostXyzz = ec::G1Xyzz;
    using HostJacobian = ec::G1Jacobian;
};
template <>
struct MsmTypes<ec::G2Affine> {
    using DeviceCurve = DeviceG2Curve;
    using HostXyzz = ec::G2Xyzz;
    using HostJacobian = ec::G2Jacobian;
};

// The scalars (and optional indices) of one call: host memory (checked here, uploaded per
// call) or device memory (checked by the digits kernel).
struct ScalarInput {
    const ff::BigInt<4>* scalars;
    const uint32_t* indices;  // null: scalar j multiplies base j
    size_t n;
    bool on_host;
};

util::Status invalid(const char* name, const std::string& what) {
    std::string m = name;
    m += ": ";
    m += what;
    return util::invalid_argument(std::move(m));
}

template <class Xyzz>
Xyzz sum_of(const std::vector<Xyzz>& points, size_t first, size_t count) {
    Xyzz s = Xyzz::identity();
    for (size_t i = 0; i < count; ++i) s += points[first + i];
    return s;
}

// The grid windows step (GpuMsmOptions::grid_running_sums). A window's h buckets as S rows of
// L (bucket b = s·L + i, L = 2^⌈log2(h) / 2⌉); its weighted sum is
//   Σ_b (b + 1)·B_b = L·Σ_s s·R_s + Σ_i (i + 1)·C_i,
// with R_s = Σ_i B_(s·L + i) the row sums and C_i = Σ_s B_(s·L + i) the column sums: two plain
// sums per bucket, where the running sums hold three points per thread and need a scalar
// multiple per segment. Launches (launch_grid_sums):
//   1. the rows in row_pieces interleaved pieces (piece p of row s: buckets s·L + p + k·pieces)
//      and the columns in col_pieces pieces of consecutive rows, as one launch of strided sums;
//   2. R and C from the pieces (one launch);
//   3. Σ_s s·R_s and Σ_i (i + 1)·C_i by the running-sum kernel (weight bases 0 and 1) over
//      segments of ≤ 16, and its segments' results added in groups of ≤ 8;
//   4. on the host, per window: L·(its groups of Σ s·R_s) + (its groups of Σ (i + 1)·C_i).
// Buffers: `partial` holds the row pieces (W·S·row_pieces points), the column pieces
// (W·col_pieces·L), R (W·S) and C (W·L); `grouped` the host's points (W·groups_r, then
// W·groups_c) and after them step 3's segment results.
struct GridPlan {
    uint32_t L = 1, S = 1, row_pieces = 1, col_pieces = 1;
    uint32_t seg_r = 1, seg_c = 1, group_r = 1, group_c = 1;
    unsigned log_l = 0;
    unsigned min_blocks = 0;  // of the strided sums (GpuMsmOptions::grid_min_blocks)

    uint32_t segments_r() const { return S / seg_r; }
    uint32_t segments_c() const { return L / seg_c; }
    uint32_t groups_r() const { return segments_r() / group_r; }
    uint32_t groups_c() const { return segments_c() / group_c; }
    size_t partial_points(unsigned w) const {
        return size_t{w} * (size_t{S} * row_pieces + size_t{col_pieces} * L + S + L);
    }
    size_t host_points(unsigned w) const { return size_t{w} * (groups_r() + groups_c()); }
    size_t segment_points(unsigned w) const { return size_t{w} * (segments_r() + segments_c()); }
    // S_j from the host's points of window j (step 4).
    template <class Xyzz>
    Xyzz window_sum(const std::vector<Xyzz>& host, unsigned w, unsigned j) const {
        Xyzz x = sum_of(host, size_t{j} * groups_r(), groups_r());
        for (unsigned i = 0; i < log_l; ++i) x = x.dbl();
        return x + sum_of(host, size_t{w} * groups_r() + size_t{j} * groups_c(), groups_c());
    }
};

// Pieces so that each of the two sums of step 1 has about `threads` threads (h a power of two).
GridPlan plan_grid(unsigned windows, uint32_t h, unsigned threads, unsigned min_blocks) {
    GridPlan g;
    g.min_blocks = min_blocks;
    g.log_l = bit_length(h) / 2;  // ⌈log2(h) / 2⌉: bit_length(h) = log2(h) + 1
    g.L = uint32_t{1} << g.log_l;
    g.S = h / g.L;
    // The largest power of two ≤ threads / outputs per piece (at least 1), at most `limit`.
    auto pieces = [&](uint32_t sums, uint32_t limit) {
        const size_t per = std::max<size_t>(threads / (size_t{windows} * sums), 1);
        return std::min(limit, uint32_t{1} << (bit_length(per) - 1));
    };
    g.row_pieces = pieces(g.S, g.L);
    g.col_pieces = pieces(g.L, g.S);
    g.seg_r = std::min<uint32_t>(g.S, 16);
    g.seg_c = std::min<uint32_t>(g.L, 16);
    g.group_r = std::min<uint32_t>(g.segments_r(), 8);
    g.group_c = std::min<uint32_t>(g.segments_c(), 8);
    return g;
}

template <class C>
util::Status launch_grid_sums(const GridPlan& g, const ec::Xyzz<C>* buckets, unsigned w,
                              ec::Xyzz<C>* partial, ec::Xyzz<C>* grouped, cudaStream_t stream) {
    using Sums = detail::StridedSums<C>;
    ec::Xyzz<C>* row_pieces = partial;
    ec::Xyzz<C>* col_pieces = row_pieces + size_t{w} * g.S * g.row_pieces;
    ec::Xyzz<C>* rows = col_pieces + size_t{w} * g.col_pieces * g.L;
    ec::Xyzz<C>* cols = rows + size_t{w} * g.S;
    const Sums row_job{buckets, row_pieces, w * g.S * g.row_pieces, g.row_pieces, g.row_pieces,
                       g.L / g.row_pieces, g.L};
    const Sums col_job{buckets, col_pieces, w * g.col_pieces * g.L, g.L, g.L, g.S / g.col_pieces,
                       size_t{g.S / g.col_pieces} * g.L};
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_msm_strided_sums(row_job, col_job, g.min_blocks, stream));
    const Sums r_job{row_pieces, rows, w * g.S, 1, 1, g.row_pieces, g.row_pieces};
    const Sums c_job{col_pieces, cols, w * g.L, g.L, g.L, g.col_pieces, size_t{g.col_pieces} * g.L};
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_strided_sums(r_job, c_job, g.min_blocks, stream));
    ec::Xyzz<C>* seg_r = grouped + g.host_points(w);
    ec::Xyzz<C>* seg_c = seg_r + size_t{w} * g.segments_r();
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_msm_aggregate(rows, w, g.S, g.seg_r, 0, seg_r, stream));
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_msm_aggregate(cols, w, g.L, g.seg_c, 1, seg_c, stream));
    CUZK_CUDA_RETURN_IF_ERROR(
        detail::launch_msm_sum_groups(seg_r, w, g.groups_r(), g.group_r, grouped, stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_sum_groups(
        seg_c, w, g.groups_c(), g.group_c, grouped + size_t{w} * g.groups_r(), stream));
    return util::Status();
}

// DeviceC: the device curve whose kernels run (for G2 either Fp2 product; same layout).
template <class Affine, class DeviceC>
util::Result<typename MsmTypes<Affine>::HostJacobian> run_msm_on(const Affine* bases,
                                                                 size_t num_bases, ScalarInput in,
                                                                 const GpuMsmOptions& options,
                                                                 GpuMsmTimings* timings,
                                                                 const char* name) {
    using DeviceAffine = ec::Affine<DeviceC>;
    using DeviceXyzz = ec::Xyzz<DeviceC>;
    static_assert(same_layout<Affine, DeviceAffine>());
    using HostXyzz = typename MsmTypes<Affine>::HostXyzz;
    using HostJacobian = typename MsmTypes<Affine>::HostJacobian;
    util::Stopwatch total;
    const size_t n = in.n;
    if (in.indices == nullptr && n > num_bases) {
        std::string m = std::to_string(n);
        m += " scalars but only ";
        m += std::to_string(num_bases);
        m += " bases";
        return invalid(name, m);
    }
    if (num_bases >= detail::kNegativeFlag || n >= detail::kNegativeFlag)
        return invalid(name, "2^31 or more bases or scalars");
    if (in.on_host) {
        for (size_t j = 0; j < n; ++j)
            if (in.scalars[j].limb[3] >> 63) return invalid(name, "a scalar is not below 2^255");
        if (in.indices != nullptr) {
            for (size_t j = 0; j < n; ++j) {
                if (in.indices[j] >= num_bases) {
                    std::string m = "index ";
                    m += std::to_string(in.indices[j]);
                    m += " (scalar ";
                    m += std::to_string(j);
                    m += ") is not below the number of bases ";
                    m += std::to_string(num_bases);
                    return invalid(name, m);
                }
            }
        }
    }
    if (n == 0) {
        if (timings != nullptr) *timings = GpuMsmTimings{};
        return HostJacobian::identity();
    }
    if (bases == nullptr || num_bases == 0) return invalid(name, "no bases");
    if (in.scalars == nullptr) return invalid(name, "no scalars");
    const MsmPlan plan = plan_msm(options, n, std::is_same_v<Affine, ec::G2Affine>);
    const unsigned c = plan.window_bits;
    if (options.chunk == 0 || options.chunk > 4096) return invalid(name, "chunk must be 1..4096");
    if (options.batch_affine_chunk > 4096)
        return invalid(name, "batch_affine_chunk (env CUZK_MSM_BATCH_AFFINE_CHUNK) must be 0..4096");
    const unsigned chunk = plan.chunk;
    const bool batch_affine = plan.batch_affine;
    if (options.accumulate_min_blocks != 0 && options.accumulate_min_blocks != 3 &&
        options.accumulate_min_blocks != 4)
        return invalid(name, "accumulate_min_blocks (env CUZK_MSM_MIN_BLOCKS) must be 0, 3 or 4");
    if (options.batch_affine_parts == 0 || options.batch_affine_parts > detail::kMaxAffineParts)
        return invalid(name, "batch_affine_parts (env CUZK_MSM_BATCH_AFFINE_PARTS) must be 1.." +
                                 std::to_string(detail::kMaxAffineParts));
    if (options.accumulate_block != 32 && options.accumulate_block != 64 &&
        options.accumulate_block != 128)
        return invalid(name,
                       "accumulate_block (env CUZK_MSM_ACCUMULATE_BLOCK) must be 32, 64 or 128");
    if (c < 1 || c > GpuMsmOptions::kMaxWindowBits) {
        std::string m = "window_bits must be 1..";
        m += std::to_string(GpuMsmOptions::kMaxWindowBits);
        return invalid(name, m);
    }
    const unsigned windows = plan.windows;
    const uint32_t h = uint32_t{1} << (c - 1);
    const uint32_t num_keys = windows * h;
    const size_t items = n * windows;
    if (items > UINT32_MAX) return invalid(name, "scalars × windows must stay below 2^32");
    const unsigned key_bits = bit_length(num_keys);  // the empty key W·h included
    // Segments: at least options.aggregate_threads aggregation threads where segments of ≥ 16
    // buckets allow it (a divisor of h); then the segments' sums are added up on the GPU in
    // groups of up to 64, so that the host adds windows × groups points.
    if (options.aggregate_threads == 0) return invalid(name, "aggregate_threads must be >= 1");
    if (options.grid_min_blocks != 0 && options.grid_min_blocks != 6 &&
        options.grid_min_blocks != 8)
        return invalid(name, "grid_min_blocks (CUZK_MSM_GRID_MIN_BLOCKS) must be 0, 6 or 8");
    uint32_t segment_len = h;
    while (segment_len > 16 && size_t{windows} * (h / segment_len) < options.aggregate_threads)
        segment_len /= 2;
    const uint32_t segments = h / segment_len;
    const uint32_t group = std::min<uint32_t>(segments, 64);
    const uint32_t groups = segments / group;
    const GridPlan grid = options.grid_running_sums
                              ? plan_grid(windows, h, options.aggregate_threads,
                                          options.grid_min_blocks)
                              : GridPlan{};

    size_t sort_temp = 0;
    CUZK_CUDA_RETURN_IF_ERROR(detail::msm_sort_temp_bytes(items, &sort_temp));
    // The temporaries: from the stream-ordered pool (GpuMsmOptions::pool_scratch), from
    // the scratch cache (cache_scratch; back to it once the call has synchronised), or cudaMalloc.
    const cudaStream_t stream = options.stream;
    ScratchLeases scratch(options.pool_scratch    ? ScratchSource::kPool
                          : options.cache_scratch ? ScratchSource::kCache
                                                  : ScratchSource::kAllocate,
                          stream);
    DeviceBuffer* d_scalars = nullptr;
    DeviceBuffer* d_indices = nullptr;
    if (in.on_host) {
        CUZK_ASSIGN_OR_RETURN(d_scalars, scratch.take(n * sizeof(ff::BigInt<4>)));
        if (in.indices != nullptr) {
            CUZK_ASSIGN_OR_RETURN(d_indices, scratch.take(n * sizeof(uint32_t)));
        }
    }
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * error_word, scratch.take(sizeof(uint32_t)));
    // The sorted keys, then the sorted values.
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* sorted_pairs, scratch.take(items * 8));
    auto* keys_sorted = static_cast<uint32_t*>(sorted_pairs->data());
    uint32_t* values_sorted = keys_sorted + items;
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* temp, scratch.take(std::max<size_t>(sort_temp, 1)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * ranges, scratch.take(size_t{num_keys} * 8));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* buckets,
                          scratch.take(size_t{num_keys} * sizeof(DeviceXyzz)));
    const size_t chunks = (items + chunk - 1) / chunk;
    const size_t affine_scratch =
        batch_affine ? detail::msm_affine_scratch_bytes(items, chunk,
                                                        sizeof(typename DeviceAffine::F))
                     : 0;
    // The unsorted pairs' buffers hold the batch-affine lane records afterwards: whole chunks.
    const size_t pair_capacity = batch_affine ? chunks * chunk : items;
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* keys, scratch.take(pair_capacity * 4));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* values, scratch.take(pair_capacity * 4));
    // The batch-affine scratch reuses the sorted pairs where they are large enough (G1 in
    // chunks of 32: 4.5 of their 8 bytes per item), since the accumulation reads them only in its
    // first kernel; a 32 GiB partition's H MSM (2^27 scalars) has no room for 8 GiB more.
    void* affine_scratch_at = sorted_pairs->data();
    if (batch_affine && affine_scratch > sorted_pairs->size()) {
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer* affine_buffer, scratch.take(affine_scratch));
        affine_scratch_at = affine_buffer->data();
    }
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer* pieces,
                          scratch.take(2 * std::max<size_t>(chunks, 1) * sizeof(DeviceXyzz)));
    // The windows step's outputs: the segments' sums (partial) and the groups' (grouped, what
    // the host reads); or the grid's pieces, row and column sums (partial) and the host's points
    // followed by its two weighted sums' segments (grouped).
    const bool use_grid = options.grid_running_sums;
    const size_t partial_points =
        use_grid ? grid.partial_points(windows) : size_t{windows} * segments;
    const size_t host_points = use_grid ? grid.host_points(windows) : size_t{windows} * groups;
    const size_t grouped_points = host_points + (use_grid ? grid.segment_points(windows) : 0);
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * partial,
                          scratch.take(partial_points * sizeof(DeviceXyzz)));
    CUZK_ASSIGN_OR_RETURN(DeviceBuffer * grouped,
                          scratch.take(grouped_points * sizeof(DeviceXyzz)));

    cudaEvent_t ev[6] = {};
    for (cudaEvent_t& e : ev) CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&e));
    struct Destroy {
        cudaEvent_t* ev;
        ~Destroy() {
            for (int i = 0; i < 6; ++i) (void)cudaEventDestroy(ev[i]);
        }
    } destroy{ev};
    uint32_t* start = static_cast<uint32_t*>(ranges->data());
    uint32_t* end = start + num_keys;
    const void* scalars_on_device = in.scalars;
    const void* indices_on_device = in.indices;

    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[0], stream));
    if (in.on_host) {
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_scalars->data(), in.scalars,
                                                  n * sizeof(ff::BigInt<4>),
                                                  cudaMemcpyHostToDevice, stream));
        scalars_on_device = d_scalars->data();
        if (in.indices != nullptr) {
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_indices->data(), in.indices,
                                                      n * sizeof(uint32_t),
                                                      cudaMemcpyHostToDevice, stream));
            indices_on_device = d_indices->data();
        }
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[1], stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(error_word->data(), 0, sizeof(uint32_t), stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_digits(
        static_cast<const uint64_t*>(scalars_on_device),
        static_cast<const uint32_t*>(indices_on_device), n, static_cast<uint32_t>(num_bases), c,
        windows, static_cast<uint32_t*>(keys->data()), static_cast<uint32_t*>(values->data()),
        static_cast<uint32_t*>(error_word->data()), stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[2], stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_sort(
        temp->data(), sort_temp, static_cast<const uint32_t*>(keys->data()),
        keys_sorted, static_cast<const uint32_t*>(values->data()), values_sorted, items, key_bits,
        stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(ranges->data(), 0, ranges->size(), stream));
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_bucket_ranges(
        keys_sorted, items, num_keys, start, end, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[3], stream));
    DeviceXyzz* first = static_cast<DeviceXyzz*>(pieces->data());
    DeviceXyzz* last = first + std::max<size_t>(chunks, 1);
    DeviceXyzz* bucket_points = static_cast<DeviceXyzz*>(buckets->data());
    const auto* device_bases = reinterpret_cast<const DeviceAffine*>(bases);
    const uint32_t* sorted_keys = keys_sorted;
    const uint32_t* sorted_values = values_sorted;
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_fill_identity(bucket_points, num_keys, stream));
    if (batch_affine) {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate_affine(
            device_bases, sorted_keys, sorted_values, items, num_keys, chunk, bucket_points,
            first, last, static_cast<uint32_t*>(keys->data()),
            static_cast<uint32_t*>(values->data()), affine_scratch_at, affine_scratch,
            detail::affine_variant(options, std::is_same_v<Affine, ec::G2Affine>), stream));
    } else {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate(
            device_bases, sorted_keys, sorted_values, items, num_keys, chunk, bucket_points,
            first, last,
            detail::AccumulateVariant{std::is_same_v<Affine, ec::G2Affine>
                                          ? options.prefetch_next_base_g2
                                          : options.prefetch_next_base,
                                      options.accumulate_min_blocks, options.accumulate_block},
            stream));
    }
    CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_combine(start, end, num_keys, chunk,
                                                         first, last, bucket_points, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[4], stream));
    if (use_grid) {
        CUZK_RETURN_IF_ERROR(launch_grid_sums(grid, bucket_points, windows,
                                              static_cast<DeviceXyzz*>(partial->data()),
                                              static_cast<DeviceXyzz*>(grouped->data()), stream));
    } else if (options.split_running_sums) {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_aggregate_split(
            bucket_points, windows, h, segment_len, groups, group,
            static_cast<DeviceXyzz*>(partial->data()), static_cast<DeviceXyzz*>(grouped->data()),
            stream));
    } else {
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_aggregate(
            static_cast<const DeviceXyzz*>(buckets->data()), windows, h, segment_len, 1,
            static_cast<DeviceXyzz*>(partial->data()), stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_sum_groups(
            static_cast<const DeviceXyzz*>(partial->data()), windows, groups, group,
            static_cast<DeviceXyzz*>(grouped->data()), stream));
    }
    std::vector<HostXyzz> host_partial(host_points);
    uint32_t error_bits = 0;
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(host_partial.data(), grouped->data(),
                                              host_partial.size() * sizeof(HostXyzz),
                                              cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(&error_bits, error_word->data(), sizeof(uint32_t),
                                              cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    scratch.keep();  // idle now
    if (error_bits & detail::kErrorScalarTooLarge)
        return invalid(name, "a device scalar is not below 2^255");
    if (error_bits & detail::kErrorIndexOutOfRange)
        return invalid(name, "a device index is not below the number of bases");
    // Σ_j 2^(c·j)·S_j, highest window first.
    HostJacobian acc = HostJacobian::identity();
    for (unsigned j = windows; j-- > 0;) {
        for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        acc += (use_grid ? grid.window_sum(host_partial, windows, j)
                         : sum_of(host_partial, size_t{j} * groups, groups))
                   .to_jacobian();
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

// run_msm_on with the kernels GpuMsmOptions::g2_lazy_product selects for G2.
template <class Affine>
util::Result<typename MsmTypes<Affine>::HostJacobian> run_msm(const Affine* bases, size_t num_bases,
                                                              ScalarInput in,
                                                              const GpuMsmOptions& options,
                                                              GpuMsmTimings* timings,
                                                              const char* name) {
    if constexpr (std::is_same_v<Affine, ec::G2Affine>) {
        if (options.g2_lazy_product)
            return run_msm_on<Affine, DeviceG2LazyCurve>(bases, num_bases, in, options,
                                                              timings, name);
    }
    return run_msm_on<Affine, typename MsmTypes<Affine>::DeviceCurve>(bases, num_bases, in,
                                                                      options, timings, name);
}

// Σ scalars[i]·bases[i] with host scalars: the counts must match.
template <class Affine>
util::Result<typename MsmTypes<Affine>::HostJacobian> run_plain(
    const DeviceBases<Affine>& bases, std::span<const ff::BigInt<4>> scalars,
    const GpuMsmOptions& options, GpuMsmTimings* timings, const char* name) {
    if (scalars.size() != bases.size()) {
        std::string m = std::to_string(bases.size());
        m += " bases but ";
        m += std::to_string(scalars.size());
        m += " scalars";
        return invalid(name, m);
    }
    return run_msm<Affine>(bases.device_data(), bases.size(),
                           {scalars.data(), nullptr, scalars.size(), true}, options, timings, name);
}

template <class Affine>
util::Result<typename MsmTypes<Affine>::HostJacobian> run_indexed(
    const DeviceBases<Affine>& bases, std::span<const ff::BigInt<4>> scalars,
    std::span<const uint32_t> indices, const GpuMsmOptions& options, GpuMsmTimings* timings,
    const char* name) {
    if (scalars.size() != indices.size()) {
        std::string m = std::to_string(scalars.size());
        m += " scalars but ";
        m += std::to_string(indices.size());
        m += " indices";
        return invalid(name, m);
    }
    return run_msm<Affine>(bases.device_data(), bases.size(),
                           {scalars.data(), indices.data(), scalars.size(), true}, options, timings,
                           name);
}

}  // namespace

util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options, GpuMsmTimings* timings) {
    return run_plain(bases, scalars, options, timings, "gpu::msm_g1");
}
util::Result<ec::G2Jacobian> msm_g2(const DeviceG2Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    const GpuMsmOptions& options, GpuMsmTimings* timings) {
    return run_plain(bases, scalars, options, timings, "gpu::msm_g2");
}
util::Result<ec::G1Jacobian> msm_g1(const DeviceG1Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    std::span<const uint32_t> indices, const GpuMsmOptions& options,
                                    GpuMsmTimings* timings) {
    return run_indexed(bases, scalars, indices, options, timings, "gpu::msm_g1");
}
util::Result<ec::G2Jacobian> msm_g2(const DeviceG2Bases& bases,
                                    std::span<const ff::BigInt<4>> scalars,
                                    std::span<const uint32_t> indices, const GpuMsmOptions& options,
                                    GpuMsmTimings* timings) {
    return run_indexed(bases, scalars, indices, options, timings, "gpu::msm_g2");
}
util::Result<ec::G1Jacobian> msm_g1_device(const ec::G1Affine* bases, size_t num_bases,
                                           const ff::BigInt<4>* scalars, const uint32_t* indices,
                                           size_t n, const GpuMsmOptions& options,
                                           GpuMsmTimings* timings) {
    return run_msm<ec::G1Affine>(bases, num_bases, {scalars, indices, n, false}, options, timings,
                                 "gpu::msm_g1_device");
}
util::Result<ec::G2Jacobian> msm_g2_device(const ec::G2Affine* bases, size_t num_bases,
                                           const ff::BigInt<4>* scalars, const uint32_t* indices,
                                           size_t n, const GpuMsmOptions& options,
                                           GpuMsmTimings* timings) {
    return run_msm<ec::G2Affine>(bases, num_bases, {scalars, indices, n, false}, options, timings,
                                 "gpu::msm_g2_device");
}

namespace {

template <class Affine>
util::Result<typename MsmTypes<Affine>::HostJacobian> run_convenience(
    std::span<const Affine> bases, std::span<const ff::Fr> scalars, const GpuMsmOptions& options,
    const char* name) {
    if (bases.size() != scalars.size()) return invalid(name, "bases and scalars differ in length");
    std::vector<ff::BigInt<4>> k(scalars.size());
    for (size_t i = 0; i < k.size(); ++i) k[i] = scalars[i].to_int();
    CUZK_ASSIGN_OR_RETURN(DeviceBases<Affine> dev, DeviceBases<Affine>::upload(bases));
    return run_plain(dev, k, options, nullptr, name);
}

}  // namespace

util::Result<ec::G1Jacobian> msm_g1(std::span<const ec::G1Affine> bases,
                                    std::span<const ff::Fr> scalars, const GpuMsmOptions& options) {
    return run_convenience(bases, scalars, options, "gpu::msm_g1");
}
util::Result<ec::G2Jacobian> msm_g2(std::span<const ec::G2Affine> bases,
                                    std::span<const ff::Fr> scalars, const GpuMsmOptions& options) {
    return run_convenience(bases, scalars, options, "gpu::msm_g2");
}

}  // namespace cuzk::gpu
