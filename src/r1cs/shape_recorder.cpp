#include "r1cs/shape_recorder.hpp"

#include <cassert>
#include <string>

namespace cuzk::r1cs {

using ff::Fr;

ShapeRecorder::ShapeRecorder()
    : ConstraintSystem(/*computes_values=*/false, /*needs_names=*/false) {
    allocate_one();
}

uint32_t ShapeRecorder::coefficient_index(const Fr& value) {
    const auto [it, inserted] =
        coefficient_ids_.try_emplace(value, static_cast<uint32_t>(coefficients_.size()));
    if (inserted) coefficients_.push_back(value);
    return it->second;
}

void ShapeRecorder::record(CsrMatrix& m, const LC& lc) {
    for (const Term& t : lc) {
        if (t.coeff.is_zero()) continue;
        m.col.push_back(t.var.key());
        m.coeff.push_back(coefficient_index(t.coeff));
    }
    m.row_ptr.push_back(m.col.size());
}

void ShapeRecorder::on_enforce(const Name&, const LC& a, const LC& b, const LC& c) {
    assert(!finished_ && "ShapeRecorder: enforce after finish");
    record(matrix_[0], a);
    record(matrix_[1], b);
    record(matrix_[2], c);
}

void ShapeRecorder::finish() {
    assert(!finished_ && "ShapeRecorder::finish called twice");
    append_input_constraints();
    // Keys sort inputs before aux, so renumbering keeps every row's columns increasing.
    assert(num_inputs() + num_aux() <= UINT32_MAX);
    const auto aux_base = static_cast<uint32_t>(num_inputs());
    for (CsrMatrix& m : matrix_)
        for (uint32_t& col : m.col) {
            const Variable v = Variable::from_key(col);
            col = v.is_aux() ? aux_base + v.index() : v.index();
        }
    finished_ = true;
}

DensityBits ShapeRecorder::density(const CsrMatrix& m, bool aux) const {
    assert(finished_);
    const size_t n = aux ? num_aux() : num_inputs();
    const size_t base = aux ? num_inputs() : 0;
    DensityBits bits;
    bits.reserve(n);
    for (size_t i = 0; i < n; ++i) bits.push_back();
    for (uint32_t col : m.col)
        if (col >= base && col < base + n) bits.set(col - base);
    return bits;
}

DensityBits ShapeRecorder::a_aux_density() const { return density(matrix_[0], true); }
DensityBits ShapeRecorder::b_input_density() const { return density(matrix_[1], false); }
DensityBits ShapeRecorder::b_aux_density() const { return density(matrix_[1], true); }

void csr_multiply(const CsrMatrix& m, std::span<const Fr> coefficients, std::span<const Fr> z,
                  std::vector<Fr>& y, util::ThreadPool& pool) {
    y.assign(m.rows(), Fr::zero());
    const Fr one = Fr::one();
    pool.parallel_ranges(m.rows(), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            Fr acc;
            for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
                const Fr& c = coefficients[m.coeff[k]];
                const Fr& v = z[m.col[k]];
                acc += (c == one) ? v : c * v;
            }
            y[r] = acc;
        }
    });
}

util::Status ShapeRecorder::multiply(std::span<const Fr> z, std::vector<Fr>& az,
                                     std::vector<Fr>& bz, std::vector<Fr>& cz,
                                     util::ThreadPool* pool) const {
    if (!finished_) return util::internal_error("ShapeRecorder::multiply before finish()");
    if (z.size() != num_columns()) {
        std::string msg = "ShapeRecorder::multiply: z has ";
        msg += std::to_string(z.size());
        msg += " entries, expected ";
        msg += std::to_string(num_columns());
        return util::invalid_argument(std::move(msg));
    }
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    csr_multiply(matrix_[0], coefficients_, z, az, p);
    csr_multiply(matrix_[1], coefficients_, z, bz, p);
    csr_multiply(matrix_[2], coefficients_, z, cz, p);
    return util::Status();
}

}  // namespace cuzk::r1cs
