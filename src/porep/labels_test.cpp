// SDR labels, recomputed independently: parents straight from SdrGraph (not the cache), the
// message fed to OpenSSL's SHA-256 piece by piece in the order the spec gives (§3.3).
#include "porep/labels.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

// labels_ref[layer-1][node]
using RefLabels = std::vector<std::vector<Node>>;

RefLabels reference_labels(const SdrGraph& g, const Node& replica_id, uint32_t layers) {
    const uint64_t n = g.nodes();
    RefLabels ref(layers, std::vector<Node>(n));
    for (uint32_t layer = 1; layer <= layers; ++layer) {
        for (uint64_t v = 0; v < n; ++v) {
            EVP_MD_CTX* ctx = EVP_MD_CTX_new();
            EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
            EVP_DigestUpdate(ctx, replica_id.data(), 32);
            const uint8_t layer_be[4] = {0, 0, static_cast<uint8_t>(layer >> 8),
                                         static_cast<uint8_t>(layer)};
            EVP_DigestUpdate(ctx, layer_be, 4);
            uint8_t node_be[8];
            for (int i = 0; i < 8; ++i) node_be[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
            EVP_DigestUpdate(ctx, node_be, 8);
            const uint8_t zeros[20] = {};
            EVP_DigestUpdate(ctx, zeros, 20);
            if (v > 0) {
                uint32_t drg[6], exp[8];
                g.drg_parents(static_cast<uint32_t>(v), drg);
                g.exp_parents(static_cast<uint32_t>(v), exp);
                std::vector<const Node*> ps;
                for (uint32_t p : drg) ps.push_back(&ref[layer - 1][p]);
                if (layer > 1) {
                    for (uint32_t p : exp) ps.push_back(&ref[layer - 2][p]);
                }
                if (layer == 1) {
                    for (int rep = 0; rep < 6; ++rep) {
                        for (const Node* p : ps) EVP_DigestUpdate(ctx, p->data(), 32);
                    }
                    EVP_DigestUpdate(ctx, ps[0]->data(), 32);
                } else {
                    for (int rep = 0; rep < 2; ++rep) {
                        for (const Node* p : ps) EVP_DigestUpdate(ctx, p->data(), 32);
                    }
                    for (int i = 0; i < 9; ++i) EVP_DigestUpdate(ctx, ps[i]->data(), 32);
                }
            }
            unsigned int len = 0;
            EVP_DigestFinal_ex(ctx, ref[layer - 1][v].data(), &len);
            EVP_MD_CTX_free(ctx);
            ref[layer - 1][v][31] &= 0x3f;
        }
    }
    return ref;
}

void check_proof(RegisteredSealProof proof, uint64_t seed) {
    const SealProofInfo& info = seal_proof_info(proof);
    auto g = SdrGraph::for_proof(proof);
    ASSERT_TRUE(g.ok());
    const ParentCache cache = ParentCache::generate(*g);
    util::TestRng rng(seed);
    Node replica_id;
    rng.fill(replica_id.data(), 32);
    replica_id[31] &= 0x3f;
    auto labels = generate_labels(cache, replica_id, info.layers);
    ASSERT_TRUE(labels.ok());
    const RefLabels ref = reference_labels(*g, replica_id, info.layers);
    for (uint32_t layer = 1; layer <= info.layers; ++layer) {
        for (uint64_t v = 0; v < info.nodes(); ++v) {
            ASSERT_EQ(labels->label_node(layer, v), ref[layer - 1][v]) << layer << "/" << v;
        }
    }
    // label_message reproduces a label from the stored ones.
    std::vector<uint8_t> msg;
    label_message(cache, *labels, replica_id, info.layers, 37, msg);
    ASSERT_EQ(msg.size(), 1248u);
    Node again;
    unsigned int n = 0;
    EVP_Digest(msg.data(), msg.size(), again.data(), &n, EVP_sha256(), nullptr);
    again[31] &= 0x3f;
    EXPECT_EQ(again, labels->label_node(info.layers, 37));
}

TEST(Labels, TwoKiBV1_1MatchesReference) {
    check_proof(RegisteredSealProof::kStackedDrg2KiBV1_1, 801);
}
TEST(Labels, TwoKiBV1MatchesReference) { check_proof(RegisteredSealProof::kStackedDrg2KiBV1, 802); }

TEST(Labels, EightMiBTiming) {
    auto g = SdrGraph::for_proof(RegisteredSealProof::kStackedDrg8MiBV1_1);
    ASSERT_TRUE(g.ok());
    const ParentCache cache = ParentCache::generate(*g);
    Node replica_id{};
    replica_id[0] = 1;
    const auto t0 = std::chrono::steady_clock::now();
    auto labels = generate_labels(cache, replica_id, 2);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(labels.ok());
    std::printf("labels 8 MiB, 2 layers (2^19 SHA-256 of 1248 B): %.2f s\n", s);
    // Spot-check a few nodes against the reference formula via label_message.
    std::vector<uint8_t> msg;
    for (uint64_t v : {0ull, 1ull, 2ull, 12345ull, (1ull << 18) - 1}) {
        label_message(cache, *labels, replica_id, 2, v, msg);
        Node h;
        unsigned int n = 0;
        EVP_Digest(msg.data(), msg.size(), h.data(), &n, EVP_sha256(), nullptr);
        h[31] &= 0x3f;
        EXPECT_EQ(h, labels->label_node(2, v)) << v;
    }
}

TEST(Labels, RejectsZeroLayers) {
    auto g = SdrGraph::for_proof(RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_TRUE(g.ok());
    EXPECT_FALSE(generate_labels(ParentCache::generate(*g), Node{}, 0).ok());
}

}  // namespace
}  // namespace cuzk::porep
