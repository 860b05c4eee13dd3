// End-to-end seal of 2 KiB sectors (and one 8 MiB sector) to a C1 output, and
// the out-of-circuit verifier. Oracles: the published all-zero 2 KiB comm_d
// (spec §3.4); replica_id and every challenged label recomputed with OpenSSL
// SHA-256 from the layout in spec §3.1/§3.3; comm_c, comm_r_last and comm_r
// recomposed from generate_labels, poseidon::hash, poseidon::merkle_root and
// encode_replica; the challenges from interactive_challenges; the JSON round
// trip through the serde-exact writer and the parser.
#include "porep/seal.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>

#include "porep/c1_json.hpp"
#include "porep/encode.hpp"
#include "porep/fr32.hpp"
#include "porep/labels.hpp"
#include "porep/tree_poseidon.hpp"
#include "porep/vanilla_proof.hpp"
#include "poseidon/hash.hpp"
#include "poseidon/tree.hpp"
#include "util/hex.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

Domain openssl_sha256(const std::vector<uint8_t>& msg) {
    Domain out;
    unsigned int len = 0;
    EXPECT_EQ(EVP_Digest(msg.data(), msg.size(), out.data(), &len, EVP_sha256(), nullptr), 1);
    return out;
}

Domain filled(uint8_t b) {
    Domain d;
    d.fill(b);
    return d;
}

SealInputs inputs_2k(uint64_t data_seed) {
    SealInputs in;
    in.proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    in.unsealed.resize(2032);
    util::TestRng rng(data_seed);
    rng.fill(in.unsealed.data(), in.unsealed.size());
    in.prover_id = filled(9);
    in.sector_id = 4242;
    in.ticket = filled(0x11);
    in.seed = filled(0x22);
    return in;
}

const SealOutput& sealed_2k() {
    static const SealOutput out = [] {
        SealOptions opt;
        opt.keep_replica = true;
        auto r = seal_sector(inputs_2k(1), opt);
        EXPECT_TRUE(r.ok()) << r.status().to_string();
        return r.ok() ? *r : SealOutput{};
    }();
    return out;
}

TEST(Seal, TwoKiBProducesAValidC1) {
    const SealOutput& out = sealed_2k();
    const SealCommitPhase1Output& c1 = out.c1;
    ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
    ASSERT_EQ(c1.vanilla_proofs[0].size(), 2u);
    EXPECT_TRUE(validate_c1(c1).ok());
    util::Status st = verify_c1(c1);
    EXPECT_TRUE(st.ok()) << st.to_string();

    // replica_id with OpenSSL: prover_id ‖ sector_id BE ‖ ticket ‖ comm_d ‖
    // porep_id, & 0x3f.
    const SealInputs in = inputs_2k(1);
    std::vector<uint8_t> msg(in.prover_id.begin(), in.prover_id.end());
    for (int i = 7; i >= 0; --i) msg.push_back(static_cast<uint8_t>(in.sector_id >> (8 * i)));
    msg.insert(msg.end(), in.ticket.begin(), in.ticket.end());
    msg.insert(msg.end(), c1.comm_d.begin(), c1.comm_d.end());
    PoRepId porep_id{};
    porep_id[0] = 5;
    msg.insert(msg.end(), porep_id.begin(), porep_id.end());
    Domain rid = openssl_sha256(msg);
    rid[31] &= 0x3f;
    EXPECT_EQ(rid, c1.replica_id);

    // Challenges.
    auto ch = interactive_challenges(64, c1.replica_id, in.seed, 0, 2);
    ASSERT_TRUE(ch.ok());
    for (size_t i = 0; i < 2; ++i) {
        const VanillaProof& p = c1.vanilla_proofs[0][i];
        EXPECT_EQ(p.labeling_proofs[0].node, (*ch)[i]);
        EXPECT_EQ(p.replica_column_proofs.c_x.column.index, (*ch)[i]);
        ASSERT_EQ(p.labeling_proofs.size(), 2u);
        // Every label recomputed with OpenSSL from replica_id ‖ layer BE ‖ node BE
        // ‖ 0^20 ‖ parents.
        for (uint32_t layer = 1; layer <= 2; ++layer) {
            const LabelingProof& lp = p.labeling_proofs[layer - 1];
            ASSERT_EQ(lp.parents.size(), 37u);
            std::vector<uint8_t> m(c1.replica_id.begin(), c1.replica_id.end());
            for (int b = 3; b >= 0; --b) m.push_back(static_cast<uint8_t>(layer >> (8 * b)));
            for (int b = 7; b >= 0; --b) m.push_back(static_cast<uint8_t>(lp.node >> (8 * b)));
            m.resize(64, 0);
            for (const Domain& d : lp.parents) m.insert(m.end(), d.begin(), d.end());
            Domain label = openssl_sha256(m);
            label[31] &= 0x3f;
            EXPECT_EQ(label, p.replica_column_proofs.c_x.column.rows[layer - 1]);
            // The 37 slots repeat the distinct parents: 6 (layer 1) or 14 (layer 2).
            const size_t used = layer == 1 ? 6 : 14;
            for (size_t s = used; s < 37; ++s) EXPECT_EQ(lp.parents[s], lp.parents[s % used]);
            for (size_t s = 0; s < 6; ++s) {
                EXPECT_EQ(lp.parents[s],
                          p.replica_column_proofs.drg_parents[s].column.rows[layer - 1]);
            }
        }
        EXPECT_EQ(p.encoding_proof.parents, p.labeling_proofs[1].parents);
        EXPECT_EQ(p.encoding_proof.layer_index, 2u);
    }
}

TEST(Seal, TwoKiBCommitmentsRecomposed) {
    const SealOutput& out = sealed_2k();
    const SealInputs in = inputs_2k(1);
    std::vector<uint8_t> data = fr32_pad(in.unsealed);
    auto graph = *SdrGraph::for_proof(in.proof);
    auto cache = ParentCache::generate(graph);
    auto labels = *generate_labels(cache, out.c1.replica_id, 2);
    std::vector<Fr> cols;
    for (uint64_t v = 0; v < 64; ++v) {
        Fr pre[2] = {*domain_to_fr(labels.label_node(1, v)),
                     *domain_to_fr(labels.label_node(2, v))};
        cols.push_back(*poseidon::hash(pre));
    }
    const Fr comm_c = *poseidon::merkle_root(cols, 8);
    auto replica = *encode_replica(labels.last_layer(), data);
    std::vector<Fr> rep;
    for (uint64_t v = 0; v < 64; ++v) {
        Domain d;
        std::memcpy(d.data(), replica.data() + 32 * v, 32);
        EXPECT_EQ(d, out.replica[v]);
        rep.push_back(*domain_to_fr(d));
    }
    const Fr comm_r_last = *poseidon::merkle_root(rep, 8);
    EXPECT_EQ(fr_to_domain(comm_c), out.comm_c);
    EXPECT_EQ(fr_to_domain(comm_r_last), out.comm_r_last);
    EXPECT_EQ(fr_to_domain(poseidon::hash2(comm_c, comm_r_last)), out.c1.comm_r);
}

TEST(Seal, JsonRoundTripStillVerifies) {
    const SealCommitPhase1Output& c1 = sealed_2k().c1;
    const std::string json = write_c1_json(c1);
    auto back = parse_c1_json(json);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, c1);
    EXPECT_EQ(write_c1_json(*back), json);
    util::Status st = verify_c1(*back);
    EXPECT_TRUE(st.ok()) << st.to_string();
    C1VerifyOptions opt;
    opt.prover_id = filled(9);
    opt.sector_id = 4242;
    EXPECT_TRUE(verify_c1(*back, opt).ok());
    opt.sector_id = 4243;
    EXPECT_EQ(verify_c1(*back, opt).message(),
              "replica_id does not match prover_id, sector_id, ticket, comm_d and porep_id");
}

TEST(Seal, TamperingIsNamed) {
    const SealCommitPhase1Output& good = sealed_2k().c1;
    {
        auto c1 = good;
        c1.vanilla_proofs[0][1].labeling_proofs[1].parents[3][0] ^= 1;
        EXPECT_EQ(
            verify_c1(c1).message(),
            "partition 0 challenge 1: labeling proof layer 2: label does not match its parents");
    }
    {
        auto c1 = good;  // a label in a parent's column: the column no longer hashes
                         // to its leaf
        c1.vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].column.rows[0][4] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: drg_parents[2]: column hash does not match the "
                  "inclusion proof leaf");
    }
    {
        auto c1 = good;  // a label of the challenged column
        c1.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[1][4] ^= 1;
        EXPECT_EQ(
            verify_c1(c1).message(),
            "partition 0 challenge 0: c_x: column hash does not match the inclusion proof leaf");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][1].comm_r_last_proof.base[1].hashes[6][2] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 1: comm_r_last_proof: path does not lead to its root");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][0]
            .replica_column_proofs.exp_parents[7]
            .inclusion_proof.base[0]
            .hashes[0][1] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: exp_parents[7]: path does not lead to its root");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][0].comm_d_proofs.base[3].hashes[0][9] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: comm_d_proofs: path does not lead to its root");
    }
    {
        auto c1 = good;
        c1.comm_r[0] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(), "comm_r != Poseidon(comm_c, comm_r_last)");
    }
    {
        auto c1 = good;
        c1.seed[0] ^= 1;
        const std::string m = verify_c1(c1).message();
        EXPECT_NE(m.find("partition 0 challenge "), std::string::npos) << m;
        EXPECT_NE(m.find("(derived from replica_id and seed)"), std::string::npos) << m;
    }
    {
        auto c1 = good;
        c1.comm_d[0] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: comm_d_proofs: root is not comm_d");
    }
    {
        auto c1 = good;  // data leaf changed consistently with its path is still caught
        c1.vanilla_proofs[0][0].encoding_proof.parents[0][0] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: encoding proof: key + data != replica leaf");
    }
}

TEST(Seal, WrongColumnsAndValuesAreNamed) {
    const SealCommitPhase1Output& good = sealed_2k().c1;
    {
        auto c1 = good;  // two parents' column proofs swapped (each is valid on its own)
        auto& exp = c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents;
        ASSERT_NE(exp[0].column.index, exp[1].column.index);  // true for this sector
        std::swap(exp[0], exp[1]);
        const std::string m = verify_c1(c1).message();
        EXPECT_EQ(m.rfind("partition 0 challenge 1: exp_parents[0]: column index ", 0), 0u) << m;
    }
    {
        auto c1 = good;  // a non-canonical label (>= r)
        c1.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[0].fill(0xff);
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: c_x: column row 0 is not a canonical field element");
    }
    {
        auto c1 = good;  // a data leaf changed: the comm_d path no longer leads to comm_d
        c1.vanilla_proofs[0][0].comm_d_proofs.leaf[0] ^= 1;
        EXPECT_EQ(verify_c1(c1).message(),
                  "partition 0 challenge 0: comm_d_proofs: path does not lead to its root");
    }
    {
        auto c1 = good;  // a wrong registered proof of the same size: other graph, other porep_id
        c1.registered_proof = RegisteredSealProof::kStackedDrg2KiBV1;
        EXPECT_FALSE(verify_c1(c1).ok());
    }
    {
        auto c1 = good;  // a missing challenge is a shape error from validate_c1
        c1.vanilla_proofs[0].pop_back();
        EXPECT_FALSE(verify_c1(c1).ok());
    }
}

TEST(Seal, ZeroSectorHasThePublishedCommD) {
    SealInputs in = inputs_2k(1);
    std::fill(in.unsealed.begin(), in.unsealed.end(), 0);
    auto out = seal_sector(in);
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    EXPECT_EQ(util::to_hex(out->c1.comm_d),
              "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
}

TEST(Seal, OtherRegisteredProofsAndBadInputs) {
    for (RegisteredSealProof p :
         {RegisteredSealProof::kStackedDrg2KiBV1,
          RegisteredSealProof::kStackedDrg2KiBV1_1_Feat_SyntheticPoRep,
          RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
        SealInputs in = inputs_2k(5);
        in.proof = p;
        auto out = seal_sector(in);
        ASSERT_TRUE(out.ok()) << seal_proof_info(p).name << ": " << out.status().to_string();
        EXPECT_EQ(out->c1.vanilla_proofs.size(), seal_proof_info(p).partitions);
    }
    SealInputs in = inputs_2k(1);
    in.unsealed.pop_back();
    EXPECT_FALSE(seal_sector(in).ok());
    in = inputs_2k(1);
    in.proof = RegisteredSealProof::kStackedDrg32GiBV1_1;
    EXPECT_FALSE(seal_sector(in).ok());
}

TEST(Seal, EightMiB) {
    SealInputs in;
    in.proof = RegisteredSealProof::kStackedDrg8MiBV1_1;
    in.unsealed.resize(fr32_unpadded_size(8 << 20));
    util::TestRng rng(8);
    rng.fill(in.unsealed.data(), in.unsealed.size());
    in.seed = filled(3);
    auto out = seal_sector(in);
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    const SealTimings& t = out->timings;
    std::printf(
        "8 MiB seal: parent cache %.0f ms, tree_d %.0f, labels %.0f, tree_c %.0f, tree_r_last "
        "%.0f, proofs %.0f, verify %.0f, total %.0f ms\n",
        t.parent_cache_ms, t.tree_d_ms, t.labels_ms, t.tree_c_ms, t.tree_r_last_ms, t.proofs_ms,
        t.verify_ms, t.total_ms);
    EXPECT_TRUE(verify_c1(out->c1).ok());
    EXPECT_EQ(out->c1.vanilla_proofs[0][0].comm_r_last_proof.base.size(), 6u);
    EXPECT_EQ(out->c1.vanilla_proofs[0][0].comm_d_proofs.base.size(), 18u);
}

}  // namespace
}  // namespace cuzk::porep
