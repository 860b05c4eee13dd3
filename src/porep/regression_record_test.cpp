// A published 2 KiB V1_1 seal record (rust-fil-proofs filecoin-proofs/tests/
// seal_regression_records-v16.json line 2, stored verbatim in tests/data/). Its sector data was
// random, so only what follows from the record's own fields is checked: the record's porep_config
// is our registered proof StackedDrg2KiBV1_1, the replica_id (recomputed with OpenSSL) is a
// canonical scalar, and the two interactive challenges lie in 1..63.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "porep/graph.hpp"
#include "porep/registered_proof.hpp"
#include "porep/sector_ids.hpp"
#include "util/hex.hpp"
#include "util/json.hpp"

namespace cuzk::porep {
namespace {

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

TEST(RegressionRecord, TwoKiBV1_1ReplicaIdAndChallenges) {
    std::ifstream in(CUZK_TEST_DATA_DIR "/seal_regression_v16_2kib_v1_1.json");
    ASSERT_TRUE(in.good()) << "missing tests/data/seal_regression_v16_2kib_v1_1.json";
    std::stringstream text;
    text << in.rdbuf();
    auto doc = util::json::Document::parse(text.str());
    ASSERT_TRUE(doc.ok()) << doc.status().to_string();
    const auto record = doc->root().find("record");
    ASSERT_TRUE(record.has_value());
    const auto config = record->find("porep_config");
    ASSERT_TRUE(config.has_value());

    auto porep_id = read_bytes32(*config, "porep_id");
    ASSERT_TRUE(porep_id.ok());
    auto proof = seal_proof_from_porep_id(*porep_id);
    ASSERT_TRUE(proof.ok());
    EXPECT_EQ(*proof, RegisteredSealProof::kStackedDrg2KiBV1_1);
    const SealProofInfo& info = seal_proof_info(*proof);
    EXPECT_EQ(*config->find("sector_size")->get_u64(), info.sector_size);
    EXPECT_EQ(*config->find("partitions")->get_u64(), info.partitions);
    auto version = parse_api_version(*config->find("api_version")->get_string());
    ASSERT_TRUE(version.ok());
    EXPECT_EQ(*version, info.api_version);

    auto prover_id = read_bytes32(*record, "prover_id");
    auto ticket = read_bytes32(*record, "ticket");
    auto comm_d = read_bytes32(*record, "comm_d");
    auto seed = read_bytes32(*record, "seed");
    auto sector_id = record->find("sector_id")->get_u64();
    ASSERT_TRUE(prover_id.ok() && ticket.ok() && comm_d.ok() && seed.ok() && sector_id.ok());

    const Node replica_id =
        compute_replica_id(*prover_id, *sector_id, *ticket, *comm_d, info.porep_id());
    // OpenSSL over the concatenation, trimmed.
    std::vector<uint8_t> m(prover_id->begin(), prover_id->end());
    for (int i = 7; i >= 0; --i) m.push_back(static_cast<uint8_t>(*sector_id >> (8 * i)));
    m.insert(m.end(), ticket->begin(), ticket->end());
    m.insert(m.end(), comm_d->begin(), comm_d->end());
    m.insert(m.end(), porep_id->begin(), porep_id->end());
    Node expect;
    unsigned int n = 0;
    ASSERT_EQ(EVP_Digest(m.data(), m.size(), expect.data(), &n, EVP_sha256(), nullptr), 1);
    expect[31] &= 0x3f;
    EXPECT_EQ(replica_id, expect);
    EXPECT_EQ(replica_id[31] & 0xc0, 0);

    auto challenges =
        interactive_challenges(info.nodes(), replica_id, *seed, 0, info.challenges_per_partition);
    ASSERT_TRUE(challenges.ok());
    ASSERT_EQ(challenges->size(), 2u);
    auto graph = SdrGraph::for_proof(*proof);
    ASSERT_TRUE(graph.ok());
    std::printf("record line 2: replica_id %s\n", util::to_hex(replica_id).c_str());
    for (uint64_t c : *challenges) {
        EXPECT_GE(c, 1u);
        EXPECT_LE(c, 63u);
        uint32_t p[kTotalParents];
        graph->parents(static_cast<uint32_t>(c), p);
        std::printf("  challenge %llu parents:", static_cast<unsigned long long>(c));
        for (uint32_t x : p) std::printf(" %u", x);
        std::printf("\n");
    }
}

}  // namespace
}  // namespace cuzk::porep
