// The legacy Poseidon circuit against neptune's published constraint counts (circuit.rs
// test_poseidon_hash: 311 / 377 / 505 / 761 / 1009 / 1385 Standard, 367 / 433 / 565 / 821 /
// 1069 / 1445 Strengthened, and 598 for arity 11 from rust-fil-proofs' porep circuit tests and
// the formula in that test), against the out-of-circuit hash on random inputs, and for its
// constraint shapes as neptune's circuit.rs writes them.
#include "poseidon/circuit.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gadgets/recording_cs_test_util.hpp"
#include "poseidon/hash.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

using gadgets::AllocatedNum;

std::vector<AllocatedNum> alloc_inputs(r1cs::ConstraintSystem& cs, const std::vector<Fr>& xs) {
    std::vector<AllocatedNum> out;
    for (size_t i = 0; i < xs.size(); ++i) {
        auto n = AllocatedNum::alloc(cs, r1cs::Name("data ", i),
                                     cs.computes_values() ? std::optional<Fr>(xs[i])
                                                          : std::nullopt);
        EXPECT_TRUE(n.ok());
        out.push_back(*n);
    }
    return out;
}

// neptune test_poseidon_hash_aux's formula: 3·(t·R_F + R_P − 1) + (t·R_F + R_P − arity).
size_t neptune_formula(size_t arity, const PoseidonConstants& c) {
    const size_t sboxes = c.width * c.full_rounds + c.partial_rounds - 1;
    return 3 * sboxes + (c.width * c.full_rounds + c.partial_rounds - arity);
}

struct CountCase {
    size_t arity;
    Strength strength;
    size_t constraints;
};

constexpr CountCase kCounts[] = {
    {2, Strength::kStandard, 311},       {4, Strength::kStandard, 377},
    {8, Strength::kStandard, 505},       {11, Strength::kStandard, 598},
    {16, Strength::kStandard, 761},      {24, Strength::kStandard, 1009},
    {36, Strength::kStandard, 1385},     {2, Strength::kStrengthened, 367},
    {4, Strength::kStrengthened, 433},   {8, Strength::kStrengthened, 565},
    {16, Strength::kStrengthened, 821},  {24, Strength::kStrengthened, 1069},
    {36, Strength::kStrengthened, 1445},
};

TEST(PoseidonCircuit, CountsAndValuesMatchNeptune) {
    util::TestRng rng(0x5962be5d);
    for (const CountCase& k : kCounts) {
        auto c = constants(k.arity, k.strength);
        ASSERT_TRUE(c.ok());
        std::vector<Fr> xs(k.arity);
        for (auto& x : xs) x = Fr::random(rng);

        r1cs::TestConstraintSystem cs;
        const auto inputs = alloc_inputs(cs, xs);
        const size_t aux0 = cs.num_aux(), cons0 = cs.num_constraints();
        auto out = poseidon_hash_circuit(cs, "poseidon", inputs, **c);
        ASSERT_TRUE(out.ok()) << out.status().to_string();
        const size_t constraints = cs.num_constraints() - cons0;
        const size_t aux = cs.num_aux() - aux0;
        EXPECT_EQ(constraints, k.constraints) << "arity " << k.arity;
        EXPECT_EQ(constraints, neptune_formula(k.arity, **c));
        EXPECT_EQ(aux, constraints) << "one aux per constraint, arity " << k.arity;
        EXPECT_EQ(cs.num_inputs(), 1u);
        EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
        auto expected = hash_correct(**c, xs);
        ASSERT_TRUE(expected.ok());
        ASSERT_TRUE(out->value.has_value());
        EXPECT_EQ(*out->value, *expected) << "arity " << k.arity;
        if (k.strength == Strength::kStandard && k.arity <= 11)
            std::printf("legacy poseidon arity %zu: %zu constraints, %zu aux\n", k.arity,
                        constraints, aux);

        // Counter (shape only, no values) sees the same counts.
        r1cs::Counter counter;
        const auto shape_inputs = alloc_inputs(counter, xs);
        auto shape_out = poseidon_hash_circuit(counter, "poseidon", shape_inputs, **c);
        ASSERT_TRUE(shape_out.ok()) << shape_out.status().to_string();
        EXPECT_FALSE(shape_out->value.has_value());
        EXPECT_EQ(counter.num_constraints(), cs.num_constraints());
        EXPECT_EQ(counter.num_aux(), cs.num_aux());
        EXPECT_EQ(counter.num_inputs(), cs.num_inputs());
    }
}

TEST(PoseidonCircuit, ManyRandomInputsMatchTheHash) {
    util::TestRng rng(99);
    for (size_t arity : {2u, 4u, 8u, 11u}) {
        for (int rep = 0; rep < 4; ++rep) {
            std::vector<Fr> xs(arity);
            for (auto& x : xs) x = Fr::random(rng);
            if (rep == 0) xs.assign(arity, Fr::zero());
            r1cs::TestConstraintSystem cs;
            const auto inputs = alloc_inputs(cs, xs);
            auto out = poseidon_hash_circuit(cs, "h", inputs);
            ASSERT_TRUE(out.ok());
            EXPECT_TRUE(cs.is_satisfied());
            auto h = hash(xs);
            ASSERT_TRUE(h.ok());
            EXPECT_EQ(*out->value, *h);
        }
    }
}

TEST(PoseidonCircuit, FilecoinHashersVectorInCircuit) {
    // Poseidon2(1, 0) from filecoin-hashers test_poseidon_hasher, computed in-circuit.
    r1cs::TestConstraintSystem cs;
    const auto inputs = alloc_inputs(cs, {Fr::one(), Fr::zero()});
    auto out = poseidon_hash_circuit(cs, "hash2", inputs);
    ASSERT_TRUE(out.ok());
    ff::BigInt<4> v;
    v.limb[0] = 0xb339ff6079800b5e;
    v.limb[1] = 0xec5907b3dc3094af;
    v.limb[2] = 0x93c003cc74a24f26;
    v.limb[3] = 0x042f94ffbe786bc3;
    EXPECT_EQ(*out->value, Fr::from_int(v));
    EXPECT_TRUE(cs.is_satisfied());
}

TEST(PoseidonCircuit, WrongInputValueChangesTheResult) {
    util::TestRng rng(5);
    std::vector<Fr> xs(8);
    for (auto& x : xs) x = Fr::random(rng);
    std::vector<Fr> ys = xs;
    ys[5] += Fr::one();
    r1cs::TestConstraintSystem a, b;
    auto ha = poseidon_hash_circuit(a, "h", alloc_inputs(a, xs));
    auto hb = poseidon_hash_circuit(b, "h", alloc_inputs(b, ys));
    ASSERT_TRUE(ha.ok() && hb.ok());
    EXPECT_NE(*ha->value, *hb->value);
    EXPECT_TRUE(a.is_satisfied() && b.is_satisfied());
}

TEST(PoseidonCircuit, TamperedWitnessIsUnsatisfied) {
    // Every aux the circuit allocates is pinned by a constraint: changing any one of them
    // breaks some constraint.
    util::TestRng rng(6);
    std::vector<Fr> xs(2);
    for (auto& x : xs) x = Fr::random(rng);
    gadgets::testing::RecordingCS cs;
    const auto inputs = alloc_inputs(cs, xs);
    auto out = poseidon_hash_circuit(cs, "h", inputs);
    ASSERT_TRUE(out.ok());
    ASSERT_FALSE(cs.first_unsatisfied().has_value());
    for (size_t i = 2; i < cs.aux().size(); i += 17) {
        const Fr saved = cs.aux()[i];
        cs.aux()[i] += Fr::one();
        EXPECT_TRUE(cs.first_unsatisfied().has_value()) << "aux " << i;
        cs.aux()[i] = saved;
    }
}

TEST(PoseidonCircuit, ConstraintShapesFollowNeptune) {
    auto cr = constants(2);
    ASSERT_TRUE(cr.ok());
    const PoseidonConstants& c = **cr;
    gadgets::testing::RecordingCS cs;
    const auto in = alloc_inputs(cs, {Fr::from_u64(5), Fr::from_u64(7)});
    auto out = poseidon_hash_circuit(cs, "h", in);
    ASSERT_TRUE(out.ok());
    const auto& rows = cs.rows();
    ASSERT_EQ(rows.size(), 311u);
    const Fr* k = c.compressed_round_constants.data();
    const r1cs::Variable one = r1cs::Variable::one();
    const r1cs::Variable x1 = in[0].var;
    const r1cs::Variable first_aux = r1cs::Variable::aux(2);  // after the two inputs

    // Row 0: square_sum of input 1 with pre-key k[1]: (x1 + k1·ONE)² = l2.
    EXPECT_EQ(rows[0].name, "h/first round/quintic s-box 1/(l+rk)^2/squared sum constraint");
    ASSERT_EQ(rows[0].a.size(), 2u);
    EXPECT_EQ(rows[0].a.coeff_of(one), k[1]);
    EXPECT_EQ(rows[0].a.coeff_of(x1), Fr::one());
    EXPECT_EQ(rows[0].b.coeff_of(one), k[1]);
    ASSERT_EQ(rows[0].c.size(), 1u);
    EXPECT_EQ(rows[0].c.coeff_of(first_aux), Fr::one());
    // Row 1: l2·l2 = l4.
    EXPECT_EQ(rows[1].name, "h/first round/quintic s-box 1/l^4/squaring constraint");
    // Row 2: (x1 + k1)·l4 = l5 − k'·ONE, post-key k[t + 1].
    EXPECT_EQ(rows[2].name,
              "h/first round/quintic s-box 1/l4 * (l + rk)/mul sum constraint pre-post-add");
    EXPECT_EQ(rows[2].a.coeff_of(x1), Fr::one());
    EXPECT_EQ(rows[2].a.coeff_of(one), k[1]);
    ASSERT_EQ(rows[2].b.size(), 1u);
    EXPECT_EQ(rows[2].b.coeff_of(r1cs::Variable::aux(3)), Fr::one());
    ASSERT_EQ(rows[2].c.size(), 2u);
    EXPECT_EQ(rows[2].c.coeff_of(one), -k[c.width + 1]);
    EXPECT_EQ(rows[2].c.coeff_of(r1cs::Variable::aux(4)), Fr::one());

    // Second round, element 0: ensure_allocated of a combination of ONE and the two
    // first-round S-box outputs: lc·ONE = x.
    EXPECT_EQ(rows[6].name,
              "h/initial full round 1/quintic s-box 0/S-box input/"
              "enforce num allocation preserves lc");
    EXPECT_EQ(rows[6].a.size(), 3u);
    ASSERT_EQ(rows[6].b.size(), 1u);
    EXPECT_EQ(rows[6].b.coeff_of(one), Fr::one());
    // Its ONE coefficient is the constant tag S-box result times M[0][0] (scalar_product with
    // column 0): ((tag + k0)^5 + k'_0)·M00.
    const Fr tag5 = [&] {
        const Fr x = c.domain_tag + k[0];
        return x.square().square() * x + k[c.width];
    }();
    EXPECT_EQ(rows[6].a.coeff_of(one), tag5 * c.mds.m.at(0, 0));
    // mul_sum in later rounds: A = l, B = l4, C = l5 − k'.
    EXPECT_EQ(rows[9].name, "h/initial full round 1/quintic s-box 0/(l4 * l) + rk)/"
                            "mul sum constraint post-add");
    // The terminal round's mul_sum has no key; the last row allocates the result.
    EXPECT_EQ(rows[309].name,
              "h/terminal full round/quintic s-box 2/(l4 * l) + rk)/mul sum constraint");
    EXPECT_EQ(rows[310].name, "h/hash result/enforce num allocation preserves lc");
    EXPECT_EQ(rows[310].c.coeff_of(out->var), Fr::one());
    // Partial rounds start after 6 + 3·3·4 = 42 rows: 4 constraints each, one S-box.
    EXPECT_EQ(rows[42].name, "h/partial round 0/solitary quintic s-box/S-box input/"
                             "enforce num allocation preserves lc");
}

TEST(PoseidonCircuit, BadInputsAreErrors) {
    r1cs::TestConstraintSystem cs;
    const auto in = alloc_inputs(cs, {Fr::one(), Fr::one(), Fr::one()});
    auto c2 = constants(2);
    ASSERT_TRUE(c2.ok());
    EXPECT_FALSE(poseidon_hash_circuit(cs, "h", in, **c2).ok());  // 3 inputs, arity 2
    std::vector<AllocatedNum> none;
    EXPECT_FALSE(poseidon_hash_circuit(cs, "h", none).ok());
    // A preimage number without a value in a value-computing system.
    std::vector<AllocatedNum> missing = {in[0], AllocatedNum{in[1].var, std::nullopt}};
    EXPECT_FALSE(poseidon_hash_circuit(cs, "h", missing).ok());
}

// Not a pass/fail test: prints the synthesis cost per hash (values: TestConstraintSystem; shape
// only: Counter).
TEST(PoseidonCircuit, SynthesisTime) {
    util::TestRng rng(12);
    for (size_t arity : {2u, 8u, 11u}) {
        std::vector<Fr> xs(arity);
        for (auto& x : xs) x = Fr::random(rng);
        const int reps = 50;
        auto time_in = [&](r1cs::ConstraintSystem& cs) {
            const auto in = alloc_inputs(cs, xs);
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < reps; ++i) EXPECT_TRUE(poseidon_hash_circuit(cs, "h", in).ok());
            const auto t1 = std::chrono::steady_clock::now();
            return std::chrono::duration<double, std::micro>(t1 - t0).count() / reps;
        };
        r1cs::TestConstraintSystem tcs;
        r1cs::Counter counter;
        const double with_values = time_in(tcs);
        const double shape_only = time_in(counter);
        std::printf("legacy poseidon arity %zu synthesis: %.0f us (TestConstraintSystem, direct), "
                    "%.0f us (Counter, template replay)\n",
                    arity, with_values, shape_only);
    }
}

}  // namespace
}  // namespace cuzk::poseidon
