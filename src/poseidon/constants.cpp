#include "poseidon/constants.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "poseidon/grain.hpp"
#include "poseidon/preprocessing.hpp"

namespace cuzk::poseidon {

Fr merkle_tree_domain_tag(size_t arity) {
    return Fr::from_u64((uint64_t{1} << arity) - 1);
}

util::Result<PoseidonConstants> build_constants(size_t arity, Strength strength) {
    if (arity < kMinArity || arity > kMaxArity) {
        std::string msg = "poseidon: unsupported arity ";
        msg += std::to_string(arity);
        return util::invalid_argument(std::move(msg));
    }
    PoseidonConstants c;
    c.arity = arity;
    c.width = arity + 1;
    c.strength = strength;
    const RoundNumbers rn = round_numbers(arity, strength);
    c.full_rounds = rn.full_rounds;
    c.half_full_rounds = rn.full_rounds / 2;
    c.partial_rounds = rn.partial_rounds;
    c.domain_tag = merkle_tree_domain_tag(arity);

    // neptune `round_constants`: FIELD = 1 (GF(p)), SBOX = 1 (x^5), n = Fr::NUM_BITS.
    c.round_constants = grain_round_constants(1, 1, static_cast<unsigned>(Fr::bits()),
                                              static_cast<unsigned>(c.width),
                                              static_cast<unsigned>(c.full_rounds),
                                              static_cast<unsigned>(c.partial_rounds));
    CUZK_ASSIGN_OR_RETURN(c.mds, derive_mds_matrices(generate_mds(c.width)));
    c.compressed_round_constants = compress_round_constants(
        c.width, c.full_rounds, c.partial_rounds, c.round_constants, c.mds.m_inv);
    CUZK_ASSIGN_OR_RETURN(auto factored, factor_to_sparse_matrixes(c.mds.m, c.partial_rounds));
    c.pre_sparse_matrix = std::move(factored.first);
    c.sparse_matrixes = std::move(factored.second);
    if (c.compressed_round_constants.size() != c.full_rounds * c.width + c.partial_rounds)
        return util::internal_error("poseidon: compressed round constants have the wrong length");
    return c;
}

util::Result<const PoseidonConstants*> constants(size_t arity, Strength strength) {
    if (arity < kMinArity || arity > kMaxArity) {
        std::string msg = "poseidon: unsupported arity ";
        msg += std::to_string(arity);
        return util::invalid_argument(std::move(msg));
    }
    struct Slot {
        std::once_flag once;
        std::unique_ptr<PoseidonConstants> value;
        util::Status status;
    };
    static std::array<std::array<Slot, kMaxArity + 1>, 2> slots;
    Slot& slot = slots[strength == Strength::kStandard ? 0 : 1][arity];
    std::call_once(slot.once, [&] {
        auto built = build_constants(arity, strength);
        if (built.ok()) {
            slot.value = std::make_unique<PoseidonConstants>(std::move(built).value());
        } else {
            slot.status = built.status();
        }
    });
    if (!slot.value) return slot.status;
    return static_cast<const PoseidonConstants*>(slot.value.get());
}

}  // namespace cuzk::poseidon
