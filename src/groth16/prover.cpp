#include "groth16/prover.hpp"

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

std::string circuit_prefix(size_t index) {
    std::string m = "circuit ";
    m += std::to_string(index);
    m += ": ";
    return m;
}

util::Status circuit_error(size_t index, const std::string& message) {
    std::string m = circuit_prefix(index);
    m += message;
    return util::invalid_argument(std::move(m));
}

// "circuit has X WHAT but the OWNER has Y"
util::Status count_mismatch(size_t index, size_t have, const char* what, const char* owner,
                            size_t want) {
    std::string m = "circuit has ";
    m += std::to_string(have);
    m += ' ';
    m += what;
    m += " but the ";
    m += owner;
    m += " has ";
    m += std::to_string(want);
    return circuit_error(index, m);
}

util::Status check_delta(const VerifyingKey& vk) {
    if (vk.delta_g1.is_identity())
        return util::invalid_argument("parameters: delta_g1 is the identity");
    if (vk.delta_g2.is_identity())
        return util::invalid_argument("parameters: delta_g2 is the identity");
    return util::Status();
}

util::Status check_shape(const Parameters& params, const r1cs::ProvingAssignment& pa,
                         size_t index) {
    const size_t inputs = pa.input_assignment().size();
    const size_t aux = pa.aux_assignment().size();
    if (inputs != params.vk.ic.size())
        return count_mismatch(index, inputs, "inputs", "verifying key", params.vk.ic.size());
    if (aux != params.l.size())
        return count_mismatch(index, aux, "aux variables", "parameters' L query", params.l.size());
    if (pa.a_aux_density().size() != aux || pa.b_aux_density().size() != aux ||
        pa.b_input_density().size() != inputs)
        return circuit_error(index, "density bit vectors do not match the variable counts");
    const size_t a_count = inputs + pa.a_aux_density().popcount();
    if (a_count != params.a.size())
        return count_mismatch(index, a_count, "A-query points (inputs + dense aux)",
                              "parameters' A query", params.a.size());
    const size_t b_count = pa.b_input_density().popcount() + pa.b_aux_density().popcount();
    if (b_count != params.b_g1.size())
        return count_mismatch(index, b_count, "B-query points (dense inputs + dense aux)",
                              "parameters' B_G1 query", params.b_g1.size());
    if (b_count != params.b_g2.size())
        return count_mismatch(index, b_count, "B-query points (dense inputs + dense aux)",
                              "parameters' B_G2 query", params.b_g2.size());
    const size_t rows = pa.a().size();
    if (pa.b().size() != rows || pa.c().size() != rows)
        return circuit_error(index, "a, b, c evaluation vectors differ in length");
    auto domain = ntt::EvaluationDomain::create(rows);
    if (!domain.ok()) return circuit_error(index, domain.status().message());
    if (domain->size() != params.domain_size()) {
        std::string m = "circuit has ";
        m += std::to_string(rows);
        m += " constraint rows (domain size ";
        m += std::to_string(domain->size());
        m += ") but the parameters' H query has ";
        m += std::to_string(params.h.size());
        m += " points (domain size ";
        m += std::to_string(params.domain_size());
        m += ')';
        return circuit_error(index, m);
    }
    return util::Status();
}

// The first row with a·b ≠ c, or SIZE_MAX.
size_t first_unsatisfied_row(const std::vector<Fr>& a, const std::vector<Fr>& b,
                             const std::vector<Fr>& c, util::ThreadPool& pool) {
    std::atomic<size_t> first{std::numeric_limits<size_t>::max()};
    pool.parallel_ranges(a.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            if (i >= first.load(std::memory_order_relaxed)) return;
            if (!(a[i] * b[i] == c[i])) {
                size_t cur = first.load(std::memory_order_relaxed);
                while (i < cur && !first.compare_exchange_weak(cur, i)) {
                }
                return;
            }
        }
    });
    return first.load();
}

// The values whose bit is set, in order (appended to out).
void gather(const std::vector<Fr>& values, const r1cs::DensityBits& bits, std::vector<Fr>& out) {
    const std::vector<uint64_t>& words = bits.words();
    for (size_t w = 0; w < words.size(); ++w) {
        uint64_t word = words[w];
        while (word != 0) {
            const unsigned bit = static_cast<unsigned>(__builtin_ctzll(word));
            out.push_back(values[w * 64 + bit]);
            word &= word - 1;
        }
    }
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
// sections (h: m − 1 H coefficients; l: the aux assignment; a: inputs then A-dense aux; b: the
// B-dense inputs then B-dense aux).
struct PreparedCircuit {
    std::vector<Fr> h, l, a, b;
};

// The five MSM results of one circuit.
struct MsmSums {
    G1Jacobian h, l, a, b1;
    G2Jacobian b2;
};

// Steps 2–4 (header comment) for one finished assignment; a, b, c are consumed.
util::Result<PreparedCircuit> prepare(const Parameters& params, r1cs::ProvingAssignment& pa,
                                      const ProverOptions& options, ProverTimings& t,
                                      util::ThreadPool& tp, size_t index) {
    util::Stopwatch sw;
    if (!pa.finished()) return circuit_error(index, "proving assignment not finished");
    CUZK_RETURN_IF_ERROR(check_shape(params, pa, index));
    if (options.check_satisfied) {
        const size_t row = first_unsatisfied_row(pa.a(), pa.b(), pa.c(), tp);
        if (row != std::numeric_limits<size_t>::max()) {
            std::string m = "constraint row ";
            m += std::to_string(row);
            m += " is not satisfied (a*b != c)";
            return circuit_error(index, m);
        }
    }
    // Density-filtered scalar vectors (gathered before the NTT so that a, b, c can be freed
    // as early as possible).
    PreparedCircuit out;
    const std::vector<Fr>& inputs = pa.input_assignment();
    out.l = pa.aux_assignment();
    out.a.reserve(params.a.size());
    out.a.insert(out.a.end(), inputs.begin(), inputs.end());
    gather(out.l, pa.a_aux_density(), out.a);
    out.b.reserve(params.b_g1.size());
    gather(inputs, pa.b_input_density(), out.b);
    gather(out.l, pa.b_aux_density(), out.b);
    t.assembly += sw.elapsed_ms();

    sw.reset();
    auto h_r = compute_h_scalars(pa.take_a(), pa.take_b(), pa.take_c(), &tp);
    if (!h_r.ok()) return circuit_error(index, h_r.status().message());
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
    auto sets = [&](std::vector<Fr> PreparedCircuit::*member) {
        std::vector<const std::vector<Fr>*> out;
        for (const PreparedCircuit& c : circuits) out.push_back(&(c.*member));
        return out;
    };
    std::vector<MsmSums> sums(circuits.size());
    util::Stopwatch sw;
    auto h = msm_sets<G1Affine>(params.h, sets(&PreparedCircuit::h), false, shared, tp);
    t.msm_h += sw.elapsed_ms();
    sw.reset();
    auto l = msm_sets<G1Affine>(params.l, sets(&PreparedCircuit::l), split, shared, tp);
    t.msm_l += sw.elapsed_ms();
    sw.reset();
    auto a = msm_sets<G1Affine>(params.a, sets(&PreparedCircuit::a), split, shared, tp);
    t.msm_a += sw.elapsed_ms();
    sw.reset();
    auto b1 = msm_sets<G1Affine>(params.b_g1, sets(&PreparedCircuit::b), split, shared, tp);
    t.msm_b1 += sw.elapsed_ms();
    sw.reset();
    auto b2 = msm_sets<G2Affine>(params.b_g2, sets(&PreparedCircuit::b), split, shared, tp);
    t.msm_b2 += sw.elapsed_ms();
    for (size_t k = 0; k < circuits.size(); ++k) sums[k] = {h[k], l[k], a[k], b1[k], b2[k]};
    return sums;
}

// Step 6.
util::Result<Proof> assemble(const VerifyingKey& vk, const MsmSums& sums,
                             const ProverRandomness& randomness, size_t index) {
    const Fr& r = randomness.r;
    const Fr& s = randomness.s;
    const G1Jacobian delta1 = G1Jacobian::from_affine(vk.delta_g1);
    const G2Jacobian delta2 = G2Jacobian::from_affine(vk.delta_g2);
    const G1Jacobian a_full = sums.a.add_mixed(vk.alpha_g1) + ec::mul(delta1, r);
    const G2Jacobian b_full = sums.b2.add_mixed(vk.beta_g2) + ec::mul(delta2, s);
    const G1Jacobian b1_full = sums.b1.add_mixed(vk.beta_g1) + ec::mul(delta1, s);
    const G1Jacobian c_full =
        ec::mul(a_full, s) + ec::mul(b1_full, r) - ec::mul(delta1, r * s) + sums.h + sums.l;
    Proof proof{a_full.to_affine(), b_full.to_affine(), c_full.to_affine()};
    if (proof.a.is_identity() || proof.b.is_identity() || proof.c.is_identity())
        return util::internal_error(circuit_prefix(index) +=
                                    "a proof component is the identity; prove again with fresh "
                                    "randomness");
    return proof;
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
    auto proof = assemble(params.vk, sums[0], randomness, index);
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
    const size_t inputs = params.vk.ic.size();
    const size_t rows = params.domain_size();
    for (size_t k = 0; k < circuits.size(); ++k) {
        util::Stopwatch sw;
        r1cs::ProvingAssignment::Options pa_options;
        pa_options.presize = true;
        pa_options.capacity.inputs = inputs;
        pa_options.capacity.aux = params.l.size();
        pa_options.capacity.constraints = rows > inputs ? rows - inputs : 0;
        r1cs::ProvingAssignment pa(pa_options);
        if (!circuits[k]) return circuit_error(k, "empty circuit function");
        util::Status st = circuits[k](pa);
        if (!st.ok()) {
            std::string m = "synthesis: ";
            m += st.message();
            return util::Status(st.code(), circuit_prefix(k) += m);
        }
        pa.finish();
        t.synthesis += sw.elapsed_ms();
        CUZK_ASSIGN_OR_RETURN(PreparedCircuit p, prepare(params, pa, options, t, tp, k));
        prepared.push_back(std::move(p));
    }
    const std::vector<MsmSums> sums = run_msms(params, prepared, options, t, tp);
    std::vector<Proof> proofs;
    proofs.reserve(circuits.size());
    util::Stopwatch sw;
    for (size_t k = 0; k < circuits.size(); ++k) {
        CUZK_ASSIGN_OR_RETURN(Proof proof, assemble(params.vk, sums[k], randomness[k], k));
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
