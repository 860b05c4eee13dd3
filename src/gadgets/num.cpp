#include "gadgets/num.hpp"

namespace cuzk::gadgets {

util::Result<AllocatedNum> AllocatedNum::alloc(ConstraintSystem& cs, const Name& name,
                                               const std::optional<Fr>& value) {
    CUZK_ASSIGN_OR_RETURN(Variable var, cs.alloc(name, value));
    return AllocatedNum{var, cs.computes_values() ? value : std::nullopt};
}

util::Result<AllocatedNum> AllocatedNum::alloc_input(ConstraintSystem& cs, const Name& name,
                                                     const std::optional<Fr>& value) {
    CUZK_ASSIGN_OR_RETURN(Variable var, cs.alloc_input(name, value));
    return AllocatedNum{var, cs.computes_values() ? value : std::nullopt};
}

util::Status AllocatedNum::inputize(ConstraintSystem& cs, const Name& name) const {
    r1cs::Namespace ns(cs, name);
    CUZK_ASSIGN_OR_RETURN(Variable input, cs.alloc_input("input variable", value));
    cs.enforce_lazy("enforce input is correct",
                    [&] { return r1cs::LcRow{LC(input), LC(Variable::one()), LC(var)}; });
    return util::Status();
}

util::Result<AllocatedNum> AllocatedNum::mul(ConstraintSystem& cs, const Name& name,
                                             const AllocatedNum& other) const {
    r1cs::Namespace ns(cs, name);
    auto product = map_values(value, other.value, [](const Fr& x, const Fr& y) { return x * y; });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum out, alloc(cs, "product num", product));
    cs.enforce_lazy("multiplication constraint",
                    [&] { return r1cs::LcRow{LC(var), LC(other.var), LC(out.var)}; });
    return out;
}

util::Result<AllocatedNum> AllocatedNum::square(ConstraintSystem& cs, const Name& name) const {
    r1cs::Namespace ns(cs, name);
    auto sq = map_values(value, value, [](const Fr& x, const Fr&) { return x.square(); });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum out, alloc(cs, "squared num", sq));
    cs.enforce_lazy("squaring constraint",
                    [&] { return r1cs::LcRow{LC(var), LC(var), LC(out.var)}; });
    return out;
}

}  // namespace cuzk::gadgets
