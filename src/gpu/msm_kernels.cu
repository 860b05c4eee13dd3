// Pippenger MSM point kernels (see msm.hpp for the algorithm): bucket accumulation in XYZZ
// coordinates, segmented running-sum aggregation (the digits and bucket ranges are
// msm_digits_kernels.cu's). The point formulas are ec/point.hpp's, instantiated with the device
// curves; the point kernels are templates over the curve C, launched for G1 and G2.
#include <type_traits>

#include "gpu/msm_launch.hpp"
#include "gpu/msm_point_ops.cuh"
#include "gpu/msm_run_store.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

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

namespace {

// The kernel variant for (min_blocks, prefetch); G2 has no bounded one.
template <class C>
auto accumulate_kernel_for(unsigned min_blocks, bool prefetch) {
    if constexpr (kIsG1Curve<C>) {
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
CUZK_MSM_POINT_LAUNCHERS(DeviceG1SquareCurve)
CUZK_MSM_POINT_LAUNCHERS(DeviceG2Curve)
CUZK_MSM_POINT_LAUNCHERS(DeviceG2LazyCurve)
#undef CUZK_MSM_POINT_LAUNCHERS

}  // namespace cuzk::gpu::detail
