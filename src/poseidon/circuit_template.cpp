#include "poseidon/circuit_template.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "poseidon/circuit.hpp"
#include "poseidon/circuit_direct.hpp"
#include "poseidon/circuit_witness.hpp"

namespace cuzk::poseidon {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

namespace {

// One step of the recorded synthesis: an aux allocation, or a row (index into rows).
struct Op {
    bool is_alloc;
    uint32_t row;
};

struct Row {
    LC a, b, c;
};

// Symbolic variables: ONE is input 0, preimage i is aux i, the k-th new aux is aux arity + k
// (the recorder allocates the preimage first).
struct Template {
    size_t arity = 0;
    size_t num_new_aux = 0;
    std::vector<Op> ops;
    std::vector<Row> rows;
};

// A shape-only constraint system that records allocations and rows.
class TemplateRecorder final : public ConstraintSystem {
   public:
    TemplateRecorder() : ConstraintSystem(false, false) { allocate_one(); }
    std::vector<Op> ops;
    std::vector<Row> rows;
    size_t inputs_seen = 0;

   private:
    void on_alloc(const Name&, uint32_t, const ff::Fr*) override {
        ops.push_back(Op{true, 0});
    }
    void on_alloc_input(const Name&, uint32_t, const ff::Fr*) override { ++inputs_seen; }
    void on_enforce(const Name&, const LC& a, const LC& b, const LC& c) override {
        ops.push_back(Op{false, static_cast<uint32_t>(rows.size())});
        rows.push_back(Row{a, b, c});
    }
};

util::Result<std::unique_ptr<Template>> record(const PoseidonConstants& c) {
    TemplateRecorder rec;
    std::vector<AllocatedNum> pre;
    for (size_t i = 0; i < c.arity; ++i) {
        CUZK_ASSIGN_OR_RETURN(AllocatedNum x, AllocatedNum::alloc(rec, "x", std::nullopt));
        pre.push_back(x);
    }
    rec.ops.clear();  // the preimage allocations are not part of the template
    rec.inputs_seen = 0;  // ONE, allocated by the constructor
    CUZK_ASSIGN_OR_RETURN(AllocatedNum out, poseidon_hash_circuit_direct(rec, "t", pre, c));
    auto t = std::make_unique<Template>();
    t->arity = c.arity;
    t->num_new_aux = rec.num_aux() - c.arity;
    if (rec.inputs_seen != 0 || t->num_new_aux != legacy_circuit_aux_count(c) ||
        out.var != Variable::aux(static_cast<uint32_t>(rec.num_aux() - 1)))
        return util::internal_error("poseidon template: unexpected recorded shape");
    for (const Row& r : rec.rows) {
        for (const LC* lc : {&r.a, &r.b, &r.c}) {
            for (const r1cs::Term& term : *lc) {
                if (term.var.is_input() && !term.var.is_one())
                    return util::internal_error("poseidon template: unexpected input variable");
            }
        }
    }
    t->ops = std::move(rec.ops);
    t->rows = std::move(rec.rows);
    return t;
}

util::Result<const Template*> cached_template(const PoseidonConstants& c) {
    struct Slot {
        std::once_flag once;
        std::unique_ptr<Template> value;
        util::Status status;
    };
    static std::array<std::array<Slot, kMaxArity + 1>, 2> slots;
    Slot& slot = slots[c.strength == Strength::kStandard ? 0 : 1][c.arity];
    std::call_once(slot.once, [&] {
        auto t = record(c);
        if (t.ok()) {
            slot.value = std::move(t).value();
        } else {
            slot.status = t.status();
        }
    });
    if (!slot.value) return slot.status;
    return static_cast<const Template*>(slot.value.get());
}

}  // namespace

bool can_replay_template(const ConstraintSystem& cs, std::span<const AllocatedNum> preimage) {
    if (cs.needs_names()) return false;
    for (size_t i = 0; i < preimage.size(); ++i) {
        if (preimage[i].var.is_one()) return false;
        for (size_t j = 0; j < i; ++j)
            if (preimage[j].var == preimage[i].var) return false;
    }
    return true;
}

util::Result<AllocatedNum> replay_poseidon_template(ConstraintSystem& cs, const Name& name,
                                                    std::span<const AllocatedNum> preimage,
                                                    const PoseidonConstants& c) {
    if (preimage.size() != c.arity || !can_replay_template(cs, preimage))
        return util::invalid_argument("poseidon template: preimage cannot be replayed");
    CUZK_ASSIGN_OR_RETURN(const Template* t, cached_template(c));

    std::vector<Fr> witness;
    if (cs.computes_values()) {
        std::vector<Fr> values(c.arity);
        for (size_t i = 0; i < c.arity; ++i) {
            if (!preimage[i].value)
                return util::invalid_argument("poseidon circuit: preimage value missing");
            values[i] = *preimage[i].value;
        }
        witness.resize(t->num_new_aux);
        CUZK_RETURN_IF_ERROR(legacy_circuit_witness(c, values, witness).status());
    }

    r1cs::Namespace ns(cs, name);
    std::vector<Variable> fresh;
    fresh.reserve(t->num_new_aux);
    auto map = [&](const LC& lc) {
        LC out;
        for (const r1cs::Term& term : lc) {
            Variable v = term.var;  // ONE stays ONE
            if (v.is_aux()) {
                const uint32_t k = v.index();
                v = k < t->arity ? preimage[k].var : fresh[k - t->arity];
            }
            out.add(term.coeff, v);
        }
        return out;
    };
    for (const Op& op : t->ops) {
        if (op.is_alloc) {
            const size_t k = fresh.size();
            Variable v;
            if (cs.computes_values()) {
                CUZK_ASSIGN_OR_RETURN(v, cs.alloc("num", witness[k]));
            } else {
                CUZK_ASSIGN_OR_RETURN(v, cs.alloc("num", std::optional<Fr>()));
            }
            fresh.push_back(v);
        } else {
            const Row& r = t->rows[op.row];
            cs.enforce_lazy("poseidon", [&] { return r1cs::LcRow{map(r.a), map(r.b), map(r.c)}; });
        }
    }
    std::optional<Fr> value;
    if (cs.computes_values()) value = witness.back();
    return AllocatedNum{fresh.back(), value};
}

}  // namespace cuzk::poseidon
