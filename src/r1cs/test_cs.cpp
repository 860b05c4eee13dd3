#include "r1cs/test_cs.hpp"

#include <cassert>

namespace cuzk::r1cs {

TestConstraintSystem::TestConstraintSystem()
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/true) {
    allocate_one();
}

void TestConstraintSystem::on_alloc(const Name&, uint32_t, const ff::Fr* value) {
    aux_.push_back(*value);
}

void TestConstraintSystem::on_alloc_input(const Name&, uint32_t, const ff::Fr* value) {
    inputs_.push_back(*value);
}

void TestConstraintSystem::on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) {
    const ff::Fr va = evaluate(a, inputs_, aux_, nullptr, nullptr);
    const ff::Fr vb = evaluate(b, inputs_, aux_, nullptr, nullptr);
    const ff::Fr vc = evaluate(c, inputs_, aux_, nullptr, nullptr);
    if (va * vb == vc) return;
    ++num_unsatisfied_;
    if (first_failure_.has_value()) return;
    std::string full = path_;
    if (!full.empty()) full += '/';
    name.append_to(full);
    first_failure_ = std::move(full);
    first_failure_index_ = num_constraints() - 1;
}

void TestConstraintSystem::on_push_namespace(const Name& name) {
    path_lengths_.push_back(path_.size());
    if (!path_.empty()) path_ += '/';
    name.append_to(path_);
}

void TestConstraintSystem::on_pop_namespace() {
    assert(!path_lengths_.empty() && "pop_namespace without push_namespace");
    path_.resize(path_lengths_.back());
    path_lengths_.pop_back();
}

}  // namespace cuzk::r1cs
