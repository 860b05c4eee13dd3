// CompiledCircuit: a circuit's R1CS shape recorded once, then per proof only the witness is
// generated and a, b, c are computed as sparse matrix products (DESIGN.md §1, §4).
//
// compile(blank) synthesizes the circuit into an r1cs::ShapeRecorder (values never computed)
// and finishes it: the matrices A, B, C in CSR with the input rows appended, the deduplicated
// coefficient table, and the three density bit vectors (which depend only on the shape).
//
// synthesize_into(circuit, pa) then runs the circuit with a witness into an r1cs::WitnessOnly
// (no linear combinations built by the hot gadgets; challenges forked like ProvingAssignment's),
// checks that its variable and constraint counts are the recorded shape's, computes
// a = A·z, b = B·z, c = C·z over z = (inputs, aux) and hands everything to
// ProvingAssignment::adopt. The result equals groth16::synthesize_into's exactly — every vector
// and density (compiled_circuit_test.cpp checks it) — provided the circuit's shape does not
// depend on its witness, which holds for every circuit with Groth16 keys (the keys are made
// from the blank shape). A different shape with the same counts is NOT detected here; the
// prover's optional a·b = c check (check_assignment) would catch it.
//
// Memory: the CSR arrays — per matrix (rows+1)·8 bytes of row offsets and nnz·8 bytes of
// columns and coefficient indices — kept for as long as the object lives (bytes()).
// Thread safety: immutable after compile; synthesize_into may run from several threads.
//
// Switch: compiled_synthesis_enabled() — on unless CUZK_COMPILED_SYNTHESIS=0 (the engine uses
// the compiled path when this is on; the direct provers only where a caller holds a
// CompiledCircuit). On by default since it was measured at 32 GiB on the H200: ten partitions
// in 39.4 s against 182.3 s (bench/RESULTS.md).
#pragma once

#include <cstddef>
#include <memory>

#include "groth16/circuit.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

bool compiled_synthesis_enabled();
void set_compiled_synthesis(bool enabled);

class CompiledCircuit {
   public:
    // Wall-clock split of one synthesize_into call (milliseconds).
    struct Timing {
        double witness_ms = 0;   // the circuit into WitnessOnly
        double multiply_ms = 0;  // A·z, B·z, C·z
    };

    // The sizes of a shape, known before recording it (measure()).
    struct Size {
        size_t rows = 0, inputs = 0, aux = 0;  // rows: input rows included; inputs: ONE too
        size_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
        size_t num_coefficients = 0;  // an upper bound is fine (the table is small)
        // bytes() of the compiled circuit of this size.
        size_t bytes() const;
    };
    // Counts `blank` (an r1cs::Counter pass, about half the cost of recording) so that memory
    // can be reserved before compile(). num_coefficients is left at a generous bound (4,096).
    static util::Result<Size> measure(const Circuit& blank);

    // Records `blank`'s shape (any witness values it carries are ignored). With `size` (from
    // measure()), the arrays are allocated once and exactly: no growth, no transient peak
    // above bytes(). Errors: the circuit's own (prefixed "compile: "); a shape that differs
    // from `size`.
    static util::Result<std::unique_ptr<CompiledCircuit>> compile(const Circuit& blank,
                                                                  const Size* size = nullptr);

    size_t num_inputs() const { return shape_->num_inputs(); }  // ONE included
    size_t num_aux() const { return shape_->num_aux(); }
    size_t num_rows() const { return shape_->a().rows(); }  // input rows included
    size_t nnz_a() const { return shape_->a().nnz(); }
    size_t nnz_b() const { return shape_->b().nnz(); }
    size_t nnz_c() const { return shape_->c().nnz(); }
    size_t num_coefficients() const { return shape_->coefficients().size(); }
    // Host bytes held: CSR arrays, coefficient table and density bits.
    size_t bytes() const;
    const r1cs::ShapeRecorder& shape() const { return *shape_; }

    // The circuit (with witness) into `pa`, which must be fresh (constructed, nothing
    // synthesized; presized or not — its a/b/c reservations are reused). pool: for the
    // products (null = r1cs::synthesis_pool(), where the witness forks too: like the
    // assignment path, a synthesis never makes the provers' loops on the global pool wait). Errors are kInvalidArgument prefixed "circuit K: " like groth16::synthesize_into.
    util::Status synthesize_into(const Circuit& circuit, r1cs::ProvingAssignment& pa,
                                 size_t index, util::ThreadPool* pool = nullptr,
                                 Timing* timing = nullptr) const;

   private:
    CompiledCircuit() = default;

    std::unique_ptr<r1cs::ShapeRecorder> shape_;
    r1cs::DensityBits a_aux_density_, b_input_density_, b_aux_density_;
};

}  // namespace cuzk::groth16
