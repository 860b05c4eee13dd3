#include "poseidon/mds.hpp"

#include <algorithm>
#include <utility>

namespace cuzk::poseidon {
namespace {

// M': row 0 = e_0, rows i ≥ 1 = (0, M[i][1..]) (neptune `make_prime`).
Matrix make_prime(const Matrix& m) {
    Matrix r(m.size());
    r.at(0, 0) = Fr::one();
    for (size_t i = 1; i < m.size(); ++i)
        for (size_t j = 1; j < m.size(); ++j) r.at(i, j) = m.at(i, j);
    return r;
}

// M'': row 0 = (M00, v), rows i ≥ 1 = ŵ[i−1]·e_0 + e_i (neptune `make_double_prime`).
Matrix make_double_prime(const Matrix& m, const Matrix& m_hat_inv) {
    const size_t t = m.size();
    std::vector<Fr> w(t - 1);
    for (size_t i = 1; i < t; ++i) w[i - 1] = m.at(i, 0);
    const std::vector<Fr> w_hat = apply_matrix(m_hat_inv, w);
    Matrix r(t);
    for (size_t j = 0; j < t; ++j) r.at(0, j) = m.at(0, j);
    for (size_t i = 1; i < t; ++i) {
        r.at(i, 0) = w_hat[i - 1];
        r.at(i, i) = Fr::one();
    }
    return r;
}

util::Result<Matrix> checked_inverse(const Matrix& m, const char* what) {
    auto inv = invert(m);
    if (!inv) {
        std::string msg = "poseidon: singular matrix: ";
        msg += what;
        return util::internal_error(std::move(msg));
    }
    return std::move(*inv);
}

}  // namespace

Matrix SparseMatrix::to_matrix() const {
    Matrix m = Matrix::identity(size());
    for (size_t i = 0; i < size(); ++i) m.at(i, 0) = w_hat[i];
    for (size_t j = 0; j < v_rest.size(); ++j) m.at(0, j + 1) = v_rest[j];
    return m;
}

Matrix generate_mds(size_t width) {
    Matrix m(width);
    for (size_t i = 0; i < width; ++i)
        for (size_t j = 0; j < width; ++j)
            m.at(i, j) = Fr::from_u64(i + width + j).inverse();  // x_i + y_j = i + (t + j)
    return m;
}

util::Result<MdsMatrices> derive_mds_matrices(const Matrix& m) {
    MdsMatrices d;
    d.m = m;
    CUZK_ASSIGN_OR_RETURN(d.m_inv, checked_inverse(m, "MDS matrix"));
    d.m_hat = minor(m, 0, 0);
    CUZK_ASSIGN_OR_RETURN(d.m_hat_inv, checked_inverse(d.m_hat, "MDS minor"));
    d.m_prime = make_prime(m);
    d.m_double_prime = make_double_prime(m, d.m_hat_inv);
    return d;
}

util::Result<std::pair<Matrix, std::vector<Matrix>>> factor_to_sparse_matrices(const Matrix& base,
                                                                               size_t n) {
    Matrix curr = base;
    std::vector<Matrix> sparse;
    sparse.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        // Only M̂⁻¹ is needed here (neptune derives all matrices; the others are unused).
        CUZK_ASSIGN_OR_RETURN(Matrix hat_inv, checked_inverse(minor(curr, 0, 0), "sparse factor"));
        sparse.push_back(make_double_prime(curr, hat_inv));
        curr = mat_mul(base, make_prime(curr));
    }
    std::reverse(sparse.begin(), sparse.end());
    return std::make_pair(std::move(curr), std::move(sparse));
}

util::Result<std::pair<Matrix, std::vector<SparseMatrix>>> factor_to_sparse_matrixes(
    const Matrix& base, size_t n) {
    CUZK_ASSIGN_OR_RETURN(auto factored, factor_to_sparse_matrices(base, n));
    std::vector<SparseMatrix> compact;
    compact.reserve(n);
    for (const Matrix& m : factored.second) {
        SparseMatrix s;
        const size_t t = m.size();
        for (size_t i = 0; i < t; ++i) s.w_hat.push_back(m.at(i, 0));
        for (size_t j = 1; j < t; ++j) s.v_rest.push_back(m.at(0, j));
        compact.push_back(std::move(s));
    }
    return std::make_pair(std::move(factored.first), std::move(compact));
}

}  // namespace cuzk::poseidon
