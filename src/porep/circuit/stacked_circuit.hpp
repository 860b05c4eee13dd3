// The SDR PoRep partition circuit, StackedCircuit (storage-proofs-porep stacked/circuit/proof.rs
// and params.rs), synthesized row-for-row as bellperson does it (spec porep-c2-circuit.md §2).
//
// Global part (proof.rs Circuit::synthesize), in order:
//   replica_id (aux) → inputize; bits = reverse_bit_numbering(to_bits_le(replica_id));
//   comm_d → inputize; comm_r → inputize; comm_r_last, comm_c (private);
//   H = Poseidon2(comm_c, comm_r_last) ("H_comm_c_comm_r_last"); equal(comm_r, H);
//   then every challenge in namespace "challenge_i".
// Per challenge (params.rs Proof::synthesize), in order:
//   data_leaf; comm_d inclusion (binary SHA-256 tree, root comm_d);
//   6 DRG-parent columns, then 8 expander-parent columns: allocate the L rows, Poseidon_L of the
//   rows (column hash), inclusion in comm_c;
//   challenge as UInt64 (64 bits) → one public input;
//   labels of layers 1..L (label.hpp) over parent bits taken inside each layer:
//     layer 1: the 6 DRG parents' layer-1 rows, repeated 6 times + the first again (37);
//     layer ℓ > 1: DRG rows of layer ℓ and expander rows of layer ℓ − 1 (14), twice, + the first
//     9 (37);
//   encoding: replica = label_L + data_leaf (constraint.rs add), inclusion in comm_r_last;
//   column hash of the L labels, inclusion in comm_c.
// Public inputs (ONE excluded): replica_id, comm_d, comm_r, then per challenge c: c, the 6 DRG and
// 8 expander parent indices, c, c, c — 3 + 18·C (public_inputs.hpp computes them).
//
// The witness holds std::optional values: a witness with every value nullopt (blank_witness)
// synthesizes the shape in shape-only constraint systems (Counter, ShapeRecorder); a backend
// that computes values reports "assignment missing" for any nullopt it needs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "porep/circuit/por.hpp"
#include "porep/registered_proof.hpp"

namespace cuzk::porep {

// Sector geometry of one partition circuit.
struct StackedCircuitParams {
    uint64_t nodes = 0;        // sector nodes (leaves of every tree)
    uint32_t layers = 0;       // SDR layers = column arity (2 or 11)
    uint32_t challenges = 0;   // challenges per partition
    TreeShape shape{8, 0, 0};  // tree_c / tree_r_last arities

    static StackedCircuitParams for_proof(const SealProofInfo& info);
    PorTree tree_d() const { return PorTree{TreeHasher::kSha256, 2, 0, 0}; }
    PorTree tree_c() const {
        return PorTree{TreeHasher::kPoseidon, shape.base, shape.sub, shape.top};
    }
    size_t num_public_inputs() const { return 3 + 18 * size_t{challenges}; }  // ONE excluded
};

// One opened column: the labels of a node in layers 1..L and its path in tree_c.
struct ColumnWitness {
    std::vector<std::optional<Fr>> rows;
    AuthPath path;
};

// One challenge (circuit params.rs Proof).
struct ChallengeWitness {
    AuthPath comm_d_path;
    std::optional<Fr> data_leaf;
    std::optional<uint64_t> challenge;
    AuthPath comm_r_last_path;
    AuthPath comm_c_path;
    std::vector<ColumnWitness> drg_parents;  // 6
    std::vector<ColumnWitness> exp_parents;  // 8
};

struct StackedWitness {
    std::optional<Fr> replica_id, comm_d, comm_r, comm_r_last, comm_c;
    std::vector<ChallengeWitness> challenges;
};

// Every value unknown, every shape as `params` says (blank_circuit).
util::Result<StackedWitness> blank_witness(const StackedCircuitParams& params);

// Checks that the witness has the shape `params` asks for (counts of challenges, columns, rows,
// path levels and siblings).
util::Status check_witness_shape(const StackedCircuitParams& params, const StackedWitness& w);

// Called after each challenge with the number of challenges synthesized so far.
using StackedProgress = std::function<void(size_t done, size_t total)>;

// Synthesizes the partition circuit into cs (ONE already allocated by the backend).
util::Status synthesize_stacked_circuit(r1cs::ConstraintSystem& cs,
                                        const StackedCircuitParams& params,
                                        const StackedWitness& witness,
                                        const StackedProgress& progress = {});

// Poseidon of a column (circuit/hash.rs hash_single_column): arity = rows (2 or 11).
util::Result<gadgets::AllocatedNum> hash_single_column(r1cs::ConstraintSystem& cs,
                                                       const r1cs::Name& name,
                                                       std::span<const gadgets::AllocatedNum> rows);

// a + b in a new variable: aux "add_num", constraint "sum constraint" A = a + b, B = ONE,
// C = res (constraint.rs add), inside namespace `name`.
util::Result<gadgets::AllocatedNum> add_num(r1cs::ConstraintSystem& cs, const r1cs::Name& name,
                                            const gadgets::AllocatedNum& a,
                                            const gadgets::AllocatedNum& b);

}  // namespace cuzk::porep
