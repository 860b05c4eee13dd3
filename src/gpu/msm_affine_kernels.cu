// Batch-affine bucket accumulation (msm_launch.hpp, launch_msm_accumulate_affine).
//
// Lane ℓ sums the sorted items [ℓ·M, ℓ·M + M) (M = chunk) into runs exactly as thread ℓ of the
// XYZZ kernel does, but its running sum sums[ℓ] is an affine point in device memory, and all
// lanes take their s-th item together, one step per s < M. A step is three parts:
//   1. denominators_kernel: thread t owns the lanes t, t + T, … (T threads of
//      kAffineLanesPerThread lanes: the strided groups of gpu/batch_inverse.cuh). It computes each
//      lane's slope denominator d_ℓ (step_denominator) and the prefix products of its group; the
//      group's product goes to products[t];
//   2. launch_batch_inverse: inverses[t] = products[t]⁻¹ for every t;
//   3. add_kernel: walks each group back, which yields every d_ℓ⁻¹, and adds the lane's point
//      (ec::affine_add_with_inverse: λ = (y_p − y)·d⁻¹, x' = λ² − x − x_p, y' = λ(x − x') − y);
//      at the end of a run it stores the run's sum (store_run_sum, as XYZZ with ZZ = ZZZ = 1).
// Additions that need no inversion use d = 1: the lane is idle (its chunk is done, or only
// empty-digit items are left), the point is the identity (the sum stays), the running sum is the
// identity (a new run: the sum becomes the point), or the point is the sum's negative (the sum
// becomes the identity). d is 2y when the point equals the sum (tangent: λ = 3x²/2y) and
// x_p − x otherwise (chord). No point of G1 or G2 has y = 0 (both cofactors are odd, so neither
// group has a point of order 2), hence no d is zero.
// Cost per addition: 1 product in part 1, 5 in part 3 (two for d⁻¹, three for the sum) and about
// 3/kAffineLanesPerThread in the upper levels of part 2 — against 10 for the XYZZ mixed addition —
// plus one Fermat inversion's latency per step. Memory per addition: the sum's x and the point's
// x in part 1, both points again in part 3, the sum written back, the prefix written and read.
#include "gpu/batch_inverse.cuh"
#include "gpu/batch_inverse_launch.hpp"
#include "gpu/msm_launch.hpp"
#include "gpu/msm_run_store.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 128;

// Item `step` of lane `lane`, in the chunk [lo, hi).
struct LaneItem {
    size_t lo = 0, hi = 0, q = 0;
    uint32_t key = 0;
    bool active = false;     // q < hi and q's digit is not empty
    bool run_start = false;  // q begins a run: the running sum before it is the identity
};

__device__ LaneItem lane_item(const uint32_t* keys, size_t items, uint32_t num_keys,
                              uint32_t chunk, size_t lane, uint32_t step) {
    LaneItem it;
    it.lo = lane * chunk;
    it.hi = it.lo + chunk < items ? it.lo + chunk : items;
    it.q = it.lo + step;
    if (it.q >= it.hi) return it;
    it.key = keys[it.q];
    if (it.key >= num_keys) return it;  // empty-digit items sort last: the lane is done
    it.active = true;
    it.run_start = step == 0 || keys[it.q - 1] != it.key;
    return it;
}

// The slope denominator of sum + (negate ? −point : point), or one where the addition needs no
// inversion (see the file comment). sum is null at the start of a run. Reads the y coordinates
// only when the x coordinates do not decide; add_kernel reaches the same decisions from whole
// points.
template <class C>
__device__ typename C::Field step_denominator(const ec::Affine<C>* sum, const ec::Affine<C>* point,
                                              bool negate) {
    using F = typename C::Field;
    const F px = point->x;
    if (px.is_zero() && point->y.is_zero()) return F::one();  // the point is the identity
    if (sum == nullptr) return F::one();
    const F sx = sum->x;
    if (sx.is_zero() && sum->y.is_zero()) return F::one();  // the sum is the identity
    if (!(sx == px)) return px - sx;
    const F py = negate ? -point->y : point->y;
    const F sy = sum->y;
    return sy == py ? sy.dbl() : F::one();
}

template <class C>
__global__ void denominators_kernel(const ec::Affine<C>* bases, const uint32_t* keys,
                                    const uint32_t* values, size_t items, uint32_t num_keys,
                                    uint32_t chunk, size_t lanes, size_t threads, uint32_t step,
                                    const ec::Affine<C>* sums, typename C::Field* prefix,
                                    typename C::Field* products) {
    using F = typename C::Field;
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    products[t] = prefix_products_up<F>(t, threads, lanes, prefix, [&](size_t lane) {
        const LaneItem it = lane_item(keys, items, num_keys, chunk, lane, step);
        if (!it.active) return F::one();
        const uint32_t v = values[it.q];
        return step_denominator<C>(it.run_start ? nullptr : sums + lane,
                                   bases + (v & ~kNegativeFlag), (v & kNegativeFlag) != 0);
    });
}

template <class C>
__global__ void add_kernel(const ec::Affine<C>* bases, const uint32_t* keys,
                           const uint32_t* values, size_t items, uint32_t num_keys, uint32_t chunk,
                           size_t lanes, size_t threads, uint32_t step, ec::Affine<C>* sums,
                           const typename C::Field* prefix,
                           const typename C::Field* product_inverses, ec::Xyzz<C>* buckets,
                           ec::Xyzz<C>* first, ec::Xyzz<C>* last) {
    using F = typename C::Field;
    using A = ec::Affine<C>;
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    prefix_products_down<F>(
        t, threads, lanes, prefix, product_inverses[t], [&](size_t lane, const F& inverse) {
            const LaneItem it = lane_item(keys, items, num_keys, chunk, lane, step);
            if (!it.active) return F::one();
            const uint32_t v = values[it.q];
            A p = bases[v & ~kNegativeFlag];
            if (v & kNegativeFlag) p = -p;
            const A a = it.run_start ? A::identity() : sums[lane];
            F d = F::one();
            A r;
            if (p.is_identity()) {
                r = a;
            } else if (a.is_identity()) {
                r = p;
            } else {
                d = ec::affine_add_denominator(a, p);
                if (d.is_zero()) {  // p = −a
                    d = F::one();
                    r = A::identity();
                } else {
                    r = ec::affine_add_with_inverse(a, p, inverse);
                }
            }
            const bool run_ends = it.q + 1 == it.hi || keys[it.q + 1] != it.key;
            if (!run_ends) {
                sums[lane] = r;
            } else {
                store_run_sum(keys, items, it.lo, it.hi, it.q, it.key, keys[it.lo] == it.key, lane,
                              ec::Xyzz<C>::from_affine(r), buckets, first, last);
            }
            return d;
        });
}

// Byte offsets of the scratch's parts (each 256-byte aligned).
struct AffineLayout {
    size_t lanes = 0, threads = 0;
    size_t sums = 0, prefix = 0, products = 0, inverses = 0, inverse_scratch = 0, total = 0;
};

size_t align256(size_t bytes) { return (bytes + 255) / 256 * 256; }

AffineLayout affine_layout(size_t items, uint32_t chunk, size_t point_bytes, size_t field_bytes) {
    AffineLayout l;
    l.lanes = (items + chunk - 1) / chunk;
    l.threads = (l.lanes + kAffineLanesPerThread - 1) / kAffineLanesPerThread;
    l.sums = 0;
    l.prefix = l.sums + align256(l.lanes * point_bytes);
    l.products = l.prefix + align256(l.lanes * field_bytes);
    l.inverses = l.products + align256(l.threads * field_bytes);
    l.inverse_scratch = l.inverses + align256(l.threads * field_bytes);
    l.total = l.inverse_scratch +
              align256(batch_inverse_scratch_elements(l.threads) * field_bytes);
    return l;
}

template <class C>
cudaError_t accumulate_affine(const ec::Affine<C>* bases, const uint32_t* keys,
                              const uint32_t* values, size_t items, uint32_t num_buckets,
                              uint32_t chunk, ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                              ec::Xyzz<C>* last, void* scratch, size_t scratch_bytes,
                              cudaStream_t stream) {
    using F = typename C::Field;
    using A = ec::Affine<C>;
    if (num_buckets == 0 || chunk == 0) return cudaErrorInvalidValue;
    if (items == 0) return cudaSuccess;
    const AffineLayout l = affine_layout(items, chunk, sizeof(A), sizeof(F));
    if (scratch == nullptr || scratch_bytes < l.total) return cudaErrorInvalidValue;
    char* base = static_cast<char*>(scratch);
    A* sums = reinterpret_cast<A*>(base + l.sums);
    F* prefix = reinterpret_cast<F*>(base + l.prefix);
    F* products = reinterpret_cast<F*>(base + l.products);
    F* inverses = reinterpret_cast<F*>(base + l.inverses);
    F* inverse_scratch = reinterpret_cast<F*>(base + l.inverse_scratch);
    const unsigned grid = static_cast<unsigned>((l.threads + kBlock - 1) / kBlock);
    const uint32_t steps = items < chunk ? static_cast<uint32_t>(items) : chunk;
    for (uint32_t step = 0; step < steps; ++step) {
        denominators_kernel<C><<<grid, kBlock, 0, stream>>>(bases, keys, values, items,
                                                            num_buckets, chunk, l.lanes,
                                                            l.threads, step, sums, prefix,
                                                            products);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess) return err;
        err = launch_batch_inverse(products, inverses, l.threads, inverse_scratch, stream);
        if (err != cudaSuccess) return err;
        add_kernel<C><<<grid, kBlock, 0, stream>>>(bases, keys, values, items, num_buckets, chunk,
                                                   l.lanes, l.threads, step, sums, prefix,
                                                   inverses, buckets, first, last);
        err = cudaGetLastError();
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}

}  // namespace

size_t msm_affine_scratch_bytes(size_t items, uint32_t chunk, size_t point_bytes,
                                size_t field_bytes) {
    if (chunk == 0) return 0;
    return affine_layout(items, chunk, point_bytes, field_bytes).total;
}

cudaError_t launch_msm_accumulate_affine(const DeviceG1Affine* bases, const uint32_t* sorted_keys,
                                         const uint32_t* sorted_values, size_t items,
                                         uint32_t num_buckets, uint32_t chunk,
                                         DeviceG1Xyzz* buckets, DeviceG1Xyzz* first,
                                         DeviceG1Xyzz* last, void* scratch, size_t scratch_bytes,
                                         cudaStream_t stream) {
    return accumulate_affine(bases, sorted_keys, sorted_values, items, num_buckets, chunk, buckets,
                             first, last, scratch, scratch_bytes, stream);
}
cudaError_t launch_msm_accumulate_affine(const DeviceG2Affine* bases, const uint32_t* sorted_keys,
                                         const uint32_t* sorted_values, size_t items,
                                         uint32_t num_buckets, uint32_t chunk,
                                         DeviceG2Xyzz* buckets, DeviceG2Xyzz* first,
                                         DeviceG2Xyzz* last, void* scratch, size_t scratch_bytes,
                                         cudaStream_t stream) {
    return accumulate_affine(bases, sorted_keys, sorted_values, items, num_buckets, chunk, buckets,
                             first, last, scratch, scratch_bytes, stream);
}

}  // namespace cuzk::gpu::detail
