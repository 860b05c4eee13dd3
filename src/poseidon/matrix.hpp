// Square matrices over Fr for deriving Poseidon's constants (neptune `src/matrix.rs`), and the
// two ways neptune applies a matrix to a state vector.
//
// Representation: n×n, row-major, at(i, j) = row i, column j. Only used while building
// constants (cubic algorithms are fine). Values are plain data.
//
// Conventions (the names of neptune's older matrix.rs; later neptune swapped the two names —
// harmless there, since every matrix it applies through them is symmetric):
//   apply_matrix(M, v)      = M·v        (result[i] = Σ_j M[i][j]·v[j])
//   left_apply_matrix(M, v) = v·M        (result[j] = Σ_i v[i]·M[i][j])
// The permutation multiplies the state as a row vector (state ← state·M), which matters for the
// non-symmetric pre-sparse matrix.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::poseidon {

using ff::Fr;

class Matrix {
   public:
    Matrix() = default;
    explicit Matrix(size_t n) : n_(n), a_(n * n) {}
    static Matrix identity(size_t n);

    size_t size() const { return n_; }
    Fr& at(size_t i, size_t j) { return a_[i * n_ + j]; }
    const Fr& at(size_t i, size_t j) const { return a_[i * n_ + j]; }
    std::span<const Fr> row(size_t i) const { return {a_.data() + i * n_, n_}; }
    const Fr* data() const { return a_.data(); }

    bool is_identity() const;
    friend bool operator==(const Matrix& x, const Matrix& y) {
        return x.n_ == y.n_ && x.a_ == y.a_;
    }

   private:
    size_t n_ = 0;
    std::vector<Fr> a_;
};

// x·y.
Matrix mat_mul(const Matrix& x, const Matrix& y);
Matrix transpose(const Matrix& m);
// m without row i and column j.
Matrix minor(const Matrix& m, size_t i, size_t j);
// The inverse (Gauss–Jordan elimination), or nullopt when m is singular. The inverse of an
// invertible matrix is unique, so this equals neptune's adjugate/determinant result.
std::optional<Matrix> invert(const Matrix& m);

std::vector<Fr> apply_matrix(const Matrix& m, std::span<const Fr> v);       // M·v
std::vector<Fr> left_apply_matrix(const Matrix& m, std::span<const Fr> v);  // v·M

}  // namespace cuzk::poseidon
