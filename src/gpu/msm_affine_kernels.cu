// Batch-affine bucket accumulation (msm_launch.hpp, launch_msm_accumulate_affine).
//
// Lane ℓ sums the sorted items [ℓ·M, ℓ·M + M) (M = chunk) into runs exactly as thread ℓ of the
// XYZZ kernel does, but its running sum (sums_x[ℓ], sums_y[ℓ]) is an affine point in device
// memory, and all lanes take their s-th item together, one step per s < M.
//
// Before the steps, lane_records_kernel rewrites the sorted (key, value) pairs lane-major by
// step: entry s·L + ℓ (L lanes) is item s of lane ℓ as a record — the bucket key with flags for
// "the run starts here", "the run ends here" and where its sum goes (run_destination) — and the
// value. So the lanes of a warp read consecutive words at every step, instead of one 32-byte
// sector each for a 4-byte key.
//
// The lanes are split into `parts` parts (AffineVariant::parts, 1..kMaxAffineParts), each
// stepping on its own stream, so that one part's batch inversion (a few small, latency-bound
// kernels) overlaps the other parts' additions.
// A step of one part is three parts:
//   1. denominators_kernel: thread t owns the part's lanes t, t + T, … (T threads of
//      kAffineLanesPerThread lanes: the strided groups of gpu/batch_inverse.cuh). It computes each
//      lane's slope denominator d_ℓ (step_denominator) and the prefix products of its group; the
//      group's product goes to products[t];
//   2. launch_batch_inverse: inverses[t] = products[t]⁻¹ for every t;
//   3. add_kernel: walks each group back, which yields every d_ℓ⁻¹, and adds the lane's point
//      (ec::affine_add_with_inverse: λ = (y_p − y)·d⁻¹, x' = λ² − x − x_p, y' = λ(x − x') − y);
//      at the end of a run it stores the run's sum (as XYZZ with ZZ = ZZZ = 1).
// Additions that need no inversion use d = 1: the lane is idle (its chunk is done, or only
// empty-digit items are left), the point is the identity (the sum stays), the running sum is the
// identity (a new run: the sum becomes the point), or the point is the sum's negative (the sum
// becomes the identity). d is 2y when the point equals the sum (tangent: λ = 3x²/2y) and
// x_p − x otherwise (chord). No point of G1 or G2 has y = 0 (both cofactors are odd, so neither
// group has a point of order 2), hence no d is zero.
// Cost per addition: 1 product in part 1, 5 in part 3 (two for d⁻¹, three for the sum) and about
// 3/kAffineLanesPerThread in the upper levels of part 2 — against 10 for the XYZZ mixed addition.
// Norm inversion (AffineVariant::norm_inverse, G2, unfused steps): the elements inverted are the
// norms N(d) = d0² + d1² ∈ Fp of the Fp2 denominators (parts 1–3 in Fp: the prefix products,
// the levels, the walk back), part 1 stores each N(d) beside its prefix, and part 3 takes
// d⁻¹ = conj(d)·N(d)⁻¹ (d·conj(d) = N(d) since u² = −1). In Fp products (an Fp2 product is 3):
// part 1 3 → 2 + 1, the walk back 6 → 2 + 2; the prefix and the norm take the 96 bytes per lane
// that the Fp2 prefix took.
// Memory per addition: the record (8 bytes) twice, the sum's x and the point's x in part 1, both
// points in part 3, the sum written back, the prefix written and read.
// Variants (AffineVariant): part 3 for G1 compiled for 4 blocks per SM (add_kernel_bounded, the
// default), its walk's running inverse moved on before each addition or after it
// (early_advance); part 3 of step s and part 1 of step s + 1 as one kernel (add_denominators_kernel,
// measured slower: off), whose prefix chains then alternate direction from step to step; parts
// 1 and 2 of each part on a stream of the greatest priority (`priority`), ordered against the
// part's stream by events, so that they do not queue behind the other part's addition blocks.
#include <optional>
#include <type_traits>

#include "gpu/batch_inverse.cuh"
#include "gpu/batch_inverse_launch.hpp"
#include "gpu/msm_launch.hpp"
#include "gpu/msm_run_store.cuh"
#include "gpu/vector_access.cuh"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 128;
constexpr unsigned kMaxParts = kMaxAffineParts;

// Lane records: the key in the low bits (num_keys ≤ 12·2^21 < 2^25 for windows of ≤ 22 bits),
// flags above; kIdle for an item past its chunk's end or with an empty digit.
constexpr uint32_t kIdle = 0xffffffffu;
constexpr uint32_t kKeyMask = (1u << 25) - 1;
constexpr uint32_t kRunStart = 1u << 25;  // the running sum before this item is the identity
constexpr uint32_t kRunEnd = 1u << 26;    // the run's sum is stored after this item ...
constexpr uint32_t kToFirst = 1u << 27;   // ... to first[ℓ]
constexpr uint32_t kToLast = 1u << 28;    // ... to last[ℓ] (neither flag: to buckets[key])

// Blocks of 32 × 8 threads transpose tiles of 32 lanes × 32 steps through shared memory: reads
// along each lane's chunk, writes along the lanes of a step.
constexpr unsigned kTile = 32;
constexpr unsigned kTileRows = 8;

__global__ void lane_records_kernel(const uint32_t* keys, const uint32_t* values, size_t items,
                                    uint32_t num_keys, uint32_t chunk, size_t lanes,
                                    uint32_t* lane_keys, uint32_t* lane_values) {
    __shared__ uint32_t tile_keys[kTile][kTile + 1];
    __shared__ uint32_t tile_values[kTile][kTile + 1];
    const size_t lane0 = size_t{blockIdx.x} * kTile;
    const uint32_t step0 = blockIdx.y * kTile;
    for (unsigned j = threadIdx.y; j < kTile; j += kTileRows) {
        const size_t lane = lane0 + j;
        const uint32_t step = step0 + threadIdx.x;
        uint32_t record = kIdle, value = 0;
        if (lane < lanes && step < chunk) {
            const size_t lo = lane * chunk;
            const size_t hi = lo + chunk < items ? lo + chunk : items;
            const size_t q = lo + step;
            const uint32_t key = q < hi ? keys[q] : num_keys;
            if (key < num_keys) {
                record = key;
                value = values[q];
                if (step == 0 || keys[q - 1] != key) record |= kRunStart;
                if (q + 1 == hi || keys[q + 1] != key) {
                    record |= kRunEnd;
                    const RunDestination where =
                        run_destination(keys, items, lo, hi, q, key, keys[lo] == key);
                    if (where == RunDestination::kFirst) record |= kToFirst;
                    if (where == RunDestination::kLast) record |= kToLast;
                }
            }
        }
        tile_keys[j][threadIdx.x] = record;
        tile_values[j][threadIdx.x] = value;
    }
    __syncthreads();
    for (unsigned j = threadIdx.y; j < kTile; j += kTileRows) {
        const uint32_t step = step0 + j;
        const size_t lane = lane0 + threadIdx.x;
        if (lane < lanes && step < chunk) {
            lane_keys[size_t{step} * lanes + lane] = tile_keys[threadIdx.x][j];
            lane_values[size_t{step} * lanes + lane] = tile_values[threadIdx.x][j];
        }
    }
}

// The slope denominator of sum + (negate ? −point : point), or one where the addition needs no
// inversion (see the file comment). px is point->x, loaded by the caller; sum_x() and sum_y()
// give the running sum's coordinates (from memory, or from registers in the fused step); y is
// asked for only when the x coordinates do not decide. add_lane reaches the same decisions
// from whole points.
template <class C, class SumX, class SumY>
__device__ typename C::Field step_denominator(bool run_start, const typename C::Field& px,
                                              SumX&& sum_x, SumY&& sum_y,
                                              const ec::Affine<C>* point, bool negate) {
    using F = typename C::Field;
    if (px.is_zero() && point->y.is_zero()) return F::one();  // the point is the identity
    if (run_start) return F::one();
    const F sx = sum_x();
    if (sx.is_zero() && sum_y().is_zero()) return F::one();  // the sum is the identity
    if (!(sx == px)) return px - sx;
    const F py = negate ? -point->y : point->y;
    const F sy = sum_y();
    return sy == py ? sy.dbl() : F::one();
}

// What a step inverts (see the file comment): the denominators d themselves, or (kNorm, Fp2
// fields) their norms in the base field. element(d) is what the prefix products multiply;
// inverse(d, e⁻¹) gives d⁻¹ from the inverse of element(d).
template <class C, bool kNorm>
struct Inversion {
    using F = typename C::Field;
    using E = F;
    static __device__ __forceinline__ E element(const F& d) { return d; }
    static __device__ __forceinline__ F inverse(const F&, const E& e_inverse) { return e_inverse; }
};
template <class C>
struct Inversion<C, true> {
    using F = typename C::Field;
    using E = DeviceFp;
    static __device__ __forceinline__ E element(const F& d) { return d.norm(); }
    static __device__ __forceinline__ F inverse(const F& d, const E& norm_inverse) {
        return d.conjugate() * norm_inverse;
    }
};

// One part's view of a step: its lanes' records and running sums (pointers offset to the part's
// first lane), and the part's group products.
template <class C, bool kNorm = false>
struct PartStep {
    using F = typename C::Field;
    using E = typename Inversion<C, kNorm>::E;
    const uint32_t* records;  // lane_keys + step·L + first lane
    const uint32_t* values;
    F* sums_x;
    F* sums_y;
    E* prefix;
    E* norms;  // kNorm: each lane's element(d), written in part 1, read in part 3
    size_t lanes;    // in this part
    size_t threads;  // ⌈lanes / kAffineLanesPerThread⌉
    bool prefetch;   // ask L2 for the point of the lane a thread visits next (prefetch_point)
};

// Starts moving lane i's point into L2 without waiting for it (PTX prefetch.global.L2, one per
// 128-byte line it touches), so that the thread's next visit finds it there instead of
// paying a DRAM latency after the dependent loads of its record and value.
template <class C, bool kNorm>
__device__ __forceinline__ void prefetch_point(const ec::Affine<C>* bases,
                                               const PartStep<C, kNorm>& part, size_t i) {
    const uint32_t record = part.records[i];
    if (record == kIdle) return;
    const uintptr_t begin = reinterpret_cast<uintptr_t>(bases + (part.values[i] & ~kNegativeFlag));
    const uintptr_t end = begin + sizeof(ec::Affine<C>);
    for (uintptr_t line = begin & ~uintptr_t{127}; line < end; line += 128)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
}

// A lane's item (record, value) and its point's x (zero for an idle record), loaded together so
// that the fused step can issue the loads before its addition's products.
template <class C>
struct LaneItem {
    uint32_t record;
    uint32_t value;
    typename C::Field px;
};
// kVec (AffineVariant::vector_io): the point's x in 16-byte loads.
template <class C, bool kVec = false>
__device__ __forceinline__ LaneItem<C> load_lane_item(const ec::Affine<C>* bases,
                                                      const uint32_t* records,
                                                      const uint32_t* values, size_t i) {
    LaneItem<C> item{records[i], 0, C::Field::zero()};
    if (item.record != kIdle) {
        item.value = values[i];
        item.px = load_maybe16<kVec>(&bases[item.value & ~kNegativeFlag].x);
    }
    return item;
}

// The denominator of a lane's item against its running sum.
template <class C, class SumX, class SumY>
__device__ typename C::Field lane_denominator(const ec::Affine<C>* bases, const LaneItem<C>& item,
                                              SumX&& sum_x, SumY&& sum_y) {
    if (item.record == kIdle) return C::Field::one();
    return step_denominator<C>((item.record & kRunStart) != 0, item.px, sum_x, sum_y,
                               bases + (item.value & ~kNegativeFlag),
                               (item.value & kNegativeFlag) != 0);
}

// In part 3's walk of group t (against up's walk, `reverse` as there), prefetch_point for the
// lane visited after lane i, if any and if asked for.
template <class C, bool kNorm>
__device__ __forceinline__ void prefetch_next_visit(const ec::Affine<C>* bases,
                                                    const PartStep<C, kNorm>& part, size_t t,
                                                    size_t i, bool reverse) {
    if (!part.prefetch) return;
    if (!reverse && i >= t + part.threads) prefetch_point(bases, part, i - part.threads);
    if (reverse && i + part.threads < part.lanes) prefetch_point(bases, part, i + part.threads);
}

template <class C, bool kNorm, bool kVec = false>
__global__ void denominators_kernel(const ec::Affine<C>* bases, PartStep<C, kNorm> part,
                                    typename PartStep<C, kNorm>::E* products) {
    using E = typename PartStep<C, kNorm>::E;
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= part.threads) return;
    products[t] = prefix_products_up<E>(t, part.threads, part.lanes, part.prefix,
                                        [&](size_t i) -> E {
        if (part.prefetch && i + part.threads < part.lanes)
            prefetch_point(bases, part, i + part.threads);
        const E e = Inversion<C, kNorm>::element(
            lane_denominator(bases, load_lane_item<C, kVec>(bases, part.records, part.values, i),
                             [&] { return load_maybe16<kVec>(part.sums_x + i); },
                             [&] { return part.sums_y[i]; }));
        if constexpr (kNorm) part.norms[i] = e;
        return e;
    });
}

// Stores a lane's new sum r: as its running sum, or at the end of a run (record's flags) as the
// run's sum (XYZZ) at its destination; *sum receives the running sum the lane's next item meets
// (the identity after a run's end). kVec: the running sum in 16-byte stores.
template <class C, bool kNorm, bool kVec>
__device__ __forceinline__ void store_lane_result(const PartStep<C, kNorm>& part, size_t i,
                                                  uint32_t record, const ec::Affine<C>& r,
                                                  ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                                  ec::Xyzz<C>* last, ec::Affine<C>* sum) {
    if (!(record & kRunEnd)) {
        store_maybe16<kVec>(part.sums_x + i, r.x);
        store_maybe16<kVec>(part.sums_y + i, r.y);
        *sum = r;
    } else {
        const RunDestination where = (record & kToFirst)  ? RunDestination::kFirst
                                     : (record & kToLast) ? RunDestination::kLast
                                                          : RunDestination::kBucket;
        store_run_sum(where, record & kKeyMask, i, ec::Xyzz<C>::from_affine(r), buckets, first,
                      last);
        *sum = ec::Affine<C>::identity();
    }
}

// A lane's addition in two halves, for the early advance (add_walk's kEarly):
// prepare_lane_addition loads the lane's point and running sum and finds the slope denominator
// d; finish_lane_addition, given d⁻¹, adds and stores — add_lane's decisions and stores, taken
// apart. (add_lane is not written as the two halves: ptxas then gives the late walk's bounded
// kernel 96–108 bytes of spill stores instead of 64, and the unbounded one 145–154 registers
// instead of 136.) `how` says what the sum becomes: the running sum (the point is the
// identity), the point (the sum is the identity), the identity (the point is the sum's
// negative), a + p through d⁻¹ — or nothing, for an idle record. d is one unless `how` is kAdd.
enum class LaneResult : uint8_t { kIdle, kSum, kPoint, kIdentity, kAdd };
template <class C>
struct LaneAddition {
    ec::Affine<C> p;  // the lane's point, negated where its value says so
    ec::Affine<C> a;  // the running sum
    typename C::Field d;
    uint32_t record;  // part.records[i]
    LaneResult how;
};

// kVec: the point and the running sum in 16-byte loads.
template <class C, bool kNorm, bool kVec = false>
__device__ __forceinline__ LaneAddition<C> prepare_lane_addition(const ec::Affine<C>* bases,
                                                                 const PartStep<C, kNorm>& part,
                                                                 size_t i, uint32_t record) {
    using F = typename C::Field;
    using A = ec::Affine<C>;
    LaneAddition<C> s;
    s.record = record;
    s.d = F::one();
    if (record == kIdle) {
        s.how = LaneResult::kIdle;
        return s;
    }
    const uint32_t v = part.values[i];
    s.p = load_maybe16<kVec>(bases + (v & ~kNegativeFlag));
    if (v & kNegativeFlag) s.p = -s.p;
    s.a = (record & kRunStart)
              ? A::identity()
              : A{load_maybe16<kVec>(part.sums_x + i), load_maybe16<kVec>(part.sums_y + i)};
    if (s.p.is_identity()) {
        s.how = LaneResult::kSum;
    } else if (s.a.is_identity()) {
        s.how = LaneResult::kPoint;
    } else {
        const F d = ec::affine_add_denominator(s.a, s.p);
        if (d.is_zero()) {  // p = −a
            s.how = LaneResult::kIdentity;
        } else {
            s.how = LaneResult::kAdd;
            s.d = d;
        }
    }
    return s;
}

// Adds and stores the prepared addition (store_lane_result; nothing for an idle item, whose sum
// stays in memory). inverse_of(d) = d⁻¹ is asked for only where `how` is kAdd.
template <class C, bool kNorm, bool kVec = false, class InverseOf>
__device__ __forceinline__ void finish_lane_addition(const PartStep<C, kNorm>& part, size_t i,
                                                     const LaneAddition<C>& s,
                                                     InverseOf&& inverse_of,
                                                     ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                                     ec::Xyzz<C>* last, ec::Affine<C>* sum) {
    using A = ec::Affine<C>;
    if (s.how == LaneResult::kIdle) return;
    A r;
    if (s.how == LaneResult::kAdd) r = ec::affine_add_with_inverse(s.a, s.p, inverse_of(s.d));
    else if (s.how == LaneResult::kSum) r = s.a;
    else if (s.how == LaneResult::kPoint) r = s.p;
    else r = A::identity();
    store_lane_result<C, kNorm, kVec>(part, i, s.record, r, buckets, first, last, sum);
}

// Adds lane i's point of this step to its running sum, given inverse_of(d_i) = d_i⁻¹, and stores
// the result: as the running sum, or at the end of a run as the run's sum (XYZZ) at its
// destination. Returns d_i; *sum receives the running sum the lane's next item meets (the
// identity after a run's end; unchanged for an idle item, whose sum stays in memory).
// `record` is part.records[i]. kVec: the point and the running sum in 16-byte accesses.
template <class C, bool kNorm, bool kVec = false, class InverseOf>
__device__ typename C::Field add_lane(const ec::Affine<C>* bases, const PartStep<C, kNorm>& part,
                                      size_t i, uint32_t record, InverseOf&& inverse_of,
                                      ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                      ec::Xyzz<C>* last, ec::Affine<C>* sum) {
    using F = typename C::Field;
    using A = ec::Affine<C>;
    if (record == kIdle) return F::one();
    const uint32_t v = part.values[i];
    A p = load_maybe16<kVec>(bases + (v & ~kNegativeFlag));
    if (v & kNegativeFlag) p = -p;
    const A a = (record & kRunStart)
                    ? A::identity()
                    : A{load_maybe16<kVec>(part.sums_x + i), load_maybe16<kVec>(part.sums_y + i)};
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
            r = ec::affine_add_with_inverse(a, p, inverse_of(d));
        }
    }
    store_lane_result<C, kNorm, kVec>(part, i, record, r, buckets, first, last, sum);
    return d;
}

// Part 3 of a step: each thread walks its group back (against up's walk, `reverse` as there)
// and adds every lane's point. kEarly (AffineVariant::early_advance): the walk's running inverse
// moves on by the lane's element before the addition (prefix_products_down_early), so that
// neither the element nor the old running inverse is live across the addition's products.
template <class C, bool kNorm, bool kVec = false, bool kEarly = false>
__device__ __forceinline__ void add_walk(const ec::Affine<C>* bases,
                                         const PartStep<C, kNorm>& part,
                                         const typename PartStep<C, kNorm>::E* product_inverses,
                                         ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                         ec::Xyzz<C>* last, bool reverse) {
    using F = typename C::Field;
    using E = typename PartStep<C, kNorm>::E;
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= part.threads) return;
    // The element part 1 multiplied in for lane i: its stored norm, or d (computed alike).
    auto element_of = [&](size_t i, const F& d) -> E {
        if constexpr (kNorm) return part.norms[i];
        else return d;
    };
    if constexpr (kEarly) {
        LaneAddition<C> s;
        prefix_products_down_early<E>(
            t, part.threads, part.lanes, part.prefix, product_inverses[t],
            [&](size_t i) -> E {
                prefetch_next_visit(bases, part, t, i, reverse);
                s = prepare_lane_addition<C, kNorm, kVec>(bases, part, i, part.records[i]);
                return element_of(i, s.d);
            },
            [&](size_t i, const E& e_inverse) {
                ec::Affine<C> sum;
                finish_lane_addition<C, kNorm, kVec>(
                    part, i, s,
                    [&](const F& x) { return Inversion<C, kNorm>::inverse(x, e_inverse); },
                    buckets, first, last, &sum);
            },
            reverse);
    } else {
        prefix_products_down<E>(
            t, part.threads, part.lanes, part.prefix, product_inverses[t],
            [&](size_t i, const E& e_inverse) -> E {
                prefetch_next_visit(bases, part, t, i, reverse);
                ec::Affine<C> sum;
                const F d = add_lane<C, kNorm, kVec>(
                    bases, part, i, part.records[i],
                    [&](const F& x) { return Inversion<C, kNorm>::inverse(x, e_inverse); },
                    buckets, first, last, &sum);
                return element_of(i, d);
            },
            reverse);
    }
}
template <class C, bool kNorm, bool kVec = false>
__global__ void add_kernel(const ec::Affine<C>* bases, PartStep<C, kNorm> part,
                           const typename PartStep<C, kNorm>::E* product_inverses,
                           ec::Xyzz<C>* buckets, ec::Xyzz<C>* first, ec::Xyzz<C>* last,
                           bool reverse) {
    add_walk<C, kNorm, kVec>(bases, part, product_inverses, buckets, first, last, reverse);
}
// The same, compiled for kBoundedAddBlocks resident blocks per SM (at most 128 registers; G1
// only: AffineVariant::add_min_blocks), with the running inverse moved on early or not. ptxas
// (CUDA 13.0, sm_90): late 128 registers with 64 bytes of spill stores and 72 of loads, early
// 124–128 with none (unbounded, the early walk needs 126–128 and the late one 136).
constexpr unsigned kBoundedAddBlocks = 4;
template <class C, bool kVec = false, bool kEarly = false>
__global__ void __launch_bounds__(kBlock, kBoundedAddBlocks)
    add_kernel_bounded(const ec::Affine<C>* bases, PartStep<C> part,
                       const typename C::Field* product_inverses, ec::Xyzz<C>* buckets,
                       ec::Xyzz<C>* first, ec::Xyzz<C>* last, bool reverse) {
    add_walk<C, false, kVec, kEarly>(bases, part, product_inverses, buckets, first, last,
                                     reverse);
}

// Part 3 of step s fused with part 1 of step s + 1 (GpuMsmOptions::batch_affine_fused): as
// add_kernel, and right after lane i's addition the lane's next denominator from the new
// running sum still in registers — instead of a kernel that reads the sums and records again.
// The next step's prefix products run in this walk's order, i.e. against this step's up walk;
// each prefix[i] is overwritten after the walk has read it. The group's product of the next
// step goes to next_products[t] (the next step walks with the opposite `reverse`).
template <class C>
__global__ void add_denominators_kernel(const ec::Affine<C>* bases, PartStep<C> part,
                                        const uint32_t* next_records,
                                        const uint32_t* next_values,
                                        const typename C::Field* product_inverses,
                                        typename C::Field* next_products, ec::Xyzz<C>* buckets,
                                        ec::Xyzz<C>* first, ec::Xyzz<C>* last, bool reverse) {
    using F = typename C::Field;
    const size_t t = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (t >= part.threads) return;
    F next = F::one();
    bool started = false;
    prefix_products_down<F>(
        t, part.threads, part.lanes, part.prefix, product_inverses[t],
        [&](size_t i, const F& inverse) {
            prefetch_next_visit(bases, part, t, i, reverse);
            const uint32_t record = part.records[i];
            // The next item and its point's x first, so that their loads overlap the addition.
            const LaneItem<C> next_item = load_lane_item(bases, next_records, next_values, i);
            ec::Affine<C> sum;
            const F d = add_lane(bases, part, i, record, [&](const F&) { return inverse; },
                                 buckets, first, last, &sum);
            F d_next;
            if (record == kIdle) {  // the sum, if any, is in memory
                d_next = lane_denominator(bases, next_item, [&] { return part.sums_x[i]; },
                                          [&] { return part.sums_y[i]; });
            } else {
                d_next = lane_denominator(bases, next_item, [&] { return sum.x; },
                                          [&] { return sum.y; });
            }
            next = started ? next * d_next : d_next;
            started = true;
            part.prefix[i] = next;
            return d;
        },
        reverse);
    next_products[t] = next;
}

// Byte offsets of the scratch's parts (each 256-byte aligned): per lane the running sum's x and
// y (field_bytes each), the prefix product and with norms the norm (element_bytes each: the
// inverted field's); per part its group products, their inverses, the inversion's levels.
struct AffineLayout {
    size_t lanes = 0;
    unsigned parts = 0;
    size_t part_begin[kMaxParts + 1] = {};
    size_t part_threads[kMaxParts] = {};
    size_t sums_x = 0, sums_y = 0, prefix = 0, norms = 0;
    size_t products[kMaxParts] = {}, inverses[kMaxParts] = {}, inverse_scratch[kMaxParts] = {};
    size_t total = 0;
};

size_t align256(size_t bytes) { return (bytes + 255) / 256 * 256; }

AffineLayout affine_layout(size_t items, uint32_t chunk, size_t field_bytes, unsigned parts,
                           size_t element_bytes, bool norms) {
    AffineLayout l;
    l.lanes = (items + chunk - 1) / chunk;
    l.parts = parts;
    size_t at = 0;
    auto take = [&](size_t bytes) {
        const size_t offset = at;
        at += align256(bytes);
        return offset;
    };
    l.sums_x = take(l.lanes * field_bytes);
    l.sums_y = take(l.lanes * field_bytes);
    l.prefix = take(l.lanes * element_bytes);
    if (norms) l.norms = take(l.lanes * element_bytes);
    for (unsigned p = 0; p <= parts; ++p) l.part_begin[p] = l.lanes * p / parts;
    for (unsigned p = 0; p < parts; ++p) {
        const size_t lanes = l.part_begin[p + 1] - l.part_begin[p];
        l.part_threads[p] = (lanes + kAffineLanesPerThread - 1) / kAffineLanesPerThread;
        l.products[p] = take(l.part_threads[p] * element_bytes);
        l.inverses[p] = take(l.part_threads[p] * element_bytes);
        l.inverse_scratch[p] =
            take(batch_inverse_scratch_elements(l.part_threads[p]) * element_bytes);
    }
    l.total = at;
    return l;
}

// A second stream for the duration of one accumulation: forked from `main` at construction
// (created with `priority`, 0 being the default; lower numbers run first), ordered against it
// by side_waits_main() / main_waits_side() as often as needed, and joined back into main at
// destruction (main waits for everything enqueued on the side stream; then it is released).
class ForkedStream {
   public:
    explicit ForkedStream(cudaStream_t main, int priority = 0) : main_(main) {
        err_ = cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, priority);
        if (err_ == cudaSuccess) err_ = cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming);
        if (err_ == cudaSuccess) err_ = cudaEventCreateWithFlags(&join_, cudaEventDisableTiming);
        if (err_ == cudaSuccess) err_ = side_waits_main();
    }
    ~ForkedStream() {
        if (side_ != nullptr && join_ != nullptr) (void)main_waits_side();
        if (fork_ != nullptr) (void)cudaEventDestroy(fork_);
        if (join_ != nullptr) (void)cudaEventDestroy(join_);
        if (side_ != nullptr) (void)cudaStreamDestroy(side_);
    }
    ForkedStream(const ForkedStream&) = delete;
    ForkedStream& operator=(const ForkedStream&) = delete;

    cudaError_t status() const { return err_; }
    cudaStream_t side() const { return side_; }
    // The side stream waits for everything enqueued on main so far.
    cudaError_t side_waits_main() {
        cudaError_t err = cudaEventRecord(fork_, main_);
        if (err == cudaSuccess) err = cudaStreamWaitEvent(side_, fork_, 0);
        return err;
    }
    // main waits for everything enqueued on the side stream so far.
    cudaError_t main_waits_side() {
        cudaError_t err = cudaEventRecord(join_, side_);
        if (err == cudaSuccess) err = cudaStreamWaitEvent(main_, join_, 0);
        return err;
    }

   private:
    cudaStream_t main_;
    cudaStream_t side_ = nullptr;
    cudaEvent_t fork_ = nullptr, join_ = nullptr;
    cudaError_t err_ = cudaSuccess;
};

// The greatest stream priority of the current device (the numerically lowest).
int greatest_stream_priority() {
    int least = 0, greatest = 0;
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess) return 0;
    return greatest;
}

// The steps of one accumulation, after its lane records (see launch_msm_accumulate_affine);
// kNorm: AffineVariant::norm_inverse in effect (the layout has the norms).
template <class C, bool kNorm>
cudaError_t run_affine_steps(const ec::Affine<C>* bases, size_t items, uint32_t chunk,
                             ec::Xyzz<C>* buckets, ec::Xyzz<C>* first, ec::Xyzz<C>* last,
                             const uint32_t* lane_keys, const uint32_t* lane_values,
                             const AffineLayout& l, char* base, const AffineVariant& variant,
                             cudaStream_t stream) {
    using F = typename C::Field;
    using E = typename PartStep<C, kNorm>::E;
    auto field_at = [&](size_t offset) { return reinterpret_cast<F*>(base + offset); };
    auto element_at = [&](size_t offset) { return reinterpret_cast<E*>(base + offset); };
    cudaError_t err = cudaSuccess;

    // Part 0 on the caller's stream, each further part on a stream forked from it.
    std::optional<ForkedStream> forks[kMaxParts];
    cudaStream_t streams[kMaxParts] = {stream};
    for (unsigned p = 1; p < l.parts; ++p) {
        forks[p].emplace(stream);
        if (forks[p]->status() != cudaSuccess) return forks[p]->status();
        streams[p] = forks[p]->side();
    }
    // variant.priority (unfused steps): each part's denominators and inversion on a stream of
    // the greatest priority, forked from the part's stream, so that their blocks take the SMs'
    // free slots ahead of the other part's pending addition blocks.
    std::optional<ForkedStream> urgent[kMaxParts];
    const bool priority = variant.priority && !variant.fused;
    if (priority) {
        const int greatest = greatest_stream_priority();
        for (unsigned p = 0; p < l.parts; ++p) {
            urgent[p].emplace(streams[p], greatest);
            if (urgent[p]->status() != cudaSuccess) return urgent[p]->status();
        }
    }
    const uint32_t steps = items < chunk ? static_cast<uint32_t>(items) : chunk;
    // Fused (variant.fused, never with kNorm): step 0's denominators alone, then each step's
    // additions together with the next step's denominators, whose prefix chains run the other
    // way round.
    const bool fused = !kNorm && variant.fused;
    // variant.vector_io (unfused; G1, and G2 with the norm inversion): the kernels with 16-byte
    // accesses, where the bases and the scratch (whose arrays start at 256-byte offsets, lanes
    // 48 or 96 bytes apart) are aligned.
    auto* denominators = &denominators_kernel<C, kNorm>;
    auto* add = &add_kernel<C, kNorm>;
    constexpr bool kG1 = kIsG1Curve<C>;
    // variant.early_advance: G1's bounded kernels whose walks move their running inverse on
    // before each addition. (G2's norm-inversion kernel in that form measured worse in ptxas:
    // 255 registers, 100 bytes of spill stores and a 776-byte frame, against 222–226 and none.)
    if constexpr (kG1 || (kNorm && std::is_same_v<C, DeviceG2Curve>)) {
        const bool vec = variant.vector_io && !fused && aligned16(bases) && aligned16(base);
        if (vec) {
            denominators = &denominators_kernel<C, kNorm, true>;
            add = &add_kernel<C, kNorm, true>;
        }
        if constexpr (kG1) {
            if (variant.add_min_blocks >= kBoundedAddBlocks) {
                if (variant.early_advance)
                    add = vec ? &add_kernel_bounded<C, true, true>
                              : &add_kernel_bounded<C, false, true>;
                else
                    add = vec ? &add_kernel_bounded<C, true> : &add_kernel_bounded<C>;
            }
        }
    }
    bool reverse = false;
    for (uint32_t step = 0; step < steps; ++step, reverse = fused && !reverse) {
        for (unsigned p = 0; p < l.parts; ++p) {
            const size_t begin = l.part_begin[p];
            PartStep<C, kNorm> part;
            part.records = lane_keys + size_t{step} * l.lanes + begin;
            part.values = lane_values + size_t{step} * l.lanes + begin;
            part.sums_x = field_at(l.sums_x) + begin;
            part.sums_y = field_at(l.sums_y) + begin;
            part.prefix = element_at(l.prefix) + begin;
            part.norms = kNorm ? element_at(l.norms) + begin : nullptr;
            part.lanes = l.part_begin[p + 1] - begin;
            part.threads = l.part_threads[p];
            part.prefetch = variant.prefetch;
            if (part.lanes == 0) continue;
            const unsigned grid = static_cast<unsigned>((part.threads + kBlock - 1) / kBlock);
            E* products = element_at(l.products[p]);
            E* inverses = element_at(l.inverses[p]);
            // The denominators and the inversion: on the part's stream, or after the part's
            // previous additions on its urgent stream.
            if (priority && (err = urgent[p]->side_waits_main()) != cudaSuccess) return err;
            const cudaStream_t first_half = priority ? urgent[p]->side() : streams[p];
            if (!fused || step == 0) {
                denominators<<<grid, kBlock, 0, first_half>>>(bases, part, products);
                if ((err = cudaGetLastError()) != cudaSuccess) return err;
            }
            err = launch_batch_inverse(products, inverses, part.threads,
                                       element_at(l.inverse_scratch[p]), first_half);
            if (err != cudaSuccess) return err;
            if (priority && (err = urgent[p]->main_waits_side()) != cudaSuccess) return err;
            if constexpr (!kNorm) {
                if (fused && step + 1 < steps) {
                    const size_t next = size_t{step + 1} * l.lanes + begin;
                    add_denominators_kernel<C><<<grid, kBlock, 0, streams[p]>>>(
                        bases, part, lane_keys + next, lane_values + next, inverses, products,
                        buckets, first + begin, last + begin, reverse);
                    if ((err = cudaGetLastError()) != cudaSuccess) return err;
                    continue;
                }
            }
            add<<<grid, kBlock, 0, streams[p]>>>(bases, part, inverses, buckets, first + begin,
                                                 last + begin, reverse);
            if ((err = cudaGetLastError()) != cudaSuccess) return err;
        }
    }
    // Each part's stream already waits for its urgent stream (before every step's additions);
    // the caller's stream waits for the other parts'.
    for (unsigned p = 1; p < l.parts; ++p)
        if ((err = forks[p]->main_waits_side()) != cudaSuccess) return err;
    return cudaSuccess;
}

// Whether a field of field_bytes is an extension whose denominators norm_inverse takes to Fp.
constexpr bool has_norm(size_t field_bytes) { return field_bytes != sizeof(DeviceFp); }

}  // namespace

template <class C>
cudaError_t launch_msm_accumulate_affine(const ec::Affine<C>* bases, const uint32_t* keys,
                                         const uint32_t* values, size_t items,
                                         uint32_t num_buckets, uint32_t chunk,
                                         ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                         ec::Xyzz<C>* last, uint32_t* lane_keys,
                                         uint32_t* lane_values, void* scratch,
                                         size_t scratch_bytes, AffineVariant variant,
                                         cudaStream_t stream) {
    using F = typename C::Field;
    if (num_buckets == 0 || num_buckets > kKeyMask || chunk == 0) return cudaErrorInvalidValue;
    if (variant.parts == 0 || variant.parts > kMaxParts) return cudaErrorInvalidValue;
    if (items == 0) return cudaSuccess;
    constexpr bool kExtension = has_norm(sizeof(F));
    const bool norm = kExtension && variant.norm_inverse && !variant.fused;
    const AffineLayout l = affine_layout(items, chunk, sizeof(F), variant.parts,
                                         norm ? sizeof(DeviceFp) : sizeof(F), norm);
    if (scratch == nullptr || scratch_bytes < l.total) return cudaErrorInvalidValue;

    const dim3 tiles(static_cast<unsigned>((l.lanes + kTile - 1) / kTile),
                     (chunk + kTile - 1) / kTile);
    lane_records_kernel<<<tiles, dim3(kTile, kTileRows), 0, stream>>>(
        keys, values, items, num_buckets, chunk, l.lanes, lane_keys, lane_values);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    char* base = static_cast<char*>(scratch);
    if constexpr (kExtension) {
        if (norm)
            return run_affine_steps<C, true>(bases, items, chunk, buckets, first, last, lane_keys,
                                             lane_values, l, base, variant, stream);
    }
    return run_affine_steps<C, false>(bases, items, chunk, buckets, first, last, lane_keys,
                                      lane_values, l, base, variant, stream);
}

size_t msm_affine_scratch_bytes(size_t items, uint32_t chunk, size_t field_bytes) {
    if (chunk == 0) return 0;
    size_t most = 0;
    for (unsigned parts = 1; parts <= kMaxParts; ++parts) {
        for (bool norm : {false, true}) {
            if (norm && !has_norm(field_bytes)) continue;
            const size_t bytes = affine_layout(items, chunk, field_bytes, parts,
                                               norm ? sizeof(DeviceFp) : field_bytes, norm)
                                     .total;
            most = bytes > most ? bytes : most;
        }
    }
    return most;
}

#define CUZK_MSM_AFFINE_LAUNCHER(C)                                                              \
    template cudaError_t launch_msm_accumulate_affine<C>(                                        \
        const ec::Affine<C>*, const uint32_t*, const uint32_t*, size_t, uint32_t, uint32_t,      \
        ec::Xyzz<C>*, ec::Xyzz<C>*, ec::Xyzz<C>*, uint32_t*, uint32_t*, void*, size_t,           \
        AffineVariant,                                                                            \
        cudaStream_t);
CUZK_MSM_AFFINE_LAUNCHER(DeviceG1Curve)
CUZK_MSM_AFFINE_LAUNCHER(DeviceG1SquareCurve)
CUZK_MSM_AFFINE_LAUNCHER(DeviceG2Curve)
CUZK_MSM_AFFINE_LAUNCHER(DeviceG2LazyCurve)
#undef CUZK_MSM_AFFINE_LAUNCHER

}  // namespace cuzk::gpu::detail
