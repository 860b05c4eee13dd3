// TestConstraintSystem: for tests and debugging — evaluates every constraint as it is enforced
// and remembers the full namespaced name of the first one that does not hold, e.g.
// "challenge 3/labeling/sha256/…/constraint name" (namespaces joined by '/', as bellpepper's
// TestConstraintSystem prints them). Counts constraints and variables (the base class does).
//
// The namespace path is kept as one string with a stack of prefix lengths, so push/pop are
// appends and truncations; a constraint's full name is built only when it fails (the first
// time). Names of variables are not stored.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class TestConstraintSystem final : public ConstraintSystem {
   public:
    TestConstraintSystem();

    bool is_satisfied() const { return !first_failure_.has_value(); }
    // The full name of the first unsatisfied constraint, if any.
    const std::optional<std::string>& which_is_unsatisfied() const { return first_failure_; }
    // Index (in enforce order) of the first unsatisfied constraint, if any.
    std::optional<size_t> first_failure_index() const { return first_failure_index_; }
    size_t num_unsatisfied() const { return num_unsatisfied_; }
    // The current namespace path ("" at top level).
    const std::string& path() const { return path_; }

    const std::vector<ff::Fr>& input_assignment() const { return inputs_; }
    const std::vector<ff::Fr>& aux_assignment() const { return aux_; }

   private:
    void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) override;
    void on_push_namespace(const Name& name) override;
    void on_pop_namespace() override;

    std::vector<ff::Fr> inputs_, aux_;
    std::string path_;
    std::vector<size_t> path_lengths_;  // path_.size() before each push
    std::optional<std::string> first_failure_;
    std::optional<size_t> first_failure_index_;
    size_t num_unsatisfied_ = 0;
};

}  // namespace cuzk::r1cs
