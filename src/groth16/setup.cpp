// Groth16 test-ceremony parameter generation (see setup.hpp for the conventions).
//
// Steps:
//   1. record the circuit's matrices (ShapeRecorder; finish() appends the input rows);
//   2. the domain of m ≥ rows elements and the Lagrange basis at τ: L_i(τ) = the inverse NTT of
//      (1, τ, τ², …, τ^(m−1)), since (1/m)·Σ_j τ^j ω^(−ij) = L_i(τ) — bellperson's
//      `powers_of_tau` + `ifft`;
//   3. u_j(τ), v_j(τ), w_j(τ) = Σ_i M_ij L_i(τ): each CSR matrix is transposed once by counting
//      sort (per column: its rows and coefficient ids), then the columns are summed in
//      parallel — no two threads ever write the same column, and the result does not depend on
//      the number of threads;
//   4. the scalars of every point, section by section (compute_parameter_scalars — the GPU
//      setup, gpu/resident_setup.hpp, starts from them too);
//   5. on the CPU, each group's scalars multiplied by one windowed fixed-base table of the
//      generator (ec/fixed_base.hpp), normalized to affine per chunk.
#include "groth16/setup.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "ec/curves.hpp"
#include "ec/fixed_base.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {

using ff::Fr;

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
    util::TestRng rng(seed);
    auto non_zero = [&rng]() {
        Fr x;
        do x = Fr::random(rng);
        while (x.is_zero());
        return x;
    };
    ToxicWaste t;
    t.tau = non_zero();
    t.alpha = non_zero();
    t.beta = non_zero();
    t.gamma = non_zero();
    t.delta = non_zero();
    return t;
}

namespace {

// ---- QAP evaluation ----------------------------------------------------------------------------

// Σ_i M_ij·L_i for every column j of a CSR matrix; nonempty[j] is set when column j has an entry.
void column_sums(const r1cs::CsrMatrix& m, std::span<const Fr> coefficients,
                 std::span<const Fr> lagrange, size_t num_columns, std::vector<Fr>& out,
                 std::vector<uint8_t>& nonempty, util::ThreadPool& pool) {
    const r1cs::CsrColumns cols = r1cs::group_by_column(m, num_columns);
    out.assign(num_columns, Fr::zero());
    pool.parallel_ranges(num_columns, [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c) {
            Fr sum = Fr::zero();
            for (uint64_t e = cols.offset[c]; e < cols.offset[c + 1]; ++e) {
                sum += coefficients[cols.coeff[e]] * lagrange[cols.row[e]];
            }
            out[c] = sum;
            if (cols.offset[c + 1] != cols.offset[c]) nonempty[c] = 1;
        }
    });
}

struct Evaluation {
    detail::QapEvaluation qap;
    std::vector<uint8_t> constrained;  // per column: some non-zero entry in A, B or C
};

util::Result<Evaluation> evaluate(const r1cs::ShapeRecorder& rec, const Fr& tau,
                                  util::ThreadPool& pool) {
    Evaluation ev;
    detail::QapEvaluation& q = ev.qap;
    q.num_inputs = rec.num_inputs();
    q.num_aux = rec.num_aux();
    q.num_rows = rec.a().rows();
    auto domain = ntt::EvaluationDomain::create(q.num_rows);
    if (!domain.ok()) {
        std::string msg = "groth16 setup: domain too large for ";
        msg += std::to_string(q.num_rows);
        msg += " rows (constraints + inputs): ";
        msg += domain.status().message();
        return util::Status(domain.status().code(), std::move(msg));
    }
    const size_t m = domain->size();
    q.domain_size = m;
    q.z_tau = tau.pow(static_cast<uint64_t>(m)) - Fr::one();
    if (q.z_tau.is_zero()) {
        return util::invalid_argument("groth16 setup: tau is in the evaluation domain (Z(tau) = 0)");
    }

    // Powers of τ, chunk starts by exponentiation so the chunks run in parallel.
    std::vector<Fr> lagrange(m);
    pool.parallel_ranges(m, [&](size_t begin, size_t end) {
        Fr p = tau.pow(static_cast<uint64_t>(begin));
        for (size_t i = begin; i < end; ++i) {
            lagrange[i] = p;
            p *= tau;
        }
    });
    CUZK_RETURN_IF_ERROR(ntt::inverse(std::span<Fr>(lagrange), *domain, &pool));

    const size_t columns = rec.num_columns();
    ev.constrained.assign(columns, 0);
    const auto& coefficients = rec.coefficients();
    column_sums(rec.a(), coefficients, lagrange, columns, q.u, ev.constrained, pool);
    column_sums(rec.b(), coefficients, lagrange, columns, q.v, ev.constrained, pool);
    column_sums(rec.c(), coefficients, lagrange, columns, q.w, ev.constrained, pool);
    return ev;
}

util::Status record(const Circuit& circuit, r1cs::ShapeRecorder& rec) {
    CUZK_RETURN_IF_ERROR(circuit(rec));
    rec.finish();
    return util::Status();
}

util::Status zero_scalar(const char* what, const char* kind, size_t index) {
    std::string msg = "groth16 setup: ";
    msg += what;
    msg += " scalar of ";
    msg += kind;
    msg += " variable ";
    msg += std::to_string(index);
    msg += " is zero (degenerate toxic waste)";
    return util::invalid_argument(std::move(msg));
}

}  // namespace

namespace detail {

util::Result<QapEvaluation> evaluate_qap(const Circuit& circuit, const Fr& tau,
                                         util::ThreadPool* pool) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    r1cs::ShapeRecorder rec;
    CUZK_RETURN_IF_ERROR(record(circuit, rec));
    auto ev = evaluate(rec, tau, p);
    if (!ev.ok()) return ev.status();
    return std::move(ev->qap);
}

}  // namespace detail

namespace {
util::Status check_toxic(const ToxicWaste& toxic) {
    if (toxic.tau.is_zero() || toxic.alpha.is_zero() || toxic.beta.is_zero() ||
        toxic.gamma.is_zero() || toxic.delta.is_zero()) {
        return util::invalid_argument("groth16 setup: toxic waste must be non-zero");
    }
    return util::Status();
}
}  // namespace

util::Result<ParameterScalars> compute_parameter_scalars(const Circuit& circuit,
                                                       const ToxicWaste& toxic,
                                                       util::ThreadPool* pool,
                                                       util::PhaseTimes* times, HBasis basis) {
    CUZK_RETURN_IF_ERROR(check_toxic(toxic));
    util::PhaseScope record_phase("setup_record", times);
    r1cs::ShapeRecorder rec;
    CUZK_RETURN_IF_ERROR(record(circuit, rec));
    record_phase.stop();
    return compute_parameter_scalars(rec, toxic, pool, times, basis);
}

namespace {

// The monomial scalars in `out` (ic and l computed, h not yet) → the coset-Lagrange set
// (coset_bases.hpp): h ← q (m scalars), l_j −= s_(ni+j), c_input ← s_i (i < ni), where
// s = Cᵀ·r. `t` = Z(τ)/δ.
util::Status fold_coset_lagrange(const r1cs::ShapeRecorder& rec, const Fr& tau, const Fr& t,
                                 util::ThreadPool& pool, ParameterScalars& out) {
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain d, ntt::EvaluationDomain::create(out.domain_size));
    CUZK_ASSIGN_OR_RETURN(CosetLagrangeScalars qr, coset_lagrange_scalars(d, tau, t, &pool));
    const size_t columns = rec.num_columns();
    std::vector<Fr> s;
    std::vector<uint8_t> unused(columns, 0);
    column_sums(rec.c(), rec.coefficients(), qr.r, columns, s, unused, pool);
    std::vector<Fr>().swap(qr.r);
    const size_t ni = out.num_inputs;
    std::atomic<size_t> first_zero{SIZE_MAX};
    pool.parallel_ranges(out.num_aux, [&](size_t begin, size_t end) {
        for (size_t j = begin; j < end; ++j) {
            out.l[j] -= s[ni + j];
            if (out.l[j].is_zero()) {
                size_t expected = first_zero.load();
                while (j < expected && !first_zero.compare_exchange_weak(expected, j)) {
                }
            }
        }
    });
    if (const size_t j = first_zero.load(); j != SIZE_MAX) return zero_scalar("l", "aux", j);
    for (size_t k = 0; k < qr.q.size(); ++k) {
        if (qr.q[k].is_zero()) {
            std::string msg = "groth16 setup: the coset-Lagrange H scalar ";
            msg += std::to_string(k);
            msg += " is zero (degenerate toxic waste)";
            return util::invalid_argument(std::move(msg));
        }
    }
    out.h = std::move(qr.q);
    out.c_input.assign(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(ni));
    out.h_basis = HBasis::kCosetLagrange;
    return util::Status();
}

}  // namespace

util::Result<ParameterScalars> compute_parameter_scalars(const r1cs::ShapeRecorder& rec,
                                                       const ToxicWaste& toxic,
                                                       util::ThreadPool* pool,
                                                       util::PhaseTimes* times, HBasis basis) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    CUZK_RETURN_IF_ERROR(check_toxic(toxic));
    if (!rec.finished())
        return util::invalid_argument("groth16 setup: the recorded shape is not finished");
    util::PhaseScope evaluate_phase("setup_evaluate", times);
    auto evaluated = evaluate(rec, toxic.tau, p);
    if (!evaluated.ok()) return evaluated.status();
    evaluate_phase.stop();
    util::PhaseScope scalars_phase("setup_scalars", times);
    const detail::QapEvaluation& q = evaluated->qap;
    const std::vector<uint8_t>& constrained = evaluated->constrained;
    const size_t ni = q.num_inputs;
    const size_t na = q.num_aux;
    const size_t m = q.domain_size;

    for (size_t j = 0; j < na; ++j) {
        if (constrained[ni + j] == 0) {
            std::string msg = "groth16 setup: aux variable ";
            msg += std::to_string(j);
            msg += " is unconstrained (no non-zero coefficient in A, B or C; its l point would "
                   "be the identity)";
            return util::invalid_argument(std::move(msg));
        }
    }

    const Fr gamma_inv = toxic.gamma.inverse();
    const Fr delta_inv = toxic.delta.inverse();
    const r1cs::DensityBits a_aux = rec.a_aux_density();
    const r1cs::DensityBits b_input = rec.b_input_density();
    const r1cs::DensityBits b_aux = rec.b_aux_density();

    ParameterScalars out;
    out.num_inputs = ni;
    out.num_aux = na;
    out.domain_size = m;
    out.ic.resize(ni);
    out.l.resize(na);
    // ic_j / l_j = (β u_j + α v_j + w_j)/γ resp. /δ; in parallel (each j independent).
    std::atomic<size_t> first_zero{SIZE_MAX};
    p.parallel_ranges(ni + na, [&](size_t begin, size_t end) {
        for (size_t j = begin; j < end; ++j) {
            const bool input = j < ni;
            const Fr s = (toxic.beta * q.u[j] + toxic.alpha * q.v[j] + q.w[j]) *
                         (input ? gamma_inv : delta_inv);
            if (s.is_zero()) {
                size_t expected = first_zero.load();
                while (j < expected && !first_zero.compare_exchange_weak(expected, j)) {
                }
            }
            (input ? out.ic[j] : out.l[j - ni]) = s;
        }
    });
    if (const size_t j = first_zero.load(); j != SIZE_MAX) {
        const bool input = j < ni;
        return zero_scalar(input ? "ic" : "l", input ? "input" : "aux", input ? j : j - ni);
    }
    if (basis == HBasis::kCosetLagrange) {
        CUZK_RETURN_IF_ERROR(fold_coset_lagrange(rec, toxic.tau, q.z_tau * delta_inv, p, out));
    } else {
        const Fr zd = q.z_tau * delta_inv;
        out.h.resize(m - 1);
        p.parallel_ranges(m - 1, [&](size_t begin, size_t end) {
            Fr s = toxic.tau.pow(static_cast<uint64_t>(begin)) * zd;
            for (size_t i = begin; i < end; ++i) {
                out.h[i] = s;
                s *= toxic.tau;
            }
        });
    }
    out.a.reserve(ni + a_aux.popcount());
    out.b.reserve(b_input.popcount() + b_aux.popcount());
    for (size_t j = 0; j < ni + na; ++j) {
        const bool input = j < ni;
        if (!input && !a_aux.get(j - ni)) continue;
        if (q.u[j].is_zero()) return zero_scalar("a", input ? "input" : "aux", input ? j : j - ni);
        out.a.push_back(q.u[j]);
    }
    for (size_t j = 0; j < ni + na; ++j) {
        const bool input = j < ni;
        if (input ? !b_input.get(j) : !b_aux.get(j - ni)) continue;
        if (q.v[j].is_zero()) return zero_scalar("b", input ? "input" : "aux", input ? j : j - ni);
        out.b.push_back(q.v[j]);
    }

    const ec::G1Jacobian g1_gen = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const ec::G2Jacobian g2_gen = ec::G2Jacobian::from_affine(ec::kG2Generator);
    VerifyingKey& vk = out.vk;
    vk.alpha_g1 = ec::mul(g1_gen, toxic.alpha).to_affine();
    vk.beta_g1 = ec::mul(g1_gen, toxic.beta).to_affine();
    vk.delta_g1 = ec::mul(g1_gen, toxic.delta).to_affine();
    vk.beta_g2 = ec::mul(g2_gen, toxic.beta).to_affine();
    vk.gamma_g2 = ec::mul(g2_gen, toxic.gamma).to_affine();
    vk.delta_g2 = ec::mul(g2_gen, toxic.delta).to_affine();
    return out;
}

util::Status convert_to_coset_lagrange(const r1cs::ShapeRecorder& shape, const ToxicWaste& toxic,
                                       ParameterScalars& scalars, util::ThreadPool* pool) {
    CUZK_RETURN_IF_ERROR(check_toxic(toxic));
    if (scalars.h_basis != HBasis::kMonomial || scalars.domain_size < 2 ||
        scalars.h.size() != scalars.domain_size - 1 || scalars.num_inputs != shape.num_inputs() ||
        scalars.num_aux != shape.num_aux() || scalars.l.size() != scalars.num_aux)
        return util::invalid_argument("groth16 setup: converting to coset-Lagrange bases needs a "
                                      "monomial set of the same shape");
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    const Fr z_tau = toxic.tau.pow(static_cast<uint64_t>(scalars.domain_size)) - Fr::one();
    return fold_coset_lagrange(shape, toxic.tau, z_tau * toxic.delta.inverse(), p, scalars);
}

util::Result<Parameters> generate_parameters(const Circuit& circuit, const ToxicWaste& toxic,
                                             util::ThreadPool* pool, util::PhaseTimes* times) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    CUZK_ASSIGN_OR_RETURN(ParameterScalars sc, compute_parameter_scalars(circuit, toxic, &p, times));
    Parameters params;
    params.vk = sc.vk;
    {
        util::PhaseScope phase("setup_g1", times);
        const size_t n = sc.ic.size() + sc.l.size() + sc.h.size() + sc.a.size() + sc.b.size();
        const ec::FixedBaseTable<ec::G1Curve> table(ec::kG1Generator,
                                                    ec::choose_fixed_base_window(n), p);
        params.vk.ic = table.mul_all(std::span<const Fr>(sc.ic), p);
        params.l = table.mul_all(std::span<const Fr>(sc.l), p);
        params.h = table.mul_all(std::span<const Fr>(sc.h), p);
        params.a = table.mul_all(std::span<const Fr>(sc.a), p);
        params.b_g1 = table.mul_all(std::span<const Fr>(sc.b), p);
    }
    {
        util::PhaseScope phase("setup_g2", times);
        const ec::FixedBaseTable<ec::G2Curve> table(ec::kG2Generator,
                                                    ec::choose_fixed_base_window(sc.b.size()), p);
        params.b_g2 = table.mul_all(std::span<const Fr>(sc.b), p);
    }
    return params;
}

}  // namespace cuzk::groth16
