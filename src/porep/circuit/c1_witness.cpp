#include "porep/circuit/c1_witness.hpp"

#include "porep/circuit/public_inputs.hpp"

namespace cuzk::porep {

namespace {

util::Result<std::vector<PathLevel>> levels_of(const InclusionPath& path) {
    std::vector<PathLevel> out;
    out.reserve(path.size());
    for (const PathElement& e : path) {
        PathLevel level;
        level.index = e.index;
        level.siblings.reserve(e.hashes.size());
        for (const Domain& h : e.hashes) {
            CUZK_ASSIGN_OR_RETURN(Fr f, domain_to_fr(h, "a Merkle path hash"));
            level.siblings.emplace_back(f);
        }
        out.push_back(std::move(level));
    }
    return out;
}

util::Result<ColumnWitness> column_of(const ColumnProof& proof) {
    ColumnWitness w;
    for (const Domain& row : proof.column.rows) {
        CUZK_ASSIGN_OR_RETURN(Fr f, domain_to_fr(row, "a column row"));
        w.rows.emplace_back(f);
    }
    CUZK_ASSIGN_OR_RETURN(w.path, auth_path_from_proof(proof.inclusion_proof));
    return w;
}

}  // namespace

util::Result<AuthPath> auth_path_from_proof(const MerkleProof& proof) {
    AuthPath p;
    CUZK_ASSIGN_OR_RETURN(p.base, levels_of(proof.base));
    CUZK_ASSIGN_OR_RETURN(p.sub, levels_of(proof.sub));
    CUZK_ASSIGN_OR_RETURN(p.top, levels_of(proof.top));
    return p;
}

util::Result<StackedWitness> witness_from_c1(const SealCommitPhase1Output& c1, size_t partition) {
    if (partition >= c1.vanilla_proofs.size()) {
        return util::invalid_argument("C1: partition out of range");
    }
    const std::vector<VanillaProof>& proofs = c1.vanilla_proofs[partition];
    if (proofs.empty()) return util::invalid_argument("C1: a partition has no vanilla proofs");
    StackedCircuitParams params =
        StackedCircuitParams::for_proof(seal_proof_info(c1.registered_proof));
    params.challenges = static_cast<uint32_t>(proofs.size());

    StackedWitness w;
    CUZK_ASSIGN_OR_RETURN(w.replica_id, domain_to_fr(c1.replica_id, "replica_id"));
    CUZK_ASSIGN_OR_RETURN(w.comm_d, domain_to_fr(c1.comm_d, "comm_d"));
    CUZK_ASSIGN_OR_RETURN(w.comm_r, domain_to_fr(c1.comm_r, "comm_r"));
    const Domain& comm_r_last = proofs[0].comm_r_last_proof.root;
    const Domain& comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
    for (const VanillaProof& p : proofs) {
        if (p.comm_r_last_proof.root != comm_r_last) {
            return util::invalid_argument("C1: inconsistent comm_r_lasts");
        }
        if (p.replica_column_proofs.c_x.inclusion_proof.root != comm_c) {
            return util::invalid_argument("C1: inconsistent comm_cs");
        }
    }
    CUZK_ASSIGN_OR_RETURN(w.comm_r_last, domain_to_fr(comm_r_last, "comm_r_last"));
    CUZK_ASSIGN_OR_RETURN(w.comm_c, domain_to_fr(comm_c, "comm_c"));

    for (const VanillaProof& p : proofs) {
        ChallengeWitness c;
        CUZK_ASSIGN_OR_RETURN(c.data_leaf, domain_to_fr(p.comm_d_proofs.leaf, "a data leaf"));
        if (p.labeling_proofs.empty()) return util::invalid_argument("C1: no labeling proofs");
        c.challenge = p.labeling_proofs[0].node;
        CUZK_ASSIGN_OR_RETURN(c.comm_d_path, auth_path_from_proof(p.comm_d_proofs));
        CUZK_ASSIGN_OR_RETURN(c.comm_r_last_path, auth_path_from_proof(p.comm_r_last_proof));
        CUZK_ASSIGN_OR_RETURN(c.comm_c_path,
                              auth_path_from_proof(p.replica_column_proofs.c_x.inclusion_proof));
        for (const ColumnProof& col : p.replica_column_proofs.drg_parents) {
            CUZK_ASSIGN_OR_RETURN(ColumnWitness cw, column_of(col));
            c.drg_parents.push_back(std::move(cw));
        }
        for (const ColumnProof& col : p.replica_column_proofs.exp_parents) {
            CUZK_ASSIGN_OR_RETURN(ColumnWitness cw, column_of(col));
            c.exp_parents.push_back(std::move(cw));
        }
        w.challenges.push_back(std::move(c));
    }
    CUZK_RETURN_IF_ERROR(check_witness_shape(params, w));
    return w;
}

}  // namespace cuzk::porep
