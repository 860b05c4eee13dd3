// ConstraintSystem: the one interface every circuit and gadget synthesizes into (bellperson's
// ConstraintSystem trait), with backends for proving, witness generation, testing, shape
// recording and counting (proving_assignment.hpp, witness_only.hpp, test_cs.hpp,
// shape_recorder.hpp, counter.hpp).
//
// Synthesis code is written once and runs in every mode:
//   - computes_values() says whether witness values are wanted. When it is false (ShapeRecorder,
//     Counter), alloc never calls the value function and the backend sees no value, so a
//     gadget may leave its own values empty (std::nullopt). When it is true, a missing value is
//     an error (util::Status, kInvalidArgument, "assignment missing for NAME"), never an
//     exception.
//   - wants_constraints() says whether the backend looks at enforce's linear combinations
//     (false only for WitnessOnly). Hot gadgets then skip building them: they call
//     enforce_lazy(name, build), which runs `build` (returning the three LCs) only when wanted
//     and otherwise just counts the constraint, or skip_constraints(n) where they would emit n
//     rows. Variables are allocated exactly as before (same order, same values), so the
//     witness is identical; only the rows are not built.
//   - needs_names() says whether names are used (only TestConstraintSystem). Names are passed
//     as Name — a string_view plus an optional decimal index suffix ("bit ", 7 → "bit 7") — so
//     a name costs nothing to pass when it is not wanted: no formatting, no allocation; and
//     push/pop_namespace do not even reach the backend (no virtual call).
//
// Variables: every backend allocates ONE as input 0 in its constructor. Inputs and aux are
// numbered in allocation order; the counts (num_inputs, num_aux, num_constraints) are kept here,
// identically for every backend.
//
// Dispatch: alloc/enforce are non-virtual front ends that call one virtual hook each. One
// virtual call per constraint (~1–2 ns, predictable) is small next to building and evaluating
// three LinearCombinations (tens of ns of field work); the alternative, templating every gadget
// on the backend, would compile the whole PoRep circuit five times. The hot production path is
// the compiled circuit (ShapeRecorder's CSR + a native witness generator), not this interface.
//
// Thread safety: none; one constraint system per thread.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"
#include "util/status.hpp"

namespace cuzk::r1cs {

// A constraint, variable or namespace name: text, optionally followed by a decimal index.
// Holds a view: the text must outlive the call it is passed to (a literal or a temporary
// std::string in the calling expression are fine).
class Name {
   public:
    Name(const char* text) : text_(text) {}         // NOLINT: implicit by design
    Name(std::string_view text) : text_(text) {}    // NOLINT: implicit by design
    Name(const std::string& text) : text_(text) {}  // NOLINT: implicit by design
    Name(std::string_view text, uint64_t index) : text_(text), index_(index), indexed_(true) {}

    std::string_view text() const { return text_; }
    void append_to(std::string& out) const;
    std::string str() const;

   private:
    std::string_view text_;
    uint64_t index_ = 0;
    bool indexed_ = false;
};

// The A, B, C linear combinations of one constraint (what enforce_lazy's builder returns).
using LcRow = std::array<LC, 3>;

class ConstraintSystem {
   public:
    virtual ~ConstraintSystem() = default;
    ConstraintSystem(const ConstraintSystem&) = delete;
    ConstraintSystem& operator=(const ConstraintSystem&) = delete;

    bool computes_values() const { return computes_values_; }
    bool needs_names() const { return needs_names_; }
    bool wants_constraints() const { return wants_constraints_; }
    size_t num_inputs() const { return num_inputs_; }  // ONE included
    size_t num_aux() const { return num_aux_; }
    size_t num_constraints() const { return num_constraints_; }

    // A new aux variable with the given value. The value may be a plain ff::Fr, a
    // std::optional<ff::Fr> (nullopt = unknown), or a callable returning one of those or a
    // util::Result<ff::Fr> (an error is returned as it is); the callable runs only when
    // computes_values().
    template <class V>
    util::Result<Variable> alloc(const Name& name, V&& value) {
        return allocate(false, name, std::forward<V>(value));
    }
    // A new public input (same value forms as alloc).
    template <class V>
    util::Result<Variable> alloc_input(const Name& name, V&& value) {
        return allocate(true, name, std::forward<V>(value));
    }

    // The constraint ⟨a,z⟩·⟨b,z⟩ = ⟨c,z⟩.
    void enforce(const Name& name, const LC& a, const LC& b, const LC& c) {
        ++num_constraints_;
        on_enforce(name, a, b, c);
    }
    // enforce(name, a, b, c) with {a, b, c} = build() — build (a callable returning an LcRow,
    // or anything that destructures into three LCs) runs only when
    // wants_constraints(); otherwise the constraint is only counted.
    template <class Build>
    void enforce_lazy(const Name& name, Build&& build) {
        if (!wants_constraints_) {
            ++num_constraints_;
            return;
        }
        const auto& [a, b, c] = build();
        enforce(name, a, b, c);
    }
    // Counts n constraints that a gadget did not build because !wants_constraints() (calling
    // it on a backend that wants constraints is a bug: the rows would be missing).
    void skip_constraints(size_t n) { num_constraints_ += n; }

    void push_namespace(const Name& name) {
        ++namespace_depth_;
        if (needs_names_) on_push_namespace(name);
    }
    void pop_namespace() {
        --namespace_depth_;
        if (needs_names_) on_pop_namespace();
    }
    size_t namespace_depth() const { return namespace_depth_; }

    // ---- parallel synthesis of independent sub-circuits ---------------------------------------
    // A backend that supports it returns `count` forks: constraint systems that see every
    // variable allocated here so far (read-only) and number their own new variables as if each
    // were the only one to continue from this point. Each fork may then be synthesized on its
    // own thread (sub-circuits that use only variables allocated before the fork, never each
    // other's); join_forks appends them in order, with exactly the result of synthesizing
    // their sub-circuits here one after another — same variables, rows, values and densities
    // (r1cs/fork_test.cpp checks this against sequential synthesis). Backends without it
    // (recording, counting, testing: they keep names or shapes in order) return an empty vector
    // and the caller synthesizes sequentially. Nothing may be synthesized into this system
    // between fork and join_forks.
    virtual std::vector<std::unique_ptr<ConstraintSystem>> fork(size_t count) {
        (void)count;
        return {};
    }
    virtual util::Status join_forks(std::vector<std::unique_ptr<ConstraintSystem>> forks) {
        return forks.empty() ? util::Status()
                             : util::internal_error("join_forks: this backend does not fork");
    }

    // Appends, for every input i in order (ONE first), the constraint x_i · 0 = 0 — what
    // bellperson's prover and key generator add after the circuit (spec §4.1). Call it once,
    // after synthesis; ProvingAssignment::finish and ShapeRecorder::finish do.
    void append_input_constraints();

   protected:
    ConstraintSystem(bool computes_values, bool needs_names, bool wants_constraints = true)
        : computes_values_(computes_values),
          needs_names_(needs_names),
          wants_constraints_(wants_constraints) {}
    // Allocates ONE (input 0, value one); each backend's constructor calls it.
    void allocate_one();
    // For forks and joins: the counters of variables and constraints.
    void set_counts(size_t inputs, size_t aux, size_t constraints) {
        num_inputs_ = inputs;
        num_aux_ = aux;
        num_constraints_ = constraints;
    }

    // Hooks. value is non-null iff computes_values(); index is the new variable's index.
    virtual void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) = 0;
    virtual void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) = 0;
    virtual void on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) = 0;
    virtual void on_push_namespace(const Name&) {}
    virtual void on_pop_namespace() {}

   private:
    util::Result<Variable> commit(bool input, const Name& name, const ff::Fr* value);
    util::Result<Variable> missing(const Name& name) const;

    template <class V>
    util::Result<Variable> allocate(bool input, const Name& name, V&& value) {
        using T = std::remove_cvref_t<V>;
        if (!computes_values_) return commit(input, name, nullptr);
        if constexpr (std::is_same_v<T, ff::Fr>) {
            return commit(input, name, &value);
        } else if constexpr (std::is_same_v<T, std::optional<ff::Fr>>) {
            if (!value.has_value()) return missing(name);
            return commit(input, name, &*value);
        } else {
            static_assert(std::invocable<V&>, "alloc value: Fr, optional<Fr> or a callable");
            auto computed = value();
            if constexpr (std::is_same_v<decltype(computed), util::Result<ff::Fr>>) {
                if (!computed.ok()) return computed.status();
                return commit(input, name, &*computed);
            } else {
                return allocate(input, name, computed);
            }
        }
    }

    bool computes_values_;
    bool needs_names_;
    bool wants_constraints_;
    size_t num_inputs_ = 0;
    size_t num_aux_ = 0;
    size_t num_constraints_ = 0;
    size_t namespace_depth_ = 0;
};

// RAII namespace: pushes in the constructor, pops in the destructor.
class Namespace {
   public:
    Namespace(ConstraintSystem& cs, const Name& name) : cs_(cs) { cs.push_namespace(name); }
    ~Namespace() { cs_.pop_namespace(); }
    Namespace(const Namespace&) = delete;
    Namespace& operator=(const Namespace&) = delete;

   private:
    ConstraintSystem& cs_;
};

}  // namespace cuzk::r1cs
