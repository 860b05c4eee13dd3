#include "porep/circuit/public_inputs.hpp"

#include "porep/sector_ids.hpp"

namespace cuzk::porep {

using ff::Fr;

util::Result<Fr> domain_to_fr(const Domain& d, const char* what) {
    auto r = Fr::from_bytes_le(std::span<const uint8_t, 32>(d));
    if (!r.ok()) {
        std::string m = what;
        m += " is not a canonical field element";
        return util::invalid_argument(std::move(m));
    }
    return *r;
}

util::Result<std::vector<Fr>> stacked_public_inputs(const SdrGraph& graph, const Domain& replica_id,
                                                    const Domain& comm_d, const Domain& comm_r,
                                                    std::span<const uint64_t> challenges) {
    std::vector<Fr> inputs;
    inputs.reserve(3 + 18 * challenges.size());
    CUZK_ASSIGN_OR_RETURN(Fr id, domain_to_fr(replica_id, "replica_id"));
    CUZK_ASSIGN_OR_RETURN(Fr d, domain_to_fr(comm_d, "comm_d"));
    CUZK_ASSIGN_OR_RETURN(Fr r, domain_to_fr(comm_r, "comm_r"));
    inputs.push_back(id);
    inputs.push_back(d);
    inputs.push_back(r);
    for (uint64_t c : challenges) {
        if (c >= graph.nodes()) return util::invalid_argument("challenge out of range");
        const Fr cf = Fr::from_u64(c);
        inputs.push_back(cf);  // comm_d inclusion
        uint32_t drg[kDrgParents], exp[kExpParents];
        graph.drg_parents(static_cast<uint32_t>(c), drg);
        graph.exp_parents(static_cast<uint32_t>(c), exp);
        for (uint32_t p : drg) inputs.push_back(Fr::from_u64(p));
        for (uint32_t p : exp) inputs.push_back(Fr::from_u64(p));
        inputs.push_back(cf);  // UInt64 challenge
        inputs.push_back(cf);  // comm_r_last inclusion
        inputs.push_back(cf);  // c_x inclusion in comm_c
    }
    return inputs;
}

util::Result<std::vector<uint64_t>> partition_challenges(const SealProofInfo& info,
                                                         const Domain& replica_id,
                                                         const Domain& comm_r, const Domain& seed,
                                                         uint32_t partition) {
    switch (info.feature) {
        case ApiFeature::kSyntheticPoRep:
            return synthetic_challenges(info.nodes(), replica_id, comm_r, seed, partition,
                                        info.challenges_per_partition);
        case ApiFeature::kNonInteractivePoRep:
            return non_interactive_challenges(info.nodes(), replica_id, comm_r, partition,
                                              info.challenges_per_partition);
        case ApiFeature::kNone:
            break;
    }
    return interactive_challenges(info.nodes(), replica_id, seed, partition,
                                  info.challenges_per_partition);
}

}  // namespace cuzk::porep
