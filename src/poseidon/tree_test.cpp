// Poseidon Merkle trees: the filecoin-hashers test_poseidon_hasher binary tree (leaves
// [1, 0, 0, 1], published node and root values), arity-8 trees against nested hashes,
// all-zero trees against the zero-subtree helper, and bad shapes as errors.
#include "poseidon/tree.hpp"

#include <gtest/gtest.h>


#include "poseidon/hash.hpp"
#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

Fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
    ff::BigInt<4> v;
    v.limb[0] = l0;
    v.limb[1] = l1;
    v.limb[2] = l2;
    v.limb[3] = l3;
    return Fr::from_int(v);
}

TEST(PoseidonTree, FilecoinHashersBinaryTree) {
    // filecoin-hashers poseidon.rs test_poseidon_hasher: MerkleTree<PoseidonHasher, U2> over
    // [1, 0, 0, 1]; read_at(4) = node(1, 0) and read_at(6) = the root.
    const std::vector<Fr> leaves = {Fr::one(), Fr::zero(), Fr::zero(), Fr::one()};
    auto levels = merkle_tree_levels(leaves, 2);
    ASSERT_TRUE(levels.ok());
    ASSERT_EQ(levels->size(), 3u);
    EXPECT_EQ((*levels)[1][0], from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af,
                                          0x93c003cc74a24f26, 0x042f94ffbe786bc3));
    EXPECT_EQ((*levels)[2][0], from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2,
                                          0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

TEST(PoseidonTree, OctTreeIsNestedHashes) {
    util::TestRng rng(64);
    std::vector<Fr> leaves(64);
    for (auto& x : leaves) x = Fr::random(rng);
    std::vector<Fr> mids;
    for (size_t i = 0; i < 8; ++i) {
        auto h = hash(std::span<const Fr>(leaves.data() + 8 * i, 8));
        ASSERT_TRUE(h.ok());
        mids.push_back(*h);
    }
    auto expect = hash(mids);
    ASSERT_TRUE(expect.ok());
    auto root = merkle_root(leaves, 8);
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(*root, *expect);
    // The pool gives the same tree.
    util::ThreadPool pool(2);
    std::vector<Fr> big(512);
    for (auto& x : big) x = Fr::random(rng);
    auto serial = merkle_tree_levels(big, 8);
    auto parallel = merkle_tree_levels(big, 8, &pool);
    ASSERT_TRUE(serial.ok() && parallel.ok());
    EXPECT_EQ(*serial, *parallel);
    // A changed leaf changes the root.
    big[300] += Fr::one();
    auto changed = merkle_root(big, 8, &pool);
    ASSERT_TRUE(changed.ok());
    EXPECT_NE(*changed, serial->back()[0]);
}

TEST(PoseidonTree, ZeroSubtreesMatchZeroTrees) {
    for (size_t arity : {2u, 4u, 8u}) {
        auto z = zero_subtree_roots(arity, 4);
        ASSERT_TRUE(z.ok());
        EXPECT_TRUE((*z)[0].is_zero());
        size_t n = 1;
        for (size_t h = 0; h <= 3; ++h, n *= arity) {
            const std::vector<Fr> zeros(n, Fr::zero());
            auto root = merkle_root(zeros, arity);
            ASSERT_TRUE(root.ok());
            EXPECT_EQ(*root, (*z)[h]) << "arity " << arity << " height " << h;
        }
        EXPECT_EQ((*z)[1], *hash(std::vector<Fr>(arity, Fr::zero())));
    }
}

TEST(PoseidonTree, BadShapesAreErrors) {
    EXPECT_FALSE(merkle_root(std::vector<Fr>{}, 8).ok());
    EXPECT_FALSE(merkle_root(std::vector<Fr>(16, Fr::one()), 8).ok());
    EXPECT_FALSE(merkle_root(std::vector<Fr>(9, Fr::one()), 3).ok());
    EXPECT_FALSE(zero_subtree_roots(11, 2).ok());
    auto single = merkle_root(std::vector<Fr>{Fr::from_u64(9)}, 8);
    ASSERT_TRUE(single.ok());
    EXPECT_EQ(*single, Fr::from_u64(9));
}

}  // namespace
}  // namespace cuzk::poseidon
