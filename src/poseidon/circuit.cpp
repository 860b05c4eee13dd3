#include "poseidon/circuit.hpp"

#include <string>
#include <utility>
#include <vector>

#include "poseidon/circuit_direct.hpp"
#include "poseidon/circuit_template.hpp"

namespace cuzk::poseidon {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Namespace;
using r1cs::Variable;

namespace {

Fr quintic(const Fr& x) { return x.square().square() * x; }

// neptune `Elt`: an allocated number, or a linear combination with its value (bellpepper
// `num::Num`). `value` is known iff the constraint system computes values (the constant tag is
// known always; it is only read when allocating, which needs values anyway).
struct Elt {
    bool allocated = false;
    Variable var;  // allocated
    LC lc;         // linear combination
    std::optional<Fr> value;

    static Elt from_allocated(const AllocatedNum& n) {
        Elt e;
        e.allocated = true;
        e.var = n.var;
        e.value = n.value;
        return e;
    }
    // neptune `Elt::num_from_fr`: Num::zero() + Boolean::Constant(true) with coefficient fr,
    // i.e. the linear combination fr·ONE.
    static Elt constant(const Fr& fr) {
        Elt e;
        e.lc.add(fr, Variable::one());
        e.value = fr;
        return e;
    }
};

// acc += s·elt (neptune `acc.add(elt.scale(s))`; scaling an allocated number makes the one-term
// combination s·var; scaling a combination multiplies each coefficient by s).
void add_scaled(Elt& acc, const Elt& elt, const Fr& s, bool values) {
    if (elt.allocated) {
        acc.lc.add(s, elt.var);
    } else {
        for (const r1cs::Term& t : elt.lc) acc.lc.add(t.coeff * s, t.var);
    }
    if (values && acc.value && elt.value) *acc.value += *elt.value * s;
}

// neptune `scalar_product`: Σ elts[i]·scalars[i] starting from Num::zero() (value 0).
Elt scalar_product(const std::vector<Elt>& elts, const Fr* scalars, size_t stride, bool values) {
    Elt acc;
    if (values) acc.value = Fr::zero();
    for (size_t i = 0; i < elts.size(); ++i) add_scaled(acc, elts[i], scalars[i * stride], values);
    return acc;
}

// neptune `Elt::ensure_allocated(cs, enforce = true)`.
util::Result<AllocatedNum> ensure_allocated(ConstraintSystem& cs, const Elt& e) {
    if (e.allocated) return AllocatedNum{e.var, e.value};
    std::optional<Fr> value;
    if (cs.computes_values()) {
        if (!e.value) return util::invalid_argument("poseidon circuit: assignment missing");
        value = e.value;
    }
    AllocatedNum v;
    {
        Namespace ns(cs, "allocate for Elt::Num");
        CUZK_ASSIGN_OR_RETURN(v, AllocatedNum::alloc(cs, "num", value));
    }
    cs.enforce("enforce num allocation preserves lc", e.lc, LC(Variable::one()), LC(v.var));
    return v;
}

class PoseidonCircuit {
   public:
    PoseidonCircuit(const PoseidonConstants& c, std::vector<Elt> elements, bool values)
        : c_(c), elements_(std::move(elements)), values_(values) {}

    util::Result<AllocatedNum> hash(ConstraintSystem& cs) {
        {
            Namespace ns(cs, "first round");
            CUZK_RETURN_IF_ERROR(full_round(cs, true, false));
        }
        for (size_t i = 1; i < c_.full_rounds / 2; ++i) {
            Namespace ns(cs, Name("initial full round ", i));
            CUZK_RETURN_IF_ERROR(full_round(cs, false, false));
        }
        for (size_t i = 0; i < c_.partial_rounds; ++i) {
            Namespace ns(cs, Name("partial round ", i));
            CUZK_RETURN_IF_ERROR(partial_round(cs));
        }
        for (size_t i = 0; i + 1 < c_.full_rounds / 2; ++i) {
            Namespace ns(cs, Name("final full round ", i));
            CUZK_RETURN_IF_ERROR(full_round(cs, false, false));
        }
        {
            Namespace ns(cs, "terminal full round");
            CUZK_RETURN_IF_ERROR(full_round(cs, false, true));
        }
        Namespace ns(cs, "hash result");
        return ensure_allocated(cs, elements_[1]);
    }

   private:
    util::Status full_round(ConstraintSystem& cs, bool first_round, bool last_round) {
        const size_t w = c_.width;
        const Fr* pre_keys = nullptr;
        const Fr* post_keys = nullptr;
        if (first_round) {
            pre_keys = c_.compressed_round_constants.data() + offset_;
            offset_ += w;
        }
        if (first_round || !last_round) {
            post_keys = c_.compressed_round_constants.data() + offset_;
            offset_ += w;
        }
        for (size_t i = 0; i < w; ++i) {
            const std::optional<Fr> post =
                post_keys ? std::optional<Fr>(post_keys[i]) : std::nullopt;
            if (first_round && i == 0) {
                // neptune `constant_quintic_s_box_pre_add_tag`: the tag's S-box is a constant.
                elements_[0] = Elt::constant(quintic(*elements_[0].value + pre_keys[0]) + *post);
                continue;
            }
            Namespace ns(cs, Name("quintic s-box ", i));
            CUZK_ASSIGN_OR_RETURN(AllocatedNum out,
                                  first_round ? sbox_pre_add(cs, elements_[i], pre_keys[i], *post)
                                              : sbox(cs, elements_[i], post));
            elements_[i] = Elt::from_allocated(out);
        }
        product_mds();
        return util::Status();
    }

    util::Status partial_round(ConstraintSystem& cs) {
        const Fr key = c_.compressed_round_constants[offset_++];
        Namespace ns(cs, "solitary quintic s-box");
        CUZK_ASSIGN_OR_RETURN(AllocatedNum out, sbox(cs, elements_[0], key));
        elements_[0] = Elt::from_allocated(out);
        product_mds();
        return util::Status();
    }

    // neptune circuit.rs `quintic_s_box`: l = ensure_allocated(e); l^2; l^4; l^4·l + key.
    util::Result<AllocatedNum> sbox(ConstraintSystem& cs, const Elt& e,
                                    const std::optional<Fr>& post) {
        AllocatedNum l;
        {
            Namespace ns(cs, "S-box input");
            CUZK_ASSIGN_OR_RETURN(l, ensure_allocated(cs, e));
        }
        CUZK_ASSIGN_OR_RETURN(AllocatedNum l2, l.square(cs, "l^2"));
        CUZK_ASSIGN_OR_RETURN(AllocatedNum l4, l2.square(cs, "l^4"));
        return mul_sum(cs, "(l4 * l) + rk)", l4, l, std::nullopt, post);
    }

    // neptune circuit.rs `quintic_s_box_pre_add`: (l + k)^2; ^2; ·(l + k) + k'.
    util::Result<AllocatedNum> sbox_pre_add(ConstraintSystem& cs, const Elt& e, const Fr& pre,
                                            const Fr& post) {
        AllocatedNum l;
        {
            Namespace ns(cs, "S-box input");
            CUZK_ASSIGN_OR_RETURN(l, ensure_allocated(cs, e));
        }
        CUZK_ASSIGN_OR_RETURN(AllocatedNum l2, square_sum(cs, "(l+rk)^2", pre, l));
        CUZK_ASSIGN_OR_RETURN(AllocatedNum l4, l2.square(cs, "l^4"));
        return mul_sum(cs, "l4 * (l + rk)", l4, l, pre, post);
    }

    // neptune `PoseidonCircuit::product_mds`: the same layer schedule as the optimised hash.
    void product_mds() {
        const size_t h = c_.half_full_rounds;
        if (round_ + 1 == h) {
            dense(c_.pre_sparse_matrix);
        } else if (round_ >= h && round_ < h + c_.partial_rounds) {
            sparse(c_.sparse_matrixes[round_ - h]);
        } else {
            dense(c_.mds.m);
        }
        ++round_;
    }

    // neptune `product_mds_with_matrix`: result[j] = scalar_product(elements, column j).
    void dense(const Matrix& m) {
        const size_t w = c_.width;
        std::vector<Elt> result;
        result.reserve(w);
        for (size_t j = 0; j < w; ++j)
            result.push_back(scalar_product(elements_, m.data() + j, w, values_));
        elements_ = std::move(result);
    }

    // neptune `product_mds_with_sparse_matrix`: result[0] = scalar_product(elements, ŵ);
    // result[j] = elements[j] + elements[0]·v[j−1] (elements[j] must be a combination).
    void sparse(const SparseMatrix& m) {
        const size_t w = c_.width;
        Elt first = scalar_product(elements_, m.w_hat.data(), 1, values_);
        for (size_t j = 1; j < w; ++j) {
            // neptune requires elements[j] to be a combination here (it panics otherwise); it
            // always is, since the previous layer left combinations in every position but 0.
            // An allocated one would be read as the combination 1·var.
            Elt& e = elements_[j];
            if (e.allocated) {
                e.allocated = false;
                e.lc = LC(e.var);
            }
            add_scaled(e, elements_[0], m.v_rest[j - 1], values_);
        }
        elements_[0] = std::move(first);
    }

    const PoseidonConstants& c_;
    std::vector<Elt> elements_;
    bool values_;
    size_t offset_ = 0;
    size_t round_ = 0;
};

}  // namespace

util::Result<AllocatedNum> square_sum(ConstraintSystem& cs, const Name& name, const Fr& to_add,
                                      const AllocatedNum& num) {
    Namespace ns(cs, name);
    std::optional<Fr> value;
    if (num.value) value = (*num.value + to_add).square();
    AllocatedNum res;
    {
        Namespace inner(cs, "squared sum");
        CUZK_ASSIGN_OR_RETURN(res, AllocatedNum::alloc(cs, "num", value));
    }
    LC sum(num.var);
    sum.add(to_add, Variable::one());
    cs.enforce("squared sum constraint", sum, sum, LC(res.var));
    return res;
}

util::Result<AllocatedNum> mul_sum(ConstraintSystem& cs, const Name& name, const AllocatedNum& a,
                                   const AllocatedNum& b, const std::optional<Fr>& pre_add,
                                   const std::optional<Fr>& post_add) {
    Namespace ns(cs, name);
    std::optional<Fr> value;
    if (a.value && b.value) {
        Fr t = *b.value;
        if (pre_add) t += *pre_add;
        t *= *a.value;
        if (post_add) t += *post_add;
        value = t;
    }
    AllocatedNum res;
    {
        Namespace inner(cs, "mul_sum");
        CUZK_ASSIGN_OR_RETURN(res, AllocatedNum::alloc(cs, "num", value));
    }
    LC lhs(b.var);
    if (pre_add) lhs.add(*pre_add, Variable::one());
    LC out(res.var);
    if (post_add) out.add(-*post_add, Variable::one());
    const char* cname = post_add ? (pre_add ? "mul sum constraint pre-post-add"
                                            : "mul sum constraint post-add")
                                 : (pre_add ? "mul sum constraint pre-add" : "mul sum constraint");
    cs.enforce(cname, lhs, LC(a.var), out);
    return res;
}

util::Result<AllocatedNum> poseidon_hash_circuit_direct(ConstraintSystem& cs, const Name& name,
                                                        std::span<const AllocatedNum> preimage,
                                                        const PoseidonConstants& c) {
    if (preimage.size() != c.arity) {
        std::string msg = "poseidon circuit: preimage has ";
        msg += std::to_string(preimage.size());
        msg += " elements, arity is ";
        msg += std::to_string(c.arity);
        return util::invalid_argument(std::move(msg));
    }
    const bool values = cs.computes_values();
    std::vector<Elt> elements;
    elements.reserve(c.width);
    elements.push_back(Elt::constant(c.domain_tag));
    for (const AllocatedNum& x : preimage) {
        if (values && !x.value)
            return util::invalid_argument("poseidon circuit: preimage value missing");
        elements.push_back(Elt::from_allocated(x));
    }
    Namespace ns(cs, name);
    PoseidonCircuit circuit(c, std::move(elements), values);
    return circuit.hash(cs);
}

util::Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const Name& name,
                                                 std::span<const AllocatedNum> preimage,
                                                 const PoseidonConstants& c) {
    // Replay only for the process-wide constants the template cache is keyed by.
    auto cached = constants(c.arity, c.strength);
    if (preimage.size() == c.arity && cached.ok() && *cached == &c &&
        can_replay_template(cs, preimage))
        return replay_poseidon_template(cs, name, preimage, c);
    return poseidon_hash_circuit_direct(cs, name, preimage, c);
}

util::Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const Name& name,
                                                 std::span<const AllocatedNum> preimage,
                                                 Strength strength) {
    CUZK_ASSIGN_OR_RETURN(const PoseidonConstants* c, constants(preimage.size(), strength));
    return poseidon_hash_circuit(cs, name, preimage, *c);
}

}  // namespace cuzk::poseidon
