#include "porep/circuit/stacked_circuit.hpp"

#include <mutex>

#include "r1cs/fork.hpp"

#include "gadgets/boolean.hpp"
#include "gadgets/uint64.hpp"
#include "porep/circuit/label.hpp"
#include "poseidon/circuit.hpp"

namespace cuzk::porep {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

namespace {

constexpr size_t kDrg = 6;
constexpr size_t kExp = 8;

util::Status shape_error(std::string what, size_t challenge) {
    std::string m = "stacked circuit witness: challenge ";
    m += std::to_string(challenge);
    m += ": ";
    m += what;
    return util::invalid_argument(std::move(m));
}

// A column's rows as AllocatedNums "column_num_row_i" inside "<name>/column" (column_proof.rs
// ColumnProof::alloc → column.rs Column::alloc).
util::Result<std::vector<AllocatedNum>> alloc_column(ConstraintSystem& cs, const Name& name,
                                                     const ColumnWitness& column) {
    r1cs::Namespace ns(cs, name);
    r1cs::Namespace column_ns(cs, "column");
    std::vector<AllocatedNum> rows;
    rows.reserve(column.rows.size());
    for (size_t i = 0; i < column.rows.size(); ++i) {
        CUZK_ASSIGN_OR_RETURN(AllocatedNum r,
                              AllocatedNum::alloc(cs, Name("column_num_row_", i), column.rows[i]));
        rows.push_back(r);
    }
    return rows;
}

std::string indexed(const char* prefix, size_t i, const char* suffix) {
    std::string s = prefix;
    s += std::to_string(i);
    s += suffix;
    return s;
}

// The parent's label bits as the label hash wants them (params.rs: to_bits_le in namespace
// "<kind>_parent_<k>_bits", k = position in the parent list, then reverse_bit_numbering).
util::Result<std::vector<Boolean>> parent_bits(ConstraintSystem& cs, const char* kind, size_t k,
                                               const AllocatedNum& value) {
    std::string name = kind;
    name += "_parent_";
    name += std::to_string(k);
    name += "_bits";
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> le, gadgets::to_bits_le(cs, name, value));
    return gadgets::reverse_bit_numbering(std::move(le));
}

util::Status synthesize_challenge(ConstraintSystem& cs, const StackedCircuitParams& params,
                                  const ChallengeWitness& w, const AllocatedNum& comm_d,
                                  const AllocatedNum& comm_c, const AllocatedNum& comm_r_last,
                                  std::span<const Boolean> replica_id_bits) {
    const size_t layers = params.layers;
    CUZK_ASSIGN_OR_RETURN(AllocatedNum data_leaf,
                          AllocatedNum::alloc(cs, "data_leaf", w.data_leaf));
    CUZK_RETURN_IF_ERROR(enforce_inclusion(cs, "comm_d_inclusion", params.tree_d(), w.comm_d_path,
                                           comm_d, data_leaf));

    auto open_columns = [&](const char* kind, const std::vector<ColumnWitness>& columns,
                            std::vector<std::vector<AllocatedNum>>& out) -> util::Status {
        for (size_t i = 0; i < columns.size(); ++i) {
            CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedNum> rows,
                                  alloc_column(cs, indexed(kind, i, "_num"), columns[i]));
            CUZK_ASSIGN_OR_RETURN(AllocatedNum hash,
                                  hash_single_column(cs, indexed(kind, i, "_constraint"), rows));
            CUZK_RETURN_IF_ERROR(enforce_inclusion(cs, indexed(kind, i, "_inclusion"),
                                                   params.tree_c(), columns[i].path, comm_c, hash));
            out.push_back(std::move(rows));
        }
        return util::Status();
    };
    std::vector<std::vector<AllocatedNum>> drg, exp;
    CUZK_RETURN_IF_ERROR(open_columns("drg_parent_", w.drg_parents, drg));
    CUZK_RETURN_IF_ERROR(open_columns("exp_parent_", w.exp_parents, exp));

    CUZK_ASSIGN_OR_RETURN(gadgets::UInt64 challenge,
                          gadgets::UInt64::alloc(cs, "challenge", w.challenge));
    CUZK_RETURN_IF_ERROR(challenge.pack_into_input(cs, "challenge input"));

    std::vector<AllocatedNum> labels;
    labels.reserve(layers);
    for (size_t layer = 1; layer <= layers; ++layer) {
        r1cs::Namespace layer_ns(cs, Name("labeling_", layer));
        std::vector<std::vector<Boolean>> parents;
        parents.reserve(kDrg + kExp);
        for (const auto& column : drg) {
            CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> bits,
                                  parent_bits(cs, "drg", parents.size(), column[layer - 1]));
            parents.push_back(std::move(bits));
        }
        if (layer > 1) {
            for (const auto& column : exp) {
                CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> bits,
                                      parent_bits(cs, "exp", parents.size(), column[layer - 2]));
                parents.push_back(std::move(bits));
            }
        }
        std::vector<std::vector<Boolean>> expanded;
        expanded.reserve(kLabelParents);
        if (layer > 1) {
            for (int rep = 0; rep < 2; ++rep) {
                expanded.insert(expanded.end(), parents.begin(), parents.end());
            }
            expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);
        } else {
            for (int rep = 0; rep < 6; ++rep) {
                expanded.insert(expanded.end(), parents.begin(), parents.end());
            }
            expanded.push_back(parents[0]);
        }
        CUZK_ASSIGN_OR_RETURN(AllocatedNum label,
                              create_label_circuit(cs, "create_label", replica_id_bits, expanded,
                                                   static_cast<uint32_t>(layer), challenge));
        labels.push_back(label);
    }

    // encode.rs encode → constraint.rs add (key = last layer's label), then its inclusion in
    // comm_r_last.
    AllocatedNum encoded;
    {
        r1cs::Namespace ns(cs, "encode_node");
        CUZK_ASSIGN_OR_RETURN(encoded, add_num(cs, "encode_add", labels.back(), data_leaf));
    }
    CUZK_RETURN_IF_ERROR(enforce_inclusion(cs, "comm_r_last_data_inclusion", params.tree_c(),
                                           w.comm_r_last_path, comm_r_last, encoded));

    // The challenged column: the labels just computed, hashed and opened in comm_c.
    CUZK_ASSIGN_OR_RETURN(AllocatedNum column_hash,
                          hash_single_column(cs, "c_x_column_hash", labels));
    return enforce_inclusion(cs, "c_x_inclusion", params.tree_c(), w.comm_c_path, comm_c,
                             column_hash);
}

util::Status check_path(const PorTree& tree, uint64_t leaves, const AuthPath& path,
                        const char* what, size_t challenge) {
    CUZK_ASSIGN_OR_RETURN(uint32_t levels, base_path_length(tree, leaves));
    if (path.base.size() != levels) {
        std::string m = what;
        m += ": expected ";
        m += std::to_string(levels);
        m += " base levels, found ";
        m += std::to_string(path.base.size());
        return shape_error(std::move(m), challenge);
    }
    util::Status st = check_auth_path(tree, path);
    if (!st.ok()) {
        std::string m = what;
        m += ": ";
        m += st.message();
        return shape_error(std::move(m), challenge);
    }
    return util::Status();
}

util::Status check_columns(const StackedCircuitParams& params,
                           const std::vector<ColumnWitness>& columns, size_t want, const char* what,
                           size_t challenge) {
    if (columns.size() != want) {
        std::string m = what;
        m += ": expected ";
        m += std::to_string(want);
        m += " columns, found ";
        m += std::to_string(columns.size());
        return shape_error(std::move(m), challenge);
    }
    for (const ColumnWitness& c : columns) {
        if (c.rows.size() != params.layers) {
            std::string m = what;
            m += ": a column has ";
            m += std::to_string(c.rows.size());
            m += " rows, expected ";
            m += std::to_string(params.layers);
            return shape_error(std::move(m), challenge);
        }
        CUZK_RETURN_IF_ERROR(check_path(params.tree_c(), params.nodes, c.path, what, challenge));
    }
    return util::Status();
}

}  // namespace

util::Result<AllocatedNum> hash_single_column(ConstraintSystem& cs, const Name& name,
                                              std::span<const AllocatedNum> rows) {
    if (rows.size() != 2 && rows.size() != 11) {
        std::string m = "hash_single_column: unsupported column size ";
        m += std::to_string(rows.size());
        return util::invalid_argument(std::move(m));
    }
    return poseidon::poseidon_hash_circuit(cs, name, rows);
}

util::Result<AllocatedNum> add_num(ConstraintSystem& cs, const Name& name, const AllocatedNum& a,
                                   const AllocatedNum& b) {
    r1cs::Namespace ns(cs, name);
    auto sum =
        gadgets::map_values(a.value, b.value, [](const Fr& x, const Fr& y) { return x + y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum res, AllocatedNum::alloc(cs, "add_num", sum));
    cs.enforce_lazy("sum constraint", [&] {
        return r1cs::LcRow{a.var + b.var, LC(Variable::one()), LC(res.var)};
    });
    return res;
}

util::Status check_witness_shape(const StackedCircuitParams& params, const StackedWitness& w) {
    if (params.layers != 2 && params.layers != 11) {
        return util::invalid_argument("stacked circuit: layers must be 2 or 11");
    }
    if (w.challenges.size() != params.challenges) {
        std::string m = "stacked circuit witness: expected ";
        m += std::to_string(params.challenges);
        m += " challenges, found ";
        m += std::to_string(w.challenges.size());
        return util::invalid_argument(std::move(m));
    }
    for (size_t i = 0; i < w.challenges.size(); ++i) {
        const ChallengeWitness& c = w.challenges[i];
        CUZK_RETURN_IF_ERROR(
            check_path(params.tree_d(), params.nodes, c.comm_d_path, "comm_d path", i));
        CUZK_RETURN_IF_ERROR(
            check_path(params.tree_c(), params.nodes, c.comm_r_last_path, "comm_r_last path", i));
        CUZK_RETURN_IF_ERROR(
            check_path(params.tree_c(), params.nodes, c.comm_c_path, "comm_c path", i));
        CUZK_RETURN_IF_ERROR(check_columns(params, c.drg_parents, kDrg, "drg parents", i));
        CUZK_RETURN_IF_ERROR(check_columns(params, c.exp_parents, kExp, "exp parents", i));
    }
    return util::Status();
}

util::Result<StackedWitness> blank_witness(const StackedCircuitParams& params) {
    CUZK_ASSIGN_OR_RETURN(AuthPath d_path, blank_auth_path(params.tree_d(), params.nodes));
    CUZK_ASSIGN_OR_RETURN(AuthPath c_path, blank_auth_path(params.tree_c(), params.nodes));
    ColumnWitness column{std::vector<std::optional<Fr>>(params.layers), c_path};
    ChallengeWitness challenge;
    challenge.comm_d_path = d_path;
    challenge.comm_r_last_path = c_path;
    challenge.comm_c_path = c_path;
    challenge.drg_parents.assign(kDrg, column);
    challenge.exp_parents.assign(kExp, column);
    StackedWitness w;
    w.challenges.assign(params.challenges, challenge);
    return w;
}

util::Status synthesize_stacked_circuit(ConstraintSystem& cs, const StackedCircuitParams& params,
                                        const StackedWitness& witness,
                                        const StackedProgress& progress) {
    CUZK_RETURN_IF_ERROR(check_witness_shape(params, witness));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum replica_id,
                          AllocatedNum::alloc(cs, "replica_id", witness.replica_id));
    CUZK_RETURN_IF_ERROR(replica_id.inputize(cs, "replica_id_input"));
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> replica_id_le,
                          gadgets::to_bits_le(cs, "replica_id_bits", replica_id));
    const std::vector<Boolean> replica_id_bits =
        gadgets::reverse_bit_numbering(std::move(replica_id_le));

    CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_d, AllocatedNum::alloc(cs, "comm_d", witness.comm_d));
    CUZK_RETURN_IF_ERROR(comm_d.inputize(cs, "comm_d_input"));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r, AllocatedNum::alloc(cs, "comm_r", witness.comm_r));
    CUZK_RETURN_IF_ERROR(comm_r.inputize(cs, "comm_r_input"));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r_last,
                          AllocatedNum::alloc(cs, "comm_r_last", witness.comm_r_last));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_c, AllocatedNum::alloc(cs, "comm_c", witness.comm_c));

    // comm_r = H(comm_c ‖ comm_r_last) (filecoin-hashers poseidon.rs hash2_circuit).
    const AllocatedNum preimage[2] = {comm_c, comm_r_last};
    CUZK_ASSIGN_OR_RETURN(AllocatedNum h,
                          poseidon::poseidon_hash_circuit(cs, "H_comm_c_comm_r_last", preimage));
    enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, h);

    // The challenges are independent sub-circuits over the variables above: synthesized in
    // parallel when the backend forks (r1cs/fork.hpp; same constraint system either way).
    const size_t n = witness.challenges.size();
    std::mutex progress_mutex;
    size_t done = 0;
    return r1cs::synthesize_independent(cs, n, [&](ConstraintSystem& sub, size_t i) {
        {
            r1cs::Namespace ns(sub, Name("challenge_", i));
            CUZK_RETURN_IF_ERROR(synthesize_challenge(sub, params, witness.challenges[i], comm_d,
                                                      comm_c, comm_r_last, replica_id_bits));
        }
        if (progress) {
            std::lock_guard lock(progress_mutex);
            progress(++done, n);
        }
        return util::Status();
    });
}

StackedCircuitParams StackedCircuitParams::for_proof(const SealProofInfo& info) {
    StackedCircuitParams p;
    p.nodes = info.nodes();
    p.layers = info.layers;
    p.challenges = info.challenges_per_partition;
    p.shape = info.shape;
    return p;
}

}  // namespace cuzk::porep
