#include "groth16/prover.hpp"

#include "groth16/prover_parts.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "ec/curves.hpp"
#include "msm/batch_add.hpp"
#include "msm/pippenger.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/density.hpp"
#include "util/rng.hpp"
#include "util/timer.hpp"

namespace cuzk::groth16 {

namespace {

using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::Fr;

util::ThreadPool& pool_or_global(util::ThreadPool* pool) {
    return pool != nullptr ? *pool : util::ThreadPool::global();
}

// Σ_i sets[k][i]·bases[i] for every k, as one msm::msm_many pass over the bases (or, when
// `shared` is off, one msm per set). With split_units, the scalars equal to one (most aux values
// of real circuits are bits) are summed by msm::batch_add over a bit mask and left out of the
// Pippenger pass (as zeros, whose digits cost nothing) — bellperson's CPU multiexp likewise adds
// the bases of unit scalars directly. Same result either way.
template <class Affine>
auto msm_sets(std::span<const Affine> bases, std::span<const std::vector<Fr>* const> sets,
              bool split_units, bool shared, util::ThreadPool& pool) {
    using Jacobian = decltype(msm::msm(bases, std::span<const Fr>{}));
    const size_t n = bases.size();
    std::vector<std::vector<ff::BigInt<4>>> canonical(sets.size());
    std::vector<std::vector<uint64_t>> units(sets.size());
    const Fr one = Fr::one();
    for (size_t k = 0; k < sets.size(); ++k) {
        const std::vector<Fr>& scalars = *sets[k];
        canonical[k].resize(n);
        if (split_units) units[k].assign((n + 63) / 64, 0);
        // 64 scalars per mask word, so ranges of words never share one
        pool.parallel_ranges((n + 63) / 64, [&](size_t wb, size_t we) {
            for (size_t i = wb * 64; i < std::min(n, we * 64); ++i) {
                if (split_units && scalars[i] == one) {
                    units[k][i / 64] |= uint64_t{1} << (i % 64);
                    canonical[k][i] = ff::BigInt<4>();
                } else {
                    canonical[k][i] = scalars[i].to_int();
                }
            }
        });
    }
    msm::MsmOptions mo;
    mo.pool = &pool;
    std::vector<Jacobian> sums;
    if (shared) {
        std::vector<std::span<const ff::BigInt<4>>> views(canonical.begin(), canonical.end());
        sums = msm::msm_many(bases, views, mo);
    } else {
        for (const auto& set : canonical) sums.push_back(msm::msm(bases, set, mo));
    }
    if (split_units) {
        msm::BatchAddOptions bo;
        bo.pool = &pool;
        for (size_t k = 0; k < sets.size(); ++k) sums[k] = sums[k] + msm::batch_add(bases, units[k], bo);
    }
    return sums;
}

// One circuit between synthesis and the MSMs: its scalar vectors, aligned with the parameter
// sections (h: the m − 1 H coefficients; l, a, b: gather_msm_scalars).
struct PreparedCircuit {
    std::vector<Fr> h;
    MsmScalars msm;
};

// Steps 2–4 (header comment) for one finished assignment; a, b, c are consumed.
util::Result<PreparedCircuit> prepare(const Parameters& params, r1cs::ProvingAssignment& pa,
                                      const ProverOptions& options, ProverTimings& t,
                                      util::ThreadPool& tp, size_t index) {
    util::Stopwatch sw;
    const ParamsShape shape = ParamsShape::of(params);
    CUZK_RETURN_IF_ERROR(check_assignment(shape, pa, options.check_satisfied, tp, index));
    PreparedCircuit out;
    // Gathered before the NTT so that a, b, c can be freed as early as possible.
    out.msm = gather_msm_scalars(pa, shape);
    t.assembly += sw.elapsed_ms();
    sw.reset();
    auto h_r = compute_h_scalars(pa.take_a(), pa.take_b(), pa.take_c(), &tp);
    if (!h_r.ok()) return util::invalid_argument(circuit_prefix(index) += h_r.status().message());
    out.h = std::move(*h_r);
    t.ntt += sw.elapsed_ms();
    return out;
}

// Step 5 for all the circuits: each parameter section is passed over once for all of them
// (ProverOptions::share_parameter_passes) or once per circuit.
std::vector<MsmSums> run_msms(const Parameters& params, std::span<const PreparedCircuit> circuits,
                              const ProverOptions& options, ProverTimings& t,
                              util::ThreadPool& tp) {
    const bool split = options.split_unit_scalars;
    const bool shared = options.share_parameter_passes;
    auto sets = [&](auto member) {
        std::vector<const std::vector<Fr>*> out;
        for (const PreparedCircuit& c : circuits) out.push_back(&member(c));
        return out;
    };
    auto h_of = [](const PreparedCircuit& c) -> const std::vector<Fr>& { return c.h; };
    auto l_of = [](const PreparedCircuit& c) -> const std::vector<Fr>& { return c.msm.l; };
    auto a_of = [](const PreparedCircuit& c) -> const std::vector<Fr>& { return c.msm.a; };
    auto b_of = [](const PreparedCircuit& c) -> const std::vector<Fr>& { return c.msm.b; };
    std::vector<MsmSums> sums(circuits.size());
    util::Stopwatch sw;
    auto h = msm_sets<G1Affine>(params.h, sets(h_of), false, shared, tp);
    t.msm_h += sw.elapsed_ms();
    sw.reset();
    auto l = msm_sets<G1Affine>(params.l, sets(l_of), split, shared, tp);
    t.msm_l += sw.elapsed_ms();
    sw.reset();
    auto a = msm_sets<G1Affine>(params.a, sets(a_of), split, shared, tp);
    t.msm_a += sw.elapsed_ms();
    sw.reset();
    auto b1 = msm_sets<G1Affine>(params.b_g1, sets(b_of), split, shared, tp);
    t.msm_b1 += sw.elapsed_ms();
    sw.reset();
    auto b2 = msm_sets<G2Affine>(params.b_g2, sets(b_of), split, shared, tp);
    t.msm_b2 += sw.elapsed_ms();
    for (size_t k = 0; k < circuits.size(); ++k) sums[k] = {h[k], l[k], a[k], b1[k], b2[k]};
    return sums;
}

Fr fr_from_os() {
    for (;;) {
        uint8_t bytes[32];
        util::os_random_bytes(bytes, sizeof bytes);
        bytes[31] &= 0x7f;  // 255-bit candidates: r > 2^254, so about 9 in 10 are accepted
        auto v = Fr::from_bytes_le(std::span<const uint8_t, 32>(bytes, 32));
        std::memset(bytes, 0, sizeof bytes);
        if (v.ok() && !v->is_zero()) return *v;
    }
}

}  // namespace

ProverRandomness ProverRandomness::from_os() { return {fr_from_os(), fr_from_os()}; }

ProverRandomness ProverRandomness::from_seed(uint64_t seed) {
    util::TestRng rng(seed ^ 0x70726f7665720000ULL);  // "prover"
    ProverRandomness out;
    out.r = Fr::random(rng);
    out.s = Fr::random(rng);
    return out;
}

util::Result<std::vector<Fr>> compute_h_scalars(std::vector<Fr> a, std::vector<Fr> b,
                                                std::vector<Fr> c, util::ThreadPool* pool) {
    util::ThreadPool& tp = pool_or_global(pool);
    const size_t n = std::max({a.size(), b.size(), c.size(), size_t{1}});
    auto domain_r = ntt::EvaluationDomain::create(n);
    if (!domain_r.ok()) return domain_r.status();
    const ntt::EvaluationDomain& domain = *domain_r;
    for (std::vector<Fr>* v : {&a, &b, &c}) {
        CUZK_RETURN_IF_ERROR(ntt::pad_to_domain(*v, domain));
        CUZK_RETURN_IF_ERROR(ntt::inverse(*v, domain, &tp));
        CUZK_RETURN_IF_ERROR(ntt::coset_forward(*v, domain, &tp));
    }
    tp.parallel_ranges(a.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) a[i] = a[i] * b[i] - c[i];
    });
    std::vector<Fr>().swap(b);
    std::vector<Fr>().swap(c);
    CUZK_RETURN_IF_ERROR(ntt::divide_by_z_on_coset(a, domain, &tp));
    CUZK_RETURN_IF_ERROR(ntt::coset_inverse(a, domain, &tp));
    a.resize(domain.size() - 1);  // deg(H) ≤ m − 2: the top coefficient is zero for a valid witness
    return a;
}

util::Result<Proof> prove_assignment(const Parameters& params, r1cs::ProvingAssignment& pa,
                                     const ProverRandomness& randomness,
                                     const ProverOptions& options, ProverTimings* timings,
                                     util::ThreadPool* pool, size_t index) {
    util::ThreadPool& tp = pool_or_global(pool);
    CUZK_RETURN_IF_ERROR(check_delta(params.vk));
    ProverTimings t;
    CUZK_ASSIGN_OR_RETURN(PreparedCircuit prepared, prepare(params, pa, options, t, tp, index));
    const std::vector<MsmSums> sums =
        run_msms(params, std::span<const PreparedCircuit>(&prepared, 1), options, t, tp);
    util::Stopwatch sw;
    auto proof = assemble_proof(params.vk, sums[0], randomness, index);
    t.assembly += sw.elapsed_ms();
    if (timings != nullptr) *timings += t;  // t.synthesis and t.total stay 0 here
    return proof;
}

util::Result<std::vector<Proof>> prove(const Parameters& params, std::span<const Circuit> circuits,
                                       std::span<const ProverRandomness> randomness,
                                       const ProverOptions& options, ProverTimings* timings,
                                       util::ThreadPool* pool) {
    util::Stopwatch total;
    util::ThreadPool& tp = pool_or_global(pool);
    if (randomness.size() != circuits.size()) {
        std::string m = "prove: ";
        m += std::to_string(circuits.size());
        m += " circuits but ";
        m += std::to_string(randomness.size());
        m += " randomness values";
        return util::invalid_argument(std::move(m));
    }
    CUZK_RETURN_IF_ERROR(check_delta(params.vk));
    ProverTimings t;
    std::vector<PreparedCircuit> prepared;
    prepared.reserve(circuits.size());
    const ParamsShape shape = ParamsShape::of(params);
    for (size_t k = 0; k < circuits.size(); ++k) {
        util::Stopwatch sw;
        r1cs::ProvingAssignment pa(presized_assignment_options(shape));
        CUZK_RETURN_IF_ERROR(synthesize_into(circuits[k], pa, k));
        t.synthesis += sw.elapsed_ms();
        CUZK_ASSIGN_OR_RETURN(PreparedCircuit p, prepare(params, pa, options, t, tp, k));
        prepared.push_back(std::move(p));
    }
    const std::vector<MsmSums> sums = run_msms(params, prepared, options, t, tp);
    std::vector<Proof> proofs;
    proofs.reserve(circuits.size());
    util::Stopwatch sw;
    for (size_t k = 0; k < circuits.size(); ++k) {
        CUZK_ASSIGN_OR_RETURN(Proof proof, assemble_proof(params.vk, sums[k], randomness[k], k));
        proofs.push_back(proof);
    }
    t.assembly += sw.elapsed_ms();
    t.total = total.elapsed_ms();
    if (timings != nullptr) *timings += t;
    return proofs;
}

util::Result<std::vector<Proof>> prove(const Parameters& params, std::span<const Circuit> circuits,
                                       std::span<const ProverRandomness> randomness,
                                       ProverTimings* timings, util::ThreadPool* pool) {
    return prove(params, circuits, randomness, ProverOptions{}, timings, pool);
}

}  // namespace cuzk::groth16
