#include "groth16/compiled_circuit.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "groth16/prover_parts.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/fork.hpp"
#include "r1cs/witness_only.hpp"
#include "util/env.hpp"
#include "util/timer.hpp"

namespace cuzk::groth16 {

namespace {

// -1: not decided yet (read the environment on first use); 0 / 1.
std::atomic<int> g_compiled{-1};

util::Status prefixed(size_t index, const util::Status& st, const char* what) {
    std::string m = circuit_prefix(index);
    m += what;
    m += st.message();
    return util::Status(st.code(), std::move(m));
}

// "circuit K: witness has X WHAT but the compiled shape has Y"
util::Status count_mismatch(size_t index, size_t have, const char* what, size_t want) {
    std::string m = circuit_prefix(index);
    m += "witness has ";
    m += std::to_string(have);
    m += ' ';
    m += what;
    m += " but the compiled shape has ";
    m += std::to_string(want);
    return util::invalid_argument(std::move(m));
}

size_t csr_bytes(const r1cs::CsrMatrix& m) {
    return m.row_ptr.capacity() * sizeof(uint64_t) + m.col.capacity() * sizeof(uint32_t) +
           m.coeff.capacity() * sizeof(uint32_t);
}

size_t density_bytes(const r1cs::DensityBits& d) { return d.words().capacity() * sizeof(uint64_t); }

}  // namespace

bool compiled_synthesis_enabled() {
    int v = g_compiled.load(std::memory_order_relaxed);
    if (v < 0) {
        v = util::env_switch("CUZK_COMPILED_SYNTHESIS", true) ? 1 : 0;
        g_compiled.store(v, std::memory_order_relaxed);
    }
    return v == 1;
}

void set_compiled_synthesis(bool enabled) { g_compiled.store(enabled ? 1 : 0); }

size_t CompiledCircuit::Size::bytes() const {
    const size_t words = (aux + 63) / 64 * 2 + (inputs + 63) / 64;  // the three density vectors
    return 3 * (rows + 1) * sizeof(uint64_t) + (nnz_a + nnz_b + nnz_c) * 2 * sizeof(uint32_t) +
           num_coefficients * sizeof(ff::Fr) + words * sizeof(uint64_t);
}

util::Result<CompiledCircuit::Size> CompiledCircuit::measure(const Circuit& blank) {
    if (!blank) return util::invalid_argument("measure: empty circuit function");
    r1cs::Counter counter;
    if (util::Status st = blank(counter); !st.ok()) {
        std::string m = "measure: ";
        m += st.message();
        return util::Status(st.code(), std::move(m));
    }
    Size size;
    size.inputs = counter.num_inputs();
    size.aux = counter.num_aux();
    size.rows = counter.num_constraints() + size.inputs;
    size.nnz_a = counter.nnz_a() + size.inputs;  // the input rows: A = x_i
    size.nnz_b = counter.nnz_b();
    size.nnz_c = counter.nnz_c();
    size.num_coefficients = 4096;
    return size;
}

util::Result<std::unique_ptr<CompiledCircuit>> CompiledCircuit::compile(const Circuit& blank,
                                                                        const Size* size) {
    if (!blank) return util::invalid_argument("compile: empty circuit function");
    std::unique_ptr<CompiledCircuit> out(new CompiledCircuit());
    out->shape_ = std::make_unique<r1cs::ShapeRecorder>();
    if (size != nullptr) out->shape_->reserve(size->rows, size->nnz_a, size->nnz_b, size->nnz_c);
    if (util::Status st = blank(*out->shape_); !st.ok()) {
        std::string m = "compile: ";
        m += st.message();
        return util::Status(st.code(), std::move(m));
    }
    out->shape_->finish();
    if (size != nullptr &&
        (out->num_rows() != size->rows || out->num_inputs() != size->inputs ||
         out->num_aux() != size->aux || out->nnz_a() != size->nnz_a ||
         out->nnz_b() != size->nnz_b || out->nnz_c() != size->nnz_c))
        return util::internal_error("compile: the recorded shape differs from the measured one");
    out->a_aux_density_ = out->shape_->a_aux_density();
    out->b_input_density_ = out->shape_->b_input_density();
    out->b_aux_density_ = out->shape_->b_aux_density();
    return out;
}

size_t CompiledCircuit::bytes() const {
    return csr_bytes(shape_->a()) + csr_bytes(shape_->b()) + csr_bytes(shape_->c()) +
           shape_->coefficients().capacity() * sizeof(ff::Fr) + density_bytes(a_aux_density_) +
           density_bytes(b_input_density_) + density_bytes(b_aux_density_);
}

util::Status CompiledCircuit::synthesize_into(const Circuit& circuit, r1cs::ProvingAssignment& pa,
                                              size_t index, util::ThreadPool* pool,
                                              Timing* timing) const {
    if (!circuit) return prefixed(index, util::invalid_argument("empty circuit function"), "");
    if (pa.finished() || pa.num_constraints() != 0 || pa.num_aux() != 0)
        return prefixed(index, util::internal_error("proving assignment is not fresh"), "");
    util::Stopwatch sw;
    pa.release_reservations();
    r1cs::WitnessOnly::Options wo;
    wo.input_capacity = num_inputs();
    wo.aux_capacity = num_aux();
    r1cs::WitnessOnly witness(wo);
    if (util::Status st = circuit(witness); !st.ok()) return prefixed(index, st, "synthesis: ");
    const size_t circuit_rows = num_rows() - num_inputs();
    if (witness.num_inputs() != num_inputs())
        return count_mismatch(index, witness.num_inputs(), "inputs", num_inputs());
    if (witness.num_aux() != num_aux())
        return count_mismatch(index, witness.num_aux(), "aux variables", num_aux());
    if (witness.num_constraints() != circuit_rows)
        return count_mismatch(index, witness.num_constraints(), "constraints", circuit_rows);
    if (timing != nullptr) timing->witness_ms = sw.elapsed_ms();

    sw.reset();
    r1cs::ProvingAssignment::Parts parts;
    parts.inputs = witness.take_inputs();
    parts.aux = witness.take_aux();
    parts.a = pa.take_buffer_a();
    parts.b = pa.take_buffer_b();
    parts.c = pa.take_buffer_c();
    if (util::Status st =
            shape_->multiply(parts.inputs, parts.aux, parts.a, parts.b, parts.c,
                             pool != nullptr ? pool : &r1cs::synthesis_pool());
        !st.ok())
        return prefixed(index, st, "");
    if (timing != nullptr) timing->multiply_ms = sw.elapsed_ms();
    parts.a_aux_density = a_aux_density_;
    parts.b_input_density = b_input_density_;
    parts.b_aux_density = b_aux_density_;
    if (util::Status st = pa.adopt(std::move(parts)); !st.ok()) return prefixed(index, st, "");
    return util::Status();
}

}  // namespace cuzk::groth16
