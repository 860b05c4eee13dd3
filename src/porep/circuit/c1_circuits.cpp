#include "porep/circuit/c1_circuits.hpp"

#include <memory>

#include "porep/circuit/c1_witness.hpp"
#include "porep/circuit/public_inputs.hpp"
#include "porep/circuit/stacked_circuit.hpp"
#include "porep/graph.hpp"
#include "r1cs/test_cs.hpp"

namespace cuzk::porep {

namespace {

util::Status in_partition(size_t k, const util::Status& st) {
    std::string m = "partition ";
    m += std::to_string(k);
    m += ": ";
    m += st.message();
    return util::Status(st.code(), std::move(m));
}

CircuitFn make_circuit(const StackedCircuitParams& params,
                       std::shared_ptr<const StackedWitness> witness) {
    return [params, witness](r1cs::ConstraintSystem& cs) {
        return synthesize_stacked_circuit(cs, params, *witness);
    };
}

}  // namespace

util::Result<PartitionCircuits> circuits_from_c1(const SealCommitPhase1Output& c1) {
    CUZK_RETURN_IF_ERROR(validate_c1(c1));
    const SealProofInfo& info = seal_proof_info(c1.registered_proof);
    const StackedCircuitParams params = StackedCircuitParams::for_proof(info);
    CUZK_ASSIGN_OR_RETURN(SdrGraph graph, SdrGraph::for_proof(c1.registered_proof));
    PartitionCircuits out;
    out.proof = c1.registered_proof;
    for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
        auto witness = witness_from_c1(c1, k);
        if (!witness.ok()) return in_partition(k, witness.status());
        auto challenges = partition_challenges(info, c1.replica_id, c1.comm_r, c1.seed,
                                               static_cast<uint32_t>(k));
        if (!challenges.ok()) return in_partition(k, challenges.status());
        // The witness's challenges must be the ones the public inputs are derived from.
        for (size_t i = 0; i < challenges->size(); ++i) {
            const auto& got = witness->challenges[i].challenge;
            if (!got || *got != (*challenges)[i]) {
                std::string m = "challenge ";
                m += std::to_string(i);
                m += " is node ";
                m += got ? std::to_string(*got) : std::string("?");
                m += " but the replica_id and seed derive node ";
                m += std::to_string((*challenges)[i]);
                return in_partition(k, util::invalid_argument(std::move(m)));
            }
        }
        auto inputs = stacked_public_inputs(graph, c1.replica_id, c1.comm_d, c1.comm_r, *challenges);
        if (!inputs.ok()) return in_partition(k, inputs.status());
        out.circuits.push_back(
            make_circuit(params, std::make_shared<const StackedWitness>(std::move(*witness))));
        out.public_inputs.push_back(std::move(*inputs));
    }
    return out;
}

util::Result<CircuitFn> blank_stacked_circuit(RegisteredSealProof proof) {
    const StackedCircuitParams params = StackedCircuitParams::for_proof(seal_proof_info(proof));
    CUZK_ASSIGN_OR_RETURN(StackedWitness blank, blank_witness(params));
    return make_circuit(params, std::make_shared<const StackedWitness>(std::move(blank)));
}

util::Result<std::string> first_unsatisfied_constraint(const CircuitFn& circuit) {
    r1cs::TestConstraintSystem cs;
    CUZK_RETURN_IF_ERROR(circuit(cs));
    return cs.which_is_unsatisfied().value_or(std::string());
}

}  // namespace cuzk::porep
