#include "r1cs/shape_recorder.hpp"

#include <cassert>
#include <cstdlib>
#include <cstring>
#include <string>

#include "util/env.hpp"
#include "util/page_advice.hpp"

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

void ShapeRecorder::reserve(size_t rows, size_t nnz_a, size_t nnz_b, size_t nnz_c) {
    const size_t nnz[3] = {nnz_a, nnz_b, nnz_c};
    for (int i = 0; i < 3; ++i) {
        matrix_[i].row_ptr.reserve(rows + 1);
        matrix_[i].col.reserve(nnz[i]);
        matrix_[i].coeff.reserve(nnz[i]);
    }
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
    // The arrays are kept for the life of the shape (a compiled circuit): drop the growth slack.
    for (CsrMatrix& m : matrix_) {
        m.row_ptr.shrink_to_fit();
        m.col.shrink_to_fit();
        m.coeff.shrink_to_fit();
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

bool spmv_bit_shortcut_enabled() {
    static const bool on = util::env_switch("CUZK_SPMV_BIT_SHORTCUT", true);
    return on;
}

namespace {

// y = M·z with z[col] given by `value(col)`.
template <class Value>
void csr_multiply_with(const CsrMatrix& m, std::span<const Fr> coefficients, const Value& value,
                       std::vector<Fr>& y, util::ThreadPool& pool) {
    // A large y (4.2 GB per product at 32 GiB) on huge pages, populated on the pool's count of
    // threads: the assign below would otherwise take its ~1 M page faults on one thread.
    const size_t bytes = m.rows() * sizeof(Fr);
    if (util::page_advice_enabled() && bytes >= util::kPageAdviceMinBytes) {
        if (y.capacity() < m.rows()) {
            std::vector<Fr>().swap(y);  // assign overwrites: nothing to carry over
            y.reserve(m.rows());
        }
        util::advise_huge_pages(y.data(), bytes);
        util::populate_pages(y.data(), bytes, pool.size());
    }
    y.assign(m.rows(), Fr::zero());
    const Fr one = Fr::one();
    const bool bit_values = spmv_bit_shortcut_enabled();
    pool.parallel_ranges(m.rows(), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            Fr acc;
            for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
                const Fr& v = value(m.col[k]);
                if (bit_values) {
                    // Most of a circuit's values are bits: 0 adds nothing, 1 adds the
                    // coefficient — no product.
                    if (v.is_zero()) continue;
                    const Fr& c = coefficients[m.coeff[k]];
                    if (v == one) {
                        acc += c;
                    } else {
                        acc += (c == one) ? v : c * v;
                    }
                } else {
                    const Fr& c = coefficients[m.coeff[k]];
                    acc += (c == one) ? v : c * v;
                }
            }
            y[r] = acc;
        }
    });
}

}  // namespace

void csr_multiply(const CsrMatrix& m, std::span<const Fr> coefficients, std::span<const Fr> z,
                  std::vector<Fr>& y, util::ThreadPool& pool) {
    csr_multiply_with(m, coefficients, [z](uint32_t col) -> const Fr& { return z[col]; }, y, pool);
}

void csr_multiply(const CsrMatrix& m, std::span<const Fr> coefficients,
                  std::span<const Fr> inputs, std::span<const Fr> aux, std::vector<Fr>& y,
                  util::ThreadPool& pool) {
    const auto n_inputs = static_cast<uint32_t>(inputs.size());
    const Fr* in = inputs.data();
    const Fr* ax = aux.data();
    csr_multiply_with(
        m, coefficients,
        [in, ax, n_inputs](uint32_t col) -> const Fr& {
            return col < n_inputs ? in[col] : ax[col - n_inputs];
        },
        y, pool);
}

util::Status ShapeRecorder::check_multiply(size_t columns) const {
    if (!finished_) return util::internal_error("ShapeRecorder::multiply before finish()");
    if (columns != num_columns()) {
        std::string msg = "ShapeRecorder::multiply: z has ";
        msg += std::to_string(columns);
        msg += " entries, expected ";
        msg += std::to_string(num_columns());
        return util::invalid_argument(std::move(msg));
    }
    return util::Status();
}

util::Status ShapeRecorder::multiply(std::span<const Fr> z, std::vector<Fr>& az,
                                     std::vector<Fr>& bz, std::vector<Fr>& cz,
                                     util::ThreadPool* pool) const {
    CUZK_RETURN_IF_ERROR(check_multiply(z.size()));
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    csr_multiply(matrix_[0], coefficients_, z, az, p);
    csr_multiply(matrix_[1], coefficients_, z, bz, p);
    csr_multiply(matrix_[2], coefficients_, z, cz, p);
    return util::Status();
}

util::Status ShapeRecorder::multiply(std::span<const Fr> inputs, std::span<const Fr> aux,
                                     std::vector<Fr>& az, std::vector<Fr>& bz,
                                     std::vector<Fr>& cz, util::ThreadPool* pool) const {
    CUZK_RETURN_IF_ERROR(check_multiply(inputs.size() + aux.size()));
    if (inputs.size() != num_inputs())
        return util::invalid_argument("ShapeRecorder::multiply: wrong number of inputs");
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    csr_multiply(matrix_[0], coefficients_, inputs, aux, az, p);
    csr_multiply(matrix_[1], coefficients_, inputs, aux, bz, p);
    csr_multiply(matrix_[2], coefficients_, inputs, aux, cz, p);
    return util::Status();
}

CsrColumns group_by_column(const CsrMatrix& m, size_t num_columns) {
    CsrColumns out;
    out.offset.assign(num_columns + 1, 0);
    for (uint32_t c : m.col) ++out.offset[c + 1];
    for (size_t c = 0; c < num_columns; ++c) out.offset[c + 1] += out.offset[c];
    out.row.resize(m.nnz());
    out.coeff.resize(m.nnz());
    std::vector<uint64_t> cursor(out.offset.begin(), out.offset.end() - 1);
    for (size_t r = 0; r < m.rows(); ++r) {
        for (uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
            const uint64_t at = cursor[m.col[e]]++;
            out.row[at] = static_cast<uint32_t>(r);
            out.coeff[at] = m.coeff[e];
        }
    }
    return out;
}

}  // namespace cuzk::r1cs
