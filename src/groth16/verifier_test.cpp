// Tests of the verifier with proofs simulated from the trapdoor (no prover needed): for random
// a, b, A = a·G1, B = b·G2 and C = (a·b − α·β − Σ_i x_i(β u_i + α v_i + w_i))/δ · G1 satisfy the
// verification equation for the inputs x (x_0 = 1 for ONE).
#include "groth16/verifier.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/setup.hpp"
#include "r1cs/test_circuits.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// k public inputs x_i, aux y_i = x_i · x_i.
Circuit squares_circuit(size_t k) {
    return [k](r1cs::ConstraintSystem& cs) -> util::Status {
        for (size_t i = 0; i < k; ++i) {
            const Fr xv = Fr::from_u64(i + 2);
            auto x = cs.alloc_input(r1cs::Name("x ", i), xv);
            if (!x.ok()) return x.status();
            auto y = cs.alloc(r1cs::Name("y ", i), xv * xv);
            if (!y.ok()) return y.status();
            cs.enforce(r1cs::Name("sq ", i), *x, *x, *y);
        }
        return util::Status();
    };
}

struct Fixture {
    ToxicWaste toxic;
    detail::QapEvaluation qap;
    VerifyingKey vk;
    PreparedVerifyingKey pvk;

    Fixture(const Circuit& circuit, uint64_t seed) : toxic(ToxicWaste::from_seed(seed)) {
        auto params = generate_parameters(circuit, toxic);
        EXPECT_TRUE(params.ok()) << params.status().to_string();
        vk = params->vk;
        auto q = detail::evaluate_qap(circuit, toxic.tau);
        EXPECT_TRUE(q.ok());
        qap = *q;
        pvk = prepare_verifying_key(vk);
    }

    // inputs: x_1..x_n (ONE excluded).
    Proof simulate(const std::vector<Fr>& inputs, util::TestRng& rng) const {
        const Fr a = Fr::random(rng), b = Fr::random(rng);
        Fr c = a * b - toxic.alpha * toxic.beta;
        for (size_t i = 0; i <= inputs.size(); ++i) {
            const Fr x = i == 0 ? Fr::one() : inputs[i - 1];
            c -= x * (toxic.beta * qap.u[i] + toxic.alpha * qap.v[i] + qap.w[i]);
        }
        c *= toxic.delta.inverse();
        const auto g1 = ec::G1Jacobian::from_affine(ec::kG1Generator);
        const auto g2 = ec::G2Jacobian::from_affine(ec::kG2Generator);
        return Proof{ec::mul(g1, a).to_affine(), ec::mul(g2, b).to_affine(),
                     ec::mul(g1, c).to_affine()};
    }
};

std::vector<Fr> random_inputs(size_t n, util::TestRng& rng) {
    std::vector<Fr> x(n);
    for (Fr& v : x) v = Fr::random(rng);
    return x;
}

ec::G1Affine add_g1(const ec::G1Affine& p) {
    return (ec::G1Jacobian::from_affine(p) + ec::G1Jacobian::from_affine(ec::kG1Generator))
        .to_affine();
}
ec::G2Affine add_g2(const ec::G2Affine& p) {
    return (ec::G2Jacobian::from_affine(p) + ec::G2Jacobian::from_affine(ec::kG2Generator))
        .to_affine();
}

bool verifies(const PreparedVerifyingKey& pvk, const Proof& proof, const std::vector<Fr>& x) {
    auto r = verify(pvk, proof, x);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() && *r;
}

TEST(Groth16Verifier, PreparedKey) {
    const Fixture f(squares_circuit(3), 5);
    EXPECT_EQ(f.pvk.ic, f.vk.ic);
    EXPECT_EQ(f.pvk.num_public_inputs(), 3u);
    EXPECT_EQ(f.pvk.alpha_g1_beta_g2, pairing::pairing(f.vk.alpha_g1, f.vk.beta_g2));
    EXPECT_FALSE(f.pvk.neg_gamma_g2.is_identity());
    EXPECT_FALSE(f.pvk.neg_delta_g2.is_identity());
}

TEST(Groth16Verifier, AcceptsSimulatedProofsAndRejectsTampering) {
    const Fixture f(squares_circuit(4), 6);
    util::TestRng rng(60);
    for (int trial = 0; trial < 2; ++trial) {
        const std::vector<Fr> x = random_inputs(4, rng);
        const Proof proof = f.simulate(x, rng);
        EXPECT_TRUE(verifies(f.pvk, proof, x));

        Proof bad = proof;
        bad.a = add_g1(bad.a);
        EXPECT_FALSE(verifies(f.pvk, bad, x));
        bad = proof;
        bad.b = add_g2(bad.b);
        EXPECT_FALSE(verifies(f.pvk, bad, x));
        bad = proof;
        bad.c = add_g1(bad.c);
        EXPECT_FALSE(verifies(f.pvk, bad, x));
        bad = proof;
        std::swap(bad.a, bad.c);
        EXPECT_FALSE(verifies(f.pvk, bad, x));
        for (size_t i = 0; i < x.size(); ++i) {
            std::vector<Fr> y = x;
            y[i] += Fr::one();
            EXPECT_FALSE(verifies(f.pvk, proof, y)) << "input " << i;
        }
        // Proof for other inputs.
        EXPECT_FALSE(verifies(f.pvk, f.simulate(random_inputs(4, rng), rng), x));
    }
}

TEST(Groth16Verifier, CubicCircuit) {
    const Fixture f([](r1cs::ConstraintSystem& cs) { return r1cs::testing::cubic(cs, Fr::from_u64(3)); },
                    7);
    util::TestRng rng(70);
    const std::vector<Fr> y = {Fr::from_u64(35)};
    const Proof proof = f.simulate(y, rng);
    EXPECT_TRUE(verifies(f.pvk, proof, y));
    EXPECT_FALSE(verifies(f.pvk, proof, {Fr::from_u64(36)}));
}

TEST(Groth16Verifier, WrongInputCountIsAnError) {
    const Fixture f(squares_circuit(3), 8);
    util::TestRng rng(80);
    const std::vector<Fr> x = random_inputs(3, rng);
    const Proof proof = f.simulate(x, rng);
    for (size_t n : {size_t{0}, size_t{2}, size_t{4}}) {
        const std::vector<Fr> y = random_inputs(n, rng);
        auto r = verify(f.pvk, proof, y);
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_EQ(r.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(r.status().message().find("expects 3"), std::string::npos)
            << r.status().message();
    }
    // Including ONE by mistake: 4 values.
    std::vector<Fr> with_one = {Fr::one()};
    with_one.insert(with_one.end(), x.begin(), x.end());
    EXPECT_FALSE(verify(f.pvk, proof, with_one).ok());
}

TEST(Groth16Verifier, BatchVerify) {
    const Fixture f(squares_circuit(3), 9);
    util::TestRng rng(90);
    constexpr size_t kN = 6;
    std::vector<Proof> proofs;
    std::vector<std::vector<Fr>> inputs;
    for (size_t j = 0; j < kN; ++j) {
        inputs.push_back(random_inputs(3, rng));
        proofs.push_back(f.simulate(inputs.back(), rng));
    }
    auto ok = batch_verify(f.pvk, proofs, inputs, &rng);
    ASSERT_TRUE(ok.ok()) << ok.status().to_string();
    EXPECT_TRUE(*ok);
    auto os = batch_verify(f.pvk, proofs, inputs);  // r_j from the OS CSPRNG
    ASSERT_TRUE(os.ok());
    EXPECT_TRUE(*os);
    // One proof: agrees with verify.
    auto single = batch_verify(f.pvk, std::span<const Proof>(proofs).first(1),
                               std::span<const std::vector<Fr>>(inputs).first(1), &rng);
    ASSERT_TRUE(single.ok());
    EXPECT_TRUE(*single);

    for (size_t pos : {size_t{0}, size_t{2}, kN - 1}) {
        for (int kind = 0; kind < 4; ++kind) {
            std::vector<Proof> p = proofs;
            std::vector<std::vector<Fr>> x = inputs;
            if (kind == 0) p[pos].a = add_g1(p[pos].a);
            if (kind == 1) p[pos].b = add_g2(p[pos].b);
            if (kind == 2) p[pos].c = add_g1(p[pos].c);
            if (kind == 3) x[pos][1] += Fr::one();
            auto r = batch_verify(f.pvk, p, x, &rng);
            ASSERT_TRUE(r.ok());
            EXPECT_FALSE(*r) << "position " << pos << ", kind " << kind;
        }
    }
    // Two proofs swapped between their inputs.
    {
        std::vector<std::vector<Fr>> x = inputs;
        std::swap(x[1], x[3]);
        auto r = batch_verify(f.pvk, proofs, x, &rng);
        ASSERT_TRUE(r.ok());
        EXPECT_FALSE(*r);
    }
    // Empty batch.
    auto empty = batch_verify(f.pvk, {}, {}, &rng);
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(*empty);
    // Errors: length mismatch, wrong input count in one proof (named).
    EXPECT_FALSE(batch_verify(f.pvk, proofs, std::span<const std::vector<Fr>>(inputs).first(2),
                              &rng)
                     .ok());
    std::vector<std::vector<Fr>> short_inputs = inputs;
    short_inputs[4].pop_back();
    auto err = batch_verify(f.pvk, proofs, short_inputs, &rng);
    ASSERT_FALSE(err.ok());
    EXPECT_NE(err.status().message().find("proof 4"), std::string::npos) << err.status().message();
}

}  // namespace
}  // namespace cuzk::groth16
