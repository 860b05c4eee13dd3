#include "porep/labels.hpp"

#include <cstring>

#include "util/sha256.hpp"

namespace cuzk::porep {

namespace {

constexpr size_t kPrefixBytes = 64;
constexpr size_t kMessageBytes = kPrefixBytes + kLabelParentHashes * 32;  // 1248

void write_prefix(const Node& replica_id, uint32_t layer, uint64_t node, uint8_t* out) {
    std::memcpy(out, replica_id.data(), 32);
    for (int i = 0; i < 4; ++i) out[32 + i] = static_cast<uint8_t>(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) out[36 + i] = static_cast<uint8_t>(node >> (56 - 8 * i));
    std::memset(out + 44, 0, 20);
}

// Fills the 37 parent-label slots after the prefix.
void write_parents(const ParentCache& cache, const SdrLabels& labels, uint32_t layer, uint64_t node,
                   uint8_t* out) {
    const uint32_t* p = cache.parents(node);
    const uint8_t* parent_labels[kTotalParents];
    for (int i = 0; i < kDrgParents; ++i) parent_labels[i] = labels.label(layer, p[i]);
    const int used = layer == 1 ? kDrgParents : kTotalParents;
    for (int i = kDrgParents; i < used; ++i) parent_labels[i] = labels.label(layer - 1, p[i]);
    for (int slot = 0; slot < kLabelParentHashes; ++slot) {
        std::memcpy(out + 32 * slot, parent_labels[slot % used], 32);
    }
}

}  // namespace

Node SdrLabels::label_node(uint32_t layer, uint64_t node) const {
    Node n;
    std::memcpy(n.data(), label(layer, node), 32);
    return n;
}

void label_message(const ParentCache& cache, const SdrLabels& labels, const Node& replica_id,
                   uint32_t layer, uint64_t node, std::vector<uint8_t>& message) {
    message.resize(node == 0 ? kPrefixBytes : kMessageBytes);
    write_prefix(replica_id, layer, node, message.data());
    if (node != 0) write_parents(cache, labels, layer, node, message.data() + kPrefixBytes);
}

util::Result<SdrLabels> generate_labels(const ParentCache& cache, const Node& replica_id,
                                        uint32_t layers) {
    if (layers == 0) return util::invalid_argument("SDR labeling needs at least one layer");
    if (cache.nodes() < 2) return util::invalid_argument("SDR labeling needs a parent cache");
    SdrLabels labels;
    labels.nodes = cache.nodes();
    labels.layers = layers;
    labels.data.resize(uint64_t{layers} * cache.nodes() * 32);
    uint8_t message[kMessageBytes];
    for (uint32_t layer = 1; layer <= layers; ++layer) {
        for (uint64_t v = 0; v < cache.nodes(); ++v) {
            uint8_t* out = labels.data.data() + ((uint64_t{layer} - 1) * cache.nodes() + v) * 32;
            write_prefix(replica_id, layer, v, message);
            if (v == 0) {
                util::sha256_64(message, out);
            } else {
                write_parents(cache, labels, layer, v, message + kPrefixBytes);
                util::sha256_1248(message, out);
            }
            out[31] &= 0x3f;
        }
    }
    return labels;
}

}  // namespace cuzk::porep
