// The native legacy-circuit witness equals the aux assignment poseidon_hash_circuit produces in
// a TestConstraintSystem (value by value, in order), and its last value is the hash.
#include "poseidon/circuit_witness.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "poseidon/circuit.hpp"
#include "poseidon/hash.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

TEST(PoseidonCircuitWitness, EqualsTheSynthesizedAssignment) {
    util::TestRng rng(314);
    for (Strength strength : {Strength::kStandard, Strength::kStrengthened}) {
        for (size_t arity : {1u, 2u, 4u, 8u, 11u, 16u}) {
            auto cr = constants(arity, strength);
            ASSERT_TRUE(cr.ok());
            const PoseidonConstants& c = **cr;
            std::vector<Fr> xs(arity);
            for (auto& x : xs) x = Fr::random(rng);

            r1cs::TestConstraintSystem cs;
            std::vector<gadgets::AllocatedNum> in;
            for (size_t i = 0; i < arity; ++i) {
                auto n = gadgets::AllocatedNum::alloc(cs, "x", xs[i]);
                ASSERT_TRUE(n.ok());
                in.push_back(*n);
            }
            auto out = poseidon_hash_circuit(cs, "h", in, c);
            ASSERT_TRUE(out.ok());
            const auto& assigned = cs.aux_assignment();
            ASSERT_EQ(assigned.size(), arity + legacy_circuit_aux_count(c));

            std::vector<Fr> aux(legacy_circuit_aux_count(c));
            auto h = legacy_circuit_witness(c, xs, aux);
            ASSERT_TRUE(h.ok());
            for (size_t i = 0; i < aux.size(); ++i)
                ASSERT_EQ(aux[i], assigned[arity + i]) << "arity " << arity << " aux " << i;
            EXPECT_EQ(*h, *out->value);
            EXPECT_EQ(*h, *hash_optimized(c, xs));
        }
    }
}

TEST(PoseidonCircuitWitness, CountsAndSizeErrors) {
    EXPECT_EQ(legacy_circuit_aux_count(**constants(2)), 311u);
    EXPECT_EQ(legacy_circuit_aux_count(**constants(4)), 377u);
    EXPECT_EQ(legacy_circuit_aux_count(**constants(8)), 505u);
    EXPECT_EQ(legacy_circuit_aux_count(**constants(11)), 598u);
    const PoseidonConstants& c = **constants(2);
    std::vector<Fr> aux(311);
    EXPECT_FALSE(legacy_circuit_witness(c, std::vector<Fr>(3), aux).ok());
    std::vector<Fr> short_aux(310);
    EXPECT_FALSE(legacy_circuit_witness(c, std::vector<Fr>(2), short_aux).ok());
}

}  // namespace
}  // namespace cuzk::poseidon
