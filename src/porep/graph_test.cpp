// SDR graph: the SHA-256 digests of whole parent caches published by rust-fil-proofs
// (storage-proofs-porep/parent_cache.json; copied to shared/testdata/parent_cache_digests.json),
// for 2 KiB and 8 MiB, both graph seeds each; plus structural properties.
#include "porep/graph.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "util/hex.hpp"

namespace cuzk::porep {
namespace {

// parent_cache.json entries (sector size → the two published digests).
constexpr const char* k2KiBDigests[2] = {
    "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d",
    "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"};
constexpr const char* k8MiBDigests[2] = {
    "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab",
    "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"};

std::string cache_digest_hex(RegisteredSealProof proof, double* seconds = nullptr) {
    const auto t0 = std::chrono::steady_clock::now();
    auto graph = SdrGraph::for_proof(proof);
    EXPECT_TRUE(graph.ok());
    const ParentCache cache = ParentCache::generate(*graph);
    const std::string hex = util::to_hex(cache.digest());
    if (seconds != nullptr) {
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return hex;
}

TEST(SdrGraph, ParentCacheDigests2KiB) {
    // Spec §3.2: porep_id [0;32] with V1_0 and [5,0,…] with V1_1.
    EXPECT_EQ(cache_digest_hex(RegisteredSealProof::kStackedDrg2KiBV1), k2KiBDigests[0]);
    EXPECT_EQ(cache_digest_hex(RegisteredSealProof::kStackedDrg2KiBV1_1), k2KiBDigests[1]);
}

TEST(SdrGraph, ParentCacheDigests8MiB) {
    double s1 = 0, s2 = 0;
    const std::string v1_0 = cache_digest_hex(RegisteredSealProof::kStackedDrg8MiBV1, &s1);
    const std::string v1_1 = cache_digest_hex(RegisteredSealProof::kStackedDrg8MiBV1_1, &s2);
    std::printf("8 MiB parent cache (2^18 nodes): V1 %.2f s, V1_1 %.2f s\n", s1, s2);
    // Which published entry belongs to which seed is not stated in the file; both must be hit.
    const std::set<std::string> published(k8MiBDigests, k8MiBDigests + 2);
    EXPECT_TRUE(published.count(v1_0)) << "V1 (porep_id [1,0..]) digest " << v1_0;
    EXPECT_TRUE(published.count(v1_1)) << "V1_1 (porep_id [6,0..]) digest " << v1_1;
    EXPECT_NE(v1_0, v1_1);
    std::printf("8 MiB: V1 -> %s\n       V1_1 -> %s\n", v1_0.c_str(), v1_1.c_str());
}

TEST(SdrGraph, StructureOfParents) {
    for (auto proof :
         {RegisteredSealProof::kStackedDrg2KiBV1, RegisteredSealProof::kStackedDrg2KiBV1_1}) {
        auto graph = SdrGraph::for_proof(proof);
        ASSERT_TRUE(graph.ok());
        const bool v1_0 = graph->api_version() == ApiVersion::kV1_0_0;
        for (uint32_t v = 0; v < 64; ++v) {
            uint32_t p[kTotalParents];
            graph->parents(v, p);
            for (int i = 0; i < kTotalParents; ++i) EXPECT_LT(p[i], 64u);
            if (v < 2) {
                for (int i = 0; i < kDrgParents; ++i) EXPECT_EQ(p[i], 0u);
                continue;
            }
            EXPECT_EQ(p[v1_0 ? 5 : 0], v - 1);
            for (int i = 0; i < kDrgParents; ++i) EXPECT_LT(p[i], v) << "DRG parent not earlier";
        }
        // Over the whole graph the expander map is onto: the 512 slots are a permutation of
        // 0..511, so each node appears as an expander parent exactly 8 times.
        std::vector<int> hits(64, 0);
        for (uint32_t v = 0; v < 64; ++v) {
            uint32_t e[kExpParents];
            graph->exp_parents(v, e);
            for (uint32_t x : e) ++hits[x];
        }
        for (int h : hits) EXPECT_EQ(h, 8);
    }
}

TEST(SdrGraph, SeedsAndErrors) {
    // porep_id of StackedDrg2KiBV1 is all zero; the DRG seed is SHA-256("Filecoin_DRSample" ‖
    // 0^32).
    auto g = SdrGraph::for_proof(RegisteredSealProof::kStackedDrg2KiBV1);
    ASSERT_TRUE(g.ok());
    std::string msg = "Filecoin_DRSample";
    msg.append(32, '\0');
    const auto expect = util::sha256({reinterpret_cast<const uint8_t*>(msg.data()), msg.size()});
    EXPECT_EQ(0, std::memcmp(g->drg_seed(), expect.data(), 28));
    EXPECT_FALSE(SdrGraph::create(1, PoRepId{}, ApiVersion::kV1_1_0).ok());
    EXPECT_FALSE(SdrGraph::create((1ull << 32) + 1, PoRepId{}, ApiVersion::kV1_1_0).ok());
}

}  // namespace
}  // namespace cuzk::porep
