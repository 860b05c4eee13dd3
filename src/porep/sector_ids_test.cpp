// replica_id and interactive challenges, recomputed with OpenSSL SHA-256 and a separate
// big-integer reduction (64-bit limbs, 128-bit division).
#include "porep/sector_ids.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

std::array<uint8_t, 32> openssl_sha256(const std::vector<uint8_t>& m) {
    std::array<uint8_t, 32> d;
    unsigned int n = 0;
    EXPECT_EQ(EVP_Digest(m.data(), m.size(), d.data(), &n, EVP_sha256(), nullptr), 1);
    return d;
}

Node random_node(util::TestRng& rng) {
    Node n;
    rng.fill(n.data(), n.size());
    return n;
}

uint64_t limb_mod(const std::array<uint8_t, 32>& le, uint64_t m) {
    uint64_t limbs[4] = {};
    for (int i = 0; i < 32; ++i) limbs[i / 8] |= uint64_t{le[i]} << (8 * (i % 8));
    __extension__ typedef unsigned __int128 U128;
    U128 r = 0;
    for (int i = 3; i >= 0; --i) r = ((r << 64) | limbs[i]) % m;
    return static_cast<uint64_t>(r);
}

TEST(SectorIds, ReplicaIdMatchesOpenSsl) {
    util::TestRng rng(601);
    for (int rep = 0; rep < 20; ++rep) {
        const Node prover = random_node(rng), ticket = random_node(rng), comm_d = random_node(rng);
        const uint64_t sector_id = rng.next_u64();
        PoRepId porep_id{};
        porep_id[0] = static_cast<uint8_t>(rep);
        std::vector<uint8_t> m(prover.begin(), prover.end());
        for (int i = 7; i >= 0; --i) m.push_back(static_cast<uint8_t>(sector_id >> (8 * i)));
        m.insert(m.end(), ticket.begin(), ticket.end());
        m.insert(m.end(), comm_d.begin(), comm_d.end());
        m.insert(m.end(), porep_id.begin(), porep_id.end());
        auto expect = openssl_sha256(m);
        expect[31] &= 0x3f;
        EXPECT_EQ(compute_replica_id(prover, sector_id, ticket, comm_d, porep_id), expect);
    }
}

TEST(SectorIds, InteractiveChallengesMatchRecomputation) {
    util::TestRng rng(602);
    for (uint64_t nodes : {3ull, 64ull, 1ull << 18, 1ull << 30, 1ull << 31, 1ull << 32}) {
        const Node replica_id = random_node(rng), seed = random_node(rng);
        for (uint32_t k = 0; k < 3; ++k) {
            const uint32_t per = nodes >= (1ull << 30) ? 18 : 2;
            auto got = interactive_challenges(nodes, replica_id, seed, k, per);
            ASSERT_TRUE(got.ok());
            ASSERT_EQ(got->size(), per);
            for (uint32_t i = 0; i < per; ++i) {
                const uint32_t j = per * k + i;
                std::vector<uint8_t> m(68);
                std::copy(replica_id.begin(), replica_id.end(), m.begin());
                std::copy(seed.begin(), seed.end(), m.begin() + 32);
                for (int b = 0; b < 4; ++b) m[64 + b] = static_cast<uint8_t>(j >> (8 * b));
                const uint64_t expect = limb_mod(openssl_sha256(m), nodes - 1) + 1;
                EXPECT_EQ((*got)[i], expect);
                EXPECT_GE((*got)[i], 1u);
                EXPECT_LT((*got)[i], nodes);
            }
        }
    }
    EXPECT_FALSE(interactive_challenges(2, Node{}, Node{}, 0, 2).ok());
    EXPECT_FALSE(interactive_challenges((1ull << 32) + 1, Node{}, Node{}, 0, 2).ok());
}

}  // namespace
}  // namespace cuzk::porep
