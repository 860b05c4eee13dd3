// Tests of the Groth16 prover: parameters from the test ceremony (setup.hpp), proofs checked with
// the pairing equation e(A,B) = e(α,β)·e(Σ x_i·ic_i, γ)·e(C,δ) written as a product check.
#include "groth16/prover.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "pairing/pairing.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_circuits.hpp"
#include "util/rng.hpp"
#include "util/timer.hpp"

namespace cuzk::groth16 {
namespace {

using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Affine;
using ec::G2Jacobian;
using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

// ---- verification by the pairing equation ------------------------------------------------------

// public_inputs excludes ONE.
bool pairing_check(const VerifyingKey& vk, const Proof& proof,
                   const std::vector<Fr>& public_inputs) {
    if (public_inputs.size() + 1 != vk.ic.size()) return false;
    G1Jacobian acc = G1Jacobian::from_affine(vk.ic[0]);
    for (size_t i = 0; i < public_inputs.size(); ++i)
        acc += ec::mul(G1Jacobian::from_affine(vk.ic[i + 1]), public_inputs[i]);
    const std::vector<std::pair<G1Affine, G2Affine>> pairs = {
        {proof.a, proof.b},
        {-vk.alpha_g1, vk.beta_g2},
        {-acc.to_affine(), vk.gamma_g2},
        {-proof.c, vk.delta_g2},
    };
    return pairing::pairing_product_is_one(pairs);
}

// The public inputs (ONE excluded) the circuit assigns.
std::vector<Fr> public_inputs_of(const Circuit& circuit) {
    r1cs::ProvingAssignment pa;
    EXPECT_TRUE(circuit(pa).ok());
    const std::vector<Fr>& in = pa.input_assignment();
    return std::vector<Fr>(in.begin() + 1, in.end());
}

// ---- circuits ----------------------------------------------------------------------------------

Circuit cubic_circuit(uint64_t x) {
    return [x](ConstraintSystem& cs) { return r1cs::testing::cubic(cs, Fr::from_u64(x)); };
}

// A random circuit with exactly 2^log_rows rows (input rows included) and `inputs` public inputs.
// The structure comes from structure_seed, the witness from value_seed, so circuits with the same
// structure seed share their parameters. Each constraint k allocates one aux w_k with
//   (Σ random·z) · (Σ random·z) = w_k + [random·x_i]
// over previously allocated variables. Aux j with j % 3 == 2 never appears in A. With sparse_b,
// B is ONE times a coefficient, plus, one time in eight, one aux j with j % 5 == 0 — so only ONE
// is dense among the inputs in B and few aux are. perturb: aux index allocated off by one (so row
// `perturb` is the first unsatisfied one).
struct RandomSpec {
    unsigned log_rows = 8;
    size_t inputs = 3;
    bool sparse_b = false;
    uint64_t structure_seed = 1;
    uint64_t value_seed = 2;
    long perturb = -1;
};

util::Status random_circuit(ConstraintSystem& cs, const RandomSpec& spec) {
    util::TestRng srng(spec.structure_seed);
    util::TestRng vrng(spec.value_seed);
    std::vector<Variable> ins{Variable::one()};
    std::vector<Fr> in_vals{Fr::one()};
    std::vector<Variable> auxs;
    std::vector<Fr> aux_vals;
    for (size_t i = 0; i < spec.inputs; ++i) {
        const Fr v = Fr::random(vrng);
        auto var = cs.alloc_input(Name("x", i), v);
        if (!var.ok()) return var.status();
        ins.push_back(*var);
        in_vals.push_back(v);
    }
    const size_t rows = size_t{1} << spec.log_rows;
    const size_t constraints = rows - ins.size();
    auto pick = [&](bool for_a, Fr& value) -> Variable {
        for (;;) {
            const size_t u = srng.uniform(ins.size() + auxs.size());
            if (u < ins.size()) {
                value = in_vals[u];
                return ins[u];
            }
            const size_t j = u - ins.size();
            if (for_a && j % 3 == 2) continue;
            value = aux_vals[j];
            return auxs[j];
        }
    };
    auto random_lc = [&](bool for_a, Fr& value) {
        LC lc;
        value = Fr::zero();
        const size_t terms = 1 + srng.uniform(3);
        for (size_t t = 0; t < terms; ++t) {
            Fr v;
            const Variable var = pick(for_a, v);
            const Fr coeff = Fr::random(srng);
            lc.add(coeff, var);
            value += coeff * v;
        }
        return lc;
    };
    for (size_t k = 0; k < constraints; ++k) {
        Fr av, bv;
        const LC a = random_lc(true, av);
        LC b;
        if (spec.sparse_b) {
            const Fr coeff = Fr::random(srng);
            b.add(coeff, Variable::one());
            bv = coeff;
            if (srng.uniform(8) == 0 && auxs.size() > 0) {
                const size_t j = 5 * srng.uniform((auxs.size() + 4) / 5);
                b.add(Fr::one(), auxs[j]);
                bv += aux_vals[j];
            }
        } else {
            b = random_lc(false, bv);
        }
        LC c;
        Fr w = av * bv;
        if (srng.uniform(4) == 0) {  // an extra input term in C
            const size_t i = srng.uniform(ins.size());
            const Fr coeff = Fr::random(srng);
            c.add(coeff, ins[i]);
            w -= coeff * in_vals[i];
        }
        if (static_cast<long>(auxs.size()) == spec.perturb) w += Fr::one();
        auto var = cs.alloc(Name("w", k), w);
        if (!var.ok()) return var.status();
        c.add(Fr::one(), *var);
        cs.enforce(Name("c", k), a, b, c);
        auxs.push_back(*var);
        aux_vals.push_back(w);
    }
    return util::Status();
}

Circuit random_circuit_fn(const RandomSpec& spec) {
    return [spec](ConstraintSystem& cs) { return random_circuit(cs, spec); };
}

Parameters setup_for(const Circuit& circuit, uint64_t seed = 7) {
    auto params = generate_parameters(circuit, ToxicWaste::from_seed(seed));
    EXPECT_TRUE(params.ok()) << params.status().message();
    return params.ok() ? std::move(*params) : Parameters{};
}

// Parameters cached per structure (setup at 2^12 is the slow part of these tests).
const Parameters& cached_params(const RandomSpec& spec) {
    static std::map<std::tuple<unsigned, size_t, bool, uint64_t>, std::unique_ptr<Parameters>>
        cache;
    auto key = std::make_tuple(spec.log_rows, spec.inputs, spec.sparse_b, spec.structure_seed);
    auto it = cache.find(key);
    if (it == cache.end()) {
        RandomSpec shape = spec;
        shape.perturb = -1;
        it = cache.emplace(key, std::make_unique<Parameters>(setup_for(random_circuit_fn(shape))))
                 .first;
    }
    return *it->second;
}

Proof prove_one(const Parameters& params, const Circuit& circuit, const ProverRandomness& rs,
                ProverTimings* timings = nullptr) {
    auto proofs = prove(params, std::span<const Circuit>(&circuit, 1),
                        std::span<const ProverRandomness>(&rs, 1), timings);
    EXPECT_TRUE(proofs.ok()) << proofs.status().message();
    if (!proofs.ok() || proofs->size() != 1) return Proof{};
    return (*proofs)[0];
}

std::string prove_error(const Parameters& params, const Circuit& circuit,
                        const ProverOptions& options = {}) {
    const ProverRandomness rs = ProverRandomness::from_seed(1);
    auto proofs = prove(params, std::span<const Circuit>(&circuit, 1),
                        std::span<const ProverRandomness>(&rs, 1), options);
    EXPECT_FALSE(proofs.ok());
    return proofs.ok() ? std::string() : proofs.status().message();
}

// ---- tests -------------------------------------------------------------------------------------

TEST(ProverRandomness, FromSeedIsDeterministicAndFromOsVaries) {
    const ProverRandomness a = ProverRandomness::from_seed(5);
    const ProverRandomness b = ProverRandomness::from_seed(5);
    const ProverRandomness c = ProverRandomness::from_seed(6);
    EXPECT_EQ(a.r, b.r);
    EXPECT_EQ(a.s, b.s);
    EXPECT_FALSE(a.r == c.r);
    EXPECT_FALSE(a.r == a.s);
    const ProverRandomness x = ProverRandomness::from_os();
    const ProverRandomness y = ProverRandomness::from_os();
    EXPECT_FALSE(x.r.is_zero());
    EXPECT_FALSE(x.s.is_zero());
    EXPECT_FALSE(x.r == y.r);
    EXPECT_FALSE(x.r == x.s);
}

TEST(Prover, CubicProofVerifies) {
    const Circuit circuit = cubic_circuit(3);
    const Parameters params = setup_for(circuit);
    const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(1));
    const std::vector<Fr> inputs = public_inputs_of(circuit);
    ASSERT_EQ(inputs.size(), 1u);
    EXPECT_EQ(inputs[0], Fr::from_u64(35));
    EXPECT_TRUE(pairing_check(params.vk, proof, inputs));
    EXPECT_FALSE(pairing_check(params.vk, proof, {Fr::from_u64(36)}));
    // Another witness for the same circuit shape (x = 5, y = 135) with the same parameters.
    const Circuit other = cubic_circuit(5);
    const Proof proof5 = prove_one(params, other, ProverRandomness::from_os());
    EXPECT_TRUE(pairing_check(params.vk, proof5, {Fr::from_u64(135)}));
    EXPECT_FALSE(pairing_check(params.vk, proof5, {Fr::from_u64(35)}));
}

TEST(Prover, RandomCircuit2e8VerifiesDeterministicAndRerandomized) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    EXPECT_EQ(params.domain_size(), 256u);
    const Circuit circuit = random_circuit_fn(spec);
    const std::vector<Fr> inputs = public_inputs_of(circuit);
    ASSERT_EQ(inputs.size(), 4u);

    const Proof p1 = prove_one(params, circuit, ProverRandomness::from_seed(11));
    const Proof p2 = prove_one(params, circuit, ProverRandomness::from_seed(11));
    const Proof p3 = prove_one(params, circuit, ProverRandomness::from_seed(12));
    EXPECT_TRUE(p1 == p2);
    EXPECT_FALSE(p1.a == p3.a);
    EXPECT_FALSE(p1.b == p3.b);
    EXPECT_FALSE(p1.c == p3.c);
    EXPECT_TRUE(pairing_check(params.vk, p1, inputs));
    EXPECT_TRUE(pairing_check(params.vk, p3, inputs));
}

TEST(Prover, TamperedProofsAndInputsFail) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    const Circuit circuit = random_circuit_fn(spec);
    const std::vector<Fr> inputs = public_inputs_of(circuit);
    const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(3));
    ASSERT_TRUE(pairing_check(params.vk, proof, inputs));

    Proof bad = proof;
    bad.a = G1Jacobian::from_affine(proof.a).add_mixed(ec::kG1Generator).to_affine();
    EXPECT_FALSE(pairing_check(params.vk, bad, inputs));
    bad = proof;
    bad.b = G2Jacobian::from_affine(proof.b).add_mixed(ec::kG2Generator).to_affine();
    EXPECT_FALSE(pairing_check(params.vk, bad, inputs));
    bad = proof;
    bad.c = G1Jacobian::from_affine(proof.c).add_mixed(ec::kG1Generator).to_affine();
    EXPECT_FALSE(pairing_check(params.vk, bad, inputs));
    bad = proof;
    std::swap(bad.a, bad.c);
    EXPECT_FALSE(pairing_check(params.vk, bad, inputs));
    for (size_t i = 0; i < inputs.size(); ++i) {
        std::vector<Fr> altered = inputs;
        altered[i] += Fr::one();
        EXPECT_FALSE(pairing_check(params.vk, proof, altered)) << "input " << i;
    }
}

TEST(Prover, SparseDensitiesAreGathered) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 3;
    spec.sparse_b = true;
    spec.structure_seed = 21;
    const Parameters& params = cached_params(spec);
    const Circuit circuit = random_circuit_fn(spec);

    r1cs::ProvingAssignment pa;
    ASSERT_TRUE(circuit(pa).ok());
    pa.finish();
    const size_t aux = pa.aux_assignment().size();
    // Some aux never appear in A, most never in B, and ONE is the only input in B.
    EXPECT_LT(pa.a_aux_density().popcount(), aux);
    EXPECT_GT(pa.a_aux_density().popcount(), 0u);
    EXPECT_LT(pa.b_aux_density().popcount(), aux / 4);
    EXPECT_GT(pa.b_aux_density().popcount(), 0u);
    EXPECT_EQ(pa.b_input_density().popcount(), 1u);
    EXPECT_EQ(params.a.size(), 4 + pa.a_aux_density().popcount());
    EXPECT_EQ(params.b_g1.size(), 1 + pa.b_aux_density().popcount());

    const std::vector<Fr> inputs = public_inputs_of(circuit);
    const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(4));
    EXPECT_TRUE(pairing_check(params.vk, proof, inputs));
}

TEST(Prover, RandomCircuit2e12VerifiesWithTimings) {
    RandomSpec spec;
    spec.log_rows = 12;
    spec.inputs = 6;
    spec.structure_seed = 31;
    const Parameters& params = cached_params(spec);
    EXPECT_EQ(params.domain_size(), 4096u);
    const Circuit circuit = random_circuit_fn(spec);
    ProverTimings t;
    const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(8), &t);
    EXPECT_TRUE(pairing_check(params.vk, proof, public_inputs_of(circuit)));
    for (double v : {t.synthesis, t.ntt, t.msm_h, t.msm_l, t.msm_a, t.msm_b1, t.msm_b2, t.assembly})
        EXPECT_GE(v, 0.0);
    const double phases =
        t.synthesis + t.ntt + t.msm_h + t.msm_l + t.msm_a + t.msm_b1 + t.msm_b2 + t.assembly;
    EXPECT_GT(t.total, 0.0);
    EXPECT_GE(t.total + 0.5, phases);
    EXPECT_LE(t.total, phases * 1.5 + 5.0);
    std::printf(
        "2^12 prove: total %.1f ms (synthesis %.1f, ntt %.1f, msm_h %.1f, msm_l %.1f, msm_a "
        "%.1f, msm_b1 %.1f, msm_b2 %.1f, assembly %.1f)\n",
        t.total, t.synthesis, t.ntt, t.msm_h, t.msm_l, t.msm_a, t.msm_b1, t.msm_b2, t.assembly);
}

TEST(Prover, SeveralCircuitsInOneCall) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    std::vector<Circuit> circuits;
    std::vector<ProverRandomness> rs;
    for (uint64_t k = 0; k < 3; ++k) {
        RandomSpec s = spec;
        s.value_seed = 100 + k;
        circuits.push_back(random_circuit_fn(s));
        rs.push_back(ProverRandomness::from_seed(200 + k));
    }
    ProverTimings t;
    auto proofs = prove(params, circuits, rs, &t);
    ASSERT_TRUE(proofs.ok()) << proofs.status().message();
    ASSERT_EQ(proofs->size(), 3u);
    for (size_t k = 0; k < 3; ++k) {
        const std::vector<Fr> inputs = public_inputs_of(circuits[k]);
        EXPECT_TRUE(pairing_check(params.vk, (*proofs)[k], inputs)) << "circuit " << k;
        // Each proof is exactly the single-circuit proof with the same randomness.
        EXPECT_TRUE((*proofs)[k] == prove_one(params, circuits[k], rs[k]));
        if (k > 0) {
            EXPECT_FALSE(pairing_check(params.vk, (*proofs)[k], public_inputs_of(circuits[0])));
        }
    }
    EXPECT_GT(t.total, 0.0);
    // One MSM per circuit instead of the shared pass, with and without the unit split: the
    // same proofs.
    for (bool split : {true, false}) {
        ProverOptions separate;
        separate.share_parameter_passes = false;
        separate.split_unit_scalars = split;
        auto again = prove(params, circuits, rs, separate);
        ASSERT_TRUE(again.ok()) << again.status().message();
        for (size_t k = 0; k < 3; ++k) EXPECT_TRUE((*again)[k] == (*proofs)[k]) << "circuit " << k;
    }
    // Mismatched randomness count.
    auto bad = prove(params, circuits, std::span<const ProverRandomness>(rs.data(), 2));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().message().find("3 circuits but 2 randomness"), std::string::npos)
        << bad.status().message();
    // Zero circuits: zero proofs.
    auto none = prove(params, std::span<const Circuit>(), std::span<const ProverRandomness>());
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
}

TEST(Prover, UnsatisfiedWitness) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    RandomSpec bad_spec = spec;
    bad_spec.perturb = 17;
    const Circuit bad = random_circuit_fn(bad_spec);
    // Default: detected, first failing row named.
    const std::string msg = prove_error(params, bad);
    EXPECT_NE(msg.find("circuit 0: constraint row 17 is not satisfied"), std::string::npos) << msg;
    // bellperson's behaviour (no check): a proof comes out, and it does not verify.
    ProverOptions no_check;
    no_check.check_satisfied = false;
    const ProverRandomness rs = ProverRandomness::from_seed(9);
    auto proofs = prove(params, std::span<const Circuit>(&bad, 1),
                        std::span<const ProverRandomness>(&rs, 1), no_check);
    ASSERT_TRUE(proofs.ok()) << proofs.status().message();
    EXPECT_FALSE(pairing_check(params.vk, (*proofs)[0], public_inputs_of(bad)));
}

TEST(Prover, ShapeMismatchErrors) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Circuit circuit = random_circuit_fn(spec);
    const Parameters& good = cached_params(spec);
    auto expect_error = [&](const Parameters& params, const std::string& needle) {
        const std::string msg = prove_error(params, circuit);
        EXPECT_NE(msg.find(needle), std::string::npos) << "got: " << msg;
    };
    {
        Parameters p = good;
        p.vk.ic.pop_back();
        expect_error(p, "circuit 0: circuit has 5 inputs but the verifying key has 4");
    }
    {
        Parameters p = good;
        p.vk.ic.push_back(p.vk.ic[0]);
        expect_error(p, "circuit has 5 inputs but the verifying key has 6");
    }
    {
        Parameters p = good;
        p.l.pop_back();
        expect_error(p, "aux variables but the parameters' L query has");
    }
    {
        Parameters p = good;
        p.a.pop_back();
        expect_error(p, "A-query points (inputs + dense aux) but the parameters' A query has");
    }
    {
        Parameters p = good;
        p.b_g1.pop_back();
        expect_error(p, "but the parameters' B_G1 query has");
    }
    {
        Parameters p = good;
        p.b_g2.pop_back();
        expect_error(p, "but the parameters' B_G2 query has");
    }
    {
        Parameters p = good;
        p.h.resize(511, p.h[0]);
        expect_error(p,
                     "circuit has 256 constraint rows (domain size 256) but the parameters' H "
                     "query has 511 points (domain size 512)");
    }
    {
        Parameters p = good;
        p.vk.delta_g1 = G1Affine::identity();
        expect_error(p, "delta_g1 is the identity");
    }
    {
        Parameters p = good;
        p.vk.delta_g2 = G2Affine::identity();
        expect_error(p, "delta_g2 is the identity");
    }
    // A circuit of a different size.
    RandomSpec bigger = spec;
    bigger.log_rows = 9;
    {
        const Circuit big = random_circuit_fn(bigger);
        const std::string msg = prove_error(good, big);
        EXPECT_NE(msg.find("aux variables but the parameters' L query"), std::string::npos) << msg;
    }
    // Synthesis errors propagate with the circuit index.
    const Circuit failing = [](ConstraintSystem& cs) -> util::Status {
        auto v = cs.alloc("missing", std::optional<Fr>());
        return v.status();
    };
    const std::string msg = prove_error(good, failing);
    EXPECT_NE(msg.find("circuit 0: synthesis: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("missing"), std::string::npos) << msg;
}

TEST(Prover, HScalarsMatchPolynomialIdentity) {
    // For a satisfied witness, A(x)·B(x) − C(x) = H(x)·Z(x) with A, B, C the polynomials taking
    // the values a, b, c on the domain. Checked at a random point x, with A(x), B(x), C(x)
    // computed independently of the NTT by the Lagrange formula L_i(x) = ω^i·(x^m − 1)/(m·(x −
    // ω^i)).
    RandomSpec spec;
    spec.log_rows = 6;
    spec.inputs = 2;
    r1cs::ProvingAssignment pa;
    ASSERT_TRUE(random_circuit(pa, spec).ok());
    pa.finish();
    const std::vector<Fr> a = pa.a(), b = pa.b(), c = pa.c();
    auto h = compute_h_scalars(a, b, c);
    ASSERT_TRUE(h.ok()) << h.status().message();
    const size_t m = 64;
    ASSERT_EQ(h->size(), m - 1);
    // Evaluate H at a random x and compare with (A·B − C)(x)/Z(x), A etc. evaluated from their
    // values on the domain by the barycentric Lagrange formula L_i(x) = ω^i (x^m − 1)/(m (x −
    // ω^i)).
    util::TestRng rng(77);
    const Fr x = Fr::random(rng);
    Fr hx = Fr::zero();
    for (size_t i = h->size(); i-- > 0;) hx = hx * x + (*h)[i];
    const Fr omega = ff::fr_root_of_unity(6);
    const Fr zx = x.pow(uint64_t{m}) - Fr::one();
    const Fr m_inv = Fr::from_u64(m).inverse();
    Fr ax = Fr::zero(), bx = Fr::zero(), cx = Fr::zero(), w = Fr::one();
    for (size_t i = 0; i < m; ++i) {
        const Fr li = w * zx * m_inv * (x - w).inverse();
        if (i < a.size()) {
            ax += li * a[i];
            bx += li * b[i];
            cx += li * c[i];
        }
        w = w * omega;
    }
    EXPECT_EQ(ax * bx - cx, hx * zx);
}

TEST(Prover, ResultDoesNotDependOnThreads) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    const Circuit circuit = random_circuit_fn(spec);
    const ProverRandomness rs = ProverRandomness::from_seed(21);
    std::vector<Proof> results;
    for (unsigned threads : {1u, 3u}) {
        util::ThreadPool pool(threads);
        auto proofs = prove(params, std::span<const Circuit>(&circuit, 1),
                            std::span<const ProverRandomness>(&rs, 1), nullptr, &pool);
        ASSERT_TRUE(proofs.ok()) << proofs.status().message();
        results.push_back((*proofs)[0]);
    }
    EXPECT_TRUE(results[0] == results[1]);
    EXPECT_TRUE(results[0] == prove_one(params, circuit, rs));
}

TEST(Prover, UnitScalarSplitGivesTheSameProof) {
    // Mostly bit-valued aux (booleans) plus the cubic: many scalars equal to one in L, A and B.
    const Circuit circuit = [](ConstraintSystem& cs) -> util::Status {
        CUZK_RETURN_IF_ERROR(r1cs::testing::booleans(cs, 0xf0e1d2c3b4a59687ULL, 64));
        CUZK_RETURN_IF_ERROR(r1cs::testing::booleans(cs, ~uint64_t{0}, 64));
        return r1cs::testing::cubic(cs, Fr::from_u64(3));
    };
    const Parameters params = setup_for(circuit);
    const ProverRandomness rs = ProverRandomness::from_seed(31);
    std::vector<Proof> results;
    for (bool split : {true, false}) {
        ProverOptions options;
        options.split_unit_scalars = split;
        auto proofs = prove(params, std::span<const Circuit>(&circuit, 1),
                            std::span<const ProverRandomness>(&rs, 1), options);
        ASSERT_TRUE(proofs.ok()) << proofs.status().message();
        results.push_back((*proofs)[0]);
    }
    EXPECT_TRUE(results[0] == results[1]);
    EXPECT_TRUE(pairing_check(params.vk, results[0], {Fr::from_u64(35)}));
}

TEST(Prover, AgreesWithVerifier) {
    RandomSpec spec;
    spec.log_rows = 8;
    spec.inputs = 4;
    const Parameters& params = cached_params(spec);
    const Circuit circuit = random_circuit_fn(spec);
    const std::vector<Fr> inputs = public_inputs_of(circuit);
    const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(13));
    const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
    auto ok = verify(pvk, proof, inputs);
    ASSERT_TRUE(ok.ok()) << ok.status().message();
    EXPECT_TRUE(*ok);
    Proof bad = proof;
    bad.c = G1Jacobian::from_affine(proof.c).add_mixed(ec::kG1Generator).to_affine();
    auto rejected = verify(pvk, bad, inputs);
    ASSERT_TRUE(rejected.ok()) << rejected.status().message();
    EXPECT_FALSE(*rejected);
}

// Manual benchmark: CUZK_PROVER_BENCH_LOG=16 ./groth16_prover_test
//   --gtest_also_run_disabled_tests --gtest_filter='*Benchmark*'
TEST(Prover, DISABLED_Benchmark) {
    RandomSpec spec;
    const char* env = std::getenv("CUZK_PROVER_BENCH_LOG");
    spec.log_rows = env != nullptr ? static_cast<unsigned>(std::atoi(env)) : 16;
    spec.inputs = 8;
    spec.structure_seed = 41;
    util::Stopwatch sw;
    const Parameters params = setup_for(random_circuit_fn(spec));
    std::printf("2^%u setup: %.1f ms\n", spec.log_rows, sw.elapsed_ms());
    const Circuit circuit = random_circuit_fn(spec);
    for (int rep = 0; rep < 2; ++rep) {
        ProverTimings t;
        const Proof proof = prove_one(params, circuit, ProverRandomness::from_seed(8), &t);
        EXPECT_TRUE(pairing_check(params.vk, proof, public_inputs_of(circuit)));
        std::printf(
            "2^%u prove: total %.1f ms (synthesis %.1f, ntt %.1f, msm_h %.1f, msm_l %.1f, msm_a "
            "%.1f, msm_b1 %.1f, msm_b2 %.1f, assembly %.1f); |a| %zu |b| %zu\n",
            spec.log_rows, t.total, t.synthesis, t.ntt, t.msm_h, t.msm_l, t.msm_a, t.msm_b1,
            t.msm_b2, t.assembly, params.a.size(), params.b_g1.size());
    }
    // Four circuits in one call: the shared parameter pass against one MSM per circuit.
    const char* kenv = std::getenv("CUZK_PROVER_BENCH_CIRCUITS");
    const size_t count = kenv != nullptr ? static_cast<size_t>(std::atoi(kenv)) : 4;
    std::vector<Circuit> circuits;
    std::vector<ProverRandomness> rs;
    for (size_t k = 0; k < count; ++k) {
        RandomSpec s = spec;
        s.value_seed = 300 + k;
        circuits.push_back(random_circuit_fn(s));
        rs.push_back(ProverRandomness::from_seed(400 + k));
    }
    for (int rep = 0; rep < 2; ++rep) {
        for (bool shared : {true, false}) {
            ProverOptions options;
            options.share_parameter_passes = shared;
            ProverTimings t;
            auto proofs = prove(params, circuits, rs, options, &t);
            ASSERT_TRUE(proofs.ok()) << proofs.status().message();
            std::printf(
                "2^%u x%zu %s: total %.1f ms, msm %.1f ms (h %.1f, l %.1f, a %.1f, b1 %.1f, b2 "
                "%.1f), ntt %.1f\n",
                spec.log_rows, count, shared ? "shared pass " : "per circuit", t.total,
                t.msm_h + t.msm_l + t.msm_a + t.msm_b1 + t.msm_b2, t.msm_h, t.msm_l, t.msm_a,
                t.msm_b1, t.msm_b2, t.ntt);
        }
    }
}

}  // namespace
}  // namespace cuzk::groth16
