// WitnessOnly: records the witness (input and aux assignments, ONE = input 0 first) and nothing
// else; enforce does nothing. For witness generation feeding a compiled circuit
// (ShapeRecorder::multiply, groth16/compiled_circuit.hpp) or the GPU's SpMV.
//
// wants_constraints() is false by default, so the hot gadgets do not even build the linear
// combinations they would enforce (ConstraintSystem::enforce_lazy / skip_constraints); the
// variables, their order and values, and the constraint count are the same either way.
// Switch: Options::skip_constraints, default from the environment (CUZK_WITNESS_SKIP_LC=0
// makes the gadgets build every LC as for the other backends — for A/B runs).
//
// Forks (ConstraintSystem::fork): like ProvingAssignment's — a fork numbers its own variables
// as if it alone continued from the parent's state and stores only the values of its new
// variables (the backend never reads a value back, so the parent's prefix is not copied);
// join_forks appends each fork's new inputs and aux in order (and adds its constraint count),
// so forked and sequential synthesis give identical assignments. z() and the assignment
// accessors are meaningful on the root only.
#pragma once

#include <memory>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "util/page_advice.hpp"

namespace cuzk::r1cs {

// The default of WitnessOnly::Options::skip_constraints: true unless CUZK_WITNESS_SKIP_LC=0.
bool witness_skips_constraints_default();

class WitnessOnly final : public ConstraintSystem {
   public:
    struct Options {
        size_t input_capacity = 0;  // reservations (0 = none)
        size_t aux_capacity = 0;
        bool skip_constraints = witness_skips_constraints_default();
        // Large value buffers (≥ 64 MiB: a 32 GiB partition's aux is 4.2 GB, each of its 18
        // forks' ~230 MB) backed by huge pages, and before join_forks copies the forks' values
        // into the reserved aux the destination's pages populated on threads of their own
        // (util/page_advice.hpp) — instead of ~1 M page faults and the kernel's zeroing inside
        // the one thread that joins. Same values, same peak memory. Measured on the 2-core
        // development VM (2026-12-03, 32 GiB partition 0, bench synthesis --backend witness):
        // 38.3–39.3 s → 9.9–10.5 s per witness, 6.16 M → 0.10 M minor page faults.
        bool page_advice = util::page_advice_enabled();  // env CUZK_PAGE_ADVICE=0: off
    };
    // input_capacity/aux_capacity: optional reservations (0 = none).
    explicit WitnessOnly(size_t input_capacity = 0, size_t aux_capacity = 0);
    explicit WitnessOnly(const Options& options);

    const std::vector<ff::Fr>& input_assignment() const { return inputs_; }
    const std::vector<ff::Fr>& aux_assignment() const { return aux_; }
    std::vector<ff::Fr> take_inputs() { return std::move(inputs_); }
    std::vector<ff::Fr> take_aux() { return std::move(aux_); }
    // z = (inputs, aux): the column order of ShapeRecorder.
    std::vector<ff::Fr> z() const;

    std::vector<std::unique_ptr<ConstraintSystem>> fork(size_t count) override;
    util::Status join_forks(std::vector<std::unique_ptr<ConstraintSystem>> forks) override;

   private:
    struct ForkTag {};
    WitnessOnly(const WitnessOnly& parent, ForkTag);

    void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_enforce(const Name&, const LC&, const LC&, const LC&) override {}

    void advise(std::vector<ff::Fr>& v) const;

    std::vector<ff::Fr> inputs_, aux_;
    size_t aux_capacity_ = 0;
    bool page_advice_ = false;
    // Set on forks: the parent and its counts at the fork.
    const WitnessOnly* fork_parent_ = nullptr;
    size_t fork_inputs_ = 0, fork_aux_ = 0, fork_constraints_ = 0;
};

}  // namespace cuzk::r1cs
