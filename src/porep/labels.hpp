// SDR labeling of all layers for sectors that fit in memory (rust-fil-proofs storage-proofs-porep
// stacked/vanilla/create_label/single.rs and graph.rs copy_parents_data{,_exp}).
//
// For layer ℓ = 1..L and node v in order, with buf = replica_id ‖ ℓ as u32 BE ‖ v as u64 BE ‖
// 20 zero bytes (64 bytes):
//   v = 0:          label = SHA-256(buf)
//   v ≥ 1, ℓ = 1:   SHA-256(buf ‖ (d0..d5) ×6 ‖ d0)            d = DRG parents' labels, layer ℓ
//   v ≥ 1, ℓ > 1:   SHA-256(buf ‖ (p0..p13) ×2 ‖ p0..p8)       p0..p5 DRG (layer ℓ),
//                                                               p6..p13 expander (layer ℓ − 1)
// (both parent messages are 1248 bytes: 37 parent labels), then label[31] &= 0x3f.
// Labels are stored layer-major: data[((ℓ − 1)·nodes + v)·32 ..+32].
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "porep/graph.hpp"
#include "porep/sector_ids.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

struct SdrLabels {
    uint64_t nodes = 0;
    uint32_t layers = 0;
    std::vector<uint8_t> data;

    // layer in 1..layers, node < nodes.
    const uint8_t* label(uint32_t layer, uint64_t node) const {
        return data.data() + ((uint64_t{layer} - 1) * nodes + node) * 32;
    }
    Node label_node(uint32_t layer, uint64_t node) const;
    // The last layer's labels (the encoding key), nodes·32 bytes.
    std::span<const uint8_t> last_layer() const {
        return {label(layers, 0), static_cast<size_t>(nodes * 32)};
    }
};

// The labeling message of node v ≥ 1 in layer ℓ (1248 bytes) or of node 0 (64 bytes), from the
// labels already computed; exposed so that proofs can recompute a single label.
void label_message(const ParentCache& cache, const SdrLabels& labels, const Node& replica_id,
                   uint32_t layer, uint64_t node, std::vector<uint8_t>& message);

// Labels of all layers; cache.nodes() must equal the graph's node count. Memory: layers·nodes·32
// bytes (small sectors only).
util::Result<SdrLabels> generate_labels(const ParentCache& cache, const Node& replica_id,
                                        uint32_t layers);

}  // namespace cuzk::porep
