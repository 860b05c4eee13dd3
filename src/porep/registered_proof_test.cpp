// Registered proof table against the published values (rust-filecoin-proofs-api registry.rs ids,
// rust-fil-proofs constants.rs counts, spec §1 table).
#include "porep/registered_proof.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk::porep {
namespace {

TEST(RegisteredProof, IdsNamesAndPorepIds) {
    // Names in id order as published by rust-filecoin-proofs-api (REGISTERED_PROOF_IDS).
    const char* names[20] = {"StackedDrg2KiBV1",
                             "StackedDrg8MiBV1",
                             "StackedDrg512MiBV1",
                             "StackedDrg32GiBV1",
                             "StackedDrg64GiBV1",
                             "StackedDrg2KiBV1_1",
                             "StackedDrg8MiBV1_1",
                             "StackedDrg512MiBV1_1",
                             "StackedDrg32GiBV1_1",
                             "StackedDrg64GiBV1_1",
                             "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                             "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
                             "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
                             "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
                             "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
                             "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                             "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
                             "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
                             "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
                             "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};
    const uint64_t sizes[5] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    ASSERT_EQ(all_seal_proofs().size(), 20u);
    for (int id = 0; id < 20; ++id) {
        const SealProofInfo& info = seal_proof_info(static_cast<RegisteredSealProof>(id));
        EXPECT_EQ(info.id(), static_cast<uint64_t>(id));
        EXPECT_STREQ(info.name, names[id]);
        EXPECT_EQ(info.sector_size, sizes[id % 5]) << names[id];
        const PoRepId pid = info.porep_id();
        EXPECT_EQ(pid[0], id);
        for (int i = 1; i < 32; ++i) EXPECT_EQ(pid[i], 0) << names[id];
        auto parsed = parse_registered_seal_proof(names[id]);
        ASSERT_TRUE(parsed.ok());
        EXPECT_EQ(*parsed, info.proof);
        auto by_id = parse_registered_seal_proof(std::to_string(id));
        ASSERT_TRUE(by_id.ok());
        EXPECT_EQ(*by_id, info.proof);
        auto from_pid = seal_proof_from_porep_id(pid);
        ASSERT_TRUE(from_pid.ok());
        EXPECT_EQ(*from_pid, info.proof);
    }
}

TEST(RegisteredProof, CountsMatchPublishedConstants) {
    for (const SealProofInfo& info : all_seal_proofs()) {
        const bool big = info.sector_size >= (32ull << 30);
        EXPECT_EQ(info.layers, big ? 11u : 2u) << info.name;
        const bool ni = info.feature == ApiFeature::kNonInteractivePoRep;
        const uint32_t min_challenges = ni ? (big ? 2253u : 26u) : (big ? 176u : 2u);
        EXPECT_EQ(info.partitions, ni ? (big ? 126u : 13u) : (big ? 10u : 1u)) << info.name;
        // select_challenges: ceil(minimum / partitions).
        EXPECT_EQ(info.challenges_per_partition,
                  (min_challenges + info.partitions - 1) / info.partitions)
            << info.name;
        const TreeShape expect_shape = info.sector_size == (32ull << 30)   ? TreeShape{8, 8, 0}
                                       : info.sector_size == (64ull << 30) ? TreeShape{8, 8, 2}
                                                                           : TreeShape{8, 0, 0};
        EXPECT_EQ(info.shape, expect_shape) << info.name;
        EXPECT_EQ(info.base_tree_count() * info.base_tree_leaves(), info.nodes());
    }
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_1).nodes(), 64u);
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg32GiBV1_1).base_tree_leaves(),
              1u << 27);
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg64GiBV1).base_tree_count(), 16u);
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1).api_version,
              ApiVersion::kV1_0_0);
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_1).api_version,
              ApiVersion::kV1_1_0);
    EXPECT_EQ(seal_proof_info(RegisteredSealProof::kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep)
                  .api_version,
              ApiVersion::kV1_2_0);
}

TEST(RegisteredProof, ParseSectorSize) {
    EXPECT_EQ(*parse_sector_size("2KiB"), 2048u);
    EXPECT_EQ(*parse_sector_size("2kib"), 2048u);
    EXPECT_EQ(*parse_sector_size("2048"), 2048u);
    EXPECT_EQ(*parse_sector_size("8MiB"), 8u << 20);
    EXPECT_EQ(*parse_sector_size("512MiB"), 512u << 20);
    EXPECT_EQ(*parse_sector_size("32GiB"), 32ull << 30);
    EXPECT_EQ(*parse_sector_size("64GiB"), 64ull << 30);
    EXPECT_EQ(*parse_sector_size("34359738368"), 32ull << 30);
    for (const char* bad : {"", "KiB", "3KiB", "2KB", "2 KiB", "-2KiB", "1024", "99999999999GiB",
                            "18446744073709551616", "2KiBx"}) {
        auto r = parse_sector_size(bad);
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_FALSE(r.status().message().empty());
        }
    }
    EXPECT_EQ(sector_size_name(2048), "2KiB");
    EXPECT_EQ(sector_size_name(32ull << 30), "32GiB");
    EXPECT_EQ(sector_size_name(1000), "1000");
}

TEST(RegisteredProof, ParseErrorsAndLookups) {
    EXPECT_FALSE(parse_registered_seal_proof("StackedDrg4KiBV1").ok());
    EXPECT_FALSE(parse_registered_seal_proof("20").ok());
    EXPECT_FALSE(parse_registered_seal_proof("").ok());
    EXPECT_TRUE(parse_registered_seal_proof("stackeddrg32gibv1_1").ok());
    EXPECT_EQ(*find_seal_proof(2048, ApiVersion::kV1_1_0),
              RegisteredSealProof::kStackedDrg2KiBV1_1);
    EXPECT_EQ(*find_seal_proof(32ull << 30, ApiVersion::kV1_2_0, ApiFeature::kNonInteractivePoRep),
              RegisteredSealProof::kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_FALSE(find_seal_proof(2048, ApiVersion::kV1_2_0).ok());
    PoRepId odd{};
    odd[0] = 5;
    odd[8] = 1;  // nonce 1: not registered
    EXPECT_FALSE(seal_proof_from_porep_id(odd).ok());
    EXPECT_EQ(*parse_api_version("V1_1_0"), ApiVersion::kV1_1_0);
    EXPECT_EQ(*parse_api_version("1.2.0"), ApiVersion::kV1_2_0);
    EXPECT_FALSE(parse_api_version("1.3.0").ok());
}

}  // namespace
}  // namespace cuzk::porep
