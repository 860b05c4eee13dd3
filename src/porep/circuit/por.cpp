#include "porep/circuit/por.hpp"

#include <bit>

#include "gadgets/boolean.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "poseidon/circuit.hpp"

namespace cuzk::porep {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

namespace {

bool valid_arity(uint32_t a, bool may_be_zero) {
    if (a == 0) return may_be_zero;
    return a == 2 || a == 4 || a == 8;
}

util::Status check_tree(const PorTree& tree) {
    if (!valid_arity(tree.base, false) || !valid_arity(tree.sub, true) ||
        !valid_arity(tree.top, true) || (tree.top != 0 && tree.sub == 0)) {
        return util::invalid_argument(
            "por: tree arities must be base 2/4/8, sub/top 0/2/4/8, "
            "top only with sub");
    }
    if (tree.hasher == TreeHasher::kSha256 && (tree.base != 2 || tree.sub != 0 || tree.top != 0)) {
        return util::invalid_argument("por: SHA-256 trees are binary without sub/top trees");
    }
    return util::Status();
}

util::Status check_levels(const char* part, const std::vector<PathLevel>& levels, uint32_t arity) {
    for (size_t i = 0; i < levels.size(); ++i) {
        if (levels[i].siblings.size() + 1 != arity) {
            std::string m = "por: ";
            m += part;
            m += " level ";
            m += std::to_string(i);
            m += " has ";
            m += std::to_string(levels[i].siblings.size());
            m += " siblings, arity ";
            m += std::to_string(arity);
            m += " needs ";
            m += std::to_string(arity - 1);
            return util::invalid_argument(std::move(m));
        }
        if (levels[i].index && *levels[i].index >= arity) {
            std::string m = "por: ";
            m += part;
            m += " level ";
            m += std::to_string(i);
            m += " index out of range";
            return util::invalid_argument(std::move(m));
        }
    }
    return util::Status();
}

// por.rs SubPath::synthesize: ascends `levels` of one arity from `cur`, appending the index
// bits to `bits`.
util::Result<AllocatedNum> sub_path(ConstraintSystem& cs, const Name& name, const PorTree& tree,
                                    uint32_t arity, const std::vector<PathLevel>& levels,
                                    AllocatedNum cur, std::vector<Boolean>& bits) {
    r1cs::Namespace ns(cs, name);
    if (arity == 0) return cur;
    const int index_bits = std::countr_zero(arity);
    for (size_t i = 0; i < levels.size(); ++i) {
        const PathLevel& level = levels[i];
        r1cs::Namespace level_ns(cs, Name("merkle tree hash ", i));
        std::vector<Boolean> index;
        index.reserve(index_bits);
        for (int j = 0; j < index_bits; ++j) {
            std::optional<bool> v;
            if (level.index) v = ((*level.index >> j) & 1) != 0;
            CUZK_ASSIGN_OR_RETURN(AllocatedBit bit,
                                  AllocatedBit::alloc(cs, Name("index bit ", j), v));
            index.emplace_back(bit);
        }
        bits.insert(bits.end(), index.begin(), index.end());
        std::vector<AllocatedNum> siblings;
        siblings.reserve(level.siblings.size());
        for (size_t j = 0; j < level.siblings.size(); ++j) {
            CUZK_ASSIGN_OR_RETURN(AllocatedNum s, AllocatedNum::alloc(cs, Name("path element ", j),
                                                                      level.siblings[j]));
            siblings.push_back(s);
        }
        CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedNum> inserted,
                              gadgets::insert(cs, cur, index, siblings));
        if (tree.hasher == TreeHasher::kSha256) {
            CUZK_ASSIGN_OR_RETURN(
                cur, sha256_node_circuit(cs, "computation of commitment hash", inserted));
        } else {
            CUZK_ASSIGN_OR_RETURN(cur, poseidon::poseidon_hash_circuit(
                                           cs, "computation of commitment hash", inserted));
        }
    }
    return cur;
}

}  // namespace

util::Result<uint32_t> base_path_length(const PorTree& tree, uint64_t leaves) {
    CUZK_RETURN_IF_ERROR(check_tree(tree));
    uint64_t n = leaves;
    for (uint32_t a : {tree.top, tree.sub}) {
        if (a == 0) continue;
        if (n % a != 0) return util::invalid_argument("por: leaves not divisible by sub/top arity");
        n /= a;
    }
    uint32_t levels = 0;
    while (n > 1) {
        if (n % tree.base != 0) {
            return util::invalid_argument("por: base tree leaves not a power of the base arity");
        }
        n /= tree.base;
        ++levels;
    }
    if (n != 1) return util::invalid_argument("por: tree has no leaves");
    return levels;
}

util::Result<AuthPath> blank_auth_path(const PorTree& tree, uint64_t leaves) {
    CUZK_ASSIGN_OR_RETURN(uint32_t n, base_path_length(tree, leaves));
    AuthPath path;
    path.base.assign(n, PathLevel{std::vector<std::optional<Fr>>(tree.base - 1), std::nullopt});
    if (tree.sub != 0) {
        path.sub.assign(1, PathLevel{std::vector<std::optional<Fr>>(tree.sub - 1), std::nullopt});
    }
    if (tree.top != 0) {
        path.top.assign(1, PathLevel{std::vector<std::optional<Fr>>(tree.top - 1), std::nullopt});
    }
    return path;
}

util::Status check_auth_path(const PorTree& tree, const AuthPath& path) {
    CUZK_RETURN_IF_ERROR(check_tree(tree));
    if (path.sub.size() != (tree.sub != 0 ? 1u : 0u) ||
        path.top.size() != (tree.top != 0 ? 1u : 0u)) {
        return util::invalid_argument("por: sub/top levels do not match the tree shape");
    }
    CUZK_RETURN_IF_ERROR(check_levels("base", path.base, tree.base));
    CUZK_RETURN_IF_ERROR(check_levels("sub", path.sub, tree.sub));
    return check_levels("top", path.top, tree.top);
}

void enforce_equal(ConstraintSystem& cs, const Name& name, const AllocatedNum& a,
                   const AllocatedNum& b) {
    cs.enforce_lazy(name, [&] { return r1cs::LcRow{LC(a.var), LC(Variable::one()), LC(b.var)}; });
}

util::Result<AllocatedNum> sha256_node_circuit(ConstraintSystem& cs, const Name& name,
                                               std::span<const AllocatedNum> leaves) {
    r1cs::Namespace ns(cs, name);
    std::vector<Boolean> bits;
    bits.reserve(leaves.size() * 256);
    for (size_t i = 0; i < leaves.size(); ++i) {
        std::string label = std::to_string(i);
        label += "_num_into_bits";
        CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> le, gadgets::to_bits_le(cs, label, leaves[i]));
        // Pad to whole bytes, then most significant bit first within each byte.
        std::vector<Boolean> be = gadgets::reverse_bit_numbering(std::move(le));
        bits.insert(bits.end(), be.begin(), be.end());
    }
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> digest, gadgets::sha256(cs, "hash", bits));
    // Digest bits back to little-endian within each byte; the first 254 are packed.
    std::vector<Boolean> le = gadgets::reverse_bit_numbering(std::move(digest));
    le.resize(gadgets::kFrCapacity);
    return gadgets::pack_bits(cs, "pack_le", le);
}

util::Status enforce_inclusion(ConstraintSystem& cs, const Name& name, const PorTree& tree,
                               const AuthPath& path, const AllocatedNum& root,
                               const AllocatedNum& leaf) {
    CUZK_RETURN_IF_ERROR(check_auth_path(tree, path));
    r1cs::Namespace ns(cs, name);
    std::vector<Boolean> bits;
    CUZK_ASSIGN_OR_RETURN(AllocatedNum cur,
                          sub_path(cs, "base", tree, tree.base, path.base, leaf, bits));
    CUZK_ASSIGN_OR_RETURN(cur, sub_path(cs, "sub", tree, tree.sub, path.sub, cur, bits));
    CUZK_ASSIGN_OR_RETURN(cur, sub_path(cs, "top", tree, tree.top, path.top, cur, bits));
    CUZK_RETURN_IF_ERROR(gadgets::pack_into_inputs(cs, "path", bits));
    enforce_equal(cs, "enforce root is correct", cur, root);
    return util::Status();
}

}  // namespace cuzk::porep
