// replica_id and interactive challenges, recomputed with OpenSSL SHA-256 and a separate
// big-integer reduction (64-bit limbs, 128-bit division).
#include "porep/sector_ids.hpp"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <cstring>

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

TEST(SectorIds, NonInteractiveChallengesMatchRecomputation) {
    util::TestRng rng(603);
    const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    for (uint64_t nodes : {64ull, 1ull << 30}) {
        const Node replica_id = random_node(rng), comm_r = random_node(rng);
        for (uint32_t k : {0u, 1u, 12u, 125u}) {
            auto got = non_interactive_challenges(nodes, replica_id, comm_r, k, 18);
            ASSERT_TRUE(got.ok());
            for (uint32_t i = 0; i < 18; ++i) {
                const uint32_t j = 18 * k + i;
                std::vector<uint8_t> m(std::strlen(tag) + 68);
                std::memcpy(m.data(), tag, std::strlen(tag));
                std::copy(replica_id.begin(), replica_id.end(), m.begin() + std::strlen(tag));
                std::copy(comm_r.begin(), comm_r.end(), m.begin() + std::strlen(tag) + 32);
                for (int b = 0; b < 4; ++b)
                    m[std::strlen(tag) + 64 + b] = static_cast<uint8_t>(j >> (8 * b));
                EXPECT_EQ((*got)[i], limb_mod(openssl_sha256(m), nodes - 1) + 1);
            }
        }
    }
}

// OpenSSL oracles for the synthetic PRFs.
Node openssl_keyed_blake2b_256(const char* key, const Node& a, const Node& b) {
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    size_t size = 32;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                           OSSL_PARAM_construct_end()};
    EXPECT_EQ(EVP_MAC_init(ctx, reinterpret_cast<const uint8_t*>(key), std::strlen(key), params),
              1);
    EVP_MAC_update(ctx, a.data(), 32);
    EVP_MAC_update(ctx, b.data(), 32);
    Node out;
    size_t n = 0;
    EXPECT_EQ(EVP_MAC_final(ctx, out.data(), &n, 32), 1);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return out;
}

// RFC 8439 keystream bytes [offset, offset + len) via OpenSSL (IV = LE block counter ‖ nonce).
std::vector<uint8_t> openssl_chacha20_at(const Node& key, uint64_t offset, size_t len) {
    const uint8_t nonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
    uint8_t iv[16] = {};
    const uint32_t block = static_cast<uint32_t>(offset / 64);
    for (int b = 0; b < 4; ++b) iv[b] = static_cast<uint8_t>(block >> (8 * b));
    std::memcpy(iv + 4, nonce, 12);
    const size_t skip = offset % 64;
    std::vector<uint8_t> zeros(skip + len, 0), out(skip + len);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
    int n = 0;
    EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &n, zeros.data(), static_cast<int>(zeros.size())),
              1);
    EVP_CIPHER_CTX_free(ctx);
    return std::vector<uint8_t>(out.begin() + static_cast<long>(skip), out.end());
}

TEST(SectorIds, SyntheticChallengesMatchOpenSslRecomputation) {
    util::TestRng rng(604);
    for (uint64_t nodes : {64ull, 1ull << 18, 1ull << 30}) {
        const Node replica_id = random_node(rng), comm_r = random_node(rng),
                   seed = random_node(rng);
        const uint64_t num_synth = std::min<uint64_t>(nodes, 1u << 18);
        const Node key_gen = openssl_keyed_blake2b_256("filecoin.io|PoRep|1|Synthetic|1|Generation",
                                                       replica_id, comm_r);
        const Node key_sel = openssl_keyed_blake2b_256("filecoin.io|PoRep|1|Synthetic|1|Selection",
                                                       replica_id, seed);
        const uint32_t per = nodes >= (1ull << 30) ? 18 : 2;
        for (uint32_t k : {0u, 1u, 9u}) {
            auto got = synthetic_challenges(nodes, replica_id, comm_r, seed, k, per);
            ASSERT_TRUE(got.ok());
            ASSERT_EQ(got->size(), per);
            const std::vector<uint8_t> sel =
                openssl_chacha20_at(key_sel, uint64_t{4} * per * k, 4 * per);
            for (uint32_t i = 0; i < per; ++i) {
                const uint32_t raw = uint32_t{sel[4 * i]} | (uint32_t{sel[4 * i + 1]} << 8) |
                                     (uint32_t{sel[4 * i + 2]} << 16) |
                                     (uint32_t{sel[4 * i + 3]} << 24);
                const uint64_t s = raw % num_synth;
                const std::vector<uint8_t> c = openssl_chacha20_at(key_gen, 32 * s, 32);
                std::array<uint8_t, 32> le;
                std::copy(c.begin(), c.end(), le.begin());
                EXPECT_EQ((*got)[i], limb_mod(le, nodes - 1) + 1);
            }
        }
    }
}

}  // namespace
}  // namespace cuzk::porep
