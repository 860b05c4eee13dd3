// ProvingAssignment: bellperson's prover-side constraint system (spec/porep-c2-circuit.md §4.1),
// the input of the Groth16 prover.
//
// State, after synthesis and finish():
//   input_assignment  x_0..x_{I-1} (x_0 = ONE = 1), aux_assignment w_0..w_{W-1};
//   a, b, c           one entry per constraint: ⟨A_i,z⟩, ⟨B_i,z⟩, ⟨C_i,z⟩, the circuit's
//                     constraints first, then (finish) one row a = x_i, b = 0, c = 0 per input
//                     i in order, ONE included — n = #circuit constraints + I entries;
//   a_aux_density     aux j set iff j occurs with a non-zero coefficient in some A;
//   b_input_density   input i set iff i occurs with a non-zero coefficient in some B;
//   b_aux_density     aux j likewise for B.
// C is evaluated without tracking, inputs in A are not tracked (they are dense in A through the
// input rows) — exactly bellperson's eval_with_trackers calls.
//
// Pre-sizing (run-time switch): with Options::presize and a Capacity hint, every vector is
// reserved up front (n = constraints + inputs for a, b, c), avoiding regrowth copies; the
// results are identical either way.
//
// Forks (ConstraintSystem::fork): a fork copies the values and density bits allocated so far
// (small at the point where circuits fork: the PoRep circuit's shared prelude) and then grows
// its own rows and variables; join_forks appends each fork's rows, new variables and density
// bits in order and ORs the density bits it set on the shared variables. Each fork is presized
// with an equal share of the parent's remaining capacity, and each is freed as soon as it has
// been appended, so a fork-and-join costs about one extra fork's memory, not a second copy.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace cuzk::r1cs {

// Expected sizes of a synthesis (ONE included in inputs; constraints without the input rows).
struct Capacity {
    size_t constraints = 0;
    size_t inputs = 0;
    size_t aux = 0;
};

class ProvingAssignment final : public ConstraintSystem {
   public:
    struct Options {
        bool presize = true;
        Capacity capacity;
    };
    ProvingAssignment() : ProvingAssignment(Options{}) {}
    explicit ProvingAssignment(const Options& options);

    // Appends the input rows (append_input_constraints). Call once, after synthesis.
    void finish();
    bool finished() const { return finished_; }

    const std::vector<ff::Fr>& a() const { return a_; }
    const std::vector<ff::Fr>& b() const { return b_; }
    const std::vector<ff::Fr>& c() const { return c_; }
    const std::vector<ff::Fr>& input_assignment() const { return inputs_; }
    const std::vector<ff::Fr>& aux_assignment() const { return aux_; }
    // Moves a, b or c out (for a prover that transforms them in place); the vector is then
    // empty here.
    std::vector<ff::Fr> take_a() { return std::move(a_); }
    std::vector<ff::Fr> take_b() { return std::move(b_); }
    std::vector<ff::Fr> take_c() { return std::move(c_); }
    std::vector<ff::Fr> take_aux() { return std::move(aux_); }
    const DensityBits& a_aux_density() const { return a_aux_density_; }
    const DensityBits& b_input_density() const { return b_input_density_; }
    const DensityBits& b_aux_density() const { return b_aux_density_; }

    // The finished state built elsewhere — by a compiled circuit (witness + A·z, B·z, C·z;
    // groth16/compiled_circuit.hpp) — rather than by synthesis: a, b, c with the input rows
    // already included, the assignments (ONE first) and the three densities. Only on a fresh
    // assignment (nothing synthesized yet: ONE only, no rows); the counts are set from the
    // vectors. Errors (kInternal): not fresh, or sizes that do not fit together.
    struct Parts {
        std::vector<ff::Fr> a, b, c;
        std::vector<ff::Fr> inputs, aux;
        DensityBits a_aux_density, b_input_density, b_aux_density;
    };
    util::Status adopt(Parts parts);
    // Moves the a, b, c buffers out with their capacity (for adopt's caller to fill and hand
    // back: no second allocation of the presized vectors). Leaves them empty here.
    std::vector<ff::Fr> take_buffer_a() { return std::move(a_); }
    std::vector<ff::Fr> take_buffer_b() { return std::move(b_); }
    std::vector<ff::Fr> take_buffer_c() { return std::move(c_); }
    // Frees the presized input/aux reservations (before the values are produced elsewhere).
    void release_reservations();

    std::vector<std::unique_ptr<ConstraintSystem>> fork(size_t count) override;
    util::Status join_forks(std::vector<std::unique_ptr<ConstraintSystem>> forks) override;

   private:
    struct ForkTag {};
    // A fork of `parent` at its current state (see fork()).
    ProvingAssignment(const ProvingAssignment& parent, ForkTag);
    void join_one(ProvingAssignment& child);

    void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) override;

    std::vector<ff::Fr> a_, b_, c_;
    std::vector<ff::Fr> inputs_, aux_;
    DensityBits a_aux_density_, b_input_density_, b_aux_density_;
    bool finished_ = false;
    // Set on forks: the parent and its counts at the fork.
    Capacity capacity_;  // the presizing hint (zero when not presized)
    const ProvingAssignment* fork_parent_ = nullptr;
    size_t fork_inputs_ = 0, fork_aux_ = 0, fork_constraints_ = 0;
};

}  // namespace cuzk::r1cs
