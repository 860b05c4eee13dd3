// The circuit on a real sector: a 2 KiB sector sealed by porep::seal_sector (deterministic data)
// gives a C1 output whose partition witness satisfies every constraint, and the circuit's
// public inputs equal the ones computed outside it (generate_public_inputs). Tampering with a
// label, a sibling hash or comm_r is caught at the first constraint that depends on it.
// Also: the 39 public inputs of the published 2 KiB V1_1 regression record (rust-fil-proofs
// seal_regression_records-v16.json line 2).
#include "porep/circuit/c1_witness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "porep/circuit/public_inputs.hpp"
#include "porep/fr32.hpp"
#include "porep/seal.hpp"
#include "porep/sector_ids.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_only.hpp"
#include "util/json.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

struct Sealed {
    SealOutput out;
    StackedCircuitParams params;
};

const Sealed& sealed_2k() {
    static const Sealed s = [] {
        SealInputs in;
        in.proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
        in.unsealed.resize(2032);
        util::TestRng rng(2026);
        rng.fill(in.unsealed.data(), in.unsealed.size());
        for (size_t i = 0; i < 32; ++i) {
            in.prover_id[i] = static_cast<uint8_t>(i + 1);
            in.ticket[i] = static_cast<uint8_t>(3 * i + 7);
            in.seed[i] = static_cast<uint8_t>(255 - i);
        }
        in.sector_id = 4242;
        auto out = seal_sector(in);
        EXPECT_TRUE(out.ok()) << out.status().to_string();
        return Sealed{*out, StackedCircuitParams::for_proof(seal_proof_info(in.proof))};
    }();
    return s;
}

struct Synth {
    bool ok = false;
    std::string status;
    std::optional<std::string> failure;
    std::vector<Fr> inputs;  // ONE excluded
    size_t constraints = 0;
};

Synth synthesize(const StackedCircuitParams& params, const StackedWitness& w) {
    r1cs::TestConstraintSystem cs;
    util::Status st = synthesize_stacked_circuit(cs, params, w);
    Synth s;
    s.ok = st.ok();
    s.status = st.to_string();
    s.failure = cs.which_is_unsatisfied();
    s.inputs.assign(cs.input_assignment().begin() + 1, cs.input_assignment().end());
    s.constraints = cs.num_constraints();
    return s;
}

TEST(CircuitOnSealedSector, TwoKiBSatisfiedWithMatchingInputs) {
    const Sealed& s = sealed_2k();
    const SealCommitPhase1Output& c1 = s.out.c1;
    ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
    auto w = witness_from_c1(c1, 0);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    Synth got = synthesize(s.params, *w);
    ASSERT_TRUE(got.ok) << got.status;
    EXPECT_FALSE(got.failure.has_value()) << *got.failure;
    EXPECT_EQ(got.constraints, 2'687'921u);

    const SealProofInfo& info = seal_proof_info(c1.registered_proof);
    auto challenges = partition_challenges(info, c1.replica_id, c1.comm_r, c1.seed, 0);
    ASSERT_TRUE(challenges.ok());
    ASSERT_EQ(challenges->size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(c1.vanilla_proofs[0][i].labeling_proofs[0].node, (*challenges)[i]);
    }
    auto graph = SdrGraph::for_proof(c1.registered_proof);
    ASSERT_TRUE(graph.ok());
    auto expected = stacked_public_inputs(*graph, c1.replica_id, c1.comm_d, c1.comm_r, *challenges);
    ASSERT_TRUE(expected.ok());
    ASSERT_EQ(expected->size(), 39u);
    EXPECT_EQ(got.inputs, *expected);

    // The same witness through WitnessOnly and the recorded shape: A·z ∘ B·z = C·z row by row.
    r1cs::WitnessOnly wit;
    ASSERT_TRUE(synthesize_stacked_circuit(wit, s.params, *w).ok());
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(synthesize_stacked_circuit(shape, s.params, *blank_witness(s.params)).ok());
    shape.finish();
    std::vector<Fr> az, bz, cz;
    ASSERT_TRUE(shape.multiply(wit.z(), az, bz, cz).ok());
    size_t bad = 0;
    for (size_t r = 0; r < az.size(); ++r) bad += (az[r] * bz[r] != cz[r]) ? 1 : 0;
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(az.size(), 2'687'921u + 40);
}

TEST(CircuitOnSealedSector, TamperingNamesTheFirstFailure) {
    const Sealed& s = sealed_2k();
    const StackedWitness good = *witness_from_c1(s.out.c1, 0);
    {
        StackedWitness w = good;  // one label of a DRG parent's column
        auto& row = w.challenges[0].drg_parents[2].rows[1];
        row = *row + Fr::one();
        Synth got = synthesize(s.params, w);
        ASSERT_TRUE(got.ok) << got.status;
        ASSERT_TRUE(got.failure.has_value());
        EXPECT_EQ(*got.failure, "challenge_0/drg_parent_2_inclusion/enforce root is correct");
    }
    {
        StackedWitness w = good;  // one sibling hash of the comm_r_last path
        auto& sib = w.challenges[1].comm_r_last_path.base[1].siblings[4];
        sib = *sib + Fr::one();
        Synth got = synthesize(s.params, w);
        ASSERT_TRUE(got.ok) << got.status;
        ASSERT_TRUE(got.failure.has_value());
        EXPECT_EQ(*got.failure, "challenge_1/comm_r_last_data_inclusion/enforce root is correct");
    }
    {
        StackedWitness w = good;  // a sibling in tree_d
        auto& sib = w.challenges[0].comm_d_path.base[3].siblings[0];
        sib = *sib + Fr::one();
        Synth got = synthesize(s.params, w);
        ASSERT_TRUE(got.failure.has_value());
        EXPECT_EQ(*got.failure, "challenge_0/comm_d_inclusion/enforce root is correct");
    }
    {
        StackedWitness w = good;  // comm_r
        w.comm_r = *w.comm_r + Fr::one();
        Synth got = synthesize(s.params, w);
        ASSERT_TRUE(got.failure.has_value());
        EXPECT_EQ(*got.failure, "enforce comm_r = H(comm_c || comm_r_last)");
    }
    {
        StackedWitness w = good;  // the data leaf
        w.challenges[1].data_leaf = *w.challenges[1].data_leaf + Fr::one();
        Synth got = synthesize(s.params, w);
        ASSERT_TRUE(got.failure.has_value());
        EXPECT_EQ(*got.failure, "challenge_1/comm_d_inclusion/enforce root is correct");
    }
}

TEST(CircuitOnSealedSector, InconsistentC1IsRejected) {
    SealCommitPhase1Output c1 = sealed_2k().out.c1;
    c1.vanilla_proofs[0][1].comm_r_last_proof.root[0] ^= 1;
    EXPECT_FALSE(witness_from_c1(c1, 0).ok());
    c1 = sealed_2k().out.c1;
    c1.vanilla_proofs[0][0].replica_column_proofs.exp_parents.pop_back();
    EXPECT_FALSE(witness_from_c1(c1, 0).ok());
    c1 = sealed_2k().out.c1;
    c1.comm_r[31] = 0xff;  // not a canonical field element
    EXPECT_FALSE(witness_from_c1(c1, 0).ok());
    EXPECT_FALSE(witness_from_c1(sealed_2k().out.c1, 1).ok());
}

// 8 MiB: 18 tree_d levels and 6 oct levels per tree_c / tree_r_last path, on real data.
TEST(CircuitOnSealedSector, EightMiBSatisfied) {
    SealInputs in;
    in.proof = RegisteredSealProof::kStackedDrg8MiBV1_1;
    in.unsealed.resize(fr32_unpadded_size(8 << 20));
    util::TestRng rng(88);
    rng.fill(in.unsealed.data(), in.unsealed.size());
    in.seed[0] = 9;
    auto out = seal_sector(in);
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    const auto params = StackedCircuitParams::for_proof(seal_proof_info(in.proof));
    auto w = witness_from_c1(out->c1, 0);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    Synth got = synthesize(params, *w);
    ASSERT_TRUE(got.ok) << got.status;
    EXPECT_FALSE(got.failure.has_value()) << *got.failure;
    EXPECT_EQ(got.constraints, 3'844'929u);
    auto challenges = partition_challenges(seal_proof_info(in.proof), out->c1.replica_id,
                                           out->c1.comm_r, out->c1.seed, 0);
    ASSERT_TRUE(challenges.ok());
    auto graph = SdrGraph::for_proof(in.proof);
    ASSERT_TRUE(graph.ok());
    auto expected = stacked_public_inputs(*graph, out->c1.replica_id, out->c1.comm_d,
                                          out->c1.comm_r, *challenges);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(got.inputs, *expected);
}

// 32 GiB and 64 GiB from synthetic C1 outputs (porep/synthetic_c1.hpp): 11 layers (arity-11
// column hashes, 14-parent labels), sub (and top) tree levels, a partition k > 0. One challenge
// per circuit keeps TestConstraintSystem to ~7 M constraints.
void check_large(RegisteredSealProof proof, uint32_t partition) {
    SyntheticC1Inputs in;
    in.proof = proof;
    in.rng_seed = 77;
    auto syn = generate_synthetic_c1(in);
    ASSERT_TRUE(syn.ok()) << syn.status().to_string();
    SealCommitPhase1Output c1 = syn->c1;
    const SealProofInfo& info = seal_proof_info(proof);
    ASSERT_EQ(c1.vanilla_proofs.size(), info.partitions);
    auto all = partition_challenges(info, c1.replica_id, c1.comm_r, c1.seed, partition);
    ASSERT_TRUE(all.ok());
    const uint64_t last = all->back();
    c1.vanilla_proofs[partition].erase(c1.vanilla_proofs[partition].begin(),
                                       c1.vanilla_proofs[partition].end() - 1);
    auto w = witness_from_c1(c1, partition);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    StackedCircuitParams params = StackedCircuitParams::for_proof(info);
    params.challenges = 1;
    Synth got = synthesize(params, *w);
    ASSERT_TRUE(got.ok) << got.status;
    EXPECT_FALSE(got.failure.has_value()) << *got.failure;
    auto graph = SdrGraph::for_proof(proof);
    ASSERT_TRUE(graph.ok());
    const uint64_t one[1] = {last};
    auto expected = stacked_public_inputs(*graph, c1.replica_id, c1.comm_d, c1.comm_r, one);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(got.inputs, *expected);

    StackedWitness bad = *w;
    auto& row = bad.challenges[0].exp_parents[7].rows[10];
    row = *row + Fr::one();
    Synth tampered = synthesize(params, bad);
    ASSERT_TRUE(tampered.failure.has_value());
    EXPECT_EQ(*tampered.failure, "challenge_0/exp_parent_7_inclusion/enforce root is correct");
}

TEST(CircuitOnSyntheticC1, ThirtyTwoGiBOneChallenge) {
    check_large(RegisteredSealProof::kStackedDrg32GiBV1_1, 3);
}

TEST(CircuitOnSyntheticC1, SixtyFourGiBOneChallenge) {
    check_large(RegisteredSealProof::kStackedDrg64GiBV1_1, 9);
}

util::Result<Node> read_bytes32(const util::json::Value& obj, const char* key) {
    auto v = obj.find(key);
    if (!v || !v->is_array() || v->size() != 32) {
        return util::invalid_argument(std::string("record field is not 32 bytes: ") + key);
    }
    Node out;
    size_t i = 0;
    for (const util::json::Value& e : v->elements()) {
        auto b = e.get_u64();
        if (!b.ok() || *b > 255) return util::invalid_argument("record byte out of range");
        out[i++] = static_cast<uint8_t>(*b);
    }
    return out;
}

Fr le_fr(const Node& n) { return *Fr::from_bytes_le(std::span<const uint8_t, 32>(n)); }

TEST(PublicInputs, RegressionRecordTwoKiBV1_1) {
    std::ifstream in(CUZK_TEST_DATA_DIR "/seal_regression_v16_2kib_v1_1.json");
    ASSERT_TRUE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    auto doc = util::json::Document::parse(text.str());
    ASSERT_TRUE(doc.ok());
    const auto record = doc->root().find("record");
    ASSERT_TRUE(record.has_value());
    auto porep_id = read_bytes32(*record->find("porep_config"), "porep_id");
    auto prover_id = read_bytes32(*record, "prover_id");
    auto ticket = read_bytes32(*record, "ticket");
    auto comm_d = read_bytes32(*record, "comm_d");
    auto comm_r = read_bytes32(*record, "comm_r");
    auto seed = read_bytes32(*record, "seed");
    auto sector_id = record->find("sector_id")->get_u64();
    ASSERT_TRUE(porep_id.ok() && prover_id.ok() && ticket.ok() && comm_d.ok() && comm_r.ok() &&
                seed.ok() && sector_id.ok());
    auto proof = seal_proof_from_porep_id(*porep_id);
    ASSERT_TRUE(proof.ok());
    const SealProofInfo& info = seal_proof_info(*proof);
    const Node replica_id =
        compute_replica_id(*prover_id, *sector_id, *ticket, *comm_d, info.porep_id());
    auto challenges = partition_challenges(info, replica_id, *comm_r, *seed, 0);
    ASSERT_TRUE(challenges.ok());
    auto graph = SdrGraph::for_proof(*proof);
    ASSERT_TRUE(graph.ok());
    auto inputs = stacked_public_inputs(*graph, replica_id, *comm_d, *comm_r, *challenges);
    ASSERT_TRUE(inputs.ok()) << inputs.status().to_string();
    ASSERT_EQ(inputs->size(), 39u);
    EXPECT_EQ((*inputs)[0], le_fr(replica_id));
    EXPECT_EQ((*inputs)[1], le_fr(*comm_d));
    EXPECT_EQ((*inputs)[2], le_fr(*comm_r));
    for (size_t i = 0; i < 2; ++i) {
        const Fr* block = inputs->data() + 3 + 18 * i;
        const uint64_t c = (*challenges)[i];
        EXPECT_GE(c, 1u);
        EXPECT_LE(c, 63u);
        for (size_t j : {0, 15, 16, 17}) EXPECT_EQ(block[j], Fr::from_u64(c)) << j;
        // V1_1 DRG parents start with the predecessor; every parent is a node of the sector.
        EXPECT_EQ(block[1], Fr::from_u64(c - 1));
        for (size_t j = 1; j <= 14; ++j) {
            bool in_range = false;
            for (uint64_t v = 0; v < 64; ++v) in_range |= block[j] == Fr::from_u64(v);
            EXPECT_TRUE(in_range) << j;
        }
        // DRG parents lie before the node (the DRG is acyclic).
        for (size_t j = 1; j <= 6; ++j) {
            bool before = false;
            for (uint64_t v = 0; v < c; ++v) before |= block[j] == Fr::from_u64(v);
            EXPECT_TRUE(before) << j;
        }
        uint32_t parents[kTotalParents];
        graph->parents(static_cast<uint32_t>(c), parents);
        for (size_t j = 0; j < 14; ++j) EXPECT_EQ(block[1 + j], Fr::from_u64(parents[j]));
    }
    std::printf("regression record public inputs:");
    for (size_t i = 3; i < inputs->size(); ++i)
        std::printf(" %llu", static_cast<unsigned long long>((*inputs)[i].to_int().limb[0]));
    std::printf("\n");
}

}  // namespace
}  // namespace cuzk::porep
