#include "r1cs/linear_combination.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace cuzk::r1cs {

using ff::Fr;

LinearCombination::LinearCombination(const LinearCombination& o)
    : heap_(o.heap_), inline_size_(o.inline_size_) {
    std::copy_n(o.inline_.t, inline_size_, inline_.t);
}

LinearCombination::LinearCombination(LinearCombination&& o) noexcept
    : heap_(std::move(o.heap_)), inline_size_(o.inline_size_) {
    std::copy_n(o.inline_.t, inline_size_, inline_.t);
    o.heap_.clear();
    o.inline_size_ = 0;
}

LinearCombination& LinearCombination::operator=(const LinearCombination& o) {
    if (this == &o) return *this;
    heap_ = o.heap_;
    inline_size_ = o.inline_size_;
    std::copy_n(o.inline_.t, inline_size_, inline_.t);
    return *this;
}

LinearCombination& LinearCombination::operator=(LinearCombination&& o) noexcept {
    if (this == &o) return *this;
    heap_ = std::move(o.heap_);
    inline_size_ = o.inline_size_;
    std::copy_n(o.inline_.t, inline_size_, inline_.t);
    o.heap_.clear();
    o.inline_size_ = 0;
    return *this;
}

void LinearCombination::insert_at(size_t pos, const Term& t) {
    if (on_heap()) {
        heap_.insert(heap_.begin() + static_cast<std::ptrdiff_t>(pos), t);
        return;
    }
    if (inline_size_ < kInlineTerms) {
        for (size_t k = inline_size_; k > pos; --k) inline_.t[k] = inline_.t[k - 1];
        inline_.t[pos] = t;
        ++inline_size_;
        return;
    }
    // Spill to the heap (kInlineTerms + 1 terms, room to grow).
    heap_.reserve(2 * kInlineTerms + 1);
    heap_.assign(inline_.t, inline_.t + inline_size_);
    heap_.insert(heap_.begin() + static_cast<std::ptrdiff_t>(pos), t);
    inline_size_ = 0;
}

LinearCombination& LinearCombination::add(const Fr& c, Variable v) {
    const size_t n = size();
    Term* d = data();
    if (n == 0 || d[n - 1].var < v) {
        insert_at(n, Term{c, v});
        return *this;
    }
    Term* it = std::lower_bound(d, d + n, v, [](const Term& t, Variable x) { return t.var < x; });
    if (it->var == v) {
        it->coeff += c;
    } else {
        insert_at(static_cast<size_t>(it - d), Term{c, v});
    }
    return *this;
}

Fr LinearCombination::coeff_of(Variable v) const {
    const Term* d = data();
    const Term* e = d + size();
    const Term* it = std::lower_bound(d, e, v, [](const Term& t, Variable x) { return t.var < x; });
    return (it != e && it->var == v) ? it->coeff : Fr::zero();
}

void LinearCombination::clear() {
    heap_.clear();
    inline_size_ = 0;
}

LinearCombination& LinearCombination::operator+=(const LinearCombination& o) {
    if (&o == this) return *this *= Fr::from_u64(2);
    for (const Term& t : o) add(t.coeff, t.var);
    return *this;
}

LinearCombination& LinearCombination::operator-=(const LinearCombination& o) {
    if (&o == this) return *this *= Fr::zero();
    for (const Term& t : o) add(-t.coeff, t.var);
    return *this;
}

LinearCombination& LinearCombination::operator*=(const Fr& s) {
    Term* d = data();
    for (size_t k = 0, n = size(); k < n; ++k) d[k].coeff *= s;
    return *this;
}

Fr evaluate(const LinearCombination& lc, std::span<const Fr> inputs, std::span<const Fr> aux,
            DensityBits* input_density, DensityBits* aux_density) {
    Fr acc;
    const Fr one = Fr::one();
    for (const Term& t : lc) {
        if (t.coeff.is_zero()) continue;
        const uint32_t i = t.var.index();
        Fr value;
        if (t.var.is_aux()) {
            assert(i < aux.size());
            value = aux[i];
            if (aux_density != nullptr) aux_density->set(i);
        } else {
            assert(i < inputs.size());
            value = inputs[i];
            if (input_density != nullptr) input_density->set(i);
        }
        // Most values of the PoRep circuit are bits: c·0 adds nothing and c·1 is c, so the
        // product is only formed for other values (same sum, ~3x fewer products).
        if (value.is_zero()) continue;
        if (value == one) {
            acc += t.coeff;
        } else {
            if (!(t.coeff == one)) value *= t.coeff;
            acc += value;
        }
    }
    return acc;
}

void mark_density(const LinearCombination& lc, DensityBits* input_density,
                  DensityBits* aux_density) {
    for (const Term& t : lc) {
        if (t.coeff.is_zero()) continue;
        DensityBits* d = t.var.is_aux() ? aux_density : input_density;
        if (d != nullptr) d->set(t.var.index());
    }
}

}  // namespace cuzk::r1cs
