#include "groth16/witness.hpp"

#include <string>

#include "groth16/prover_parts.hpp"
#include "r1cs/witness_only.hpp"

namespace cuzk::groth16 {

util::Status check_witness_shape(const Witness& w, const WitnessShape& shape, size_t index) {
    if (w.inputs.size() != shape.inputs || w.aux.size() != shape.aux) {
        std::string m = circuit_prefix(index);
        m += "the witness has ";
        m += std::to_string(w.inputs.size());
        m += " inputs and ";
        m += std::to_string(w.aux.size());
        m += " aux values but the compiled circuit has ";
        m += std::to_string(shape.inputs);
        m += " and ";
        m += std::to_string(shape.aux);
        return util::invalid_argument(std::move(m));
    }
    if (w.inputs.empty() || w.inputs[0] != ff::Fr::one())
        return util::invalid_argument(circuit_prefix(index) += "the witness's input 0 is not ONE");
    return util::Status();
}

util::Status generate_witness(const Circuit& circuit, const WitnessShape& shape, size_t index,
                              Witness& out) {
    if (!circuit) return util::invalid_argument(circuit_prefix(index) += "empty circuit function");
    r1cs::WitnessOnly::Options o;
    o.input_capacity = shape.inputs;
    o.aux_capacity = shape.aux;
    r1cs::WitnessOnly w(o);
    if (util::Status st = circuit(w); !st.ok()) {
        std::string m = circuit_prefix(index);
        m += "witness: ";
        m += st.message();
        return util::Status(st.code(), std::move(m));
    }
    const size_t constraints = w.num_constraints();
    out.inputs = w.take_inputs();
    out.aux = w.take_aux();
    if (constraints + shape.inputs != shape.rows) {
        std::string m = circuit_prefix(index);
        m += "the circuit has ";
        m += std::to_string(constraints);
        m += " constraints, not the compiled circuit's ";
        m += std::to_string(shape.rows - shape.inputs);
        return util::invalid_argument(std::move(m));
    }
    return check_witness_shape(out, shape, index);
}

}  // namespace cuzk::groth16
