#include "r1cs/witness_only.hpp"

#include <cstdlib>
#include <cstring>

#include "util/env.hpp"
#include "util/page_advice.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::r1cs {

bool witness_skips_constraints_default() {
    static const bool skip = util::env_switch("CUZK_WITNESS_SKIP_LC", true);
    return skip;
}

WitnessOnly::WitnessOnly(size_t input_capacity, size_t aux_capacity)
    : WitnessOnly(Options{input_capacity, aux_capacity, witness_skips_constraints_default(),
                          util::page_advice_enabled()}) {}

WitnessOnly::WitnessOnly(const Options& options)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false,
                       /*wants_constraints=*/!options.skip_constraints),
      aux_capacity_(options.aux_capacity),
      page_advice_(options.page_advice) {
    inputs_.reserve(options.input_capacity);
    aux_.reserve(options.aux_capacity);
    advise(aux_);
    allocate_one();
}

void WitnessOnly::advise(std::vector<ff::Fr>& v) const {
    const size_t bytes = v.capacity() * sizeof(ff::Fr);
    if (page_advice_ && bytes >= util::kPageAdviceMinBytes)
        util::advise_huge_pages(v.data(), bytes);
}

WitnessOnly::WitnessOnly(const WitnessOnly& parent, ForkTag)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false,
                       parent.wants_constraints()),
      page_advice_(parent.page_advice_),
      fork_parent_(&parent),
      fork_inputs_(parent.num_inputs()),
      fork_aux_(parent.num_aux()),
      fork_constraints_(parent.num_constraints()) {
    set_counts(fork_inputs_, fork_aux_, fork_constraints_);
}

std::vector<ff::Fr> WitnessOnly::z() const {
    std::vector<ff::Fr> out;
    out.reserve(inputs_.size() + aux_.size());
    out.insert(out.end(), inputs_.begin(), inputs_.end());
    out.insert(out.end(), aux_.begin(), aux_.end());
    return out;
}

std::vector<std::unique_ptr<ConstraintSystem>> WitnessOnly::fork(size_t count) {
    std::vector<std::unique_ptr<ConstraintSystem>> out;
    if (count == 0) return out;
    out.reserve(count);
    const size_t share =
        aux_capacity_ > num_aux() ? (aux_capacity_ - num_aux()) / count + 1 : 0;
    for (size_t k = 0; k < count; ++k) {
        auto* child = new WitnessOnly(*this, ForkTag{});
        out.push_back(std::unique_ptr<ConstraintSystem>(child));
        child->aux_.reserve(share);
        child->advise(child->aux_);
    }
    return out;
}

util::Status WitnessOnly::join_forks(std::vector<std::unique_ptr<ConstraintSystem>> forks) {
    const size_t inputs = num_inputs(), aux = num_aux(), rows = num_constraints();
    for (const auto& f : forks) {
        const auto* child = dynamic_cast<const WitnessOnly*>(f.get());
        if (child == nullptr || child->fork_parent_ != this || child->fork_inputs_ != inputs ||
            child->fork_aux_ != aux || child->fork_constraints_ != rows)
            return util::internal_error(
                "join_forks: not a fork of this witness at its current state");
        if (child->namespace_depth() != 0)
            return util::internal_error("join_forks: a fork has an open namespace");
    }
    for (auto& f : forks) {
        auto& child = static_cast<WitnessOnly&>(*f);
        // The destination's pages faulted in on threads of their own before the copy, one
        // fork at a time (each fork is freed right after its copy: the peak stays one aux).
        const size_t bytes = child.aux_.size() * sizeof(ff::Fr);
        if (page_advice_ && bytes >= util::kPageAdviceMinBytes &&
            aux_.capacity() - aux_.size() >= child.aux_.size()) {
            util::populate_pages(aux_.data() + aux_.size(), bytes,
                                 util::ThreadPool::global().size());
        }
        inputs_.insert(inputs_.end(), child.inputs_.begin(), child.inputs_.end());
        aux_.insert(aux_.end(), child.aux_.begin(), child.aux_.end());
        set_counts(num_inputs() + (child.num_inputs() - child.fork_inputs_),
                   num_aux() + (child.num_aux() - child.fork_aux_),
                   num_constraints() + (child.num_constraints() - child.fork_constraints_));
        std::vector<ff::Fr>().swap(child.inputs_);
        std::vector<ff::Fr>().swap(child.aux_);
    }
    return util::Status();
}

void WitnessOnly::on_alloc(const Name&, uint32_t, const ff::Fr* value) { aux_.push_back(*value); }

void WitnessOnly::on_alloc_input(const Name&, uint32_t, const ff::Fr* value) {
    inputs_.push_back(*value);
}

}  // namespace cuzk::r1cs
