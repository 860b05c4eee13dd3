// RecordingCS (tests only): a value-computing constraint system that keeps every constraint
// (full namespaced name, A, B, C) and the assignment, so a test can
//   - read the exact shape of a gadget's constraints (which variable on which side, with which
//     coefficient), and
//   - change one witness value afterwards and ask which constraint breaks first — what
//     bellpepper's tests do with TestConstraintSystem::set + which_is_unsatisfied.
#pragma once

#include <cassert>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets::testing {

class RecordingCS final : public r1cs::ConstraintSystem {
   public:
    struct Row {
        std::string name;
        r1cs::LC a, b, c;
    };

    RecordingCS() : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/true) {
        allocate_one();
    }

    const std::vector<Row>& rows() const { return rows_; }
    std::vector<ff::Fr>& aux() { return aux_; }
    std::vector<ff::Fr>& inputs() { return inputs_; }

    ff::Fr eval(const r1cs::LC& lc) const {
        return r1cs::evaluate(lc, inputs_, aux_, nullptr, nullptr);
    }
    bool row_holds(const Row& r) const { return eval(r.a) * eval(r.b) == eval(r.c); }
    // The name of the first constraint that does not hold under the current assignment.
    std::optional<std::string> first_unsatisfied() const {
        for (const Row& r : rows_) {
            if (!row_holds(r)) return r.name;
        }
        return std::nullopt;
    }

   private:
    void on_alloc(const r1cs::Name&, uint32_t, const ff::Fr* value) override {
        aux_.push_back(*value);
    }
    void on_alloc_input(const r1cs::Name&, uint32_t, const ff::Fr* value) override {
        inputs_.push_back(*value);
    }
    void on_enforce(const r1cs::Name& name, const r1cs::LC& a, const r1cs::LC& b,
                    const r1cs::LC& c) override {
        std::string full = path_;
        if (!full.empty()) full += '/';
        name.append_to(full);
        rows_.push_back(Row{std::move(full), a, b, c});
    }
    void on_push_namespace(const r1cs::Name& name) override {
        lengths_.push_back(path_.size());
        if (!path_.empty()) path_ += '/';
        name.append_to(path_);
    }
    void on_pop_namespace() override {
        assert(!lengths_.empty());
        path_.resize(lengths_.back());
        lengths_.pop_back();
    }

    std::vector<Row> rows_;
    std::vector<ff::Fr> inputs_, aux_;
    std::string path_;
    std::vector<size_t> lengths_;
};

// The LC's non-zero terms as (variable key, coefficient) pairs, for shape assertions.
inline bool lc_is(const r1cs::LC& lc,
                  std::initializer_list<std::pair<r1cs::Variable, ff::Fr>> expected) {
    std::vector<std::pair<r1cs::Variable, ff::Fr>> got;
    for (const r1cs::Term& t : lc) {
        if (!t.coeff.is_zero()) got.emplace_back(t.var, t.coeff);
    }
    if (got.size() != expected.size()) return false;
    for (const auto& e : expected) {
        bool found = false;
        for (const auto& g : got) found |= (g.first == e.first && g.second == e.second);
        if (!found) return false;
    }
    return true;
}

}  // namespace cuzk::gadgets::testing
