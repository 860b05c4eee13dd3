// PoR gadget tests: satisfiability on trees built outside the circuit (porep TreeD for SHA-256,
// poseidon::hash for Poseidon levels), failure naming, and per-level costs against the spec's
// table (porep-c2-circuit.md §2.5/§2.6, whose totals reproduce rust-fil-proofs'
// stacked_circuit.rs counts).
#include "porep/circuit/por.hpp"

#include <gtest/gtest.h>

#include "gadgets/num.hpp"
#include "porep/tree_d.hpp"
#include "poseidon/hash.hpp"
#include "poseidon/tree.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

using gadgets::AllocatedNum;

Fr node_to_fr(const Node& n) {
    auto r = Fr::from_bytes_le(std::span<const uint8_t, 32>(n));
    EXPECT_TRUE(r.ok());
    return *r;
}

Node fr_to_node(const Fr& f) {
    Node n;
    f.to_bytes_le(std::span<uint8_t, 32>(n));
    return n;
}

struct PorRun {
    bool ok = false;
    bool satisfied = false;
    std::string failure;
    size_t constraints = 0, aux = 0, inputs = 0;
    std::vector<Fr> inputs_values;
};

// Allocates leaf and root in "leaf"/"root" (2 aux) and runs the gadget in "por".
PorRun run_por(const PorTree& tree, const AuthPath& path, const Fr& leaf, const Fr& root) {
    r1cs::TestConstraintSystem cs;
    PorRun run;
    auto l = AllocatedNum::alloc(cs, "leaf", leaf);
    auto r = AllocatedNum::alloc(cs, "root", root);
    EXPECT_TRUE(l.ok() && r.ok());
    util::Status st = enforce_inclusion(cs, "por", tree, path, *r, *l);
    run.ok = st.ok();
    if (!st.ok()) run.failure = st.to_string();
    run.satisfied = cs.is_satisfied();
    if (cs.which_is_unsatisfied()) run.failure = *cs.which_is_unsatisfied();
    run.constraints = cs.num_constraints();
    run.aux = cs.num_aux() - 2;
    run.inputs = cs.num_inputs();
    run.inputs_values = cs.input_assignment();
    return run;
}

TEST(Por, Sha256BinaryTreeFromTreeD) {
    util::TestRng rng(11);
    const size_t leaves = 16;
    std::vector<uint8_t> data;
    for (size_t i = 0; i < leaves; ++i) {
        Node n = fr_to_node(Fr::random(rng));
        data.insert(data.end(), n.begin(), n.end());
    }
    auto tree = TreeD::build(data);
    ASSERT_TRUE(tree.ok());
    const PorTree shape{TreeHasher::kSha256, 2, 0, 0};
    for (uint64_t leaf : {uint64_t{0}, uint64_t{5}, uint64_t{15}}) {
        auto siblings = tree->path(leaf);
        ASSERT_TRUE(siblings.ok());
        AuthPath path;
        for (size_t h = 0; h < siblings->size(); ++h) {
            path.base.push_back(PathLevel{{node_to_fr((*siblings)[h])}, (leaf >> h) & 1});
        }
        const Fr leaf_value = node_to_fr(tree->node(0, leaf));
        const Fr root = node_to_fr(tree->root());
        PorRun good = run_por(shape, path, leaf_value, root);
        ASSERT_TRUE(good.ok) << good.failure;
        EXPECT_TRUE(good.satisfied) << good.failure;
        // 4 levels · 45,382 + packing + root equality (spec §2.6).
        EXPECT_EQ(good.constraints, 4u * 45382 + 2);
        // Per level 1 bit + 1 sibling + 2 picks + 2·255 bits + 44,820 SHA-256 + 1 packed.
        EXPECT_EQ(good.aux, 4u * (1 + 1 + 2 + 510 + 44820 + 1));
        ASSERT_EQ(good.inputs, 2u);
        EXPECT_EQ(good.inputs_values[1], Fr::from_u64(leaf));

        PorRun bad_root = run_por(shape, path, leaf_value, root + Fr::one());
        EXPECT_FALSE(bad_root.satisfied);
        EXPECT_EQ(bad_root.failure, "por/enforce root is correct");

        AuthPath tampered = path;
        tampered.base[2].siblings[0] = *tampered.base[2].siblings[0] + Fr::one();
        PorRun bad_sibling = run_por(shape, tampered, leaf_value, root);
        EXPECT_FALSE(bad_sibling.satisfied);
        EXPECT_EQ(bad_sibling.failure, "por/enforce root is correct");

        AuthPath wrong_index = path;
        wrong_index.base[0].index = 1 - *path.base[0].index;
        PorRun bad_index = run_por(shape, wrong_index, leaf_value, root);
        EXPECT_FALSE(bad_index.satisfied);
    }
}

// A compound Poseidon tree (base arity b, optional sub/top) over `leaves`, with its paths.
struct RefTree {
    PorTree shape;
    std::vector<std::vector<std::vector<Fr>>> base_levels;  // per base tree
    std::vector<Fr> sub_nodes;                              // sub roots (or empty)
    Fr root;

    AuthPath path(uint64_t index) const {
        AuthPath p;
        const uint64_t per_base = base_levels[0][0].size();
        const uint64_t tree = index / per_base;
        uint64_t i = index % per_base;
        const auto& levels = base_levels[tree];
        for (size_t h = 0; h + 1 < levels.size(); ++h) {
            PathLevel level;
            const uint64_t group = i / shape.base * shape.base;
            for (uint64_t j = 0; j < shape.base; ++j) {
                if (group + j != i) level.siblings.push_back(levels[h][group + j]);
            }
            level.index = i % shape.base;
            p.base.push_back(level);
            i /= shape.base;
        }
        auto one_level = [](const std::vector<Fr>& nodes, uint64_t at, uint64_t arity) {
            PathLevel level;
            const uint64_t group = at / arity * arity;
            for (uint64_t j = 0; j < arity; ++j) {
                if (group + j != at) level.siblings.push_back(nodes[group + j]);
            }
            level.index = at % arity;
            return level;
        };
        if (shape.sub != 0) {
            std::vector<Fr> roots;
            for (const auto& t : base_levels) roots.push_back(t.back()[0]);
            p.sub.push_back(one_level(roots, tree, shape.sub));
        }
        if (shape.top != 0) p.top.push_back(one_level(sub_nodes, tree / shape.sub, shape.top));
        return p;
    }
};

RefTree build_ref(const PorTree& shape, const std::vector<Fr>& leaves) {
    RefTree t;
    t.shape = shape;
    const uint64_t trees = (shape.sub ? shape.sub : 1) * (shape.top ? shape.top : 1);
    const uint64_t per = leaves.size() / trees;
    std::vector<Fr> roots;
    for (uint64_t k = 0; k < trees; ++k) {
        auto levels = poseidon::merkle_tree_levels(
            std::span<const Fr>(leaves).subspan(k * per, per), shape.base);
        EXPECT_TRUE(levels.ok());
        t.base_levels.push_back(*levels);
        roots.push_back(levels->back()[0]);
    }
    auto group_hash = [](const std::vector<Fr>& in, uint64_t arity) {
        std::vector<Fr> out;
        for (size_t i = 0; i < in.size(); i += arity) {
            out.push_back(*poseidon::hash(std::span<const Fr>(in).subspan(i, arity)));
        }
        return out;
    };
    if (shape.sub == 0) {
        t.root = roots[0];
    } else {
        t.sub_nodes = group_hash(roots, shape.sub);
        t.root = shape.top == 0 ? t.sub_nodes[0] : group_hash(t.sub_nodes, shape.top)[0];
    }
    return t;
}

struct PoseidonCase {
    PorTree shape;
    uint64_t leaves;
    size_t constraints;  // expected, from the per-level costs
    size_t aux;
};

TEST(Por, PoseidonTreesSatisfiedAndCosted) {
    // Level costs (spec §2.6): oct 530 constraints / 537 aux; binary 314 / 315; quad
    // 2 bits + 8 picks + 377 = 387 / 2 + 3 + 8 + 377 = 390. +2 constraints per path.
    const PoseidonCase cases[] = {
        {{TreeHasher::kPoseidon, 8, 0, 0}, 64, 2 * 530 + 2, 2 * 537},
        {{TreeHasher::kPoseidon, 2, 0, 0}, 8, 3 * 314 + 2, 3 * 315},
        {{TreeHasher::kPoseidon, 4, 0, 0}, 16, 2 * 387 + 2, 2 * 390},
        {{TreeHasher::kPoseidon, 8, 8, 0}, 512, 3 * 530 + 2, 3 * 537},
        {{TreeHasher::kPoseidon, 8, 4, 0}, 32, 530 + 387 + 2, 537 + 390},
        {{TreeHasher::kPoseidon, 8, 4, 2}, 64, 530 + 387 + 314 + 2, 537 + 390 + 315},
        {{TreeHasher::kPoseidon, 8, 8, 2}, 1024, 3 * 530 + 314 + 2, 3 * 537 + 315},
    };
    util::TestRng rng(12);
    for (const PoseidonCase& c : cases) {
        std::vector<Fr> leaves;
        for (uint64_t i = 0; i < c.leaves; ++i) leaves.push_back(Fr::random(rng));
        RefTree ref = build_ref(c.shape, leaves);
        for (uint64_t index : {uint64_t{0}, c.leaves / 3, c.leaves - 1}) {
            SCOPED_TRACE(testing::Message() << c.shape.base << "," << c.shape.sub << ","
                                            << c.shape.top << " leaf " << index);
            AuthPath path = ref.path(index);
            auto blank = blank_auth_path(c.shape, c.leaves);
            ASSERT_TRUE(blank.ok());
            EXPECT_EQ(blank->base.size(), path.base.size());
            PorRun good = run_por(c.shape, path, leaves[index], ref.root);
            ASSERT_TRUE(good.ok) << good.failure;
            EXPECT_TRUE(good.satisfied) << good.failure;
            EXPECT_EQ(good.constraints, c.constraints);
            EXPECT_EQ(good.aux, c.aux);
            ASSERT_EQ(good.inputs, 2u);
            EXPECT_EQ(good.inputs_values[1], Fr::from_u64(index));

            PorRun bad_leaf = run_por(c.shape, path, leaves[index] + Fr::one(), ref.root);
            EXPECT_FALSE(bad_leaf.satisfied);
            EXPECT_EQ(bad_leaf.failure, "por/enforce root is correct");
        }
    }
}

TEST(Por, BlankPathCountsMatchInCounter) {
    // 2 KiB: comm_d 6 binary SHA-256 levels; tree_c 2 oct levels.
    const PorTree d{TreeHasher::kSha256, 2, 0, 0};
    auto path = blank_auth_path(d, 64);
    ASSERT_TRUE(path.ok());
    r1cs::Counter cs;
    auto l = AllocatedNum::alloc(cs, "leaf", std::nullopt);
    auto r = AllocatedNum::alloc(cs, "root", std::nullopt);
    ASSERT_TRUE(l.ok() && r.ok());
    ASSERT_TRUE(enforce_inclusion(cs, "por", d, *path, *r, *l).ok());
    EXPECT_EQ(cs.num_constraints(), 6u * 45382 + 2);
    EXPECT_EQ(cs.num_inputs(), 2u);
}

TEST(Por, ShapeErrors) {
    EXPECT_FALSE(base_path_length({TreeHasher::kPoseidon, 8, 0, 0}, 63).ok());
    EXPECT_FALSE(base_path_length({TreeHasher::kPoseidon, 3, 0, 0}, 9).ok());
    EXPECT_FALSE(base_path_length({TreeHasher::kPoseidon, 8, 0, 2}, 64).ok());
    EXPECT_FALSE(base_path_length({TreeHasher::kSha256, 8, 0, 0}, 64).ok());
    auto n = base_path_length({TreeHasher::kPoseidon, 8, 8, 2}, uint64_t{1} << 31);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 9u);  // 64 GiB: 16 base trees of 2^27 leaves
    r1cs::TestConstraintSystem cs;
    auto l = AllocatedNum::alloc(cs, "leaf", Fr::one());
    ASSERT_TRUE(l.ok());
    AuthPath bad;
    bad.base.push_back(PathLevel{{Fr::one()}, 0});  // 1 sibling for an oct level
    EXPECT_FALSE(enforce_inclusion(cs, "por", {TreeHasher::kPoseidon, 8, 0, 0}, bad, *l, *l).ok());
    bad.base[0] = PathLevel{std::vector<std::optional<Fr>>(7, Fr::one()), 8};  // index ≥ arity
    EXPECT_FALSE(enforce_inclusion(cs, "por", {TreeHasher::kPoseidon, 8, 0, 0}, bad, *l, *l).ok());
}

}  // namespace
}  // namespace cuzk::porep
