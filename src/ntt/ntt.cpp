#include "ntt/ntt.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::ntt {
namespace {

using ff::Fr;

util::ThreadPool& pool_or_global(util::ThreadPool* pool) {
    return pool != nullptr ? *pool : util::ThreadPool::global();
}

// Runs body(begin, end) on contiguous ranges that cover [0, n): spread over the pool when
// `parallel`, else as one call on this thread.
void for_ranges(util::ThreadPool& pool, bool parallel, size_t n,
                const std::function<void(size_t, size_t)>& body) {
    if (n == 0) return;
    if (parallel && pool.size() > 1) {
        pool.parallel_ranges(n, body);
    } else {
        body(0, n);
    }
}

// The low `bits` bits of x in reverse order.
size_t reverse_bits(size_t x, unsigned bits) {
    size_t r = 0;
    for (unsigned i = 0; i < bits; ++i) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}

// a[i] ↔ a[rev(i)]. Each pair is swapped once, by its smaller index, so ranges of i are
// independent of each other.
void bit_reverse_permute(std::span<Fr> a, unsigned log_m, util::ThreadPool& pool,
                         bool parallel) {
    for_ranges(pool, parallel, a.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            const size_t j = reverse_bits(i, log_m);
            if (i < j) std::swap(a[i], a[j]);
        }
    });
}

// a[i] ×= c for every i.
void scale(std::span<Fr> a, const Fr& c, util::ThreadPool& pool) {
    for_ranges(pool, a.size() >= kParallelThreshold, a.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] *= c;
    });
}

// out[j] = base^j for j < count; each range starts from base^begin.
std::vector<Fr> powers(const Fr& base, size_t count, util::ThreadPool& pool, bool parallel) {
    std::vector<Fr> out(count);
    for_ranges(pool, parallel, count, [&](size_t begin, size_t end) {
        Fr p = base.pow(static_cast<uint64_t>(begin));
        for (size_t j = begin; j < end; ++j) {
            out[j] = p;
            p *= base;
        }
    });
    return out;
}

// Butterflies k ∈ [k_begin, k_end) of stage s, whose butterflies span L = 2^s elements
// (half = L/2). Butterfly k joins i0 = (k div half)·L + (k mod half) and i1 = i0 + half with the
// twiddle w = ω_L^(k mod half) = tw[(k mod half)·m/L], where tw[j] = ω^j:
//   (a[i0], a[i1]) ← (a[i0] + w·a[i1], a[i0] − w·a[i1]).
// Butterflies k ∈ [b·B/2, (b+1)·B/2) stay inside block b of B = 2^t elements whenever s ≤ t.
void stage(std::span<Fr> a, const std::vector<Fr>& tw, unsigned s, size_t k_begin,
           size_t k_end) {
    const size_t half = size_t{1} << (s - 1);
    const size_t stride = a.size() >> s;
    for (size_t k = k_begin; k < k_end; ++k) {
        const size_t j = k & (half - 1);
        const size_t i0 = ((k >> (s - 1)) << s) | j;
        const Fr t = a[i0 + half] * tw[j * stride];
        a[i0 + half] = a[i0] - t;
        a[i0] += t;
    }
}

// a ← (A(root^i))_i in natural order, for root a primitive m-th root of unity, m = a.size() =
// 2^log_m (CLRS ITERATIVE-FFT: BIT-REVERSE-COPY done in place, then the log m stages).
void transform(std::span<Fr> a, unsigned log_m, const Fr& root, util::ThreadPool& pool) {
    const size_t m = a.size();
    if (m == 1) return;
    const bool parallel = m >= kParallelThreshold;
    bit_reverse_permute(a, log_m, pool, parallel);
    const std::vector<Fr> tw = powers(root, m / 2, pool, parallel);

    // Stages 1..local mix values only inside blocks of 2^local elements: take each block
    // through all of them while it is in cache; blocks are independent.
    const unsigned local = std::min(log_m, kLocalLog);
    const size_t per_block = size_t{1} << (local - 1);  // butterflies per block and stage
    for_ranges(pool, parallel, m >> local, [&](size_t b_begin, size_t b_end) {
        for (size_t b = b_begin; b < b_end; ++b)
            for (unsigned s = 1; s <= local; ++s)
                stage(a, tw, s, b * per_block, (b + 1) * per_block);
    });
    // The remaining stages: the m/2 butterflies of one stage are independent of each other.
    for (unsigned s = local + 1; s <= log_m; ++s) {
        for_ranges(pool, parallel, m / 2,
                   [&](size_t k_begin, size_t k_end) { stage(a, tw, s, k_begin, k_end); });
    }
}

util::Status check_size(std::span<const Fr> a, const EvaluationDomain& domain, const char* what) {
    if (a.size() == domain.size()) return util::Status::ok_status();
    return util::invalid_argument(std::string(what) + ": length " + std::to_string(a.size()) +
                                  " differs from the domain size " +
                                  std::to_string(domain.size()));
}

// Runs op(a, domain of size a.size(), pool); a.size() must be a power of two.
using DomainOp = util::Status (*)(std::span<Fr>, const EvaluationDomain&, util::ThreadPool*);
util::Status with_domain_of(std::span<Fr> a, const char* what, DomainOp op,
                            util::ThreadPool* pool) {
    if (!std::has_single_bit(a.size()))
        return util::invalid_argument(std::string(what) + ": length " +
                                      std::to_string(a.size()) + " is not a power of two");
    util::Result<EvaluationDomain> domain = EvaluationDomain::create(a.size());
    if (!domain.ok()) return domain.status();
    return op(a, *domain, pool);
}

}  // namespace

util::Status forward(std::span<Fr> a, const EvaluationDomain& domain, util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_size(a, domain, "ntt::forward"));
    transform(a, domain.log_size(), domain.omega(), pool_or_global(pool));
    return util::Status::ok_status();
}

util::Status inverse(std::span<Fr> a, const EvaluationDomain& domain, util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_size(a, domain, "ntt::inverse"));
    util::ThreadPool& p = pool_or_global(pool);
    transform(a, domain.log_size(), domain.omega_inv(), p);
    scale(a, domain.size_inv(), p);
    return util::Status::ok_status();
}

util::Status coset_forward(std::span<Fr> a, const EvaluationDomain& domain,
                           util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_size(a, domain, "ntt::coset_forward"));
    distribute_powers(a, domain.coset_generator(), pool);
    transform(a, domain.log_size(), domain.omega(), pool_or_global(pool));
    return util::Status::ok_status();
}

util::Status coset_inverse(std::span<Fr> a, const EvaluationDomain& domain,
                           util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_size(a, domain, "ntt::coset_inverse"));
    CUZK_RETURN_IF_ERROR(inverse(a, domain, pool));
    distribute_powers(a, domain.coset_generator_inv(), pool);
    return util::Status::ok_status();
}

util::Status divide_by_z_on_coset(std::span<Fr> a, const EvaluationDomain& domain,
                                  util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_size(a, domain, "ntt::divide_by_z_on_coset"));
    scale(a, domain.z_on_coset_inverse(), pool_or_global(pool));
    return util::Status::ok_status();
}

void distribute_powers(std::span<Fr> a, const Fr& g, util::ThreadPool* pool) {
    for_ranges(pool_or_global(pool), a.size() >= kParallelThreshold, a.size(),
               [&](size_t begin, size_t end) {
                   Fr p = g.pow(static_cast<uint64_t>(begin));
                   for (size_t i = begin; i < end; ++i) {
                       a[i] *= p;
                       p *= g;
                   }
               });
}

// The span-only forms: the domain is derived from the length, which must be a power of two.
util::Status forward(std::span<Fr> a, util::ThreadPool* pool) {
    return with_domain_of(a, "ntt::forward", forward, pool);
}
util::Status inverse(std::span<Fr> a, util::ThreadPool* pool) {
    return with_domain_of(a, "ntt::inverse", inverse, pool);
}
util::Status coset_forward(std::span<Fr> a, util::ThreadPool* pool) {
    return with_domain_of(a, "ntt::coset_forward", coset_forward, pool);
}
util::Status coset_inverse(std::span<Fr> a, util::ThreadPool* pool) {
    return with_domain_of(a, "ntt::coset_inverse", coset_inverse, pool);
}

}  // namespace cuzk::ntt
