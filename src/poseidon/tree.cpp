#include "poseidon/tree.hpp"

#include <string>

#include "poseidon/constants.hpp"
#include "poseidon/hash.hpp"

namespace cuzk::poseidon {
namespace {

util::Result<const PoseidonConstants*> tree_constants(size_t arity) {
    if (arity != 2 && arity != 4 && arity != 8) {
        std::string msg = "poseidon tree: unsupported arity ";
        msg += std::to_string(arity);
        return util::invalid_argument(std::move(msg));
    }
    return constants(arity);
}

// Hashing a level in parallel pays off only when it is large (a hash is tens of µs).
constexpr size_t kParallelMinNodes = 64;

}  // namespace

util::Result<std::vector<std::vector<Fr>>> merkle_tree_levels(std::span<const Fr> leaves,
                                                              size_t arity,
                                                              util::ThreadPool* pool) {
    CUZK_ASSIGN_OR_RETURN(const PoseidonConstants* c, tree_constants(arity));
    size_t n = leaves.size();
    while (n > 1 && n % arity == 0) n /= arity;
    if (leaves.empty() || n != 1) {
        std::string msg = "poseidon tree: leaf count ";
        msg += std::to_string(leaves.size());
        msg += " is not a power of ";
        msg += std::to_string(arity);
        return util::invalid_argument(std::move(msg));
    }
    std::vector<std::vector<Fr>> levels;
    levels.emplace_back(leaves.begin(), leaves.end());
    while (levels.back().size() > 1) {
        const std::vector<Fr>& below = levels.back();
        std::vector<Fr> above(below.size() / arity);
        auto hash_range = [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i)
                above[i] = hash_unchecked(*c, below.data() + i * arity);
        };
        if (pool != nullptr && above.size() >= kParallelMinNodes) {
            pool->parallel_ranges(above.size(), hash_range);
        } else {
            hash_range(0, above.size());
        }
        levels.push_back(std::move(above));
    }
    return levels;
}

util::Result<Fr> merkle_root(std::span<const Fr> leaves, size_t arity, util::ThreadPool* pool) {
    CUZK_ASSIGN_OR_RETURN(auto levels, merkle_tree_levels(leaves, arity, pool));
    return levels.back()[0];
}

util::Result<std::vector<Fr>> zero_subtree_roots(size_t arity, size_t max_height) {
    CUZK_ASSIGN_OR_RETURN(const PoseidonConstants* c, tree_constants(arity));
    std::vector<Fr> roots(max_height + 1);
    roots[0] = Fr::zero();
    std::vector<Fr> children(arity);
    for (size_t h = 1; h <= max_height; ++h) {
        children.assign(arity, roots[h - 1]);
        roots[h] = hash_unchecked(*c, children.data());
    }
    return roots;
}

}  // namespace cuzk::poseidon
