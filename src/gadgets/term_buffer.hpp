// TermBuffer: collects the terms of a large linear combination in any order and builds the
// LinearCombination once, sorted — O(n log n) instead of LinearCombination::add's O(n) shift
// per out-of-order insertion. Used for the big sums of UInt32::addmany and MultiEq (hundreds
// to a few thousand terms per constraint in SHA-256).
//
// build() gives exactly what adding the terms one by one with LinearCombination::add gives:
// one term per variable, coefficients of repeated variables summed (a sum that is zero stays,
// as in bellperson's LinearCombination), terms sorted by variable.
#pragma once

#include <algorithm>
#include <vector>

#include "r1cs/linear_combination.hpp"

namespace cuzk::gadgets {

class TermBuffer {
   public:
    void add(const ff::Fr& coeff, r1cs::Variable var) { terms_.push_back(r1cs::Term{coeff, var}); }
    // += scale · lc
    void add_scaled(const r1cs::LC& lc, const ff::Fr& scale) {
        for (const r1cs::Term& t : lc) terms_.push_back(r1cs::Term{scale * t.coeff, t.var});
    }
    void append(const TermBuffer& o) {
        terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    }
    void append_scaled(const TermBuffer& o, const ff::Fr& scale) {
        for (const r1cs::Term& t : o.terms_) terms_.push_back(r1cs::Term{scale * t.coeff, t.var});
    }
    bool empty() const { return terms_.empty(); }
    void clear() { terms_.clear(); }

    r1cs::LC build() const {
        std::vector<r1cs::Term> sorted = terms_;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const r1cs::Term& x, const r1cs::Term& y) { return x.var < y.var; });
        r1cs::LC out;
        for (size_t i = 0; i < sorted.size();) {
            ff::Fr c = sorted[i].coeff;
            size_t j = i + 1;
            for (; j < sorted.size() && sorted[j].var == sorted[i].var; ++j) c += sorted[j].coeff;
            out.add(c, sorted[i].var);  // increasing variables: an append
            i = j;
        }
        return out;
    }

   private:
    std::vector<r1cs::Term> terms_;
};

}  // namespace cuzk::gadgets
