// DeviceCircuit: a compiled circuit (groth16::CompiledCircuit) resident on the GPU, so that per
// proof only the witness z = (inputs, aux) crosses the bus and the rest is computed there
// (DESIGN.md §1: "a = A·z, b = B·z, c = C·z — SpMV on the GPU"; §4: "a/b/c live on the GPU").
// Host C++ header (no CUDA types); every call runs on the legacy default stream and returns
// once its work is enqueued, except first_unsatisfied_row, which waits for its answer.
//
// Representation on the device (uploaded once, immutable afterwards):
//   per matrix M ∈ {A, B, C}: CSR exactly as r1cs::ShapeRecorder — row_ptr (rows + 1 uint64),
//   col (nnz uint32: input i → i, aux j → num_inputs + j, the column order of z), coeff (nnz
//   uint32 indices into the shared coefficient table of Montgomery Fr values);
//   the gather lists of the A and B MSMs (uint32 indices into z, ascending): A = every input,
//   then the aux variables whose a_aux_density bit is set; B = the inputs whose b_input_density
//   bit is set, then the aux whose b_aux_density bit is set — the order of
//   groth16::gather_msm_scalars, so the scalars equal the CPU prover's. The L MSM's scalars are
//   z's aux part itself (z + num_inputs), no list needed.
// Rows: the circuit's constraints then one row per input (A = x_i), num_rows() in all — the
// rows of a finished r1cs::ProvingAssignment.
//
// Arithmetic: a row's value is Σ coeff·z[col] in Fr (Montgomery, fully reduced), the products
// skipped for the coefficients 1 and −1 (additions / subtractions) — equal to ShapeRecorder's
// multiply element for element.
//
// Errors: kInvalidArgument (a padded length below the rows, null pointers; the device buffers'
// lengths cannot be checked here — z must hold num_columns() values), kUnavailable (no device),
// kResourceExhausted (device memory), kInternal (CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ff/fr.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/witness.hpp"
#include "util/env.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct SpmvOptions {
    // Rows with at least this many entries are summed by a whole warp (lane ℓ takes entries
    // ℓ, ℓ + 32, …, then a shuffle reduction) instead of by one thread; 0 = one thread per row
    // always (env CUZK_SPMV_WARP_ROW_MIN). Same results. A warp holding one long row among
    // short ones otherwise runs that row's entries one after another with 31 lanes idle.
    unsigned warp_row_min = util::env_unsigned("CUZK_SPMV_WARP_ROW_MIN", 32);
};

class DeviceCircuit {
   public:
    ~DeviceCircuit();
    DeviceCircuit(const DeviceCircuit&) = delete;
    DeviceCircuit& operator=(const DeviceCircuit&) = delete;

    // Uploads the CSR matrices, the coefficient table and the A/B gather lists of `circuit`.
    static util::Result<std::unique_ptr<DeviceCircuit>> upload(
        const groth16::CompiledCircuit& circuit);

    size_t num_inputs() const { return num_inputs_; }  // ONE included
    size_t num_aux() const { return num_aux_; }
    size_t num_columns() const { return num_inputs_ + num_aux_; }  // the length of z
    size_t num_rows() const { return num_rows_; }                   // input rows included
    groth16::WitnessShape witness_shape() const { return {num_inputs_, num_aux_, num_rows_}; }
    size_t a_count() const { return a_count_; }  // scalars of the A MSM (= its section's size)
    size_t b_count() const { return b_count_; }  // scalars of the B MSMs (G1 and G2)
    size_t device_bytes() const;

    // a[r], b[r], c[r] = (A·z)[r], (B·z)[r], (C·z)[r] for r < num_rows(); zero for
    // num_rows() ≤ r < padded_len (the H step's domain). z: num_columns() device Fr; a, b, c:
    // padded_len device Fr each, not overlapping z.
    util::Status multiply(const ff::Fr* z, ff::Fr* a, ff::Fr* b, ff::Fr* c, size_t padded_len,
                          const SpmvOptions& options = {}) const;

    // out[j] = z[list[j]] for the A list (a_count() values) / the B list (b_count() values).
    util::Status gather_a(const ff::Fr* z, ff::Fr* out) const;
    util::Status gather_b(const ff::Fr* z, ff::Fr* out) const;

   private:
    struct Buffers;
    DeviceCircuit() = default;

    std::unique_ptr<Buffers> buffers_;
    size_t num_inputs_ = 0, num_aux_ = 0, num_rows_ = 0, a_count_ = 0, b_count_ = 0;
    size_t nnz_[3] = {0, 0, 0};
};

// The lowest row r < rows with a[r]·b[r] ≠ c[r] (device vectors), or SIZE_MAX when every row
// holds — the GPU counterpart of groth16's satisfaction check. Waits for the answer.
util::Result<size_t> first_unsatisfied_row_device(const ff::Fr* a, const ff::Fr* b,
                                                  const ff::Fr* c, size_t rows);

}  // namespace cuzk::gpu
