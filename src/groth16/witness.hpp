// Witness: a circuit's assignment alone — what the compiled path (groth16/compiled_circuit.hpp)
// proves from when a backend computes a = A·z, b = B·z, c = C·z itself (the GPU's SpMV,
// gpu/device_circuit.hpp): z = (inputs, aux), the column order of r1cs::ShapeRecorder.
//
// generate_witness runs the circuit into an r1cs::WitnessOnly (challenges forked on
// r1cs::synthesis_pool() as in synthesis; the hot gadgets skip their linear combinations) and
// checks it against the compiled shape: the input, aux and constraint counts, and ONE first.
// Errors are prefixed "circuit K: " (groth16::circuit_prefix) like synthesize_into's:
// kInvalidArgument for counts that differ (not this compiled circuit), the circuit's own errors
// otherwise ("circuit K: witness: ...").
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/circuit.hpp"
#include "groth16/compiled_circuit.hpp"
#include "util/status.hpp"
#include "util/trace.hpp"

namespace cuzk::groth16 {

struct Witness {
    std::vector<ff::Fr> inputs;  // ONE first
    std::vector<ff::Fr> aux;
};

// The counts a witness must have: those of a compiled circuit (CompiledCircuit, or its device
// copy gpu::DeviceCircuit). inputs includes ONE; rows includes the input rows.
struct WitnessShape {
    size_t inputs = 0, aux = 0, rows = 0;
    static WitnessShape of(const CompiledCircuit& c) {
        return {c.num_inputs(), c.num_aux(), c.num_rows()};
    }
};

util::Status generate_witness(const Circuit& circuit, const WitnessShape& shape, size_t index,
                              Witness& out);

// The witness's sizes against the shape, and inputs[0] = 1. Errors: kInvalidArgument,
// "circuit K: ...".
util::Status check_witness_shape(const Witness& w, const WitnessShape& shape, size_t index);

struct Proof;
struct ProverRandomness;

// More witnesses for a prover call that is already running (the engine's partitions that become
// ready while the GPU proves earlier ones: the call goes on instead of ending and a new one
// paying its set-up and first upload again). A call with a feed proves its own witnesses
// 0 .. n−1 first, then asks next(n), next(n + 1), … until one answers false; done(k, proof,
// phases) after each circuit, with circuit k's own phase times (its upload included; proof null:
// circuit k failed and the call ends). The prover may ask for k + 1 while it proves k, on
// another thread than done's.
class WitnessFeed {
   public:
    virtual ~WitnessFeed() = default;
    // Circuit k's witness (owned by the feed, valid until the call returns; the prover may move
    // its vectors out) and randomness, or false: the call has no circuit k. May block, but must
    // answer once done(k − 1, …) has been called.
    virtual bool next(size_t k, Witness*& witness, ProverRandomness& randomness) = 0;
    virtual void done(size_t k, const Proof* proof, const util::PhaseTimes& phases) = 0;
};

}  // namespace cuzk::groth16
