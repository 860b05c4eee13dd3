#include "porep/sector_ids.hpp"

#include "util/sha256.hpp"

namespace cuzk::porep {

Node compute_replica_id(const Node& prover_id, uint64_t sector_id, const Node& ticket,
                        const Node& comm_d, const PoRepId& porep_id) {
    util::Sha256 h;
    h.update(prover_id);
    uint8_t sector_be[8];
    for (int i = 0; i < 8; ++i) sector_be[i] = static_cast<uint8_t>(sector_id >> (56 - 8 * i));
    h.update(sector_be, 8);
    h.update(ticket);
    h.update(comm_d);
    h.update(porep_id);
    Node id = h.final();
    id[31] &= 0x3f;
    return id;
}

uint64_t le_bytes_mod(const uint8_t bytes[32], uint64_t m) {
    uint64_t r = 0;
    for (int i = 31; i >= 0; --i) r = ((r << 8) | bytes[i]) % m;  // r < 2^32, no overflow
    return r;
}

util::Result<std::vector<uint64_t>> interactive_challenges(uint64_t nodes, const Node& replica_id,
                                                           const Node& seed, uint32_t partition,
                                                           uint32_t challenges_per_partition) {
    if (nodes <= 2 || nodes > (uint64_t{1} << 32)) {
        return util::out_of_range("challenge derivation needs 3..2^32 sector nodes");
    }
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (uint32_t i = 0; i < challenges_per_partition; ++i) {
        // rust-fil-proofs computes j in usize and casts to u32.
        const uint32_t j = static_cast<uint32_t>(uint64_t{challenges_per_partition} * partition + i);
        util::Sha256 h;
        h.update(replica_id);
        h.update(seed);
        const uint8_t j_le[4] = {static_cast<uint8_t>(j), static_cast<uint8_t>(j >> 8),
                                 static_cast<uint8_t>(j >> 16), static_cast<uint8_t>(j >> 24)};
        h.update(j_le, 4);
        const util::Sha256Digest d = h.final();
        out.push_back(le_bytes_mod(d.data(), nodes - 1) + 1);
    }
    return out;
}

}  // namespace cuzk::porep
