#include "porep/sector_ids.hpp"

#include <algorithm>
#include <cstring>

#include "porep/chacha.hpp"
#include "util/blake2b.hpp"
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

namespace {

util::Status check_nodes(uint64_t nodes) {
    if (nodes <= 2 || nodes > (uint64_t{1} << 32)) {
        return util::out_of_range("challenge derivation needs 3..2^32 sector nodes");
    }
    return util::Status();
}

inline void le32(uint32_t v, uint8_t out[4]) {
    for (int b = 0; b < 4; ++b) out[b] = static_cast<uint8_t>(v >> (8 * b));
}

// BLAKE2b-256 keyed with `tag` over a ‖ b.
Node keyed_blake2b_256(const char* tag, const Node& a, const Node& b) {
    auto h = util::Blake2b::create(32, {reinterpret_cast<const uint8_t*>(tag), std::strlen(tag)});
    // The tags are constants of 41-42 bytes, always valid keys.
    h->update(a);
    h->update(b);
    Node out;
    h->final(out.data());
    return out;
}

constexpr uint8_t kSynthNonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr uint64_t kDefaultSynthChallenges = uint64_t{1} << 18;

}  // namespace

util::Result<std::vector<uint64_t>> non_interactive_challenges(uint64_t nodes,
                                                               const Node& replica_id,
                                                               const Node& comm_r,
                                                               uint32_t partition,
                                                               uint32_t challenges_per_partition) {
    CUZK_RETURN_IF_ERROR(check_nodes(nodes));
    static constexpr char kTag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    util::Sha256 prefix;
    prefix.update(kTag, sizeof(kTag) - 1);
    prefix.update(replica_id);
    prefix.update(comm_r);
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (uint32_t i = 0; i < challenges_per_partition; ++i) {
        const uint32_t j =
            static_cast<uint32_t>(uint64_t{challenges_per_partition} * partition + i);
        util::Sha256 h = prefix;
        uint8_t j_le[4];
        le32(j, j_le);
        h.update(j_le, 4);
        const util::Sha256Digest d = h.final();
        out.push_back(le_bytes_mod(d.data(), nodes - 1) + 1);
    }
    return out;
}

util::Result<std::vector<uint64_t>> synthetic_challenges(uint64_t nodes, const Node& replica_id,
                                                         const Node& comm_r, const Node& seed,
                                                         uint32_t partition,
                                                         uint32_t challenges_per_partition) {
    CUZK_RETURN_IF_ERROR(check_nodes(nodes));
    const uint64_t num_synth = std::min(nodes, kDefaultSynthChallenges);
    const Node key_gen =
        keyed_blake2b_256("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
    const Node key_sel =
        keyed_blake2b_256("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
    const uint64_t first = uint64_t{challenges_per_partition} * partition;
    std::vector<uint8_t> index_bytes(size_t{challenges_per_partition} * 4);
    chacha20_ietf_keystream(key_sel.data(), kSynthNonce, first * 4, index_bytes.data(),
                            index_bytes.size());
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (uint32_t i = 0; i < challenges_per_partition; ++i) {
        const uint8_t* p = index_bytes.data() + 4 * i;
        const uint32_t raw = uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) |
                             (uint32_t{p[3]} << 24);
        const uint64_t synth_index = raw % num_synth;
        uint8_t challenge_bytes[32];
        chacha20_ietf_keystream(key_gen.data(), kSynthNonce, synth_index * 32, challenge_bytes, 32);
        out.push_back(le_bytes_mod(challenge_bytes, nodes - 1) + 1);
    }
    return out;
}

util::Result<std::vector<uint64_t>> interactive_challenges(uint64_t nodes, const Node& replica_id,
                                                           const Node& seed, uint32_t partition,
                                                           uint32_t challenges_per_partition) {
    CUZK_RETURN_IF_ERROR(check_nodes(nodes));
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (uint32_t i = 0; i < challenges_per_partition; ++i) {
        // rust-fil-proofs computes j in usize and casts to u32.
        const uint32_t j =
            static_cast<uint32_t>(uint64_t{challenges_per_partition} * partition + i);
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
