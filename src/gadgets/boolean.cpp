#include "gadgets/boolean.hpp"

#include <cstddef>
#include <utility>

namespace cuzk::gadgets {

namespace {

using Kind = Boolean::Kind;

// f(a, b) when both values are known.
template <class F>
std::optional<bool> map2(std::optional<bool> a, std::optional<bool> b, F&& f) {
    if (!a || !b) return std::nullopt;
    return f(*a, *b);
}

// A fresh aux variable holding `value` (nullopt ⇒ missing when values are computed).
util::Result<AllocatedBit> alloc_value(ConstraintSystem& cs, const Name& name,
                                       std::optional<bool> value) {
    if (!cs.computes_values()) {
        CUZK_ASSIGN_OR_RETURN(Variable var, cs.alloc(name, std::optional<Fr>()));
        return AllocatedBit{var, std::nullopt};
    }
    if (!value.has_value()) return cs.alloc(name, std::optional<Fr>()).status();
    const bool v = value.value_or(false);
    CUZK_ASSIGN_OR_RETURN(Variable var, cs.alloc(name, v ? Fr::one() : Fr::zero()));
    return AllocatedBit{var, v};
}

LC one_minus(Variable v) {
    LC lc(Variable::one());
    lc -= v;
    return lc;
}

bool is_const(const Boolean& x, bool c) { return x.is_constant() && x.constant_value() == c; }

}  // namespace

// ---- AllocatedBit (boolean.rs) ----

util::Result<AllocatedBit> AllocatedBit::alloc(ConstraintSystem& cs, const Name& name,
                                               std::optional<bool> value) {
    r1cs::Namespace ns(cs, name);
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, alloc_value(cs, "boolean", value));
    // (1 − b) · b = 0
    cs.enforce_lazy("boolean constraint",
                    [&] { return r1cs::LcRow{one_minus(bit.var), LC(bit.var), LC()}; });
    return bit;
}

util::Result<AllocatedBit> AllocatedBit::xor_(ConstraintSystem& cs, const AllocatedBit& a,
                                              const AllocatedBit& b) {
    auto v = map2(a.value, b.value, [](bool x, bool y) { return x != y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedBit c, alloc_value(cs, "xor result", v));
    // (a + a) · b = a + b − c
    cs.enforce_lazy("xor constraint", [&] {
        LC lhs(a.var);
        lhs += a.var;
        LC rhs(a.var);
        rhs += b.var;
        rhs -= c.var;
        return r1cs::LcRow{std::move(lhs), LC(b.var), std::move(rhs)};
    });
    return c;
}

util::Result<AllocatedBit> AllocatedBit::and_(ConstraintSystem& cs, const AllocatedBit& a,
                                              const AllocatedBit& b) {
    auto v = map2(a.value, b.value, [](bool x, bool y) { return x && y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedBit c, alloc_value(cs, "and result", v));
    // a · b = c
    cs.enforce_lazy("and constraint",
                    [&] { return r1cs::LcRow{LC(a.var), LC(b.var), LC(c.var)}; });
    return c;
}

util::Result<AllocatedBit> AllocatedBit::and_not(ConstraintSystem& cs, const AllocatedBit& a,
                                                 const AllocatedBit& b) {
    auto v = map2(a.value, b.value, [](bool x, bool y) { return x && !y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedBit c, alloc_value(cs, "and not result", v));
    // a · (1 − b) = c
    cs.enforce_lazy("and not constraint",
                    [&] { return r1cs::LcRow{LC(a.var), one_minus(b.var), LC(c.var)}; });
    return c;
}

util::Result<AllocatedBit> AllocatedBit::nor(ConstraintSystem& cs, const AllocatedBit& a,
                                             const AllocatedBit& b) {
    auto v = map2(a.value, b.value, [](bool x, bool y) { return !x && !y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedBit c, alloc_value(cs, "nor result", v));
    // (1 − a) · (1 − b) = c
    cs.enforce_lazy("nor constraint",
                    [&] { return r1cs::LcRow{one_minus(a.var), one_minus(b.var), LC(c.var)}; });
    return c;
}

// ---- Boolean (boolean.rs) ----

Boolean Boolean::not_() const {
    Boolean r = *this;
    switch (kind_) {
        case Kind::kConstant:
            r.bit_.value = !*bit_.value;
            break;
        case Kind::kIs:
            r.kind_ = Kind::kNot;
            break;
        case Kind::kNot:
            r.kind_ = Kind::kIs;
            break;
    }
    return r;
}

// coeff·(the boolean) into an LC or a TermBuffer (boolean.rs Boolean::lc).
template <class Sink>
static void add_boolean(Sink& out, Boolean::Kind kind, const AllocatedBit& bit, const Fr& coeff) {
    switch (kind) {
        case Kind::kConstant:
            if (*bit.value) out.add(coeff, Variable::one());
            break;
        case Kind::kIs:
            out.add(coeff, bit.var);
            break;
        case Kind::kNot:
            out.add(coeff, Variable::one());
            out.add(-coeff, bit.var);
            break;
    }
}

void Boolean::add_to(TermBuffer& out, const Fr& coeff) const {
    add_boolean(out, kind_, bit_, coeff);
}

void Boolean::add_to(LC& out, const Fr& coeff) const { add_boolean(out, kind_, bit_, coeff); }

LC Boolean::lc(const Fr& coeff) const {
    LC out;
    add_to(out, coeff);
    return out;
}

util::Result<Boolean> Boolean::xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
    // Arms in boolean.rs order: false ⊕ x = x; true ⊕ x = ¬x; Is ⊕ Not = ¬(Is ⊕ Is);
    // Is ⊕ Is and Not ⊕ Not allocate.
    if (is_const(a, false)) return b;
    if (is_const(b, false)) return a;
    if (is_const(a, true)) return b.not_();
    if (is_const(b, true)) return a.not_();
    if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) {
        CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::xor_(cs, a.bit_, b.bit_));
        return Boolean(r).not_();
    }
    if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) {
        CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::xor_(cs, b.bit_, a.bit_));
        return Boolean(r).not_();
    }
    CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::xor_(cs, a.bit_, b.bit_));
    return Boolean(r);
}

util::Result<Boolean> Boolean::and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
    if (is_const(a, false) || is_const(b, false)) return constant(false);
    if (is_const(a, true)) return b;
    if (is_const(b, true)) return a;
    util::Result<AllocatedBit> r = [&]() -> util::Result<AllocatedBit> {
        if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) {
            return AllocatedBit::and_not(cs, a.bit_, b.bit_);
        }
        if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) {
            return AllocatedBit::and_not(cs, b.bit_, a.bit_);
        }
        if (a.kind_ == Kind::kNot) return AllocatedBit::nor(cs, a.bit_, b.bit_);
        return AllocatedBit::and_(cs, a.bit_, b.bit_);
    }();
    if (!r.ok()) return r.status();
    return Boolean(*r);
}

util::Result<Boolean> Boolean::sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                         const Boolean& c) {
    std::optional<bool> value;
    if (a.value() && b.value() && c.value()) {
        value = (*a.value() && *b.value()) != (!*a.value() && *c.value());
    }
    // Short-cuts in boolean.rs match-arm order.
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*value);
    if (is_const(a, false)) return c;
    if (is_const(b, false)) return and_(cs, a.not_(), c);
    if (is_const(c, false)) return and_(cs, a, b);
    if (is_const(c, true)) {
        CUZK_ASSIGN_OR_RETURN(Boolean r, and_(cs, a, b.not_()));
        return r.not_();
    }
    if (is_const(b, true)) {
        CUZK_ASSIGN_OR_RETURN(Boolean r, and_(cs, a.not_(), c.not_()));
        return r.not_();
    }
    // a constant true, or nothing constant: allocate.
    CUZK_ASSIGN_OR_RETURN(AllocatedBit ch, alloc_value(cs, "ch", value));
    // a · (b − c) = ch − c
    cs.enforce_lazy("ch computation", [&] {
        LC lhs = b.lc();
        lhs -= c.lc();
        LC rhs(ch.var);
        rhs -= c.lc();
        return r1cs::LcRow{std::move(lhs), a.lc(), std::move(rhs)};
    });
    return Boolean(ch);
}

util::Result<Boolean> Boolean::sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                          const Boolean& c) {
    std::optional<bool> value;
    if (a.value() && b.value() && c.value()) {
        const bool x = *a.value(), y = *b.value(), z = *c.value();
        value = ((x && y) != (x && z)) != (y && z);
    }
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(*value);
    if (is_const(a, false)) return and_(cs, b, c);
    if (is_const(b, false)) return and_(cs, a, c);
    if (is_const(c, false)) return and_(cs, a, b);
    if (is_const(c, true)) {
        CUZK_ASSIGN_OR_RETURN(Boolean r, and_(cs, a.not_(), b.not_()));
        return r.not_();
    }
    if (is_const(b, true)) {
        CUZK_ASSIGN_OR_RETURN(Boolean r, and_(cs, a.not_(), c.not_()));
        return r.not_();
    }
    if (is_const(a, true)) {
        CUZK_ASSIGN_OR_RETURN(Boolean r, and_(cs, b.not_(), c.not_()));
        return r.not_();
    }
    // maj is allocated before b ∧ c (the aux order matters).
    CUZK_ASSIGN_OR_RETURN(AllocatedBit maj, alloc_value(cs, "maj", value));
    util::Result<Boolean> bc_r = [&] {
        r1cs::Namespace ns(cs, "b and c");
        return and_(cs, b, c);
    }();
    if (!bc_r.ok()) return bc_r.status();
    const Boolean& bc = *bc_r;
    // (2·bc − b − c) · a = bc − maj
    cs.enforce_lazy("maj computation", [&] {
        LC lhs = bc.lc();
        lhs += bc.lc();
        lhs -= b.lc();
        lhs -= c.lc();
        LC rhs = bc.lc();
        rhs -= maj.var;
        return r1cs::LcRow{std::move(lhs), a.lc(), std::move(rhs)};
    });
    return Boolean(maj);
}

util::Status Boolean::enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant() && b.is_constant()) {
        if (a.constant_value() == b.constant_value()) return util::Status();
        return util::invalid_argument("Boolean::enforce_equal: unsatisfiable (two constants)");
    }
    if (is_const(a, true) || is_const(b, true)) {
        const Boolean& x = is_const(a, true) ? b : a;
        LC c(Variable::one());
        c -= x.lc();
        cs.enforce("enforce equal to one", LC(), LC(), c);
        return util::Status();
    }
    if (is_const(a, false) || is_const(b, false)) {
        const Boolean& x = is_const(a, false) ? b : a;
        cs.enforce("enforce equal to zero", LC(), LC(), x.lc());
        return util::Status();
    }
    LC c = a.lc();
    c -= b.lc();
    cs.enforce("enforce equal", LC(), LC(), c);
    return util::Status();
}

// ---- bit decompositions ----

util::Result<std::vector<AllocatedBit>> field_into_allocated_bits_le(
    ConstraintSystem& cs, const std::optional<Fr>& value) {
    constexpr size_t kNumBits = 255;  // Fr::NUM_BITS
    std::optional<Fr::Int> v;
    if (value && cs.computes_values()) v = value->to_int();
    std::vector<AllocatedBit> bits;
    bits.reserve(kNumBits);
    for (size_t i = 0; i < kNumBits; ++i) {
        std::optional<bool> b;
        if (v) b = v->bit(i);
        CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, Name("bit ", i), b));
        bits.push_back(bit);
    }
    return bits;
}

util::Result<std::vector<Boolean>> to_bits_le(ConstraintSystem& cs, const Name& name,
                                              const AllocatedNum& num) {
    r1cs::Namespace ns(cs, name);
    CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedBit> bits,
                          field_into_allocated_bits_le(cs, num.value));
    cs.enforce_lazy("unpacking constraint", [&] {
        LC lc;
        Fr coeff = Fr::one();
        for (const AllocatedBit& bit : bits) {
            lc.add(coeff, bit.var);
            coeff = coeff + coeff;
        }
        lc -= num.var;
        return r1cs::LcRow{LC(), LC(), std::move(lc)};
    });
    return std::vector<Boolean>(bits.begin(), bits.end());
}

std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
    while (bits.size() % 8 != 0) bits.push_back(Boolean::constant(false));
    for (size_t i = 0; i < bits.size(); i += 8) {
        for (size_t k = 0; k < 4; ++k) std::swap(bits[i + k], bits[i + 7 - k]);
    }
    return bits;
}

}  // namespace cuzk::gadgets
