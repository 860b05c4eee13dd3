#include "porep/tree_poseidon.hpp"

#include <array>
#include <string>

#include "porep/tree_d.hpp"
#include "poseidon/constants.hpp"
#include "poseidon/hash.hpp"

namespace cuzk::porep {

namespace {

constexpr uint32_t kMaxArity = 8;

std::string level_name(const PoseidonTreeLayout& layout, uint32_t level) {
    std::string s;
    if (level < layout.base_levels || layout.kind() == MerkleProofKind::kSingle) {
        s += layout.kind() == MerkleProofKind::kSingle ? "path" : "base_proof";
        s += " level ";
        s += std::to_string(level);
    } else if (level == layout.base_levels) {
        s += "sub_proof";
    } else {
        s += "top_proof";
    }
    return s;
}

// Builds the MerkleProof of `leaf` from a node accessor node(level, index).
template <class NodeFn>
MerkleProof make_proof(const PoseidonTreeLayout& layout, uint64_t leaf, const Fr& root,
                       NodeFn&& node) {
    MerkleProof p;
    p.kind = layout.kind();
    p.root = fr_to_domain(root);
    p.leaf = fr_to_domain(node(0, leaf));
    uint64_t index = leaf;
    for (uint32_t t = 0; t < layout.levels(); ++t) {
        const uint32_t a = layout.arities[t];
        PathElement e;
        e.index = index % a;
        const uint64_t first = index - e.index;
        e.hashes.reserve(a - 1);
        for (uint32_t k = 0; k < a; ++k) {
            if (k != e.index) e.hashes.push_back(fr_to_domain(node(t, first + k)));
        }
        if (t < layout.base_levels) {
            p.base.push_back(std::move(e));
        } else if (t == layout.base_levels) {
            p.sub.push_back(std::move(e));
        } else {
            p.top.push_back(std::move(e));
        }
        index /= a;
    }
    return p;
}

}  // namespace

Domain fr_to_domain(const Fr& v) {
    Domain d;
    v.to_bytes_le(std::span<uint8_t, 32>(d.data(), 32));
    return d;
}

util::Result<Fr> domain_to_fr(const Domain& d) {
    return Fr::from_bytes_le(std::span<const uint8_t, 32>(d.data(), 32));
}

Fr poseidon_node(const Fr* children, uint32_t arity) {
    auto c = poseidon::constants(arity);
    return poseidon::hash_unchecked(**c, children);
}

util::Result<PoseidonTreeLayout> PoseidonTreeLayout::create(uint64_t leaves, TreeShape shape) {
    if (shape.base != 8 || (shape.sub != 0 && shape.sub != 8) ||
        (shape.top != 0 && shape.top != 2) || (shape.top != 0 && shape.sub == 0)) {
        return util::invalid_argument("Poseidon tree: unsupported shape");
    }
    PoseidonTreeLayout l;
    l.shape = shape;
    l.leaves = leaves;
    uint64_t base_trees = 1;
    if (shape.sub != 0) base_trees *= shape.sub;
    if (shape.top != 0) base_trees *= shape.top;
    if (leaves == 0 || leaves % base_trees != 0) {
        return util::invalid_argument("Poseidon tree: leaf count does not fit the shape");
    }
    uint64_t base_leaves = leaves / base_trees;
    while (base_leaves > 1) {
        if (base_leaves % shape.base != 0) {
            std::string msg = "Poseidon tree: base tree leaf count ";
            msg += std::to_string(leaves / base_trees);
            msg += " is not a power of 8";
            return util::invalid_argument(std::move(msg));
        }
        base_leaves /= shape.base;
        l.arities.push_back(shape.base);
    }
    l.base_levels = static_cast<uint32_t>(l.arities.size());
    if (shape.sub != 0) l.arities.push_back(shape.sub);
    if (shape.top != 0) l.arities.push_back(shape.top);
    if (l.arities.empty()) return util::invalid_argument("Poseidon tree: a single leaf");
    return l;
}

util::Result<PoseidonTreeLayout> PoseidonTreeLayout::for_proof(RegisteredSealProof proof) {
    const SealProofInfo& info = seal_proof_info(proof);
    return create(info.nodes(), info.shape);
}

MerkleProofKind PoseidonTreeLayout::kind() const {
    if (shape.top != 0) return MerkleProofKind::kTop;
    if (shape.sub != 0) return MerkleProofKind::kSub;
    return MerkleProofKind::kSingle;
}

util::Result<PoseidonTree> PoseidonTree::build(const PoseidonTreeLayout& layout,
                                               std::vector<Fr> leaves, util::ThreadPool* pool) {
    if (leaves.size() != layout.leaves) {
        return util::invalid_argument("Poseidon tree: leaf count differs from the layout");
    }
    for (uint32_t a : layout.arities) CUZK_RETURN_IF_ERROR(poseidon::constants(a).status());
    PoseidonTree t;
    t.layout_ = layout;
    t.levels_.reserve(layout.levels() + 1);
    t.levels_.push_back(std::move(leaves));
    for (uint32_t level = 0; level < layout.levels(); ++level) {
        const uint32_t a = layout.arities[level];
        const poseidon::PoseidonConstants& c = **poseidon::constants(a);
        const std::vector<Fr>& below = t.levels_[level];
        std::vector<Fr> here(below.size() / a);
        auto hash_range = [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
                here[i] = poseidon::hash_unchecked(c, below.data() + i * a);
            }
        };
        if (pool != nullptr && here.size() >= 1024) {
            pool->parallel_ranges(here.size(), hash_range);
        } else {
            hash_range(0, here.size());
        }
        t.levels_.push_back(std::move(here));
    }
    return t;
}

util::Result<MerkleProof> PoseidonTree::proof(uint64_t leaf) const {
    if (leaf >= layout_.leaves) return util::out_of_range("Poseidon tree: leaf index out of range");
    return make_proof(layout_, leaf, root(),
                      [&](uint32_t level, uint64_t i) -> const Fr& { return levels_[level][i]; });
}

util::Result<SparsePoseidonTree> SparsePoseidonTree::build(const PoseidonTreeLayout& layout,
                                                           const std::map<uint64_t, Fr>& leaves) {
    SparsePoseidonTree t;
    t.layout_ = layout;
    t.defaults_.resize(layout.levels() + 1);
    t.defaults_[0] = Fr::zero();
    for (uint32_t level = 0; level < layout.levels(); ++level) {
        const uint32_t a = layout.arities[level];
        CUZK_RETURN_IF_ERROR(poseidon::constants(a).status());
        std::array<Fr, kMaxArity> children;
        children.fill(t.defaults_[level]);
        t.defaults_[level + 1] = poseidon_node(children.data(), a);
    }
    t.levels_.resize(layout.levels() + 1);
    for (const auto& [index, value] : leaves) {
        if (index >= layout.leaves) {
            return util::out_of_range("sparse Poseidon tree: leaf index out of range");
        }
        t.levels_[0].emplace(index, value);
    }
    for (uint32_t level = 0; level < layout.levels(); ++level) {
        const uint32_t a = layout.arities[level];
        std::map<uint64_t, bool> parents;  // ordered, so the result does not depend on hashing
        for (const auto& entry : t.levels_[level]) parents.emplace(entry.first / a, true);
        for (const auto& entry : parents) {
            std::array<Fr, kMaxArity> children;
            for (uint32_t k = 0; k < a; ++k) children[k] = t.node(level, entry.first * a + k);
            t.levels_[level + 1].emplace(entry.first, poseidon_node(children.data(), a));
        }
    }
    t.root_ = t.node(layout.levels(), 0);
    return t;
}

Fr SparsePoseidonTree::node(uint32_t level, uint64_t index) const {
    const auto it = levels_[level].find(index);
    return it == levels_[level].end() ? defaults_[level] : it->second;
}

util::Result<MerkleProof> SparsePoseidonTree::proof(uint64_t leaf) const {
    if (leaf >= layout_.leaves) {
        return util::out_of_range("sparse Poseidon tree: leaf index out of range");
    }
    return make_proof(layout_, leaf, root_,
                      [&](uint32_t level, uint64_t i) { return node(level, i); });
}

util::Result<uint64_t> verify_poseidon_proof(const MerkleProof& proof,
                                             const PoseidonTreeLayout& layout) {
    if (proof.kind != layout.kind()) {
        std::string msg = "expected a ";
        msg += merkle_proof_kind_name(layout.kind());
        msg += " proof, found ";
        msg += merkle_proof_kind_name(proof.kind);
        return util::invalid_argument(std::move(msg));
    }
    const size_t want_sub = layout.shape.sub != 0 ? 1 : 0;
    const size_t want_top = layout.shape.top != 0 ? 1 : 0;
    if (proof.base.size() != layout.base_levels || proof.sub.size() != want_sub ||
        proof.top.size() != want_top) {
        return util::invalid_argument("path has the wrong number of levels for the tree shape");
    }
    auto cur_or = domain_to_fr(proof.leaf);
    if (!cur_or.ok()) return util::invalid_argument("leaf is not a canonical field element");
    Fr cur = *cur_or;
    uint64_t index = 0;
    uint64_t weight = 1;
    for (uint32_t t = 0; t < layout.levels(); ++t) {
        const PathElement& e = t < layout.base_levels    ? proof.base[t]
                               : t == layout.base_levels ? proof.sub[0]
                                                         : proof.top[0];
        const uint32_t a = layout.arities[t];
        if (e.hashes.size() != a - 1 || e.index >= a) {
            std::string msg = level_name(layout, t);
            if (e.index >= a) {
                msg += ": index ";
                msg += std::to_string(e.index);
                msg += " >= arity ";
                msg += std::to_string(a);
            } else {
                msg += ": wrong number of sibling hashes";
            }
            return util::invalid_argument(std::move(msg));
        }
        std::array<Fr, kMaxArity> children;
        size_t next = 0;
        for (uint32_t k = 0; k < a; ++k) {
            if (k == e.index) {
                children[k] = cur;
                continue;
            }
            auto h = domain_to_fr(e.hashes[next++]);
            if (!h.ok()) {
                std::string msg = level_name(layout, t);
                msg += ": sibling is not a canonical field element";
                return util::invalid_argument(std::move(msg));
            }
            children[k] = *h;
        }
        cur = poseidon_node(children.data(), a);
        index += e.index * weight;
        weight *= a;
    }
    if (fr_to_domain(cur) != proof.root) {
        return util::invalid_argument("path does not lead to its root");
    }
    return index;
}

util::Result<uint64_t> verify_sha256_proof(const MerkleProof& proof, uint32_t depth) {
    if (proof.kind != MerkleProofKind::kSingle || !proof.sub.empty() || !proof.top.empty()) {
        return util::invalid_argument("expected a Single proof");
    }
    if (proof.base.size() != depth) {
        return util::invalid_argument("path has the wrong number of levels for the tree depth");
    }
    Node cur = proof.leaf;
    uint64_t index = 0;
    for (uint32_t t = 0; t < depth; ++t) {
        const PathElement& e = proof.base[t];
        if (e.hashes.size() != 1 || e.index > 1) {
            std::string msg = "path level ";
            msg += std::to_string(t);
            msg += ": expected one sibling and an index < 2";
            return util::invalid_argument(std::move(msg));
        }
        cur =
            e.index == 0 ? sha256_tree_node(cur, e.hashes[0]) : sha256_tree_node(e.hashes[0], cur);
        index |= e.index << t;
    }
    if (cur != proof.root) return util::invalid_argument("path does not lead to its root");
    return index;
}

}  // namespace cuzk::porep
