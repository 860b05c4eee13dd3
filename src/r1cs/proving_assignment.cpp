#include "r1cs/proving_assignment.hpp"

#include <cassert>

namespace cuzk::r1cs {

ProvingAssignment::ProvingAssignment(const Options& options)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false) {
    if (options.presize) {
        const Capacity& cap = options.capacity;
        capacity_ = cap;
        const size_t rows = cap.constraints + cap.inputs;
        a_.reserve(rows);
        b_.reserve(rows);
        c_.reserve(rows);
        inputs_.reserve(cap.inputs);
        aux_.reserve(cap.aux);
        a_aux_density_.reserve(cap.aux);
        b_aux_density_.reserve(cap.aux);
        b_input_density_.reserve(cap.inputs);
    }
    allocate_one();
}

ProvingAssignment::ProvingAssignment(const ProvingAssignment& parent, ForkTag)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false),
      inputs_(parent.inputs_),
      aux_(parent.aux_),
      a_aux_density_(parent.a_aux_density_),
      b_input_density_(parent.b_input_density_),
      b_aux_density_(parent.b_aux_density_),
      fork_parent_(&parent),
      fork_inputs_(parent.num_inputs()),
      fork_aux_(parent.num_aux()),
      fork_constraints_(parent.num_constraints()) {
    set_counts(fork_inputs_, fork_aux_, fork_constraints_);
}

namespace {
size_t share(size_t capacity, size_t used, size_t count) {
    return capacity > used ? (capacity - used) / count + 1 : 0;
}
}  // namespace

std::vector<std::unique_ptr<ConstraintSystem>> ProvingAssignment::fork(size_t count) {
    std::vector<std::unique_ptr<ConstraintSystem>> out;
    if (finished_ || count == 0) return out;  // nothing may follow finish()
    out.reserve(count);
    const size_t rows = share(capacity_.constraints, num_constraints(), count);
    const size_t aux = share(capacity_.aux, num_aux(), count);
    for (size_t k = 0; k < count; ++k) {
        auto* child = new ProvingAssignment(*this, ForkTag{});
        out.push_back(std::unique_ptr<ConstraintSystem>(child));
        child->a_.reserve(rows);
        child->b_.reserve(rows);
        child->c_.reserve(rows);
        child->aux_.reserve(child->aux_.size() + aux);
    }
    return out;
}

template <class T>
static void append_tail(std::vector<T>& dst, std::vector<T>& src, size_t from) {
    dst.insert(dst.end(), src.begin() + static_cast<std::ptrdiff_t>(from), src.end());
    std::vector<T>().swap(src);  // free the fork's copy now
}

void ProvingAssignment::join_one(ProvingAssignment& child) {
    const size_t new_inputs = child.num_inputs() - child.fork_inputs_;
    const size_t new_aux = child.num_aux() - child.fork_aux_;
    const size_t new_rows = child.num_constraints() - child.fork_constraints_;
    append_tail(a_, child.a_, 0);
    append_tail(b_, child.b_, 0);
    append_tail(c_, child.c_, 0);
    a_aux_density_.or_prefix(child.a_aux_density_, child.fork_aux_);
    a_aux_density_.append_from(child.a_aux_density_, child.fork_aux_);
    b_aux_density_.or_prefix(child.b_aux_density_, child.fork_aux_);
    b_aux_density_.append_from(child.b_aux_density_, child.fork_aux_);
    b_input_density_.or_prefix(child.b_input_density_, child.fork_inputs_);
    b_input_density_.append_from(child.b_input_density_, child.fork_inputs_);
    append_tail(inputs_, child.inputs_, child.fork_inputs_);
    append_tail(aux_, child.aux_, child.fork_aux_);
    set_counts(num_inputs() + new_inputs, num_aux() + new_aux, num_constraints() + new_rows);
}

util::Status ProvingAssignment::join_forks(std::vector<std::unique_ptr<ConstraintSystem>> forks) {
    const size_t inputs = num_inputs(), aux = num_aux(), rows = num_constraints();
    for (const auto& f : forks) {
        const auto* child = dynamic_cast<const ProvingAssignment*>(f.get());
        if (child == nullptr || child->fork_parent_ != this || child->fork_inputs_ != inputs ||
            child->fork_aux_ != aux || child->fork_constraints_ != rows || child->finished_)
            return util::internal_error(
                "join_forks: not a fork of this assignment at its current state");
        if (child->namespace_depth() != 0)
            return util::internal_error("join_forks: a fork has an open namespace");
    }
    for (auto& f : forks) join_one(static_cast<ProvingAssignment&>(*f));
    return util::Status();
}

util::Status ProvingAssignment::adopt(Parts parts) {
    if (finished_ || num_constraints() != 0 || num_inputs() != 1 || num_aux() != 0 ||
        fork_parent_ != nullptr)
        return util::internal_error("ProvingAssignment::adopt: the assignment is not fresh");
    const size_t rows = parts.a.size();
    if (parts.b.size() != rows || parts.c.size() != rows)
        return util::internal_error("ProvingAssignment::adopt: a, b, c differ in length");
    if (parts.inputs.empty() || rows < parts.inputs.size())
        return util::internal_error("ProvingAssignment::adopt: fewer rows than inputs");
    if (parts.a_aux_density.size() != parts.aux.size() ||
        parts.b_aux_density.size() != parts.aux.size() ||
        parts.b_input_density.size() != parts.inputs.size())
        return util::internal_error(
            "ProvingAssignment::adopt: density sizes do not match the assignments");
    a_ = std::move(parts.a);
    b_ = std::move(parts.b);
    c_ = std::move(parts.c);
    inputs_ = std::move(parts.inputs);
    aux_ = std::move(parts.aux);
    a_aux_density_ = std::move(parts.a_aux_density);
    b_input_density_ = std::move(parts.b_input_density);
    b_aux_density_ = std::move(parts.b_aux_density);
    set_counts(inputs_.size(), aux_.size(), rows);
    finished_ = true;
    return util::Status();
}

void ProvingAssignment::release_reservations() {
    if (inputs_.size() <= 1 && aux_.empty()) {
        std::vector<ff::Fr>(inputs_.begin(), inputs_.end()).swap(inputs_);
        std::vector<ff::Fr>().swap(aux_);
    }
}

void ProvingAssignment::finish() {
    assert(!finished_ && "ProvingAssignment::finish called twice");
    append_input_constraints();
    finished_ = true;
}

void ProvingAssignment::on_alloc(const Name&, uint32_t, const ff::Fr* value) {
    aux_.push_back(*value);
    a_aux_density_.push_back();
    b_aux_density_.push_back();
}

void ProvingAssignment::on_alloc_input(const Name&, uint32_t, const ff::Fr* value) {
    inputs_.push_back(*value);
    b_input_density_.push_back();
}

void ProvingAssignment::on_enforce(const Name&, const LC& a, const LC& b, const LC& c) {
    a_.push_back(evaluate(a, inputs_, aux_, nullptr, &a_aux_density_));
    b_.push_back(evaluate(b, inputs_, aux_, &b_input_density_, &b_aux_density_));
    c_.push_back(evaluate(c, inputs_, aux_, nullptr, nullptr));
}

}  // namespace cuzk::r1cs
