// Pippenger MSM kernels (see msm.hpp for the algorithm): signed digits, bucket ranges, bucket
// accumulation in XYZZ coordinates, segmented running-sum aggregation. The point formulas are
// ec/point.hpp's, instantiated with the device curves; the point kernels are templates over the
// curve C, launched for G1 and G2.
#include <type_traits>

#include "gpu/grid.hpp"
#include "gpu/msm_launch.hpp"
#include "gpu/msm_point_ops.cuh"
#include "gpu/msm_run_store.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

unsigned blocks_for(size_t n) { return grid_stride_blocks(n, kBlock); }

// Bits [lo, lo + c) of a 256-bit little-endian integer (c ≤ 32).
__device__ uint32_t bits_at(const uint64_t* k, unsigned lo, unsigned c) {
    if (lo >= 256) return 0;
    const unsigned limb = lo / 64, shift = lo % 64;
    uint64_t v = k[limb] >> shift;
    if (shift + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
    return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// Digits with the carry rule of msm::SignedDigits: u_j + carry kept when ≤ h, else minus 2^c
// with a carry into the next window (k < 2^255 and c·W ≥ 256, so the top window never carries).
// The point index of scalar i is indices[i] (or i); an invalid scalar or index flags *error and
// makes all of the scalar's digits empty.
__global__ void digits_kernel(const uint64_t* scalars, const uint32_t* indices, size_t n,
                              uint32_t num_bases, unsigned c, unsigned windows, uint32_t* keys,
                              uint32_t* values, uint32_t* error) {
    const uint32_t h = 1u << (c - 1);
    const uint32_t empty = windows * h;
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t k[4];
        for (int l = 0; l < 4; ++l) k[l] = scalars[4 * i + l];
        const uint32_t index = indices != nullptr ? indices[i] : static_cast<uint32_t>(i);
        uint32_t bad = 0;
        if (k[3] >> 63) bad |= kErrorScalarTooLarge;
        if (index >= num_bases) bad |= kErrorIndexOutOfRange;
        if (bad != 0) {
            atomicOr(error, bad);
            for (int l = 0; l < 4; ++l) k[l] = 0;  // all digits zero: no items
        }
        uint32_t carry = 0;
        for (unsigned j = 0; j < windows; ++j) {
            int64_t d = static_cast<int64_t>(bits_at(k, j * c, c)) + carry;
            carry = 0;
            if (d > static_cast<int64_t>(h)) {
                d -= int64_t{1} << c;
                carry = 1;
            }
            const size_t item = size_t{j} * n + i;
            if (d == 0) {
                keys[item] = empty;
                values[item] = 0;
            } else {
                const uint32_t mag = static_cast<uint32_t>(d > 0 ? d : -d);
                keys[item] = j * h + mag - 1;
                values[item] = index | (d < 0 ? kNegativeFlag : 0u);
            }
        }
    }
}

__global__ void bucket_ranges_kernel(const uint32_t* keys, size_t items, uint32_t num_keys,
                                     uint32_t* start, uint32_t* end) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t p = size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < items; p += stride) {
        const uint32_t key = keys[p];
        if (key >= num_keys) continue;
        if (p == 0 || keys[p - 1] != key) start[key] = static_cast<uint32_t>(p);
        if (p + 1 == items || keys[p + 1] != key) end[key] = static_cast<uint32_t>(p + 1);
    }
}

template <class C>
__global__ void fill_identity_kernel(ec::Xyzz<C>* buckets, uint32_t count) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < count) buckets[b] = ec::Xyzz<C>::identity();
}

// Chunked accumulation, so that a bucket holding many points (the top window has few bits, so
// few, crowded buckets) is not summed by one thread. Thread t walks the sorted items
// [t·M, t·M + M) as runs of equal keys; each finished run goes to its bucket, or to first[t] /
// last[t] when its bucket continues into a neighbouring chunk (run_destination,
// msm_run_store.cuh); combine_kernel sums those pieces.
// The additions are add_mixed_in_place (msm_point_ops.cuh). kPrefetch: the next base is loaded
// while the current one is added (the gathers are random reads), at the price of a second point
// in registers (24 for G1). The body is shared by the plain kernel and, for G1 on request, one
// bounded to 128 registers (see below).
template <class C, bool kPrefetch>
__device__ __forceinline__ void accumulate_chunks(const ec::Affine<C>* bases, const uint32_t* keys,
                                                  const uint32_t* values, size_t items,
                                                  uint32_t num_keys, uint32_t chunk,
                                                  ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                                  ec::Xyzz<C>* last) {
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    const size_t lo = t * chunk;
    if (lo >= items) return;
    const size_t hi = lo + chunk < items ? lo + chunk : items;
    size_t run_start = lo;
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    uint32_t v_next = values[lo];
    ec::Affine<C> p_next;
    if constexpr (kPrefetch) p_next = bases[v_next & ~kNegativeFlag];
    for (size_t q = lo; q < hi; ++q) {
        const uint32_t key = keys[q];
        if (key >= num_keys) break;  // empty-digit items sort last: nothing more to add
        const uint32_t v = v_next;
        ec::Affine<C> p;
        if constexpr (kPrefetch)
            p = p_next;
        else
            p = bases[v & ~kNegativeFlag];
        if (q + 1 < hi) {
            v_next = values[q + 1];
            if constexpr (kPrefetch) p_next = bases[v_next & ~kNegativeFlag];
        }
        add_mixed_in_place(acc, (v & kNegativeFlag) ? -p : p);
        const bool run_ends = q + 1 == hi || keys[q + 1] != key;
        if (!run_ends) continue;
        store_run_sum(run_destination(keys, items, lo, hi, q, key, run_start == lo), key, t, acc,
                      buckets, first, last);
        acc = ec::Xyzz<C>::identity();
        run_start = q + 1;
    }
}

// The largest block of the bucket kernels (AccumulateVariant::block: 32, 64 or this).
constexpr unsigned kAccumulateBlock = 128;

template <class C, bool kPrefetch>
__global__ void accumulate_chunks_kernel(const ec::Affine<C>* bases, const uint32_t* keys,
                                         const uint32_t* values, size_t items, uint32_t num_keys,
                                         uint32_t chunk, ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                         ec::Xyzz<C>* last) {
    accumulate_chunks<C, kPrefetch>(bases, keys, values, items, num_keys, chunk, buckets, first,
                                    last);
}

// At least kMinBlocks blocks of 128 threads per SM: ptxas caps the kernel's registers (3: 168,
// 4: 128; G1 unbounded: 178 with the prefetch, 182 without, i.e. 2 blocks per SM — sm_90, CUDA
// 13 ptxas -v with the paired product; bounded to 128 with the prefetch: 324 bytes of spill
// stores, without it: 84). Whether the extra occupancy beats the spills is for the benchmark to
// say (GpuMsmOptions::accumulate_min_blocks).
template <class C, bool kPrefetch, int kMinBlocks>
__global__ void __launch_bounds__(kAccumulateBlock, kMinBlocks)
    accumulate_chunks_bounded_kernel(const ec::Affine<C>* bases, const uint32_t* keys,
                                     const uint32_t* values, size_t items, uint32_t num_keys,
                                     uint32_t chunk, ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                     ec::Xyzz<C>* last) {
    accumulate_chunks<C, kPrefetch>(bases, keys, values, items, num_keys, chunk, buckets, first,
                                    last);
}

// Buckets spanning chunks c0 < c1: the piece in c0 (first[c0] if the bucket starts the chunk,
// else last[c0]), the whole middle chunks (first[c]) and the start of c1 (first[c1]).
template <class C>
__global__ void combine_kernel(const uint32_t* start, const uint32_t* end, uint32_t num_keys,
                               uint32_t chunk, const ec::Xyzz<C>* first, const ec::Xyzz<C>* last,
                               ec::Xyzz<C>* buckets) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= num_keys) return;
    const uint32_t s = start[b], e = end[b];
    if (s == e) return;
    const uint32_t c0 = s / chunk, c1 = (e - 1) / chunk;
    if (c0 == c1) return;
    ec::Xyzz<C> acc = (s == c0 * chunk) ? first[c0] : last[c0];
    for (uint32_t c = c0 + 1; c <= c1; ++c) acc += first[c];
    buckets[b] = acc;
}

// m·p for m ≥ 0 by double-and-add.
template <class C>
__device__ ec::Xyzz<C> times(const ec::Xyzz<C>& p, uint32_t m) {
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    for (int bit = 31; bit >= 0; --bit) {
        acc = acc.dbl();
        if ((m >> bit) & 1) acc += p;
    }
    return acc;
}

// Segment s of window j covers buckets [s·len, (s+1)·len). Running sums from the top:
// running = Σ_{b' ≥ b} B_b', weighted = Σ_b running_b = Σ_b (b − lo + 1)·B_b; the window's
// weights are b + w0 (w0 = weight_base, 1 or 0) = (b − lo + 1) + (lo + w0 − 1), hence
// out = weighted + (lo + w0 − 1)·running_lo (weighted − running for lo + w0 = 0).
template <class C>
__global__ void aggregate_kernel(const ec::Xyzz<C>* buckets, unsigned windows, uint32_t per_window,
                                 uint32_t len, uint32_t weight_base, ec::Xyzz<C>* out) {
    const uint32_t segments = per_window / len;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= windows * segments) return;
    const uint32_t j = t / segments, s = t % segments;
    const uint32_t lo = s * len;
    const ec::Xyzz<C>* base = buckets + size_t{j} * per_window;
    ec::Xyzz<C> running = ec::Xyzz<C>::identity(), weighted = ec::Xyzz<C>::identity();
    for (uint32_t b = lo + len; b-- > lo;) {
        running += base[b];
        weighted += running;
    }
    out[t] = lo + weight_base > 0 ? weighted + times(running, lo + weight_base - 1)
                                  : weighted + (-running);
}

// The split running sums (GpuMsmOptions::split_running_sums), three kernels that each hold at
// most two points per thread (G2's XYZZ point is 96 registers: the one-kernel form above holds
// three and spills), and without times():
//   suffix_kernel: each segment's buckets become their suffix sums within the segment,
//     B'_b = Σ_{b ≤ b' < lo + len} B_b', in place (so B'_lo = R_s, the segment's total);
//   segment_sums_kernel: W_s = Σ_{b in segment} B'_b = Σ_b (b − lo + 1)·B_b;
//   weighted_groups_kernel: for a group of G consecutive segments s = gG + k of a window,
//     Σ_k (W_s + s·len·R_s) = Σ_k W_s + len·(Σ_k k·R_s + gG·Σ_k R_s), the inner sums again
//     by running sums over k, so that one times() per group (not per segment) remains; the
//     window sum is the sum of its groups' results, as with sum_groups_kernel.
template <class C>
__global__ void suffix_kernel(ec::Xyzz<C>* buckets, unsigned windows, uint32_t per_window,
                              uint32_t len) {
    const uint32_t segments = per_window / len;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= windows * segments) return;
    ec::Xyzz<C>* base = buckets + size_t{t} * len;  // windows are contiguous: segment t
    ec::Xyzz<C> running = base[len - 1];
    for (uint32_t b = len - 1; b-- > 0;) {
        running += base[b];
        base[b] = running;
    }
}

template <class C>
__global__ void segment_sums_kernel(const ec::Xyzz<C>* suffixes, unsigned windows,
                                    uint32_t per_window, uint32_t len, ec::Xyzz<C>* out) {
    const uint32_t segments = per_window / len;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= windows * segments) return;
    const ec::Xyzz<C>* base = suffixes + size_t{t} * len;
    ec::Xyzz<C> acc = base[0];
    for (uint32_t b = 1; b < len; ++b) acc += base[b];
    out[t] = acc;
}

template <class C>
__global__ void weighted_groups_kernel(const ec::Xyzz<C>* suffixes, const ec::Xyzz<C>* sums,
                                       unsigned windows, uint32_t groups, uint32_t group,
                                       unsigned log_len, ec::Xyzz<C>* out) {
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= windows * groups) return;
    const uint32_t g = t % groups;
    const size_t first = size_t{t} * group;  // the group's first segment (windows contiguous)
    ec::Xyzz<C> w = ec::Xyzz<C>::identity(), r = ec::Xyzz<C>::identity(),
                kr = ec::Xyzz<C>::identity();
    for (uint32_t k = group; k-- > 0;) {
        r += suffixes[(first + k) << log_len];  // R_s = B'_lo
        if (k > 0) kr += r;                     // Σ_{k ≥ 1} Σ_{k' ≥ k} R = Σ_k k·R_s
        w += sums[first + k];
    }
    kr += times(r, g * group);
    for (unsigned i = 0; i < log_len; ++i) kr = kr.dbl();
    out[t] = w + kr;
}

template <class C>
__global__ void sum_groups_kernel(const ec::Xyzz<C>* in, unsigned windows, uint32_t groups,
                                  uint32_t group, ec::Xyzz<C>* out) {
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= windows * groups) return;
    const ec::Xyzz<C>* piece = in + size_t{t} * group;  // window t / groups, group t % groups
    ec::Xyzz<C> acc = piece[0];
    for (uint32_t s = 1; s < group; ++s) acc += piece[s];
    out[t] = acc;
}

}  // namespace

cudaError_t launch_msm_digits(const uint64_t* scalars, const uint32_t* indices, size_t n,
                              uint32_t num_bases, unsigned window_bits, unsigned windows,
                              uint32_t* keys, uint32_t* values, uint32_t* error,
                              cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    digits_kernel<<<blocks_for(n), kBlock, 0, stream>>>(scalars, indices, n, num_bases, window_bits,
                                                        windows, keys, values, error);
    return cudaGetLastError();
}

cudaError_t launch_msm_bucket_ranges(const uint32_t* sorted_keys, size_t items, uint32_t num_keys,
                                     uint32_t* start, uint32_t* end, cudaStream_t stream) {
    if (items == 0) return cudaSuccess;
    bucket_ranges_kernel<<<blocks_for(items), kBlock, 0, stream>>>(sorted_keys, items, num_keys,
                                                                   start, end);
    return cudaGetLastError();
}

namespace {

// The kernel variant for (min_blocks, prefetch); G2 has no bounded one.
template <class C>
auto accumulate_kernel_for(unsigned min_blocks, bool prefetch) {
    if constexpr (std::is_same_v<C, DeviceG1Curve>) {
        if (min_blocks == 3)
            return prefetch ? accumulate_chunks_bounded_kernel<C, true, 3>
                            : accumulate_chunks_bounded_kernel<C, false, 3>;
        if (min_blocks == 4)
            return prefetch ? accumulate_chunks_bounded_kernel<C, true, 4>
                            : accumulate_chunks_bounded_kernel<C, false, 4>;
    }
    return prefetch ? accumulate_chunks_kernel<C, true> : accumulate_chunks_kernel<C, false>;
}

}  // namespace

template <class C>
cudaError_t launch_msm_accumulate(const ec::Affine<C>* bases, const uint32_t* sorted_keys,
                                  const uint32_t* sorted_values, size_t items,
                                  uint32_t num_buckets, uint32_t chunk, ec::Xyzz<C>* buckets,
                                  ec::Xyzz<C>* first, ec::Xyzz<C>* last,
                                  AccumulateVariant variant, cudaStream_t stream) {
    if (num_buckets == 0 || chunk == 0) return cudaErrorInvalidValue;
    if (variant.block != 32 && variant.block != 64 && variant.block != kAccumulateBlock)
        return cudaErrorInvalidValue;
    const unsigned block = variant.block;
    const size_t chunks = (items + chunk - 1) / chunk;
    const unsigned grid = static_cast<unsigned>((chunks + block - 1) / block);
    if (chunks > 0) {
        accumulate_kernel_for<C>(variant.min_blocks, variant.prefetch)
            <<<grid, block, 0, stream>>>(bases, sorted_keys, sorted_values, items, num_buckets,
                                         chunk, buckets, first, last);
    }
    return cudaGetLastError();
}

template <class C>
cudaError_t launch_msm_fill_identity(ec::Xyzz<C>* buckets, uint32_t count, cudaStream_t stream) {
    if (count == 0) return cudaSuccess;
    fill_identity_kernel<C><<<(count + kBlock - 1) / kBlock, kBlock, 0, stream>>>(buckets, count);
    return cudaGetLastError();
}

template <class C>
cudaError_t launch_msm_combine(const uint32_t* start, const uint32_t* end, uint32_t num_buckets,
                               uint32_t chunk, const ec::Xyzz<C>* first, const ec::Xyzz<C>* last,
                               ec::Xyzz<C>* buckets, cudaStream_t stream) {
    if (num_buckets == 0 || chunk == 0) return cudaErrorInvalidValue;
    combine_kernel<C><<<(num_buckets + kAccumulateBlock - 1) / kAccumulateBlock, kAccumulateBlock,
                        0, stream>>>(start, end, num_buckets, chunk, first, last, buckets);
    return cudaGetLastError();
}

template <class C>
cudaError_t launch_msm_aggregate(const ec::Xyzz<C>* buckets, unsigned windows,
                                 uint32_t buckets_per_window, uint32_t segment_len,
                                 uint32_t weight_base, ec::Xyzz<C>* out, cudaStream_t stream) {
    if (segment_len == 0 || buckets_per_window % segment_len != 0 || weight_base > 1)
        return cudaErrorInvalidValue;
    const uint32_t threads = windows * (buckets_per_window / segment_len);
    const unsigned block = 64;
    aggregate_kernel<C><<<(threads + block - 1) / block, block, 0, stream>>>(
        buckets, windows, buckets_per_window, segment_len, weight_base, out);
    return cudaGetLastError();
}

template <class C>
cudaError_t launch_msm_aggregate_split(ec::Xyzz<C>* buckets, unsigned windows,
                                       uint32_t buckets_per_window, uint32_t segment_len,
                                       uint32_t groups, uint32_t group, ec::Xyzz<C>* segment_sums,
                                       ec::Xyzz<C>* out, cudaStream_t stream) {
    if (segment_len == 0 || buckets_per_window % segment_len != 0 ||
        (segment_len & (segment_len - 1)) != 0 || group == 0 ||
        size_t{groups} * group * segment_len != buckets_per_window)
        return cudaErrorInvalidValue;
    unsigned log_len = 0;
    while ((1u << log_len) < segment_len) ++log_len;
    const uint32_t threads = windows * (buckets_per_window / segment_len);
    const unsigned block = 64;
    const unsigned grid = (threads + block - 1) / block;
    suffix_kernel<C><<<grid, block, 0, stream>>>(buckets, windows, buckets_per_window,
                                                 segment_len);
    segment_sums_kernel<C><<<grid, block, 0, stream>>>(buckets, windows, buckets_per_window,
                                                       segment_len, segment_sums);
    const uint32_t group_threads = windows * groups;
    weighted_groups_kernel<C><<<(group_threads + block - 1) / block, block, 0, stream>>>(
        buckets, segment_sums, windows, groups, group, log_len, out);
    return cudaGetLastError();
}

template <class C>
cudaError_t launch_msm_sum_groups(const ec::Xyzz<C>* in, unsigned windows, uint32_t groups,
                                  uint32_t group, ec::Xyzz<C>* out, cudaStream_t stream) {
    if (group == 0) return cudaErrorInvalidValue;
    const uint32_t threads = windows * groups;
    const unsigned block = 64;
    sum_groups_kernel<C><<<(threads + block - 1) / block, block, 0, stream>>>(in, windows, groups,
                                                                           group, out);
    return cudaGetLastError();
}

// The instantiations msm_launch.hpp promises, one line per launcher and curve.
#define CUZK_MSM_POINT_LAUNCHERS(C)                                                               \
    template cudaError_t launch_msm_accumulate<C>(                                                \
        const ec::Affine<C>*, const uint32_t*, const uint32_t*, size_t, uint32_t, uint32_t,       \
        ec::Xyzz<C>*, ec::Xyzz<C>*, ec::Xyzz<C>*, AccumulateVariant, cudaStream_t);               \
    template cudaError_t launch_msm_fill_identity<C>(ec::Xyzz<C>*, uint32_t, cudaStream_t);       \
    template cudaError_t launch_msm_combine<C>(const uint32_t*, const uint32_t*, uint32_t,        \
                                               uint32_t, const ec::Xyzz<C>*, const ec::Xyzz<C>*,  \
                                               ec::Xyzz<C>*, cudaStream_t);                       \
    template cudaError_t launch_msm_sum_groups<C>(const ec::Xyzz<C>*, unsigned, uint32_t,         \
                                                  uint32_t, ec::Xyzz<C>*, cudaStream_t);          \
    template cudaError_t launch_msm_aggregate<C>(const ec::Xyzz<C>*, unsigned, uint32_t,          \
                                                 uint32_t, uint32_t, ec::Xyzz<C>*, cudaStream_t); \
    template cudaError_t launch_msm_aggregate_split<C>(ec::Xyzz<C>*, unsigned, uint32_t,          \
                                                       uint32_t, uint32_t, uint32_t, ec::Xyzz<C>*, \
                                                       ec::Xyzz<C>*, cudaStream_t);
CUZK_MSM_POINT_LAUNCHERS(DeviceG1Curve)
CUZK_MSM_POINT_LAUNCHERS(DeviceG2Curve)
CUZK_MSM_POINT_LAUNCHERS(DeviceG2LazyCurve)
#undef CUZK_MSM_POINT_LAUNCHERS

}  // namespace cuzk::gpu::detail
