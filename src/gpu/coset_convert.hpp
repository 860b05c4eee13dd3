// Coset-Lagrange H bases for a parameter file's points, made on the GPU: a resident monomial set
// (ResidentParams::load of a .params file, or the GPU setup's) is converted in place into the
// derived set of groth16/coset_bases.hpp — h ← Q (m points), l ← L − S, the inputs' S on the host —
// without the toxic waste. The prover then needs four of the H step's six transforms and makes
// the same proofs, byte for byte.
//
// What runs (m = 2^n the domain, s = 1/(m·Z_g), Z_g = g^m − 1):
//   R:  W_j ← s·H_j (j < m − 1; W_{m−1} = O), then W ← Σ_j ω^−jk·W_j — a radix-2 transform over
//       G1 (bit reversal, n decimation-in-time stages of m/2 butterflies, one twiddle
//       multiplication each: ~m·n/2 variable-base multiplications);
//   S:  S_i = Σ_k C_ki·R_k by column of C (r1cs::group_by_column), in column ranges: a thread adds
//       up to `entries_per_thread` entries (coefficient 1 / −1 by addition, others by
//       multiplication), long columns' partial sums again until one is left; then for aux
//       variables L_i − S_i is normalized and written over l, the inputs' S_i go to the host;
//   Q:  W_j ← s·g^−j·H_j, the same transform, then h is reallocated to m points and W normalized
//       into it.
// Every multiplication is k·P = k1·P + k2·[x²]P (ec::split_by_x_squared, the scalars split on the
// host) with windows of options.mul_window in Jacobian coordinates; the twiddles ω^−i (i < m/2) are split once.
// Device memory beyond the set: W (m Jacobian points, 144 bytes each: 19.3 GB at m = 2^27), the
// twiddles (m/2 × 32 bytes), a column range's entries, partial sums and its S (≈ 144 bytes ×
// (chunk_points + entries/entries_per_thread) + 8 bytes per entry).
// The work memory is taken from the device when the conversion runs (in the engine, inside a
// prover call: from the memory kept for the prover, not from the parameter cache's budget).
// Errors: kInvalidArgument when the set is not monomial or does not fit the shape (inputs, aux,
// domain); CUDA errors as Status. After an error the set is half converted: drop it.
// Host C++ header (no CUDA types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "gpu/coset_mul_window.hpp"
#include "gpu/resident_params.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/env.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"
#include "util/trace.hpp"

namespace cuzk::gpu {

struct CosetConvertOptions {
    size_t chunk_points = size_t{1} << 22;  // points scaled per upload; columns per S range
    unsigned entries_per_thread = 64;  // C entries (partial sums: at least 2) a thread adds up
    // The multiplications' windows (coset_mul_window.hpp; env CUZK_COSET_MUL_WINDOW). u4x2 by
    // default: unsigned 4-bit windows, kernels bounded for two blocks per SM — 13 % faster than
    // unbounded u4; the signed forms' smaller tables measured slower (bench/RESULTS.md, sessions
    // 35–36).
    MulWindow mul_window = parse_mul_window(util::env_string("CUZK_COSET_MUL_WINDOW"),
                                            MulWindow::kUnsigned4TwoBlocks);
    util::ThreadPool* pool = nullptr;       // host work (twiddles, splits); null: global
    util::PhaseTimes* times = nullptr;      // coset_r, coset_s, coset_q (ms, device included)
    // After each step: its name ("r", "s", "q") and units done / total (transform stages, or
    // columns for "s").
    std::function<void(const char* step, uint64_t done, uint64_t total)> progress;
};

// kInvalidArgument unless the set (either basis) has the circuit's inputs, aux variables and
// domain size, and the shape is finished.
util::Status check_params_fit_shape(const ResidentParams& params, const r1cs::ShapeRecorder& shape);

util::Status convert_params_to_coset_lagrange(ResidentParams& params,
                                              const r1cs::ShapeRecorder& shape,
                                              const CosetConvertOptions& options = {});

}  // namespace cuzk::gpu
