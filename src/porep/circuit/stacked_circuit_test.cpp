// StackedCircuit shape tests. Oracles: the constraint and input counts rust-fil-proofs asserts in
// storage-proofs-porep/tests/stacked_circuit.rs (four tree shapes, 8·base_tree_count nodes,
// 2 layers, 1 challenge, 22 inputs) and the 32 GiB count stated in rust-fil-proofs#1325
// (130,278,541 constraints, 328 inputs); the 2 KiB / 8 MiB / 512 MiB values are the spec's
// formula (porep-c2-circuit.md §2.6), which reproduces the published ones exactly.
// Also: every backend (Counter, ShapeRecorder, WitnessOnly, TestConstraintSystem) sees the same
// rows and variables.
#include "porep/circuit/stacked_circuit.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "r1cs/counter.hpp"
#include "r1cs/fork.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

struct Counts {
    size_t constraints = 0, inputs = 0, aux = 0, a_aux = 0, b_input = 0, b_aux = 0;
    double seconds = 0;
};

Counts count(const StackedCircuitParams& params) {
    auto w = blank_witness(params);
    EXPECT_TRUE(w.ok());
    r1cs::Counter cs;
    const auto t0 = std::chrono::steady_clock::now();
    util::Status st = synthesize_stacked_circuit(cs, params, *w);
    EXPECT_TRUE(st.ok()) << st.to_string();
    Counts c;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.constraints = cs.num_constraints();
    c.inputs = cs.num_inputs();
    c.aux = cs.num_aux();
    c.a_aux = cs.a_aux_popcount();
    c.b_input = cs.b_input_popcount();
    c.b_aux = cs.b_aux_popcount();
    std::printf(
        "nodes %llu layers %u C %u shape (%u,%u,%u): constraints %zu inputs %zu aux %zu "
        "a_aux %zu b_input %zu b_aux %zu (%.2f s)\n",
        static_cast<unsigned long long>(params.nodes), params.layers, params.challenges,
        params.shape.base, params.shape.sub, params.shape.top, c.constraints, c.inputs, c.aux,
        c.a_aux, c.b_input, c.b_aux, c.seconds);
    return c;
}

StackedCircuitParams test_shape(TreeShape shape) {
    const uint64_t trees = (shape.sub ? shape.sub : 1) * (shape.top ? shape.top : 1);
    return StackedCircuitParams{8 * trees, 2, 1, shape};
}

// rust-fil-proofs storage-proofs-porep/tests/stacked_circuit.rs.
TEST(StackedCircuit, PublishedTestShapes) {
    const struct {
        TreeShape shape;
        size_t constraints;
    } cases[] = {{{2, 0, 0}, 1'206'212},
                 {{8, 0, 0}, 1'199'620},
                 {{8, 4, 0}, 1'296'576},
                 {{8, 4, 2}, 1'346'982}};
    for (const auto& c : cases) {
        Counts got = count(test_shape(c.shape));
        EXPECT_EQ(got.constraints, c.constraints);
        EXPECT_EQ(got.inputs, 22u);
    }
}

TEST(StackedCircuit, TwoKiB) {
    const auto params =
        StackedCircuitParams::for_proof(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_1));
    EXPECT_EQ(params.num_public_inputs(), 39u);
    Counts got = count(params);
    EXPECT_EQ(got.constraints, 2'687'921u);
    EXPECT_EQ(got.inputs, 40u);
    // The spec's computed (not independently published) aux count.
    EXPECT_EQ(got.aux, 2'685'673u);
    // ONE is the only input in any B (spec §4.3 inference).
    EXPECT_EQ(got.b_input, 1u);
}

TEST(StackedCircuit, EightMiB) {
    Counts got = count(
        StackedCircuitParams::for_proof(seal_proof_info(RegisteredSealProof::kStackedDrg8MiBV1_1)));
    EXPECT_EQ(got.constraints, 3'844'929u);
    EXPECT_EQ(got.inputs, 40u);
    EXPECT_EQ(got.aux, 3'842'449u);
}

TEST(StackedCircuit, FiveHundredTwelveMiB) {
    Counts got = count(StackedCircuitParams::for_proof(
        seal_proof_info(RegisteredSealProof::kStackedDrg512MiBV1_1)));
    EXPECT_EQ(got.constraints, 4'423'433u);
    EXPECT_EQ(got.inputs, 40u);
    EXPECT_EQ(got.aux, 4'420'837u);
}

// rust-fil-proofs#1325: 32 GiB "constraints: 130278541, public inputs: 328" — the one
// published count of a production circuit. About 25 s in the counter (one core), so it runs
// in ./scripts/test; 64 GiB (same structure plus one top level) stays a manual test.
TEST(StackedCircuit, ThirtyTwoGiB) {
    Counts got = count(StackedCircuitParams::for_proof(
        seal_proof_info(RegisteredSealProof::kStackedDrg32GiBV1_1)));
    EXPECT_EQ(got.constraints, 130'278'541u);
    EXPECT_EQ(got.inputs, 328u);
    EXPECT_EQ(got.aux, 130'169'893u);
}

TEST(StackedCircuit, DISABLED_SixtyFourGiB) {
    Counts got = count(StackedCircuitParams::for_proof(
        seal_proof_info(RegisteredSealProof::kStackedDrg64GiBV1_1)));
    EXPECT_EQ(got.constraints, 131'185'849u);
    EXPECT_EQ(got.inputs, 328u);
    EXPECT_EQ(got.aux, 131'076'643u);
}

// A witness with every value present but random (the circuit is not satisfied; the shape is
// what matters).
StackedWitness random_witness(const StackedCircuitParams& params, util::TestRng& rng) {
    StackedWitness w = *blank_witness(params);
    auto fill_path = [&](AuthPath& p, uint32_t arity_base, uint32_t sub, uint32_t top) {
        for (PathLevel& l : p.base) {
            for (auto& s : l.siblings) s = Fr::random(rng);
            l.index = rng.uniform(arity_base);
        }
        for (PathLevel& l : p.sub) {
            for (auto& s : l.siblings) s = Fr::random(rng);
            l.index = rng.uniform(sub);
        }
        for (PathLevel& l : p.top) {
            for (auto& s : l.siblings) s = Fr::random(rng);
            l.index = rng.uniform(top);
        }
    };
    w.replica_id = Fr::random(rng);
    w.comm_d = Fr::random(rng);
    w.comm_r = Fr::random(rng);
    w.comm_r_last = Fr::random(rng);
    w.comm_c = Fr::random(rng);
    for (ChallengeWitness& c : w.challenges) {
        c.data_leaf = Fr::random(rng);
        c.challenge = rng.uniform(params.nodes);
        fill_path(c.comm_d_path, 2, 0, 0);
        fill_path(c.comm_r_last_path, params.shape.base, params.shape.sub, params.shape.top);
        fill_path(c.comm_c_path, params.shape.base, params.shape.sub, params.shape.top);
        for (auto* cols : {&c.drg_parents, &c.exp_parents}) {
            for (ColumnWitness& col : *cols) {
                for (auto& r : col.rows) r = Fr::random(rng);
                fill_path(col.path, params.shape.base, params.shape.sub, params.shape.top);
            }
        }
    }
    return w;
}

TEST(StackedCircuit, BackendsAgreeOnTwoKiB) {
    const auto params =
        StackedCircuitParams::for_proof(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_1));
    const StackedWitness blank = *blank_witness(params);
    r1cs::Counter counter;
    ASSERT_TRUE(synthesize_stacked_circuit(counter, params, blank).ok());
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(synthesize_stacked_circuit(shape, params, blank).ok());
    EXPECT_EQ(shape.num_constraints(), counter.num_constraints());
    EXPECT_EQ(shape.num_inputs(), counter.num_inputs());
    EXPECT_EQ(shape.num_aux(), counter.num_aux());
    shape.finish();
    EXPECT_EQ(shape.a_aux_density().popcount(), counter.a_aux_popcount());
    EXPECT_EQ(shape.b_input_density().popcount(), counter.b_input_popcount());
    EXPECT_EQ(shape.b_aux_density().popcount(), counter.b_aux_popcount());

    util::TestRng rng(21);
    const StackedWitness w = random_witness(params, rng);
    r1cs::WitnessOnly wit;
    util::Status st = synthesize_stacked_circuit(wit, params, w);
    ASSERT_TRUE(st.ok()) << st.to_string();
    EXPECT_EQ(wit.num_constraints(), counter.num_constraints());
    EXPECT_EQ(wit.num_inputs(), counter.num_inputs());
    EXPECT_EQ(wit.num_aux(), counter.num_aux());
    EXPECT_EQ(wit.aux_assignment().size(), counter.num_aux());

    r1cs::TestConstraintSystem test;
    ASSERT_TRUE(synthesize_stacked_circuit(test, params, w).ok());
    EXPECT_EQ(test.num_constraints(), counter.num_constraints());
    EXPECT_EQ(test.num_aux(), counter.num_aux());
    EXPECT_EQ(test.aux_assignment(), wit.aux_assignment());
    EXPECT_EQ(test.input_assignment(), wit.input_assignment());
    // Random values cannot satisfy comm_r = H(comm_c, comm_r_last): the first failure is there.
    ASSERT_TRUE(test.which_is_unsatisfied().has_value());
    EXPECT_EQ(*test.which_is_unsatisfied(), "enforce comm_r = H(comm_c || comm_r_last)");
}

TEST(StackedCircuit, MissingValueIsAnError) {
    const auto params = test_shape({8, 0, 0});
    util::TestRng rng(22);
    StackedWitness w = random_witness(params, rng);
    w.challenges[0].exp_parents[3].rows[1].reset();
    r1cs::WitnessOnly wit;
    util::Status st = synthesize_stacked_circuit(wit, params, w);
    EXPECT_FALSE(st.ok());
}

TEST(StackedCircuit, WrongShapeIsAnError) {
    const auto params = test_shape({8, 0, 0});
    StackedWitness w = *blank_witness(params);
    r1cs::Counter cs;
    StackedWitness a = w;
    a.challenges[0].drg_parents.pop_back();
    EXPECT_FALSE(synthesize_stacked_circuit(cs, params, a).ok());
    StackedWitness b = w;
    b.challenges[0].comm_c_path.base.pop_back();
    EXPECT_FALSE(synthesize_stacked_circuit(cs, params, b).ok());
    StackedWitness c = w;
    c.challenges.push_back(c.challenges[0]);
    EXPECT_FALSE(synthesize_stacked_circuit(cs, params, c).ok());
    StackedWitness d = w;
    d.challenges[0].exp_parents[0].rows.push_back(std::nullopt);
    EXPECT_FALSE(synthesize_stacked_circuit(cs, params, d).ok());
}

}  // namespace
}  // namespace cuzk::porep

namespace cuzk::porep {
namespace {

// The challenges synthesized in parallel (forked ProvingAssignment) give exactly the sequential
// assignment, and the same values as the TestConstraintSystem (which never forks).
TEST(StackedCircuit, ParallelChallengesEqualSequential) {
    auto params =
        StackedCircuitParams::for_proof(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_1));
    params.challenges = 5;
    util::TestRng rng(23);
    const StackedWitness w = random_witness(params, rng);
    r1cs::set_parallel_synthesis(false);
    r1cs::ProvingAssignment seq;
    ASSERT_TRUE(synthesize_stacked_circuit(seq, params, w).ok());
    r1cs::set_parallel_synthesis(true);
    r1cs::ProvingAssignment::Options presized;  // the fork capacity-share path
    presized.capacity = {seq.num_constraints(), seq.num_inputs(), seq.num_aux()};
    r1cs::ProvingAssignment par(presized);
    size_t progress_calls = 0;
    ASSERT_TRUE(synthesize_stacked_circuit(par, params, w, [&](size_t done, size_t total) {
                    ++progress_calls;
                    EXPECT_LE(done, total);
                }).ok());
    EXPECT_EQ(progress_calls, 5u);
    EXPECT_EQ(par.num_constraints(), seq.num_constraints());
    EXPECT_TRUE(par.a() == seq.a());
    EXPECT_TRUE(par.b() == seq.b());
    EXPECT_TRUE(par.c() == seq.c());
    EXPECT_TRUE(par.aux_assignment() == seq.aux_assignment());
    EXPECT_TRUE(par.input_assignment() == seq.input_assignment());
    EXPECT_TRUE(par.a_aux_density() == seq.a_aux_density());
    EXPECT_TRUE(par.b_aux_density() == seq.b_aux_density());
    EXPECT_TRUE(par.b_input_density() == seq.b_input_density());
    EXPECT_EQ(par.a_aux_density().popcount(), par.a_aux_density().recount());
    EXPECT_EQ(par.b_aux_density().popcount(), par.b_aux_density().recount());
    EXPECT_EQ(par.b_input_density().popcount(), par.b_input_density().recount());
    EXPECT_EQ(par.b_aux_density().popcount(), seq.b_aux_density().popcount());
    r1cs::TestConstraintSystem test;
    ASSERT_TRUE(synthesize_stacked_circuit(test, params, w).ok());
    EXPECT_EQ(test.aux_assignment(), par.aux_assignment());
    EXPECT_EQ(test.input_assignment(), par.input_assignment());
}

}  // namespace
}  // namespace cuzk::porep
