#include "r1cs/constraint_system.hpp"

#include <cassert>

namespace cuzk::r1cs {

void Name::append_to(std::string& out) const {
    out.append(text_);
    if (indexed_) out += std::to_string(index_);
}

std::string Name::str() const {
    std::string s;
    append_to(s);
    return s;
}

void ConstraintSystem::allocate_one() {
    assert(num_inputs_ == 0 && num_aux_ == 0);
    const ff::Fr one = ff::Fr::one();
    const util::Result<Variable> v = alloc_input("ONE", one);
    assert(v.ok() && v->is_one());
    (void)v;
}

util::Result<Variable> ConstraintSystem::commit(bool input, const Name& name, const ff::Fr* value) {
    size_t& count = input ? num_inputs_ : num_aux_;
    if (count > Variable::kMaxIndex) {
        std::string msg = "too many variables (limit 2^31) at ";
        name.append_to(msg);
        return util::out_of_range(std::move(msg));
    }
    const auto index = static_cast<uint32_t>(count++);
    if (input) {
        on_alloc_input(name, index, value);
        return Variable::input(index);
    }
    on_alloc(name, index, value);
    return Variable::aux(index);
}

util::Result<Variable> ConstraintSystem::missing(const Name& name) const {
    std::string msg = "assignment missing for ";
    name.append_to(msg);
    return util::invalid_argument(std::move(msg));
}

void ConstraintSystem::append_input_constraints() {
    const size_t n = num_inputs_;
    const LC zero;
    for (size_t i = 0; i < n; ++i)
        enforce(Name("input constraint ", i), LC(Variable::input(static_cast<uint32_t>(i))), zero,
                zero);
}

}  // namespace cuzk::r1cs
