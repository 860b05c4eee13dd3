// Host side of msm.hpp: buffers, the launch sequence, the final window combination.
#include "gpu/msm.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <span>
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

MsmPlan plan_msm(const GpuMsmOptions& options, size_t n, bool g2, unsigned windows_per_pass) {
    MsmPlan plan;
    plan.window_bits = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    plan.windows = msm::kScalarBits / std::max(plan.window_bits, 1u) + 1;
    if (windows_per_pass == 0) windows_per_pass = options.windows_per_pass;
    plan.windows_per_pass = windows_per_pass == 0 ? plan.windows
                                                  : std::min(windows_per_pass, plan.windows);
    plan.batch_affine = options.uses_batch_affine(n, g2);
    if (!plan.batch_affine) {
        plan.chunk = options.chunk;
    } else if (options.batch_affine_chunk != 0) {
        plan.chunk = options.batch_affine_chunk;
    } else {
        // From all the call's items, not one pass's: shorter chunks for a pass's fewer items
        // would take more bytes per item (pieces and lane scratch: ~90 at 8, ~40 at 32 for
        // G1), against the reason for passes.
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
Xyzz sum_of(std::span<const Xyzz> points, size_t first, size_t count) {
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
    Xyzz window_sum(std::span<const Xyzz> host, unsigned w, unsigned j) const {
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

// The options' checks that do not depend on the call's size.
util::Status check_msm_options(const GpuMsmOptions& options, const char* name) {
    if (options.chunk == 0 || options.chunk > 4096) return invalid(name, "chunk must be 1..4096");
    if (options.batch_affine_chunk > 4096)
        return invalid(name, "batch_affine_chunk (env CUZK_MSM_BATCH_AFFINE_CHUNK) must be 0..4096");
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
    if (options.aggregate_threads == 0) return invalid(name, "aggregate_threads must be >= 1");
    auto bad_grid_bound = [](unsigned b) { return b != 0 && b != 6 && b != 8; };
    if (bad_grid_bound(options.grid_min_blocks))
        return invalid(name, "grid_min_blocks (CUZK_MSM_GRID_MIN_BLOCKS) must be 0, 6 or 8");
    if (bad_grid_bound(options.grid_min_blocks_g2))
        return invalid(name, "grid_min_blocks_g2 (CUZK_MSM_GRID_MIN_BLOCKS_G2) must be 0, 6 or 8");
    return util::Status();
}

// Everything about one call that follows from its size and windows per pass: the plan, one
// pass's geometry (the last pass may have fewer windows and uses the same buffers), and the
// bytes of every temporary — chosen here once, for the memory estimate and the allocation alike.
struct PassLayout {
    MsmPlan plan;
    uint32_t h = 1;         // buckets per window: 2^(c−1)
    uint32_t num_keys = 1;  // windows_per_pass · h
    size_t items = 0;       // n · windows_per_pass
    // The running sums' segments (at least options.aggregate_threads threads where segments of
    // ≥ 16 buckets allow it; a divisor of h), added up on the GPU in groups of up to 64, so
    // that the host adds windows × groups points; or the grid's plan.
    uint32_t segment_len = 1, segments = 1, group = 1, groups = 1;
    bool use_grid = false;
    GridPlan grid;
    size_t chunks = 1;         // ⌈items / chunk⌉
    size_t pair_capacity = 0;  // words in each of the unsorted key and value buffers
    // Bytes: device copies of host scalars and indices (0 for device inputs), the sorted
    // pairs (keys then values), the sort's scratch, the bucket ranges, the buckets, the
    // batch-affine scratch in a buffer of its own (0 where it reuses the sorted pairs), the
    // chunks' first/last pieces, and the windows step's partial and grouped points.
    size_t scalar_bytes = 0, index_bytes = 0, sorted_pair_bytes = 0, sort_temp_bytes = 0,
           range_bytes = 0, bucket_bytes = 0, affine_bytes = 0, own_affine_bytes = 0,
           piece_bytes = 0, partial_bytes = 0, grouped_bytes = 0;

    // Points the host reads after a pass of w windows.
    size_t host_points(unsigned w) const {
        return use_grid ? grid.host_points(w) : size_t{w} * groups;
    }
    size_t total_bytes() const {
        // Every buffer rounded up to 2 MiB, the pool's granularity at these sizes.
        size_t sum = 0;
        for (size_t b : {scalar_bytes, index_bytes, sizeof(uint32_t), sorted_pair_bytes,
                         sort_temp_bytes, range_bytes, bucket_bytes, pair_capacity * 4,
                         pair_capacity * 4, own_affine_bytes, piece_bytes, partial_bytes,
                         grouped_bytes})
            sum += (b + (size_t{2} << 20) - 1) & ~((size_t{2} << 20) - 1);
        return sum;
    }
};

// The layout of a call of n scalars with `windows_per_pass` windows per pass (0: the plan's
// own), for points of xyzz_bytes and base-field elements of field_bytes.
util::Result<PassLayout> layout_msm(const GpuMsmOptions& options, size_t n, bool g2,
                                    unsigned windows_per_pass, ScalarInput in, size_t xyzz_bytes,
                                    size_t field_bytes, const char* name) {
    PassLayout L;
    L.plan = plan_msm(options, n, g2, windows_per_pass);
    const unsigned c = L.plan.window_bits;
    if (c < 1 || c > GpuMsmOptions::kMaxWindowBits) {
        std::string m = "window_bits must be 1..";
        m += std::to_string(GpuMsmOptions::kMaxWindowBits);
        return invalid(name, m);
    }
    const unsigned wpp = L.plan.windows_per_pass;
    L.h = uint32_t{1} << (c - 1);
    L.num_keys = wpp * L.h;
    L.items = n * wpp;
    if (L.items > UINT32_MAX)
        return invalid(name, "scalars × windows per pass must stay below 2^32");
    L.segment_len = L.h;
    while (L.segment_len > 16 &&
           size_t{wpp} * (L.h / L.segment_len) < options.aggregate_threads)
        L.segment_len /= 2;
    L.segments = L.h / L.segment_len;
    L.group = std::min<uint32_t>(L.segments, 64);
    L.groups = L.segments / L.group;
    L.use_grid = options.grid_running_sums;
    if (L.use_grid)
        L.grid = plan_grid(wpp, L.h, options.aggregate_threads,
                           g2 ? options.grid_min_blocks_g2 : options.grid_min_blocks);

    if (in.on_host) {
        L.scalar_bytes = n * sizeof(ff::BigInt<4>);
        if (in.indices != nullptr) L.index_bytes = n * sizeof(uint32_t);
    }
    L.sorted_pair_bytes = L.items * 8;
    CUZK_CUDA_RETURN_IF_ERROR(detail::msm_sort_temp_bytes(L.items, &L.sort_temp_bytes));
    L.sort_temp_bytes = std::max<size_t>(L.sort_temp_bytes, 1);
    L.range_bytes = size_t{L.num_keys} * 8;
    L.bucket_bytes = size_t{L.num_keys} * xyzz_bytes;
    const unsigned chunk = L.plan.chunk;
    L.chunks = std::max<size_t>((L.items + chunk - 1) / chunk, 1);
    // The unsorted pairs' buffers hold the batch-affine lane records afterwards: whole chunks.
    L.pair_capacity = L.plan.batch_affine ? L.chunks * chunk : L.items;
    if (L.plan.batch_affine) {
        L.affine_bytes = detail::msm_affine_scratch_bytes(L.items, chunk, field_bytes);
        // The batch-affine scratch reuses the sorted pairs where they are large enough (G1 in
        // chunks of 32: 4.5 of their 8 bytes per item), since the accumulation reads them only
        // in its first kernel; a 32 GiB partition's H MSM (2^27 scalars) has no room for more.
        if (L.affine_bytes > L.sorted_pair_bytes) L.own_affine_bytes = L.affine_bytes;
    }
    L.piece_bytes = 2 * L.chunks * xyzz_bytes;
    const size_t partial_points =
        L.use_grid ? L.grid.partial_points(wpp) : size_t{wpp} * L.segments;
    const size_t grouped_points =
        L.host_points(wpp) + (L.use_grid ? L.grid.segment_points(wpp) : 0);
    L.partial_bytes = std::max<size_t>(partial_points, 1) * xyzz_bytes;
    L.grouped_bytes = std::max<size_t>(grouped_points, 1) * xyzz_bytes;
    return L;
}

// The layout the call runs with: options.windows_per_pass if set; else all windows when their
// temporaries fit the obtainable device memory (at most options.scratch_budget_bytes if set),
// else the fewest passes that fit (msm.hpp, fitting_windows_per_pass) — of fewer than
// `below` windows each when that is not 0 (a retry after an allocation failed).
util::Result<PassLayout> choose_layout(const GpuMsmOptions& options, size_t n, bool g2,
                                       ScalarInput in, size_t xyzz_bytes, size_t field_bytes,
                                       const char* name, unsigned below = 0) {
    auto layout = [&](unsigned windows_per_pass) {
        return layout_msm(options, n, g2, windows_per_pass, in, xyzz_bytes, field_bytes, name);
    };
    if (options.windows_per_pass != 0) return layout(0);
    size_t available = obtainable_device_memory();
    if (options.scratch_budget_bytes != 0)
        available = std::min(available, options.scratch_budget_bytes);
    const unsigned windows = plan_msm(options, n, g2).windows;
    // (All windows in one pass may also fail for scalars × windows ≥ 2^32, which passes avoid.)
    return layout(fitting_windows_per_pass(windows, available, [&](unsigned w) {
        if (below != 0 && w >= below) return SIZE_MAX;
        util::Result<PassLayout> l = layout(w);
        return l.ok() ? l->total_bytes() : SIZE_MAX;
    }));
}

// The temporaries of one call (PassLayout's sizes), owned by a ScratchLeases.
struct MsmBuffers {
    DeviceBuffer* scalars = nullptr;  // host inputs only
    DeviceBuffer* indices = nullptr;  // host inputs with an index list only
    DeviceBuffer* error_word = nullptr;
    DeviceBuffer* sorted_pairs = nullptr;  // the sorted keys, then the sorted values
    DeviceBuffer* sort_temp = nullptr;
    DeviceBuffer* ranges = nullptr;  // bucket starts, then ends
    DeviceBuffer* buckets = nullptr;
    DeviceBuffer* keys = nullptr;  // unsorted; then the batch-affine lane records
    DeviceBuffer* values = nullptr;
    DeviceBuffer* pieces = nullptr;   // the chunks' first, then last pieces
    DeviceBuffer* partial = nullptr;  // the windows step's outputs (see launch_grid_sums)
    DeviceBuffer* grouped = nullptr;
    void* affine_scratch = nullptr;   // the sorted pairs, or a buffer of its own
};

util::Result<MsmBuffers> take_buffers(ScratchLeases& scratch, const PassLayout& L) {
    MsmBuffers b;
    if (L.scalar_bytes != 0) {
        CUZK_ASSIGN_OR_RETURN(b.scalars, scratch.take(L.scalar_bytes));
    }
    if (L.index_bytes != 0) {
        CUZK_ASSIGN_OR_RETURN(b.indices, scratch.take(L.index_bytes));
    }
    CUZK_ASSIGN_OR_RETURN(b.error_word, scratch.take(sizeof(uint32_t)));
    CUZK_ASSIGN_OR_RETURN(b.sorted_pairs, scratch.take(L.sorted_pair_bytes));
    CUZK_ASSIGN_OR_RETURN(b.sort_temp, scratch.take(L.sort_temp_bytes));
    CUZK_ASSIGN_OR_RETURN(b.ranges, scratch.take(L.range_bytes));
    CUZK_ASSIGN_OR_RETURN(b.buckets, scratch.take(L.bucket_bytes));
    CUZK_ASSIGN_OR_RETURN(b.keys, scratch.take(L.pair_capacity * 4));
    CUZK_ASSIGN_OR_RETURN(b.values, scratch.take(L.pair_capacity * 4));
    b.affine_scratch = b.sorted_pairs->data();
    if (L.own_affine_bytes != 0) {
        CUZK_ASSIGN_OR_RETURN(DeviceBuffer * own, scratch.take(L.own_affine_bytes));
        b.affine_scratch = own->data();
    }
    CUZK_ASSIGN_OR_RETURN(b.pieces, scratch.take(L.piece_bytes));
    CUZK_ASSIGN_OR_RETURN(b.partial, scratch.take(L.partial_bytes));
    CUZK_ASSIGN_OR_RETURN(b.grouped, scratch.take(L.grouped_bytes));
    return b;
}

// CUDA events, destroyed with the object.
struct EventSet {
    std::vector<cudaEvent_t> ev;
    util::Status create(size_t count) {
        ev.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            cudaEvent_t e = nullptr;
            CUZK_CUDA_RETURN_IF_ERROR(cudaEventCreate(&e));
            ev.push_back(e);
        }
        return util::Status();
    }
    ~EventSet() {
        for (cudaEvent_t e : ev) (void)cudaEventDestroy(e);
    }
};

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
    constexpr bool g2 = std::is_same_v<Affine, ec::G2Affine>;
    CUZK_RETURN_IF_ERROR(check_msm_options(options, name));
    CUZK_ASSIGN_OR_RETURN(PassLayout layout,
                          choose_layout(options, n, g2, in, sizeof(DeviceXyzz),
                                        sizeof(typename DeviceAffine::F), name));
    // The temporaries: from the stream-ordered pool (GpuMsmOptions::pool_scratch), from the
    // scratch cache (cache_scratch; back to it once the call has synchronised), or cudaMalloc.
    // When they cannot be had and the passes were chosen here, again with fewer windows per
    // pass, as many as the memory obtainable now allows.
    const cudaStream_t stream = options.stream;
    const ScratchSource source = options.pool_scratch    ? ScratchSource::kPool
                                 : options.cache_scratch ? ScratchSource::kCache
                                                         : ScratchSource::kAllocate;
    std::optional<ScratchLeases> scratch;
    MsmBuffers buf;
    for (;;) {
        scratch.emplace(source, stream);
        util::Result<MsmBuffers> taken = take_buffers(*scratch, layout);
        if (taken.ok()) {
            buf = *taken;
            break;
        }
        const unsigned wpp = layout.plan.windows_per_pass;
        if (taken.status().code() != util::StatusCode::kResourceExhausted ||
            options.windows_per_pass != 0 || wpp == 1)
            return taken.status();
        scratch.reset();  // what was taken goes back before the memory is measured again
        CUZK_ASSIGN_OR_RETURN(layout, choose_layout(options, n, g2, in, sizeof(DeviceXyzz),
                                                    sizeof(typename DeviceAffine::F), name,
                                                    wpp));
    }
    const PassLayout& L = layout;
    const unsigned c = L.plan.window_bits, windows = L.plan.windows;
    const unsigned wpp = L.plan.windows_per_pass, chunk = L.plan.chunk;

    // Events: the upload's two, then five per pass (its start and the end of each step); the
    // passes queue one after another without waiting for the host, which reads each pass's
    // points into its own slice of host_partial and adds them up once all have run.
    const unsigned passes = L.plan.passes();
    EventSet events;
    CUZK_RETURN_IF_ERROR(events.create(2 + 5 * size_t{passes}));
    const std::vector<cudaEvent_t>& ev = events.ev;
    GpuMsmTimings steps;
    const void* scalars_on_device = in.scalars;
    const void* indices_on_device = in.indices;
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[0], stream));
    if (in.on_host) {
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(buf.scalars->data(), in.scalars,
                                                  L.scalar_bytes, cudaMemcpyHostToDevice, stream));
        scalars_on_device = buf.scalars->data();
        if (in.indices != nullptr) {
            CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(buf.indices->data(), in.indices,
                                                      L.index_bytes, cudaMemcpyHostToDevice,
                                                      stream));
            indices_on_device = buf.indices->data();
        }
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(ev[1], stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(buf.error_word->data(), 0, sizeof(uint32_t), stream));

    auto* keys_sorted = static_cast<uint32_t*>(buf.sorted_pairs->data());
    uint32_t* values_sorted = keys_sorted + L.items;
    uint32_t* start = static_cast<uint32_t*>(buf.ranges->data());
    uint32_t* end = start + L.num_keys;
    DeviceXyzz* first = static_cast<DeviceXyzz*>(buf.pieces->data());
    DeviceXyzz* last = first + L.chunks;
    DeviceXyzz* bucket_points = static_cast<DeviceXyzz*>(buf.buckets->data());
    auto* partial = static_cast<DeviceXyzz*>(buf.partial->data());
    auto* grouped = static_cast<DeviceXyzz*>(buf.grouped->data());
    auto* keys = static_cast<uint32_t*>(buf.keys->data());
    auto* values = static_cast<uint32_t*>(buf.values->data());
    const auto* device_bases = reinterpret_cast<const DeviceAffine*>(bases);
    const size_t slice = L.host_points(wpp);
    std::vector<HostXyzz> host_partial(slice * passes);
    uint32_t error_bits = 0;
    // One pass per group of windows [w0, w0 + w): digits, sort, buckets, windows step, and the
    // group's points to the host.
    for (unsigned pass = 0; pass < passes; ++pass) {
        const unsigned w0 = pass * wpp;
        const unsigned w = std::min(wpp, windows - w0);
        const cudaEvent_t* pe = ev.data() + 2 + 5 * size_t{pass};
        const size_t items = n * w;
        const uint32_t num_keys = w * L.h;
        const unsigned key_bits = bit_length(num_keys);  // the empty key w·h included
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(pe[0], stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_digits(
            static_cast<const uint64_t*>(scalars_on_device),
            static_cast<const uint32_t*>(indices_on_device), n, static_cast<uint32_t>(num_bases),
            c, w0, w, keys, values, static_cast<uint32_t*>(buf.error_word->data()), stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(pe[1], stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_sort(buf.sort_temp->data(),
                                                          L.sort_temp_bytes, keys, keys_sorted,
                                                          values, values_sorted, items, key_bits,
                                                          stream));
        CUZK_CUDA_RETURN_IF_ERROR(
            cudaMemsetAsync(start, 0, size_t{L.num_keys} * 8, stream));
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_bucket_ranges(keys_sorted, items, num_keys,
                                                                   start, end, stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(pe[2], stream));
        CUZK_CUDA_RETURN_IF_ERROR(
            detail::launch_msm_fill_identity(bucket_points, num_keys, stream));
        if (L.plan.batch_affine) {
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate_affine(
                device_bases, keys_sorted, values_sorted, items, num_keys, chunk, bucket_points,
                first, last, keys, values, buf.affine_scratch, L.affine_bytes,
                detail::affine_variant(options, g2), stream));
        } else {
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_accumulate(
                device_bases, keys_sorted, values_sorted, items, num_keys, chunk, bucket_points,
                first, last,
                detail::AccumulateVariant{
                    g2 ? options.prefetch_next_base_g2 : options.prefetch_next_base,
                    options.accumulate_min_blocks, options.accumulate_block},
                stream));
        }
        CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_combine(start, end, num_keys, chunk, first,
                                                             last, bucket_points, stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(pe[3], stream));
        if (L.use_grid) {
            CUZK_RETURN_IF_ERROR(
                launch_grid_sums(L.grid, bucket_points, w, partial, grouped, stream));
        } else if (options.split_running_sums) {
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_aggregate_split(
                bucket_points, w, L.h, L.segment_len, L.groups, L.group, partial, grouped,
                stream));
        } else {
            CUZK_CUDA_RETURN_IF_ERROR(detail::launch_msm_aggregate(
                bucket_points, w, L.h, L.segment_len, 1, partial, stream));
            CUZK_CUDA_RETURN_IF_ERROR(
                detail::launch_msm_sum_groups(partial, w, L.groups, L.group, grouped, stream));
        }
        CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(host_partial.data() + slice * pass, grouped,
                                                  L.host_points(w) * sizeof(HostXyzz),
                                                  cudaMemcpyDeviceToHost, stream));
        CUZK_CUDA_RETURN_IF_ERROR(cudaEventRecord(pe[4], stream));
    }
    CUZK_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(&error_bits, buf.error_word->data(),
                                              sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    scratch->keep();  // idle now
    CUZK_ASSIGN_OR_RETURN(steps.upload, elapsed(ev[0], ev[1]));
    for (unsigned pass = 0; pass < passes; ++pass) {
        const cudaEvent_t* pe = ev.data() + 2 + 5 * size_t{pass};
        double* step_ms[4] = {&steps.digits, &steps.sort, &steps.buckets, &steps.windows};
        for (int k = 0; k < 4; ++k) {
            CUZK_ASSIGN_OR_RETURN(const double ms, elapsed(pe[k], pe[k + 1]));
            *step_ms[k] += ms;
        }
    }
    if (error_bits & detail::kErrorScalarTooLarge)
        return invalid(name, "a device scalar is not below 2^255");
    if (error_bits & detail::kErrorIndexOutOfRange)
        return invalid(name, "a device index is not below the number of bases");
    // Σ_j 2^(c·j)·S_j, highest window first; S_j from the points of window j's pass.
    util::Stopwatch host_sums;
    HostJacobian acc = HostJacobian::identity();
    for (unsigned j = windows; j-- > 0;) {
        const unsigned pass = j / wpp, w = std::min(wpp, windows - pass * wpp), i = j % wpp;
        const std::span<const HostXyzz> points(host_partial.data() + slice * pass, slice);
        for (unsigned b = 0; b < c; ++b) acc = acc.dbl();
        acc += (L.use_grid ? L.grid.window_sum(points, w, i)
                           : sum_of(points, size_t{i} * L.groups, L.groups))
                   .to_jacobian();
    }
    steps.windows += host_sums.elapsed_ms();
    if (timings != nullptr) {
        steps.windows_per_pass = wpp;
        steps.passes = passes;
        steps.scratch_bytes = L.total_bytes();
        steps.total = total.elapsed_ms();
        *timings = steps;
    }
    return acc;
}

// run_msm_on with the kernels GpuMsmOptions::g2_lazy_product selects for G2 and
// GpuMsmOptions::dedicated_square for G1.
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
    } else {
        if (options.dedicated_square)
            return run_msm_on<Affine, DeviceG1SquareCurve>(bases, num_bases, in, options,
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
