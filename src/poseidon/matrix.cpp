#include "poseidon/matrix.hpp"

#include <cassert>
#include <utility>

namespace cuzk::poseidon {

Matrix Matrix::identity(size_t n) {
    Matrix m(n);
    for (size_t i = 0; i < n; ++i) m.at(i, i) = Fr::one();
    return m;
}

bool Matrix::is_identity() const {
    for (size_t i = 0; i < n_; ++i)
        for (size_t j = 0; j < n_; ++j)
            if (at(i, j) != (i == j ? Fr::one() : Fr::zero())) return false;
    return true;
}

Matrix mat_mul(const Matrix& x, const Matrix& y) {
    assert(x.size() == y.size());
    const size_t n = x.size();
    Matrix r(n);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            Fr acc = Fr::zero();
            for (size_t k = 0; k < n; ++k) acc += x.at(i, k) * y.at(k, j);
            r.at(i, j) = acc;
        }
    return r;
}

Matrix transpose(const Matrix& m) {
    Matrix r(m.size());
    for (size_t i = 0; i < m.size(); ++i)
        for (size_t j = 0; j < m.size(); ++j) r.at(j, i) = m.at(i, j);
    return r;
}

Matrix minor(const Matrix& m, size_t i, size_t j) {
    assert(m.size() > 0);
    Matrix r(m.size() - 1);
    size_t ri = 0;
    for (size_t a = 0; a < m.size(); ++a) {
        if (a == i) continue;
        size_t rj = 0;
        for (size_t b = 0; b < m.size(); ++b) {
            if (b == j) continue;
            r.at(ri, rj++) = m.at(a, b);
        }
        ++ri;
    }
    return r;
}

std::optional<Matrix> invert(const Matrix& m) {
    const size_t n = m.size();
    Matrix a = m;
    Matrix inv = Matrix::identity(n);
    for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        while (pivot < n && a.at(pivot, col).is_zero()) ++pivot;
        if (pivot == n) return std::nullopt;
        if (pivot != col) {
            for (size_t j = 0; j < n; ++j) {
                std::swap(a.at(pivot, j), a.at(col, j));
                std::swap(inv.at(pivot, j), inv.at(col, j));
            }
        }
        const Fr scale = a.at(col, col).inverse();
        for (size_t j = 0; j < n; ++j) {
            a.at(col, j) *= scale;
            inv.at(col, j) *= scale;
        }
        for (size_t i = 0; i < n; ++i) {
            if (i == col || a.at(i, col).is_zero()) continue;
            const Fr f = a.at(i, col);
            for (size_t j = 0; j < n; ++j) {
                a.at(i, j) -= f * a.at(col, j);
                inv.at(i, j) -= f * inv.at(col, j);
            }
        }
    }
    return inv;
}

std::vector<Fr> apply_matrix(const Matrix& m, std::span<const Fr> v) {
    assert(m.size() == v.size());
    std::vector<Fr> r(v.size());
    for (size_t i = 0; i < m.size(); ++i) {
        Fr acc = Fr::zero();
        for (size_t j = 0; j < m.size(); ++j) acc += m.at(i, j) * v[j];
        r[i] = acc;
    }
    return r;
}

std::vector<Fr> left_apply_matrix(const Matrix& m, std::span<const Fr> v) {
    assert(m.size() == v.size());
    std::vector<Fr> r(v.size());
    for (size_t j = 0; j < m.size(); ++j) {
        Fr acc = Fr::zero();
        for (size_t i = 0; i < m.size(); ++i) acc += v[i] * m.at(i, j);
        r[j] = acc;
    }
    return r;
}

}  // namespace cuzk::poseidon
