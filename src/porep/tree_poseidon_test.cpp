// tree_c / tree_r_last layouts, dense and sparse trees, and their Merkle
// proofs. Oracles: the roots are recomputed by composing poseidon::merkle_root
// / poseidon::hash over the base chunks as builders.rs composes base, sub and
// top trees; the sparse tree is compared with the dense one over the same
// leaves; tree_d proofs with TreeD::verify_path.
#include "porep/tree_poseidon.hpp"

#include <gtest/gtest.h>

#include <map>

#include "porep/tree_d.hpp"
#include "poseidon/hash.hpp"
#include "poseidon/tree.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

std::vector<Fr> random_leaves(size_t n, uint64_t seed) {
    util::TestRng rng(seed);
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

// Root of a compound tree built as builders.rs does: base trees over
// consecutive chunks, sub trees over groups of `sub` base roots, a top node
// over the sub roots.
Fr compound_root(const std::vector<Fr>& leaves, TreeShape shape) {
    const size_t trees = (shape.sub ? shape.sub : 1) * (shape.top ? shape.top : 1);
    const size_t per = leaves.size() / trees;
    std::vector<Fr> base_roots;
    for (size_t t = 0; t < trees; ++t) {
        base_roots.push_back(
            *poseidon::merkle_root(std::span<const Fr>(leaves.data() + t * per, per), shape.base));
    }
    if (shape.sub == 0) return base_roots[0];
    std::vector<Fr> sub_roots;
    for (size_t s = 0; s < base_roots.size(); s += shape.sub) {
        sub_roots.push_back(*poseidon::hash(std::span<const Fr>(base_roots.data() + s, shape.sub)));
    }
    if (shape.top == 0) return sub_roots[0];
    return *poseidon::hash(sub_roots);
}

TEST(PoseidonTreeLayout, SectorShapes) {
    auto l2k = PoseidonTreeLayout::for_proof(RegisteredSealProof::kStackedDrg2KiBV1_1);
    ASSERT_TRUE(l2k.ok());
    EXPECT_EQ(l2k->arities, (std::vector<uint32_t>{8, 8}));
    EXPECT_EQ(l2k->kind(), MerkleProofKind::kSingle);
    auto l32 = PoseidonTreeLayout::for_proof(RegisteredSealProof::kStackedDrg32GiBV1_1);
    ASSERT_TRUE(l32.ok());
    EXPECT_EQ(l32->base_levels,
              9u);  // 2^27 leaves per base tree (spec §1: 9×8 + 1×8)
    EXPECT_EQ(l32->arities.size(), 10u);
    EXPECT_EQ(l32->arities.back(), 8u);
    EXPECT_EQ(l32->kind(), MerkleProofKind::kSub);
    auto l64 = PoseidonTreeLayout::for_proof(RegisteredSealProof::kStackedDrg64GiBV1_1);
    ASSERT_TRUE(l64.ok());
    EXPECT_EQ(l64->base_levels, 9u);
    EXPECT_EQ(l64->arities.size(), 11u);
    EXPECT_EQ(l64->arities.back(), 2u);
    EXPECT_EQ(l64->kind(), MerkleProofKind::kTop);
    EXPECT_FALSE(PoseidonTreeLayout::create(63, {8, 0, 0}).ok());
    EXPECT_FALSE(PoseidonTreeLayout::create(128, {8, 0, 0}).ok());  // not a power of 8
    EXPECT_FALSE(PoseidonTreeLayout::create(64, {4, 0, 0}).ok());
}

class DenseTreeTest : public ::testing::TestWithParam<std::pair<uint64_t, TreeShape>> {};

TEST_P(DenseTreeTest, RootMatchesCompositionAndEveryPathVerifies) {
    const auto [n, shape] = GetParam();
    auto layout = PoseidonTreeLayout::create(n, shape);
    ASSERT_TRUE(layout.ok()) << layout.status().to_string();
    std::vector<Fr> leaves = random_leaves(n, 7 + n);
    auto tree = PoseidonTree::build(*layout, leaves);
    ASSERT_TRUE(tree.ok());
    EXPECT_EQ(tree->root(), compound_root(leaves, shape));
    for (uint64_t i = 0; i < n; ++i) {
        auto p = tree->proof(i);
        ASSERT_TRUE(p.ok());
        EXPECT_EQ(p->kind, layout->kind());
        EXPECT_EQ(p->leaf, fr_to_domain(leaves[i]));
        auto idx = verify_poseidon_proof(*p, *layout);
        ASSERT_TRUE(idx.ok()) << idx.status().to_string();
        EXPECT_EQ(*idx, i);
    }
    // A tampered sibling at each level, a swapped index and a wrong leaf all
    // fail.
    auto p = *tree->proof(n / 3);
    for (uint32_t t = 0; t < layout->levels(); ++t) {
        MerkleProof bad = p;
        PathElement& e = t < layout->base_levels    ? bad.base[t]
                         : t == layout->base_levels ? bad.sub[0]
                                                    : bad.top[0];
        e.hashes[0][0] ^= 1;
        auto r = verify_poseidon_proof(bad, *layout);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.status().message(), "path does not lead to its root");
        MerkleProof moved = p;
        PathElement& m = t < layout->base_levels    ? moved.base[t]
                         : t == layout->base_levels ? moved.sub[0]
                                                    : moved.top[0];
        m.index = (m.index + 1) % layout->arities[t];
        EXPECT_FALSE(verify_poseidon_proof(moved, *layout).ok());
        m.index = layout->arities[t];
        EXPECT_FALSE(verify_poseidon_proof(moved, *layout).ok());
    }
    MerkleProof bad_leaf = p;
    bad_leaf.leaf[0] ^= 1;
    EXPECT_FALSE(verify_poseidon_proof(bad_leaf, *layout).ok());
    MerkleProof non_canonical = p;
    non_canonical.leaf.fill(0xff);
    EXPECT_FALSE(verify_poseidon_proof(non_canonical, *layout).ok());
}

INSTANTIATE_TEST_SUITE_P(Shapes, DenseTreeTest,
                         ::testing::Values(std::pair<uint64_t, TreeShape>{8, {8, 0, 0}},
                                           std::pair<uint64_t, TreeShape>{64, {8, 0, 0}},
                                           std::pair<uint64_t, TreeShape>{512, {8, 0, 0}},
                                           std::pair<uint64_t, TreeShape>{64, {8, 8, 0}},
                                           std::pair<uint64_t, TreeShape>{512, {8, 8, 0}},
                                           std::pair<uint64_t, TreeShape>{128, {8, 8, 2}},
                                           std::pair<uint64_t, TreeShape>{1024, {8, 8, 2}}));

TEST(SparsePoseidonTree, EqualsDenseTreeOverTheSameLeaves) {
    for (TreeShape shape : {TreeShape{8, 0, 0}, TreeShape{8, 8, 0}, TreeShape{8, 8, 2}}) {
        const uint64_t n = shape.top ? 1024 : 512;
        auto layout = *PoseidonTreeLayout::create(n, shape);
        util::TestRng rng(99);
        std::map<uint64_t, Fr> sparse;
        for (int i = 0; i < 20; ++i) sparse[rng.uniform(n)] = Fr::random(rng);
        std::vector<Fr> dense(n, Fr::zero());
        for (const auto& [i, v] : sparse) dense[i] = v;
        auto st = SparsePoseidonTree::build(layout, sparse);
        auto dt = PoseidonTree::build(layout, dense);
        ASSERT_TRUE(st.ok());
        ASSERT_TRUE(dt.ok());
        EXPECT_EQ(st->root(), dt->root());
        for (uint64_t i : {uint64_t{0}, sparse.begin()->first, n - 1, n / 2 + 3}) {
            EXPECT_EQ(*st->proof(i), *dt->proof(i)) << "leaf " << i;
        }
    }
    // All-zero tree: the root is the zero-subtree root of poseidon/tree.
    auto layout = *PoseidonTreeLayout::create(4096, {8, 0, 0});
    auto st = SparsePoseidonTree::build(layout, {});
    ASSERT_TRUE(st.ok());
    EXPECT_EQ(st->root(), (*poseidon::zero_subtree_roots(8, 4))[4]);
    EXPECT_FALSE(SparsePoseidonTree::build(layout, {{4096, Fr::one()}}).ok());
}

TEST(Sha256Proof, VerifiesTreeDPaths) {
    std::vector<uint8_t> data(64 * 32);
    util::TestRng rng(3);
    rng.fill(data.data(), data.size());
    for (size_t i = 31; i < data.size(); i += 32) data[i] &= 0x3f;
    auto tree = *TreeD::build(data);
    for (uint64_t leaf : {0, 1, 17, 63}) {
        auto siblings = *tree.path(leaf);
        MerkleProof p;
        p.root = tree.root();
        p.leaf = tree.node(0, leaf);
        for (size_t t = 0; t < siblings.size(); ++t) {
            p.base.push_back(PathElement{{siblings[t]}, (leaf >> t) & 1});
        }
        auto idx = verify_sha256_proof(p, 6);
        ASSERT_TRUE(idx.ok()) << idx.status().to_string();
        EXPECT_EQ(*idx, leaf);
        EXPECT_TRUE(TreeD::verify_path(p.leaf, leaf, siblings, p.root));
        MerkleProof bad = p;
        bad.base[2].hashes[0][5] ^= 0x10;
        EXPECT_FALSE(verify_sha256_proof(bad, 6).ok());
        EXPECT_FALSE(verify_sha256_proof(p, 5).ok());
    }
}

}  // namespace
}  // namespace cuzk::porep
