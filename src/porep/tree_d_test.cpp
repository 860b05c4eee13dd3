// tree_d / comm_d: the published zero-piece commitments (2 KiB: fc7e9282…; the 128/256/512-byte
// prefixes listed in the spec §5), and inclusion paths.
#include "porep/tree_d.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <vector>

#include "porep/fr32.hpp"
#include "util/hex.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

TEST(TreeD, ZeroSectorCommD) {
    // All-zero user data → all-zero padded sector.
    const std::vector<uint8_t> padded = fr32_pad(std::vector<uint8_t>(2032, 0));
    ASSERT_EQ(padded, std::vector<uint8_t>(2048, 0));
    auto tree = TreeD::build(padded);
    ASSERT_TRUE(tree.ok());
    EXPECT_EQ(tree->depth(), 6u);
    EXPECT_EQ(util::to_hex(tree->root()),
              "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    // Zero-piece commitments of 128, 256 and 512 bytes (public tables) are levels 2, 3, 4.
    EXPECT_EQ(util::to_hex(tree->node(2, 0)).substr(0, 8), "3731bb99");
    EXPECT_EQ(util::to_hex(tree->node(3, 0)).substr(0, 8), "642a607e");
    EXPECT_EQ(util::to_hex(tree->node(4, 0)).substr(0, 8), "57a2381a");
}

TEST(TreeD, NodeHashMatchesOpenSsl) {
    util::TestRng rng(701);
    for (int rep = 0; rep < 20; ++rep) {
        Node l, r;
        rng.fill(l.data(), 32);
        rng.fill(r.data(), 32);
        uint8_t m[64];
        std::copy(l.begin(), l.end(), m);
        std::copy(r.begin(), r.end(), m + 32);
        Node expect;
        unsigned int n = 0;
        ASSERT_EQ(EVP_Digest(m, 64, expect.data(), &n, EVP_sha256(), nullptr), 1);
        expect[31] &= 0x3f;
        EXPECT_EQ(sha256_tree_node(l, r), expect);
    }
}

TEST(TreeD, PathsVerifyAndTamperingFails) {
    util::TestRng rng(702);
    std::vector<uint8_t> raw(2032);
    rng.fill(raw.data(), raw.size());
    const std::vector<uint8_t> data = fr32_pad(raw);
    auto tree = TreeD::build(data);
    ASSERT_TRUE(tree.ok());
    for (uint64_t leaf = 0; leaf < 64; ++leaf) {
        auto path = tree->path(leaf);
        ASSERT_TRUE(path.ok());
        ASSERT_EQ(path->size(), 6u);
        Node value;
        std::copy(data.begin() + leaf * 32, data.begin() + leaf * 32 + 32, value.begin());
        EXPECT_TRUE(TreeD::verify_path(value, leaf, *path, tree->root()));
        EXPECT_FALSE(TreeD::verify_path(value, leaf ^ 1, *path, tree->root()));
        auto bad = *path;
        bad[leaf % 6][0] ^= 1;
        EXPECT_FALSE(TreeD::verify_path(value, leaf, bad, tree->root()));
    }
    EXPECT_FALSE(tree->path(64).ok());
}

TEST(TreeD, RejectsBadSizes) {
    EXPECT_FALSE(TreeD::build(std::vector<uint8_t>(0)).ok());
    EXPECT_FALSE(TreeD::build(std::vector<uint8_t>(33)).ok());
    EXPECT_FALSE(TreeD::build(std::vector<uint8_t>(96)).ok());
    EXPECT_TRUE(TreeD::build(std::vector<uint8_t>(32)).ok());
}

}  // namespace
}  // namespace cuzk::porep
