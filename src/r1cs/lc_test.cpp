// Tests of Variable, LinearCombination (merging, ordering, small buffer → heap, zero
// coefficients kept), evaluate() and its density rule, DensityBits, and the ConstraintSystem
// front end (value forms, missing values, namespaces), against simple models.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "r1cs/counter.hpp"
#include "r1cs/density.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::r1cs {
namespace {

using ff::Fr;

TEST(Variable, KindsAndOrder) {
    EXPECT_TRUE(Variable::one().is_one());
    EXPECT_TRUE(Variable::one().is_input());
    EXPECT_EQ(Variable::input(7).index(), 7u);
    EXPECT_EQ(Variable::aux(7).index(), 7u);
    EXPECT_EQ(Variable::aux(7).kind(), Variable::Kind::kAux);
    EXPECT_FALSE(Variable::aux(0).is_one());
    EXPECT_TRUE(Variable::input(Variable::kMaxIndex) < Variable::aux(0));
    EXPECT_TRUE(Variable::aux(3) < Variable::aux(4));
}

TEST(LinearCombination, MergesPerVariableAndSorts) {
    const Variable x = Variable::aux(2), y = Variable::aux(0), i1 = Variable::input(1);
    LC lc = LC(x) + Fr::from_u64(3) * y + x + i1 - Fr::from_u64(2) * y;
    ASSERT_EQ(lc.size(), 3u);
    EXPECT_EQ(lc.terms()[0].var, i1);
    EXPECT_EQ(lc.terms()[1].var, y);
    EXPECT_EQ(lc.terms()[2].var, x);
    EXPECT_EQ(lc.coeff_of(x), Fr::from_u64(2));
    EXPECT_EQ(lc.coeff_of(y), Fr::one());
    EXPECT_EQ(lc.coeff_of(Variable::one()), Fr::zero());
    const LC bare = Fr::from_u64(2) * x - y;  // Term − Variable
    EXPECT_EQ(bare.coeff_of(x), Fr::from_u64(2));
    EXPECT_EQ(bare.coeff_of(y), -Fr::one());
}

TEST(LinearCombination, ZeroCoefficientsAreKept) {
    const Variable x = Variable::aux(5);
    LC lc = LC(x) - x;
    ASSERT_EQ(lc.size(), 1u);
    EXPECT_TRUE(lc.terms()[0].coeff.is_zero());
    LC self = LC(x) + Variable::aux(6);
    self -= self;
    EXPECT_EQ(self.size(), 2u);
    EXPECT_TRUE(self.coeff_of(x).is_zero());
    LC twice = LC(x);
    twice += twice;
    EXPECT_EQ(twice.coeff_of(x), Fr::from_u64(2));
}

// Random insertions (in and out of order, repeats, beyond the inline buffer) against a map.
TEST(LinearCombination, MatchesMapModel) {
    util::TestRng rng(11);
    for (int round = 0; round < 200; ++round) {
        LC lc;
        std::map<uint32_t, Fr> model;
        const size_t ops = rng.uniform(20);
        for (size_t k = 0; k < ops; ++k) {
            const Variable v = rng.uniform(2) == 0
                                   ? Variable::input(static_cast<uint32_t>(rng.uniform(5)))
                                   : Variable::aux(static_cast<uint32_t>(rng.uniform(12)));
            const Fr c = Fr::from_u64(rng.uniform(4));  // zero included
            if (rng.uniform(3) == 0) {
                lc -= c * v;
                model[v.key()] -= c;
            } else {
                lc += c * v;
                model[v.key()] += c;
            }
        }
        if (rng.uniform(2) == 0) {
            const Fr s = Fr::from_u64(rng.uniform(7));
            lc *= s;
            for (auto& [key, c] : model) c *= s;
        }
        ASSERT_EQ(lc.size(), model.size());
        size_t k = 0;
        for (const auto& [key, c] : model) {
            EXPECT_EQ(lc.terms()[k].var.key(), key);
            EXPECT_EQ(lc.terms()[k].coeff, c);
            ++k;
        }
        // Copies and moves keep the terms (inline or heap).
        LC copy = lc;
        LC moved = std::move(copy);
        ASSERT_EQ(moved.size(), lc.size());
        for (size_t t = 0; t < lc.size(); ++t) EXPECT_EQ(moved.terms()[t].var, lc.terms()[t].var);
        EXPECT_TRUE(copy.empty());  // NOLINT: moved-from LCs are empty
        LC assigned = LC(Variable::aux(99));
        assigned = moved;
        LC move_assigned = Fr::from_u64(3) * Variable::aux(1) + Variable::aux(2);
        move_assigned = std::move(assigned);
        ASSERT_EQ(move_assigned.size(), lc.size());
        for (size_t t = 0; t < lc.size(); ++t)
            EXPECT_EQ(move_assigned.terms()[t].coeff, lc.terms()[t].coeff);
        LC sum = lc + moved;
        for (const auto& [key, c] : model)
            EXPECT_EQ(sum.coeff_of(Variable::from_key(key)), c.dbl());
    }
}

TEST(Evaluate, ValueAndNonZeroDensityRule) {
    const std::vector<Fr> inputs = {Fr::one(), Fr::from_u64(10)};
    const std::vector<Fr> aux = {Fr::from_u64(3), Fr::zero(), Fr::from_u64(7)};
    DensityBits in, ax;
    for (size_t i = 0; i < inputs.size(); ++i) in.push_back();
    for (size_t i = 0; i < aux.size(); ++i) ax.push_back();
    // 2·ONE + 5·x_1 + (a_0 − a_0) + 4·a_1 (value zero, still dense) + 0·a_2
    LC lc = Fr::from_u64(2) * Variable::one() + Fr::from_u64(5) * Variable::input(1) +
            Variable::aux(0) - Variable::aux(0) + Fr::from_u64(4) * Variable::aux(1) +
            Fr::zero() * Variable::aux(2);
    EXPECT_EQ(evaluate(lc, inputs, aux, &in, &ax), Fr::from_u64(52));
    EXPECT_TRUE(in.get(0));
    EXPECT_TRUE(in.get(1));
    EXPECT_FALSE(ax.get(0));  // cancelled
    EXPECT_TRUE(ax.get(1));   // non-zero coefficient, zero value
    EXPECT_FALSE(ax.get(2));  // zero coefficient
    EXPECT_EQ(in.popcount(), 2u);
    EXPECT_EQ(ax.popcount(), 1u);
    DensityBits in2, ax2;
    for (size_t i = 0; i < inputs.size(); ++i) in2.push_back();
    for (size_t i = 0; i < aux.size(); ++i) ax2.push_back();
    mark_density(lc, &in2, &ax2);
    EXPECT_EQ(in2, in);
    EXPECT_EQ(ax2, ax);
}

TEST(DensityBits, LayoutAndPopcount) {
    DensityBits d;
    for (int i = 0; i < 130; ++i) d.push_back();
    ASSERT_EQ(d.words().size(), 3u);
    d.set(0);
    d.set(65);
    d.set(65);
    d.set(129);
    EXPECT_EQ(d.words()[0], 1u);
    EXPECT_EQ(d.words()[1], 2u);
    EXPECT_EQ(d.words()[2], 2u);
    EXPECT_EQ(d.popcount(), 3u);
    EXPECT_EQ(d.recount(), 3u);
}

TEST(ConstraintSystem, ValueFormsAndMissingValues) {
    ProvingAssignment pa;
    EXPECT_EQ(pa.num_inputs(), 1u);  // ONE
    EXPECT_EQ(pa.input_assignment()[0], Fr::one());
    EXPECT_TRUE(pa.alloc("plain", Fr::from_u64(1)).ok());
    EXPECT_TRUE(pa.alloc("optional", std::optional<Fr>(Fr::from_u64(2))).ok());
    EXPECT_TRUE(pa.alloc("fn", [] { return Fr::from_u64(3); }).ok());
    EXPECT_TRUE(pa.alloc("fn result", [] { return util::Result<Fr>(Fr::from_u64(4)); }).ok());
    auto missing = pa.alloc(Name("bit ", 9), std::optional<Fr>());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().message(), "assignment missing for bit 9");
    auto failed = pa.alloc_input(
        "bad", [] { return util::Result<Fr>(util::invalid_argument("no such node")); });
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.status().message(), "no such node");
    ASSERT_EQ(pa.aux_assignment().size(), 4u);
    EXPECT_EQ(pa.aux_assignment()[3], Fr::from_u64(4));
    EXPECT_EQ(pa.num_aux(), 4u);
    EXPECT_EQ(pa.num_inputs(), 1u);
}

TEST(ConstraintSystem, ShapeModesNeverComputeValues) {
    Counter counter;
    EXPECT_FALSE(counter.computes_values());
    int calls = 0;
    auto v = counter.alloc("x", [&] {
        ++calls;
        return Fr::one();
    });
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, Variable::aux(0));
    EXPECT_TRUE(counter.alloc_input("y", std::optional<Fr>()).ok());
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(counter.num_inputs(), 2u);
}

TEST(ConstraintSystem, NamespacesJoinWithSlash) {
    TestConstraintSystem cs;
    const Variable one = Variable::one();
    {
        Namespace a(cs, Name("challenge ", 3));
        Namespace b(cs, "labeling");
        EXPECT_EQ(cs.path(), "challenge 3/labeling");
        EXPECT_EQ(cs.namespace_depth(), 2u);
        cs.enforce("ok", one, one, one);
        cs.enforce(Name("bad ", 1), one, one, LC());
        cs.enforce("bad 2", one, one, LC());
    }
    EXPECT_EQ(cs.path(), "");
    EXPECT_EQ(cs.namespace_depth(), 0u);
    ASSERT_TRUE(cs.which_is_unsatisfied().has_value());
    EXPECT_EQ(*cs.which_is_unsatisfied(), "challenge 3/labeling/bad 1");
    EXPECT_EQ(cs.first_failure_index(), std::optional<size_t>(1));
    EXPECT_EQ(cs.num_unsatisfied(), 2u);
    EXPECT_EQ(cs.num_constraints(), 3u);
}

TEST(ConstraintSystem, WitnessOnlyRecordsValues) {
    WitnessOnly w;
    ASSERT_TRUE(w.alloc("a", Fr::from_u64(5)).ok());
    ASSERT_TRUE(w.alloc_input("x", Fr::from_u64(6)).ok());
    w.enforce("ignored", Variable::one(), Variable::one(), LC());
    EXPECT_EQ(w.num_constraints(), 1u);
    const std::vector<Fr> z = w.z();
    ASSERT_EQ(z.size(), 3u);
    EXPECT_EQ(z[0], Fr::one());
    EXPECT_EQ(z[1], Fr::from_u64(6));
    EXPECT_EQ(z[2], Fr::from_u64(5));
}

}  // namespace
}  // namespace cuzk::r1cs
