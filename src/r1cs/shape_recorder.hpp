// ShapeRecorder: records the circuit's shape — the matrices A, B, C — without values
// (shape-only mode: computes_values() is false, value functions are never called). The shape of
// a circuit is the same for every witness, so it is recorded once and reused: a·z, b·z, c·z per
// proof by multiply() (or by the GPU's SpMV over the same arrays).
//
// Representation (after finish()): each matrix in CSR —
//   row_ptr  rows+1 offsets (uint64: nnz may exceed 2^32), row r = entries [row_ptr[r],
//            row_ptr[r+1]);
//   col      the variable's column: input i → i, aux j → num_inputs + j, i.e. the column
//            order of z = (inputs, aux) (WitnessOnly::z). Within a row, columns increase;
//   coeff    an index into coefficients(), the deduplicated table of coefficient values
//            (Montgomery Fr; a circuit uses few distinct values: 1, −1, powers of two, …).
// Only terms with a non-zero coefficient are stored (zero terms contribute nothing to A·z
// and set no density bit), so per row every column appears at most once with a non-zero value.
// Rows: the circuit's constraints in enforce order, then finish()'s input rows (A = x_i).
// Before finish(), col holds Variable keys (aux flagged by bit 31), since the number of inputs
// is only known at the end; finish() renumbers them once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::r1cs {

struct CsrMatrix {
    std::vector<uint64_t> row_ptr{0};
    std::vector<uint32_t> col;
    std::vector<uint32_t> coeff;

    size_t rows() const { return row_ptr.size() - 1; }
    size_t nnz() const { return col.size(); }
};

// A CSR matrix's entries grouped by column (a counting sort; within a column, in row order):
// column c's entries are e = offset[c] … offset[c + 1] − 1, each with its row and coefficient id.
// What Mᵀ·v needs (the setup's u, v, w; the coset-Lagrange S = Cᵀ·R).
struct CsrColumns {
    std::vector<uint64_t> offset;  // num_columns + 1
    std::vector<uint32_t> row, coeff;
};
CsrColumns group_by_column(const CsrMatrix& m, size_t num_columns);

class ShapeRecorder final : public ConstraintSystem {
   public:
    ShapeRecorder();

    // Reserves the arrays for `rows` rows (input rows included) and these non-zero counts
    // (e.g. from a Counter: its nnz plus one per input in A), so that recording allocates once
    // and exactly. Optional; the result is the same.
    void reserve(size_t rows, size_t nnz_a, size_t nnz_b, size_t nnz_c);
    // Appends the input rows and renumbers the columns. Call once, after synthesis.
    void finish();
    bool finished() const { return finished_; }

    const CsrMatrix& a() const { return matrix_[0]; }
    const CsrMatrix& b() const { return matrix_[1]; }
    const CsrMatrix& c() const { return matrix_[2]; }
    const std::vector<ff::Fr>& coefficients() const { return coefficients_; }
    size_t num_columns() const { return num_inputs() + num_aux(); }

    // The densities implied by the matrices (bellperson's rule: a variable is marked when it
    // has a non-zero entry in A's aux columns, resp. B's input and aux columns). After finish.
    DensityBits a_aux_density() const;
    DensityBits b_input_density() const;
    DensityBits b_aux_density() const;

    // az = A·z, bz = B·z, cz = C·z for z = (inputs, aux) of length num_columns(). Rows are
    // split across the pool (nullptr = util::ThreadPool::global()). Errors: not finished, wrong
    // length of z.
    util::Status multiply(std::span<const ff::Fr> z, std::vector<ff::Fr>& az,
                          std::vector<ff::Fr>& bz, std::vector<ff::Fr>& cz,
                          util::ThreadPool* pool = nullptr) const;
    // The same with z given as its two parts (no concatenated copy): inputs (num_inputs()
    // entries) and aux (num_aux()).
    util::Status multiply(std::span<const ff::Fr> inputs, std::span<const ff::Fr> aux,
                          std::vector<ff::Fr>& az, std::vector<ff::Fr>& bz,
                          std::vector<ff::Fr>& cz, util::ThreadPool* pool = nullptr) const;

   private:
    util::Status check_multiply(size_t columns) const;
    struct FrHash {
        size_t operator()(const ff::Fr& x) const {
            uint64_t h = x.limb[0] ^ (x.limb[1] * 0x9e3779b97f4a7c15ULL);
            h ^= (x.limb[2] + (h << 6)) ^ (x.limb[3] * 0xc2b2ae3d27d4eb4fULL);
            return static_cast<size_t>(h ^ (h >> 29));
        }
    };

    void on_alloc(const Name&, uint32_t, const ff::Fr*) override {}
    void on_alloc_input(const Name&, uint32_t, const ff::Fr*) override {}
    void on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) override;
    void record(CsrMatrix& m, const LC& lc);
    uint32_t coefficient_index(const ff::Fr& value);
    DensityBits density(const CsrMatrix& m, bool aux) const;

    CsrMatrix matrix_[3];
    std::vector<ff::Fr> coefficients_;
    std::unordered_map<ff::Fr, uint32_t, FrHash> coefficient_ids_;
    bool finished_ = false;
};

// Whether the products take the short-cut for z values 0 and 1 (skip / add the coefficient,
// no field product): on unless CUZK_SPMV_BIT_SHORTCUT=0. Same result either way.
bool spmv_bit_shortcut_enabled();

// y = M·z for one CSR matrix (y resized to M.rows()).
void csr_multiply(const CsrMatrix& m, std::span<const ff::Fr> coefficients,
                  std::span<const ff::Fr> z, std::vector<ff::Fr>& y, util::ThreadPool& pool);
// The same with z = (inputs, aux) given in two parts.
void csr_multiply(const CsrMatrix& m, std::span<const ff::Fr> coefficients,
                  std::span<const ff::Fr> inputs, std::span<const ff::Fr> aux,
                  std::vector<ff::Fr>& y, util::ThreadPool& pool);

}  // namespace cuzk::r1cs
