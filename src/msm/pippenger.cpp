// Pippenger's bucket method (see pippenger.hpp for the algorithm, cost model and threading).
#include "msm/pippenger.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace cuzk::msm {
namespace {

// A caller bug: report and stop, in every build type.
[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "cuzk::msm: %s\n", what);
    std::abort();
}

unsigned windows_for(unsigned c) { return kScalarBits / c + 1; }

// Cost of one window task in mixed-addition units: one per point, ~3 per bucket (aggregation
// is two full additions per bucket, each about 1.5 mixed additions).
double task_cost(double points, unsigned c) {
    return points + 3.0 * static_cast<double>(size_t{1} << (c - 1));
}

// m·p for m ≥ 1 by double-and-add (m is a small count of consecutive empty buckets).
template <class C>
ec::Xyzz<C> times(const ec::Xyzz<C>& p, size_t m) {
    if (m == 1) return p;
    ec::Xyzz<C> acc = p;
    for (int bit = 62 - __builtin_clzll(m); bit >= 0; --bit) {
        acc = acc.dbl();
        if ((m >> bit) & 1) acc += p;
    }
    return acc;
}

// Σ_{b < top} (b+1)·bucket_b by running sums: total = Σ_b running_b with
// running_b = Σ_{b' ≥ b} bucket_b'. `pending` counts the indices b whose running_b equals the
// current `running` and has not been added to total yet, so a run of empty buckets costs one
// small multiple instead of one addition each. is_empty(b) tells whether bucket b is empty;
// add_into(running, b) adds bucket b to running.
template <class C, class IsEmpty, class AddInto>
ec::Xyzz<C> aggregate(size_t top, IsEmpty&& is_empty, AddInto&& add_into) {
    ec::Xyzz<C> running = ec::Xyzz<C>::identity(), total = ec::Xyzz<C>::identity();
    size_t pending = 0;
    for (size_t b = top; b-- > 0;) {
        if (!is_empty(b)) {
            if (pending > 0) total += times(running, pending);
            add_into(running, b);
            pending = 0;
        }
        ++pending;
    }
    if (pending > 0) total += times(running, pending);
    return total;
}

// The shared pass over the bases: blocks of kSharedBlock consecutive points, each block visited
// by every set in turn, f(set, begin, end). A block (≤ 384 KB of G2 bases) stays in cache while
// the sets use it, so the bases are read from memory once for all the sets, and only one set's
// buckets are being updated at a time (interleaving the sets point by point instead made every
// set's buckets compete for the cache: measured 1.6× slower for four G2 sets on 2 cores).
constexpr size_t kSharedBlock = 2048;

template <class F>
void for_each_block(size_t n, size_t num_sets, F&& f) {
    for (size_t begin = 0; begin < n; begin += kSharedBlock) {
        const size_t end = std::min(n, begin + kSharedBlock);
        for (size_t k = 0; k < num_sets; ++k) f(k, begin, end);
    }
}

// S_j of every scalar set for one window j over one chunk of points, with XYZZ buckets: one
// mixed addition per (point, set) whose digit is non-zero. sets[k] is the chunk of set k; the
// bases are passed over once for all the sets (for_each_block).
template <class C>
void window_sums_xyzz(std::span<const ec::Affine<C>> bases,
                      std::span<const std::span<const ff::BigInt<4>>> sets,
                      const SignedDigits& digits, unsigned window, ec::Xyzz<C>* out) {
    using Xyzz = ec::Xyzz<C>;
    const size_t h = digits.num_buckets();
    std::vector<Xyzz> buckets(h * sets.size(), Xyzz::identity());
    std::vector<size_t> top(sets.size(), 0);  // buckets of set k at [top[k], h) are all empty
    for_each_block(bases.size(), sets.size(), [&](size_t k, size_t begin, size_t end) {
        Xyzz* mine = buckets.data() + k * h;
        for (size_t i = begin; i < end; ++i) {
            const int d = digits.digit(sets[k][i], window);
            if (d == 0) continue;
            // bucket index |d| − 1 holds the points whose digit is ±|d|
            const size_t b = static_cast<size_t>(d > 0 ? d : -d) - 1;
            mine[b] = mine[b].add_mixed(d > 0 ? bases[i] : -bases[i]);
            top[k] = std::max(top[k], b + 1);
        }
    });
    for (size_t k = 0; k < sets.size(); ++k) {
        const Xyzz* mine = buckets.data() + k * h;
        out[k] = aggregate<C>(
            top[k], [&](size_t b) { return mine[b].is_identity(); },
            [&](Xyzz& running, size_t b) { running += mine[b]; });
    }
}

// S_j for one window j over one chunk of points, with affine buckets filled by batches of
// affine additions sharing one inversion (see pippenger.hpp, MsmMethod::kBatchAffine).
template <class C>
class BatchAffineWindow {
   public:
    using F = typename C::Field;
    using Aff = ec::Affine<C>;
    using Xyzz = ec::Xyzz<C>;

    BatchAffineWindow(std::span<const Aff> bases, size_t buckets)
        : bases_(bases),
          affine_(buckets, Aff::identity()),
          overflow_(buckets, Xyzz::identity()),
          batch_of_(buckets, 0),
          batch_limit_(batch_size(buckets)) {
        ops_.reserve(batch_limit_);
        denominators_.reserve(batch_limit_);
    }

    // batch_size(h) = clamp(h / 4, 1, kMaxBatch): few collisions, one inversion per ≤ 1024 adds.
    static size_t batch_size(size_t buckets) {
        return std::clamp<size_t>(buckets / 4, 1, kMaxBatch);
    }

    // Adds bases[i] (negated if asked) to bucket b; bases[i] is not the identity.
    void add(size_t b, size_t i, bool negate) {
        top_ = std::max(top_, b + 1);
        if (batch_of_[b] == batch_id_) {  // bucket already in this batch: XYZZ side bucket
            overflow_[b] = overflow_[b].add_mixed(negate ? -bases_[i] : bases_[i]);
            return;
        }
        batch_of_[b] = batch_id_;
        ops_.push_back({static_cast<uint32_t>(b), i, negate});
        if (ops_.size() == batch_limit_) apply_batch();
    }

    Xyzz finish() {
        apply_batch();
        return aggregate<C>(
            top_,
            [&](size_t b) { return affine_[b].is_identity() && overflow_[b].is_identity(); },
            [&](Xyzz& running, size_t b) {
                running = running.add_mixed(affine_[b]);
                if (!overflow_[b].is_identity()) running += overflow_[b];
            });
    }

   private:
    static constexpr size_t kMaxBatch = 1024;

    struct Op {
        uint32_t bucket;
        size_t point;
        bool negate;
    };

    Aff point(const Op& op) const { return op.negate ? -bases_[op.point] : bases_[op.point]; }

    // bucket += point for every op of the batch (distinct buckets), one shared inversion.
    void apply_batch() {
        denominators_.resize(ops_.size());
        for (size_t k = 0; k < ops_.size(); ++k) {
            const Aff& a = affine_[ops_[k].bucket];
            const Aff p = point(ops_[k]);
            if (a.is_identity()) {
                denominators_[k] = F::zero();  // a copy, no addition
            } else {
                denominators_[k] = ec::affine_add_denominator(a, p);  // zero: p = −a, bucket empties
            }
        }
        ff::batch_inverse(denominators_.data(), denominators_.size(), scratch_);
        for (size_t k = 0; k < ops_.size(); ++k) {
            Aff& a = affine_[ops_[k].bucket];
            const Aff p = point(ops_[k]);
            if (a.is_identity()) {
                a = p;
                continue;
            }
            if (denominators_[k].is_zero()) {
                a = Aff::identity();
                continue;
            }
            a = ec::affine_add_with_inverse(a, p, denominators_[k]);
        }
        ops_.clear();
        ++batch_id_;
    }

    std::span<const Aff> bases_;
    std::vector<Aff> affine_;      // the buckets' main part, affine (identity = empty)
    std::vector<Xyzz> overflow_;   // additions that met their bucket already in the batch
    std::vector<uint32_t> batch_of_;  // the batch a bucket last joined
    uint32_t batch_id_ = 1;
    size_t batch_limit_;
    size_t top_ = 0;  // buckets[top_..] are all empty
    std::vector<Op> ops_;
    std::vector<F> denominators_, scratch_;
};

template <class C>
void window_sums_batch_affine(std::span<const ec::Affine<C>> bases,
                              std::span<const std::span<const ff::BigInt<4>>> sets,
                              const SignedDigits& digits, unsigned window, ec::Xyzz<C>* out) {
    std::vector<BatchAffineWindow<C>> buckets;
    buckets.reserve(sets.size());
    for (size_t k = 0; k < sets.size(); ++k) buckets.emplace_back(bases, digits.num_buckets());
    for_each_block(bases.size(), sets.size(), [&](size_t k, size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const int d = digits.digit(sets[k][i], window);
            if (d == 0 || bases[i].is_identity()) continue;
            buckets[k].add(static_cast<size_t>(d > 0 ? d : -d) - 1, i, d < 0);
        }
    });
    for (size_t k = 0; k < sets.size(); ++k) out[k] = buckets[k].finish();
}

// Σ_i sets[k][i]·bases[i] for every k, in one pass over the bases per (window, chunk) task.
template <class C>
std::vector<ec::Jacobian<C>> pippenger(std::span<const ec::Affine<C>> bases,
                                       std::span<const std::span<const ff::BigInt<4>>> sets,
                                       const MsmOptions& options) {
    const size_t n = bases.size();
    const size_t num_sets = sets.size();
    for (const auto& set : sets) {
        if (set.size() != n) fail("msm: bases and scalars differ in length");
        for (const ff::BigInt<4>& k : set)
            if (k.limb[3] >> 63) fail("msm: scalar is not below 2^255");
    }
    std::vector<ec::Jacobian<C>> result(num_sets, ec::Jacobian<C>::identity());
    if (n == 0 || num_sets == 0) return result;

    const unsigned c = options.window_bits != 0 ? options.window_bits : default_window_bits(n);
    if (c > kMaxWindowBits) fail("msm: window_bits above kMaxWindowBits");
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    const SignedDigits digits(c);
    const unsigned windows = digits.num_windows();
    const size_t chunks = std::min<size_t>(
        n, options.point_chunks != 0 ? options.point_chunks
                                     : default_point_chunks(n, c, pool.size()));
    const size_t chunk_len = (n + chunks - 1) / chunks;
    const MsmMethod method = options.method != MsmMethod::kAuto ? options.method
                             : c >= kBatchAffineMinWindowBits ? MsmMethod::kBatchAffine
                                                              : MsmMethod::kXyzz;

    // Task t = (window t / chunks, chunk t % chunks): consecutive tasks share a window. The
    // partial sums of task t are partial[t * num_sets + k].
    std::vector<ec::Xyzz<C>> partial(size_t{windows} * chunks * num_sets);
    pool.parallel_for(size_t{windows} * chunks, [&](size_t t) {
        const unsigned window = static_cast<unsigned>(t / chunks);
        const size_t begin = std::min(n, (t % chunks) * chunk_len);
        const size_t len = std::min(n - begin, chunk_len);
        std::vector<std::span<const ff::BigInt<4>>> chunk_sets(num_sets);
        for (size_t k = 0; k < num_sets; ++k) chunk_sets[k] = sets[k].subspan(begin, len);
        ec::Xyzz<C>* out = partial.data() + t * num_sets;
        if (method == MsmMethod::kBatchAffine)
            window_sums_batch_affine<C>(bases.subspan(begin, len), chunk_sets, digits, window, out);
        else
            window_sums_xyzz<C>(bases.subspan(begin, len), chunk_sets, digits, window, out);
    });

    // Σ_j 2^(c·j)·S_j, highest window first, per set.
    for (size_t k = 0; k < num_sets; ++k) {
        ec::Jacobian<C>& acc = result[k];
        for (unsigned window = windows; window-- > 0;) {
            for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
            ec::Xyzz<C> s = ec::Xyzz<C>::identity();
            for (size_t chunk = 0; chunk < chunks; ++chunk)
                s += partial[(window * chunks + chunk) * num_sets + k];
            acc += s.to_jacobian();
        }
    }
    return result;
}

template <class C>
ec::Jacobian<C> pippenger_one(std::span<const ec::Affine<C>> bases,
                              std::span<const ff::BigInt<4>> scalars, const MsmOptions& options) {
    if (bases.size() != scalars.size()) fail("msm: bases and scalars differ in length");
    const std::span<const ff::BigInt<4>> sets[1] = {scalars};
    return pippenger<C>(bases, sets, options)[0];
}

// Fr (Montgomery form) → canonical integers, in parallel.
std::vector<ff::BigInt<4>> to_canonical(std::span<const ff::Fr> scalars,
                                        const MsmOptions& options) {
    std::vector<ff::BigInt<4>> out(scalars.size());
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    pool.parallel_ranges(scalars.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) out[i] = scalars[i].to_int();
    });
    return out;
}

}  // namespace

unsigned default_window_bits(size_t n) {
    if (n <= 1) return 1;
    unsigned best = 1;
    double best_cost = std::numeric_limits<double>::infinity();
    for (unsigned c = 1; c <= kMaxWindowBits; ++c) {
        const double cost = windows_for(c) * task_cost(static_cast<double>(n), c);
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

unsigned default_point_chunks(size_t n, unsigned window_bits, unsigned threads) {
    if (window_bits < 1 || window_bits > kMaxWindowBits) fail("window_bits out of range");
    const size_t windows = windows_for(window_bits);
    threads = std::max(threads, 1u);
    unsigned best = 1;
    double best_cost = std::numeric_limits<double>::infinity();
    for (unsigned s = 1; s <= threads && s <= n; ++s) {
        const size_t rounds = (windows * s + threads - 1) / threads;
        const double points = static_cast<double>((n + s - 1) / s);
        const double cost = static_cast<double>(rounds) * task_cost(points, window_bits);
        if (cost < best_cost) {
            best_cost = cost;
            best = s;
        }
    }
    return best;
}

SignedDigits::SignedDigits(unsigned window_bits) : c_(window_bits) {
    if (c_ < 1 || c_ > kMaxWindowBits) fail("SignedDigits: window_bits out of range");
    windows_ = windows_for(c_);
    thresholds_.resize(windows_);
    // H_0 = 0; H_{j+1} = H_j + h·2^(c·j): bit c·j + c − 1 set (below 255 for j + 1 < windows_).
    for (unsigned j = 1; j < windows_; ++j) {
        thresholds_[j] = thresholds_[j - 1];
        const unsigned bit = c_ * (j - 1) + c_ - 1;
        thresholds_[j].limb[bit / 64] |= uint64_t{1} << (bit % 64);
    }
}

bool SignedDigits::carry_into(const ff::BigInt<4>& k, unsigned window) const {
    if (window == 0 || window >= windows_) return false;  // k < 2^255: no carry out of the top
    const unsigned low_bits = c_ * window;  // compare k mod 2^low_bits with H_window
    const ff::BigInt<4>& h = thresholds_[window];
    for (size_t i = 4; i-- > 0;) {
        uint64_t v = 0;
        if (64 * i < low_bits) {
            const unsigned keep = low_bits - 64 * static_cast<unsigned>(i);
            v = keep >= 64 ? k.limb[i] : k.limb[i] & ((uint64_t{1} << keep) - 1);
        }
        if (v != h.limb[i]) return v > h.limb[i];
    }
    return false;  // equal: not above H
}

int SignedDigits::digit(const ff::BigInt<4>& k, unsigned window) const {
    const unsigned lo = c_ * window;  // ≤ 255
    const unsigned shift = lo % 64;
    uint64_t u = k.limb[lo / 64] >> shift;
    if (shift + c_ > 64 && lo / 64 + 1 < 4) u |= k.limb[lo / 64 + 1] << (64 - shift);
    u &= (uint64_t{1} << c_) - 1;
    int d = static_cast<int>(u) + (carry_into(k, window) ? 1 : 0);
    if (carry_into(k, window + 1)) d -= 1 << c_;
    return d;
}

ec::G1Jacobian msm(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars,
                   const MsmOptions& options) {
    if (bases.size() != scalars.size()) fail("msm: bases and scalars differ in length");
    const std::vector<ff::BigInt<4>> k = to_canonical(scalars, options);
    return pippenger_one<ec::G1Curve>(bases, k, options);
}
ec::G2Jacobian msm(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars,
                   const MsmOptions& options) {
    if (bases.size() != scalars.size()) fail("msm: bases and scalars differ in length");
    const std::vector<ff::BigInt<4>> k = to_canonical(scalars, options);
    return pippenger_one<ec::G2Curve>(bases, k, options);
}
ec::G1Jacobian msm(std::span<const ec::G1Affine> bases, std::span<const ff::BigInt<4>> scalars,
                   const MsmOptions& options) {
    return pippenger_one<ec::G1Curve>(bases, scalars, options);
}
ec::G2Jacobian msm(std::span<const ec::G2Affine> bases, std::span<const ff::BigInt<4>> scalars,
                   const MsmOptions& options) {
    return pippenger_one<ec::G2Curve>(bases, scalars, options);
}
std::vector<ec::G1Jacobian> msm_many(std::span<const ec::G1Affine> bases,
                                     std::span<const std::span<const ff::BigInt<4>>> scalar_sets,
                                     const MsmOptions& options) {
    return pippenger<ec::G1Curve>(bases, scalar_sets, options);
}
std::vector<ec::G2Jacobian> msm_many(std::span<const ec::G2Affine> bases,
                                     std::span<const std::span<const ff::BigInt<4>>> scalar_sets,
                                     const MsmOptions& options) {
    return pippenger<ec::G2Curve>(bases, scalar_sets, options);
}

}  // namespace cuzk::msm
