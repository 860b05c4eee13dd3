// Tests of the test-ceremony generator (setup.hpp): the QAP identity at τ against polynomials
// computed naively, the Lagrange basis against its closed form, the key structure against
// r1cs::Counter, the points against their scalar definitions, a params_io round trip, errors.
#include "groth16/setup.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/params_io.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_circuits.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;
using r1cs::LC;
using r1cs::Variable;

// ---- a random circuit: c_k = a_k · b_k (+ t_k·w_k) with random sparse LCs ---------------------
struct RandomSpec {
    size_t inputs = 3;        // public inputs besides ONE
    size_t free_aux = 4;      // aux allocated up front (each used in some A)
    size_t constraints = 40;  // ≥ free_aux
    uint64_t seed = 1;
};
struct Witness {
    std::vector<Fr> z;  // inputs (ONE first), then aux: ShapeRecorder's column order
    size_t num_inputs = 0;
};

Circuit random_circuit(RandomSpec spec, Witness* witness) {
    return [spec, witness](r1cs::ConstraintSystem& cs) -> util::Status {
        util::TestRng rng(spec.seed);
        std::vector<Variable> vars{Variable::one()};
        std::vector<Fr> values{Fr::one()};
        std::vector<Fr> input_values{Fr::one()}, aux_values;
        for (size_t i = 0; i < spec.inputs; ++i) {
            const Fr x = Fr::random(rng);
            auto v = cs.alloc_input(r1cs::Name("in ", i), x);
            if (!v.ok()) return v.status();
            vars.push_back(*v);
            values.push_back(x);
            input_values.push_back(x);
        }
        auto new_aux = [&](const Fr& x) -> util::Result<Variable> {
            auto v = cs.alloc(r1cs::Name("aux ", aux_values.size()), x);
            if (!v.ok()) return v.status();
            vars.push_back(*v);
            values.push_back(x);
            aux_values.push_back(x);
            return *v;
        };
        for (size_t i = 0; i < spec.free_aux; ++i) {
            auto v = new_aux(Fr::random(rng));
            if (!v.ok()) return v.status();
        }
        auto random_lc = [&](LC& lc, Fr& value, size_t terms) {
            for (size_t t = 0; t < terms; ++t) {
                const size_t idx = static_cast<size_t>(rng.uniform(vars.size()));
                const Fr c = Fr::random(rng);
                lc += c * vars[idx];
                value += c * values[idx];
            }
        };
        for (size_t k = 0; k < spec.constraints; ++k) {
            LC a, b;
            Fr av = Fr::zero(), bv = Fr::zero();
            if (k < spec.free_aux) {
                const size_t idx = 1 + spec.inputs + k;
                a += vars[idx];
                av += values[idx];
            }
            random_lc(a, av, 1 + static_cast<size_t>(rng.uniform(3)));
            random_lc(b, bv, 1 + static_cast<size_t>(rng.uniform(3)));
            const bool extra = rng.uniform(2) == 1;
            const size_t other = static_cast<size_t>(rng.uniform(vars.size()));
            const Fr t = Fr::random(rng);
            // c·1 + t·other = a·b  →  c = a·b − t·other
            Fr cv = av * bv;
            if (extra) cv -= t * values[other];
            auto c = new_aux(cv);
            if (!c.ok()) return c.status();
            LC c_lc(*c);
            if (extra) c_lc += t * vars[other];
            cs.enforce(r1cs::Name("c ", k), a, b, c_lc);
        }
        if (witness != nullptr) {
            witness->num_inputs = input_values.size();
            witness->z = input_values;
            witness->z.insert(witness->z.end(), aux_values.begin(), aux_values.end());
        }
        return util::Status();
    };
}

Circuit cubic_circuit(Fr x) {
    return [x](r1cs::ConstraintSystem& cs) { return r1cs::testing::cubic(cs, x); };
}

Fr horner(std::span<const Fr> coeffs, const Fr& x) {
    Fr r = Fr::zero();
    for (size_t i = coeffs.size(); i-- > 0;) r = r * x + coeffs[i];
    return r;
}

// The QAP identity, naively: A, B, C interpolated from A·z, B·z, C·z on the domain;
// P = A·B − C divided by x^m − 1 with zero remainder (the witness satisfies the circuit), and at
// τ: (Σ z_j u_j(τ))(Σ z_j v_j(τ)) − Σ z_j w_j(τ) = h(τ)·Z(τ), with u, v, w from evaluate_qap.
void check_qap_identity(const Circuit& circuit, const std::vector<Fr>& z, uint64_t seed) {
    r1cs::ShapeRecorder rec;
    ASSERT_TRUE(circuit(rec).ok());
    rec.finish();
    std::vector<Fr> az, bz, cz;
    ASSERT_TRUE(rec.multiply(z, az, bz, cz).ok());
    auto domain = ntt::EvaluationDomain::create(rec.a().rows());
    ASSERT_TRUE(domain.ok());
    const size_t m = domain->size();
    for (auto* vec : {&az, &bz, &cz}) {
        ASSERT_TRUE(ntt::pad_to_domain(*vec, *domain).ok());
        ASSERT_TRUE(ntt::inverse(std::span<Fr>(*vec), *domain).ok());
    }
    std::vector<Fr> p(2 * m - 1, Fr::zero());
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < m; ++j) p[i + j] += az[i] * bz[j];
    for (size_t i = 0; i < m; ++i) p[i] -= cz[i];
    std::vector<Fr> h(m - 1, Fr::zero());
    for (size_t i = 2 * m - 1; i-- > m;) {  // divide by x^m − 1 from the top
        h[i - m] += p[i];
        p[i - m] += p[i];
        p[i] = Fr::zero();
    }
    for (size_t i = 0; i < m; ++i) ASSERT_TRUE(p[i].is_zero()) << "remainder at x^" << i;

    util::TestRng rng(seed);
    for (int trial = 0; trial < 2; ++trial) {
        const Fr tau = Fr::random(rng);
        auto q = detail::evaluate_qap(circuit, tau);
        ASSERT_TRUE(q.ok()) << q.status().to_string();
        ASSERT_EQ(q->domain_size, m);
        ASSERT_EQ(q->u.size(), z.size());
        Fr at = Fr::zero(), bt = Fr::zero(), ct = Fr::zero();
        for (size_t j = 0; j < z.size(); ++j) {
            at += z[j] * q->u[j];
            bt += z[j] * q->v[j];
            ct += z[j] * q->w[j];
        }
        EXPECT_EQ(at, horner(az, tau));
        EXPECT_EQ(bt, horner(bz, tau));
        EXPECT_EQ(ct, horner(cz, tau));
        EXPECT_EQ(q->z_tau, tau.pow(static_cast<uint64_t>(m)) - Fr::one());
        EXPECT_EQ(at * bt - ct, horner(h, tau) * q->z_tau);
    }
    // A wrong witness leaves a remainder.
    std::vector<Fr> bad = z;
    bad.back() += Fr::one();
    ASSERT_TRUE(rec.multiply(bad, az, bz, cz).ok());
    bool all_zero = true;
    for (size_t i = 0; i < az.size(); ++i) all_zero = all_zero && (az[i] * bz[i] == cz[i]);
    EXPECT_FALSE(all_zero);
}

TEST(Groth16Setup, ToxicWasteFromSeed) {
    const ToxicWaste a = ToxicWaste::from_seed(7), b = ToxicWaste::from_seed(7),
                     c = ToxicWaste::from_seed(8);
    for (const Fr* x : {&a.tau, &a.alpha, &a.beta, &a.gamma, &a.delta}) EXPECT_FALSE(x->is_zero());
    EXPECT_EQ(a.tau, b.tau);
    EXPECT_EQ(a.delta, b.delta);
    EXPECT_NE(a.tau, c.tau);
    EXPECT_NE(a.alpha, a.beta);
}

TEST(Groth16Setup, QapIdentityCubic) {
    const Fr x = Fr::from_u64(3);
    // z = (ONE, y = 35, x, x², x³)
    const std::vector<Fr> z = {Fr::one(), Fr::from_u64(35), x, Fr::from_u64(9), Fr::from_u64(27)};
    check_qap_identity(cubic_circuit(x), z, 11);
}

TEST(Groth16Setup, QapIdentityRandomCircuits) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        RandomSpec spec;
        spec.seed = seed;
        spec.inputs = static_cast<size_t>(seed);
        spec.constraints = 20 + 13 * static_cast<size_t>(seed);
        Witness w;
        const Circuit circuit = random_circuit(spec, &w);
        r1cs::ShapeRecorder probe;  // fills w
        ASSERT_TRUE(circuit(probe).ok());
        check_qap_identity(circuit, w.z, 100 + seed);
    }
}

// u_j(τ) against the closed form L_i(τ) = ω^i (τ^m − 1) / (m (τ − ω^i)), independent of the NTT.
TEST(Groth16Setup, LagrangeBasisClosedForm) {
    const Circuit circuit = random_circuit(RandomSpec{2, 3, 9, 5}, nullptr);
    r1cs::ShapeRecorder rec;
    ASSERT_TRUE(circuit(rec).ok());
    rec.finish();
    auto domain = ntt::EvaluationDomain::create(rec.a().rows());
    ASSERT_TRUE(domain.ok());
    const size_t m = domain->size();
    util::TestRng rng(9);
    const Fr tau = Fr::random(rng);
    const Fr zt = tau.pow(static_cast<uint64_t>(m)) - Fr::one();
    std::vector<Fr> lagrange(m);
    Fr omega_i = Fr::one();
    const Fr m_inv = Fr::from_u64(m).inverse();
    for (size_t i = 0; i < m; ++i) {
        lagrange[i] = omega_i * zt * m_inv * (tau - omega_i).inverse();
        omega_i *= domain->omega();
    }
    auto q = detail::evaluate_qap(circuit, tau);
    ASSERT_TRUE(q.ok());
    const r1cs::CsrMatrix* mats[3] = {&rec.a(), &rec.b(), &rec.c()};
    const std::vector<Fr>* got[3] = {&q->u, &q->v, &q->w};
    for (int k = 0; k < 3; ++k) {
        std::vector<Fr> want(rec.num_columns(), Fr::zero());
        const r1cs::CsrMatrix& mat = *mats[k];
        for (size_t r = 0; r < mat.rows(); ++r)
            for (uint64_t e = mat.row_ptr[r]; e < mat.row_ptr[r + 1]; ++e)
                want[mat.col[e]] += rec.coefficients()[mat.coeff[e]] * lagrange[r];
        EXPECT_EQ(*got[k], want) << "matrix " << k;
    }
}

// Counts against r1cs::Counter, points against their scalar definitions, params_io round trip.
void check_structure(const Circuit& circuit, uint64_t seed) {
    const ToxicWaste t = ToxicWaste::from_seed(seed);
    auto params = generate_parameters(circuit, t);
    ASSERT_TRUE(params.ok()) << params.status().to_string();
    const Parameters& p = *params;

    r1cs::Counter counter;
    ASSERT_TRUE(circuit(counter).ok());
    const size_t ni = counter.num_inputs();
    const size_t na = counter.num_aux();
    size_t m = 1;
    while (m < counter.num_constraints() + ni) m *= 2;
    EXPECT_EQ(p.h.size(), m - 1);
    EXPECT_EQ(p.domain_size(), m);
    EXPECT_EQ(p.l.size(), na);
    EXPECT_EQ(p.vk.ic.size(), ni);
    EXPECT_EQ(p.a.size(), ni + counter.a_aux_popcount());
    EXPECT_EQ(p.b_g1.size(), counter.b_input_popcount() + counter.b_aux_popcount());
    EXPECT_EQ(p.b_g2.size(), p.b_g1.size());
    for (const auto* section : {&p.vk.ic, &p.h, &p.l, &p.a, &p.b_g1})
        for (const auto& pt : *section) ASSERT_FALSE(pt.is_identity());
    for (const auto& pt : p.b_g2) ASSERT_FALSE(pt.is_identity());

    auto q = detail::evaluate_qap(circuit, t.tau);
    ASSERT_TRUE(q.ok());
    const auto g1 = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const auto g2 = ec::G2Jacobian::from_affine(ec::kG2Generator);
    auto p1 = [&](const Fr& s) { return ec::mul(g1, s).to_affine(); };
    auto p2 = [&](const Fr& s) { return ec::mul(g2, s).to_affine(); };
    EXPECT_EQ(p.vk.alpha_g1, p1(t.alpha));
    EXPECT_EQ(p.vk.beta_g1, p1(t.beta));
    EXPECT_EQ(p.vk.delta_g1, p1(t.delta));
    EXPECT_EQ(p.vk.beta_g2, p2(t.beta));
    EXPECT_EQ(p.vk.gamma_g2, p2(t.gamma));
    EXPECT_EQ(p.vk.delta_g2, p2(t.delta));
    auto lscalar = [&](size_t j) { return t.beta * q->u[j] + t.alpha * q->v[j] + q->w[j]; };
    for (size_t j = 0; j < ni; ++j) EXPECT_EQ(p.vk.ic[j], p1(lscalar(j) * t.gamma.inverse()));
    for (size_t j : {size_t{0}, na / 2, na - 1})
        EXPECT_EQ(p.l[j], p1(lscalar(ni + j) * t.delta.inverse())) << "l " << j;
    for (size_t i : {size_t{0}, size_t{1}, m - 2})
        EXPECT_EQ(p.h[i], p1(t.tau.pow(static_cast<uint64_t>(i)) * q->z_tau * t.delta.inverse()))
            << "h " << i;
    // a and b by density, all entries.
    size_t ia = 0, ib = 0;
    for (size_t j = 0; j < ni + na; ++j) {
        const bool in_a = j < ni || counter.a_aux_density().get(j - ni);
        const bool in_b =
            j < ni ? counter.b_input_density().get(j) : counter.b_aux_density().get(j - ni);
        if (in_a) {
            ASSERT_LT(ia, p.a.size());
            EXPECT_EQ(p.a[ia++], p1(q->u[j])) << "a, variable " << j;
        } else {
            EXPECT_TRUE(q->u[j].is_zero()) << "variable " << j;
        }
        if (in_b) {
            ASSERT_LT(ib, p.b_g1.size());
            EXPECT_EQ(p.b_g1[ib], p1(q->v[j])) << "b_g1, variable " << j;
            if (ib < 3) {
                EXPECT_EQ(p.b_g2[ib], p2(q->v[j])) << "b_g2, variable " << j;
            }
            ++ib;
        } else {
            EXPECT_TRUE(q->v[j].is_zero()) << "variable " << j;
        }
    }
    EXPECT_EQ(ia, p.a.size());
    EXPECT_EQ(ib, p.b_g1.size());

    auto bytes = serialize_params(p);
    ASSERT_TRUE(bytes.ok());
    auto back = parse_params(*bytes);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == p);

    // Deterministic: the same seed gives the same keys (also with a 1-thread pool).
    util::ThreadPool one(1);
    auto again = generate_parameters(circuit, t, &one);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(*again == p);
}

TEST(Groth16Setup, StructureCubic) { check_structure(cubic_circuit(Fr::from_u64(3)), 21); }

TEST(Groth16Setup, StructureCancelling) {
    // a_aux = {y, u}: x occurs in A only with cancelling coefficients, so it has no a point.
    check_structure(
        [](r1cs::ConstraintSystem& cs) {
            return r1cs::testing::cancelling(cs, Fr::from_u64(2), Fr::from_u64(5));
        },
        22);
}

TEST(Groth16Setup, StructureRandom) {
    check_structure(random_circuit(RandomSpec{5, 6, 100, 23}, nullptr), 23);
}

// compute_parameter_scalars from a compiled circuit's recorded shape (no second record) gives
// the circuit's scalars exactly; an unfinished shape is refused.
TEST(Groth16Setup, ScalarsFromARecordedShapeEqualTheCircuits) {
    const Circuit circuit = random_circuit(RandomSpec{4, 7, 300, 29}, nullptr);
    const ToxicWaste toxic = ToxicWaste::from_seed(31);
    auto direct = compute_parameter_scalars(circuit, toxic);
    ASSERT_TRUE(direct.ok()) << direct.status().message();
    auto compiled = CompiledCircuit::compile(circuit);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    auto from_shape = compute_parameter_scalars((*compiled)->shape(), toxic);
    ASSERT_TRUE(from_shape.ok()) << from_shape.status().message();
    EXPECT_EQ(from_shape->num_inputs, direct->num_inputs);
    EXPECT_EQ(from_shape->num_aux, direct->num_aux);
    EXPECT_EQ(from_shape->domain_size, direct->domain_size);
    EXPECT_EQ(from_shape->ic, direct->ic);
    EXPECT_EQ(from_shape->l, direct->l);
    EXPECT_EQ(from_shape->h, direct->h);
    EXPECT_EQ(from_shape->a, direct->a);
    EXPECT_EQ(from_shape->b, direct->b);
    EXPECT_EQ(from_shape->vk.delta_g1, direct->vk.delta_g1);
    EXPECT_FALSE(direct->l.empty());
    r1cs::ShapeRecorder unfinished;
    EXPECT_FALSE(compute_parameter_scalars(unfinished, toxic).ok());
}

TEST(Groth16Setup, RejectsUnconstrainedAux) {
    const Circuit circuit = [](r1cs::ConstraintSystem& cs) -> util::Status {
        CUZK_RETURN_IF_ERROR(r1cs::testing::cubic(cs, Fr::from_u64(3)));
        auto unused = cs.alloc("unused", Fr::from_u64(1));  // aux 3
        if (!unused.ok()) return unused.status();
        auto cancelled = cs.alloc("cancelled", Fr::from_u64(1));  // aux 4: only a 0 coefficient
        if (!cancelled.ok()) return cancelled.status();
        cs.enforce("zero", LC(*cancelled) - *cancelled, Variable::one(), LC());
        return util::Status();
    };
    auto params = generate_parameters(circuit, ToxicWaste::from_seed(1));
    ASSERT_FALSE(params.ok());
    EXPECT_EQ(params.status().code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(params.status().message().find("aux variable 3 is unconstrained"), std::string::npos)
        << params.status().message();

    const Circuit only_cancelled = [](r1cs::ConstraintSystem& cs) -> util::Status {
        CUZK_RETURN_IF_ERROR(r1cs::testing::cubic(cs, Fr::from_u64(3)));
        auto cancelled = cs.alloc("cancelled", Fr::from_u64(1));
        if (!cancelled.ok()) return cancelled.status();
        cs.enforce("zero", LC(*cancelled) - *cancelled, Variable::one(), LC());
        return util::Status();
    };
    params = generate_parameters(only_cancelled, ToxicWaste::from_seed(1));
    ASSERT_FALSE(params.ok());
    EXPECT_NE(params.status().message().find("aux variable 3 is unconstrained"), std::string::npos)
        << params.status().message();
}

TEST(Groth16Setup, PropagatesSynthesisErrorsAndRejectsBadToxicWaste) {
    const Circuit failing = [](r1cs::ConstraintSystem&) {
        return util::invalid_argument("synthesis failed here");
    };
    auto params = generate_parameters(failing, ToxicWaste::from_seed(1));
    ASSERT_FALSE(params.ok());
    EXPECT_EQ(params.status().message(), "synthesis failed here");

    ToxicWaste t = ToxicWaste::from_seed(1);
    t.delta = Fr::zero();
    EXPECT_FALSE(generate_parameters(cubic_circuit(Fr::from_u64(3)), t).ok());
    // τ in the domain (τ = 1: Z(τ) = 0).
    t = ToxicWaste::from_seed(1);
    t.tau = Fr::one();
    params = generate_parameters(cubic_circuit(Fr::from_u64(3)), t);
    ASSERT_FALSE(params.ok());
    EXPECT_NE(params.status().message().find("domain"), std::string::npos);
}

// Timing (not run by default): ./groth16_setup_test --gtest_also_run_disabled_tests
// --gtest_filter='*Timing*'
TEST(Groth16Setup, DISABLED_Timing) {
    for (unsigned log_m : {12u, 16u}) {
        const size_t m = size_t{1} << log_m;
        RandomSpec spec{4, 64, m - 8, 1000 + log_m};  // rows = m − 8 + 5 ≤ m
        const Circuit circuit = random_circuit(spec, nullptr);
        const auto start = std::chrono::steady_clock::now();
        auto params = generate_parameters(circuit, ToxicWaste::from_seed(log_m));
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_TRUE(params.ok());
        ASSERT_EQ(params->domain_size(), m);
        std::printf("generate_parameters 2^%u: %.3f s (h %zu, l %zu, a %zu, b %zu)\n", log_m, s,
                    params->h.size(), params->l.size(), params->a.size(), params->b_g1.size());
    }
}

}  // namespace
}  // namespace cuzk::groth16
