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

}  // namespace cuzk::groth16
