#include "porep/tree_d.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "util/sha256.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

Node sha256_tree_node(const Node& left, const Node& right) {
    uint8_t msg[64];
    std::memcpy(msg, left.data(), 32);
    std::memcpy(msg + 32, right.data(), 32);
    Node out;
    util::sha256_64(msg, out.data());
    out[31] &= 0x3f;
    return out;
}

util::Result<TreeD> TreeD::build(std::span<const uint8_t> data) {
    if (data.size() % 32 != 0)
        return util::invalid_argument("tree_d: data is not whole 32-byte nodes");
    const uint64_t leaves = data.size() / 32;
    if (leaves == 0 || !std::has_single_bit(leaves)) {
        std::string msg = "tree_d: leaf count ";
        msg += std::to_string(leaves);
        msg += " is not a power of two";
        return util::invalid_argument(std::move(msg));
    }
    TreeD t;
    t.leaves_ = leaves;
    t.depth_ = static_cast<uint32_t>(std::countr_zero(leaves));
    t.levels_.resize(t.depth_ + 1);
    t.levels_[0].resize(leaves);
    std::memcpy(t.levels_[0].data(), data.data(), data.size());
    for (uint32_t level = 1; level <= t.depth_; ++level) {
        const std::vector<Node>& below = t.levels_[level - 1];
        std::vector<Node>& here = t.levels_[level];
        here.resize(below.size() / 2);
        auto hash_range = [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i)
                here[i] = sha256_tree_node(below[2 * i], below[2 * i + 1]);
        };
        if (here.size() >= 4096) {
            util::ThreadPool::global().parallel_ranges(here.size(), hash_range);
        } else {
            hash_range(0, here.size());
        }
    }
    return t;
}

util::Result<std::vector<Node>> TreeD::path(uint64_t leaf) const {
    if (leaf >= leaves_) return util::out_of_range("tree_d: leaf index out of range");
    std::vector<Node> siblings;
    siblings.reserve(depth_);
    uint64_t index = leaf;
    for (uint32_t level = 0; level < depth_; ++level) {
        siblings.push_back(levels_[level][index ^ 1]);
        index >>= 1;
    }
    return siblings;
}

bool TreeD::verify_path(const Node& leaf_value, uint64_t leaf, std::span<const Node> path,
                        const Node& root) {
    Node cur = leaf_value;
    uint64_t index = leaf;
    for (const Node& sibling : path) {
        cur = (index & 1) ? sha256_tree_node(sibling, cur) : sha256_tree_node(cur, sibling);
        index >>= 1;
    }
    return index == 0 && cur == root;
}

}  // namespace cuzk::porep
