#include "porep/vanilla_proof.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "porep/tree_poseidon.hpp"
#include "poseidon/hash.hpp"
#include "util/hex.hpp"
#include "util/sha256.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

namespace {

// Parent labels of `challenge` in `layer` repeated to 37 slots (proof.rs
// "repeat parents").
std::vector<Domain> labeling_parents(const std::vector<Domain>& distinct) {
    std::vector<Domain> full(kLabelParentHashes);
    for (size_t i = 0; i < full.size(); ++i) full[i] = distinct[i % distinct.size()];
    return full;
}

util::Result<ColumnProof> column_proof(const SectorOpenings& sector, uint64_t node) {
    ColumnProof cp;
    cp.column.index = static_cast<uint32_t>(node);
    cp.column.rows.reserve(sector.layers());
    for (uint32_t layer = 1; layer <= sector.layers(); ++layer) {
        cp.column.rows.push_back(sector.label(layer, node));
    }
    CUZK_ASSIGN_OR_RETURN(cp.inclusion_proof, sector.tree_c_proof(node));
    return cp;
}

util::Status fail(const std::string& where, const std::string& what) {
    std::string msg = where;
    msg += what;
    return util::invalid_argument(std::move(msg));
}

// Checks one column proof: index, column hash = inclusion leaf, path, proven
// index, root.
util::Status check_column(const ColumnProof& cp, uint64_t expected_node, const Domain& comm_c,
                          const PoseidonTreeLayout& layout, const std::string& where) {
    if (cp.column.index != expected_node) {
        std::string what = "column index ";
        what += std::to_string(cp.column.index);
        what += ", expected node ";
        what += std::to_string(expected_node);
        return fail(where, what);
    }
    auto h = column_hash(cp.column.rows);
    if (!h.ok()) return fail(where, h.status().message());
    if (fr_to_domain(*h) != cp.inclusion_proof.leaf) {
        return fail(where, "column hash does not match the inclusion proof leaf");
    }
    auto idx = verify_poseidon_proof(cp.inclusion_proof, layout);
    if (!idx.ok()) return fail(where, idx.status().message());
    if (*idx != expected_node) {
        std::string what = "inclusion proof is for node ";
        what += std::to_string(*idx);
        what += ", expected ";
        what += std::to_string(expected_node);
        return fail(where, what);
    }
    if (cp.inclusion_proof.root != comm_c) return fail(where, "root is not comm_c");
    return {};
}

}  // namespace

util::Result<ff::Fr> column_hash(const std::vector<Domain>& rows) {
    std::vector<ff::Fr> pre;
    pre.reserve(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        auto v = domain_to_fr(rows[i]);
        if (!v.ok()) {
            std::string msg = "column row ";
            msg += std::to_string(i);
            msg += " is not a canonical field element";
            return util::invalid_argument(std::move(msg));
        }
        pre.push_back(*v);
    }
    return poseidon::hash(pre);
}

Node label_from_parents(const Node& replica_id, uint32_t layer, uint64_t node,
                        const std::vector<Domain>& parents) {
    util::Sha256 h;
    uint8_t prefix[64] = {};
    std::memcpy(prefix, replica_id.data(), 32);
    for (int i = 0; i < 4; ++i) prefix[32 + i] = static_cast<uint8_t>(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) prefix[36 + i] = static_cast<uint8_t>(node >> (56 - 8 * i));
    h.update(std::span<const uint8_t>(prefix, 64));
    for (const Domain& p : parents) h.update(std::span<const uint8_t>(p.data(), 32));
    Node out = h.final();
    out[31] &= 0x3f;
    return out;
}

util::Result<VanillaProof> make_vanilla_proof(const SdrGraph& graph, const SectorOpenings& sector,
                                              uint64_t challenge) {
    if (challenge >= graph.nodes()) return util::out_of_range("challenge beyond the sector");
    const uint32_t layers = sector.layers();
    uint32_t parents[kTotalParents];
    graph.parents(static_cast<uint32_t>(challenge), parents);

    VanillaProof p;
    CUZK_ASSIGN_OR_RETURN(p.comm_d_proofs, sector.tree_d_proof(challenge));
    CUZK_ASSIGN_OR_RETURN(p.replica_column_proofs.c_x, column_proof(sector, challenge));
    for (int i = 0; i < kTotalParents; ++i) {
        CUZK_ASSIGN_OR_RETURN(ColumnProof cp, column_proof(sector, parents[i]));
        (i < kDrgParents ? p.replica_column_proofs.drg_parents
                         : p.replica_column_proofs.exp_parents)
            .push_back(std::move(cp));
    }
    CUZK_ASSIGN_OR_RETURN(p.comm_r_last_proof, sector.tree_r_last_proof(challenge));
    for (uint32_t layer = 1; layer <= layers; ++layer) {
        std::vector<Domain> distinct;
        const int used = layer == 1 ? kDrgParents : kTotalParents;
        for (int i = 0; i < used; ++i) {
            distinct.push_back(sector.label(i < kDrgParents ? layer : layer - 1, parents[i]));
        }
        LabelingProof lp;
        lp.parents = labeling_parents(distinct);
        lp.layer_index = layer;
        lp.node = challenge;
        if (layer == layers) {
            p.encoding_proof.parents = lp.parents;
            p.encoding_proof.layer_index = layer;
            p.encoding_proof.node = challenge;
        }
        p.labeling_proofs.push_back(std::move(lp));
    }
    return p;
}

util::Result<std::vector<uint64_t>> porep_challenges(RegisteredSealProof proof,
                                                     const Node& replica_id, const Node& comm_r,
                                                     const Node& seed, uint32_t partition,
                                                     uint32_t challenges_per_partition) {
    const SealProofInfo& info = seal_proof_info(proof);
    switch (info.feature) {
        case ApiFeature::kSyntheticPoRep:
            return synthetic_challenges(info.nodes(), replica_id, comm_r, seed, partition,
                                        challenges_per_partition);
        case ApiFeature::kNonInteractivePoRep:
            return non_interactive_challenges(info.nodes(), replica_id, comm_r, partition,
                                              challenges_per_partition);
        case ApiFeature::kNone:
            break;
    }
    return interactive_challenges(info.nodes(), replica_id, seed, partition,
                                  challenges_per_partition);
}

util::Status verify_c1(const SealCommitPhase1Output& c1, const C1VerifyOptions& options) {
    CUZK_RETURN_IF_ERROR(validate_c1(c1, options.validate));
    const SealProofInfo& info = seal_proof_info(c1.registered_proof);
    const uint32_t layers = info.layers;
    CUZK_ASSIGN_OR_RETURN(SdrGraph graph, SdrGraph::for_proof(c1.registered_proof));
    CUZK_ASSIGN_OR_RETURN(PoseidonTreeLayout layout, PoseidonTreeLayout::for_proof(info.proof));
    const uint32_t depth_d = static_cast<uint32_t>(std::countr_zero(info.nodes()));

    if (options.prover_id.has_value() || options.sector_id.has_value()) {
        if (!options.prover_id.has_value() || !options.sector_id.has_value()) {
            return util::invalid_argument("verify_c1: prover_id and sector_id go together");
        }
        const Node want = compute_replica_id(*options.prover_id, *options.sector_id, c1.ticket,
                                             c1.comm_d, info.porep_id());
        if (want != c1.replica_id) {
            return util::invalid_argument(
                "replica_id does not match prover_id, sector_id, ticket, comm_d and porep_id");
        }
    }
    if (c1.vanilla_proofs.empty() || c1.vanilla_proofs[0].empty()) {
        return util::invalid_argument("C1 holds no vanilla proofs");
    }
    // comm_r = Poseidon2(comm_c, comm_r_last) (verify_all_partitions).
    const Domain comm_c = c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root;
    const Domain comm_r_last = c1.vanilla_proofs[0][0].comm_r_last_proof.root;
    {
        auto c = domain_to_fr(comm_c);
        auto r = domain_to_fr(comm_r_last);
        if (!c.ok() || !r.ok()) {
            return util::invalid_argument("comm_c or comm_r_last is not a canonical field element");
        }
        if (fr_to_domain(poseidon::hash2(*c, *r)) != c1.comm_r) {
            return util::invalid_argument("comm_r != Poseidon(comm_c, comm_r_last)");
        }
    }

    // Challenges of every partition, then the per-challenge checks in parallel; the error
    // reported is the one of the first failing challenge in order.
    struct Item {
        uint32_t partition, index;
        uint64_t challenge;
    };
    std::vector<Item> items;
    const uint32_t per_partition = static_cast<uint32_t>(c1.vanilla_proofs[0].size());
    for (uint32_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
        CUZK_ASSIGN_OR_RETURN(std::vector<uint64_t> challenges,
                              porep_challenges(c1.registered_proof, c1.replica_id, c1.comm_r,
                                               c1.seed, k, per_partition));
        for (uint32_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
            items.push_back(Item{k, i, challenges[i]});
        }
    }
    auto check_one = [&](uint32_t k, uint32_t i, uint64_t challenge) -> util::Status {
        const VanillaProof& p = c1.vanilla_proofs[k][i];
        std::string where = "partition ";
        where += std::to_string(k);
        where += " challenge ";
        where += std::to_string(i);
        where += ": ";
        const uint64_t claimed = p.labeling_proofs.empty() ? 0 : p.labeling_proofs[0].node;
        if (claimed != challenge) {
            std::string what = "challenge is node ";
            what += std::to_string(claimed);
            what += ", expected node ";
            what += std::to_string(challenge);
            what += " (derived from replica_id and seed)";
            return fail(where, what);
        }

        // Data layer (comm_d).
        {
            auto idx = verify_sha256_proof(p.comm_d_proofs, depth_d);
            if (!idx.ok()) return fail(where + "comm_d_proofs: ", idx.status().message());
            if (*idx != challenge) return fail(where, "comm_d_proofs: proves another node");
            if (p.comm_d_proofs.root != c1.comm_d) {
                return fail(where, "comm_d_proofs: root is not comm_d");
            }
        }
        // Replica columns.
        uint32_t parents[kTotalParents];
        graph.parents(static_cast<uint32_t>(challenge), parents);
        const ReplicaColumnProof& rcp = p.replica_column_proofs;
        CUZK_RETURN_IF_ERROR(check_column(rcp.c_x, challenge, comm_c, layout, where + "c_x: "));
        for (int j = 0; j < kTotalParents; ++j) {
            const bool drg = j < kDrgParents;
            std::string w = where;
            w += drg ? "drg_parents[" : "exp_parents[";
            w += std::to_string(drg ? j : j - kDrgParents);
            w += "]: ";
            const ColumnProof& cp = drg ? rcp.drg_parents[j] : rcp.exp_parents[j - kDrgParents];
            CUZK_RETURN_IF_ERROR(check_column(cp, parents[j], comm_c, layout, w));
        }
        // Final replica layer.
        {
            auto idx = verify_poseidon_proof(p.comm_r_last_proof, layout);
            if (!idx.ok()) return fail(where + "comm_r_last_proof: ", idx.status().message());
            if (*idx != challenge) return fail(where, "comm_r_last_proof: proves another node");
            if (p.comm_r_last_proof.root != comm_r_last) {
                return fail(where, "comm_r_last_proof: root differs from the first proof's");
            }
        }
        // Labels.
        for (uint32_t layer = 1; layer <= layers; ++layer) {
            const LabelingProof& lp = p.labeling_proofs[layer - 1];
            std::string w = where;
            w += "labeling proof layer ";
            w += std::to_string(layer);
            w += ": ";
            if (lp.layer_index != layer || lp.node != challenge) {
                return fail(w, "wrong layer_index or node");
            }
            if (label_from_parents(c1.replica_id, layer, challenge, lp.parents) !=
                rcp.c_x.column.rows[layer - 1]) {
                return fail(w, "label does not match its parents");
            }
            std::vector<Domain> distinct;
            const int used = layer == 1 ? kDrgParents : kTotalParents;
            for (int j = 0; j < used; ++j) {
                distinct.push_back(j < kDrgParents
                                       ? rcp.drg_parents[j].column.rows[layer - 1]
                                       : rcp.exp_parents[j - kDrgParents].column.rows[layer - 2]);
            }
            if (labeling_parents(distinct) != lp.parents) {
                return fail(w, "parents do not match the parents' columns");
            }
        }
        // Encoding: label_L(challenge) + data = replica leaf.
        {
            const EncodingProof& ep = p.encoding_proof;
            if (ep.layer_index != layers || ep.node != challenge) {
                return fail(where, "encoding proof: wrong layer_index or node");
            }
            const Node key = label_from_parents(c1.replica_id, layers, challenge, ep.parents);
            auto key_fr = domain_to_fr(key);
            auto d = domain_to_fr(p.comm_d_proofs.leaf);
            auto r = domain_to_fr(p.comm_r_last_proof.leaf);
            if (!key_fr.ok() || !d.ok() || !r.ok()) {
                return fail(where, "encoding proof: a value is not a canonical field element");
            }
            if (*key_fr + *d != *r) {
                return fail(where, "encoding proof: key + data != replica leaf");
            }
        }
        return {};
    };
    std::vector<util::Status> results(items.size());
    util::ThreadPool::global().parallel_for(items.size(), [&](size_t j) {
        results[j] = check_one(items[j].partition, items[j].index, items[j].challenge);
    });
    for (util::Status& st : results) {
        if (!st.ok()) return st;
    }
    return {};
}

}  // namespace cuzk::porep
