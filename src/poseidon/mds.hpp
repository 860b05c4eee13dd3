// Poseidon's MDS matrix and its sparse factorisation (neptune 11 `src/mds.rs`).
//
// M is the t×t Cauchy matrix M[i][j] = 1/(x_i + y_j) with x_i = i, y_j = t + j (i, j < t); it is
// symmetric. For the optimised permutation M is factored (Poseidon paper, appendix B): with
//   M'  = [[1, 0], [0, M̂]]                     (M̂ = M without row 0 and column 0)
//   M'' = [[M00, v], [ŵ, I]]                     (v = M[0][1..], ŵ = M̂⁻¹·w, w = M[1..][0])
// M = M'·M''. factor_to_sparse_matrixes(M, n) repeats this n times from the last partial round
// backwards: C_0 = M; C_{k+1} = M·C_k'; the sparse factors C_k'' are collected and reversed, and
// the final C_n is the pre-sparse matrix applied after the last initial full round.
#pragma once

#include <cstddef>
#include <vector>

#include "poseidon/matrix.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

// A matrix of the form M'' stored compactly: w_hat = its first column (all t rows), v_rest = its
// first row without the first entry (t − 1 values); the rest is the identity.
struct SparseMatrix {
    std::vector<Fr> w_hat;
    std::vector<Fr> v_rest;

    size_t size() const { return w_hat.size(); }
    Matrix to_matrix() const;
};

struct MdsMatrices {
    Matrix m;
    Matrix m_inv;
    Matrix m_hat;
    Matrix m_hat_inv;
    Matrix m_prime;
    Matrix m_double_prime;
};

// The t×t Cauchy matrix (neptune `generate_mds`).
Matrix generate_mds(size_t width);
// neptune `derive_mds_matrices`; an error if m or its minor (0, 0) is singular.
util::Result<MdsMatrices> derive_mds_matrices(const Matrix& m);
// (pre_sparse, sparse matrices in application order) for n partial rounds
// (neptune `factor_to_sparse_matrices`, and `factor_to_sparse_matrixes` for the compact form).
util::Result<std::pair<Matrix, std::vector<Matrix>>> factor_to_sparse_matrices(const Matrix& base,
                                                                               size_t n);
util::Result<std::pair<Matrix, std::vector<SparseMatrix>>> factor_to_sparse_matrixes(
    const Matrix& base, size_t n);

}  // namespace cuzk::poseidon
