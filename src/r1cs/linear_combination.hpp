// LinearCombination: Σ c_k·v_k over ff::Fr, the A, B or C side of one R1CS constraint.
//
// Representation: terms sorted by Variable key (inputs before aux, each by index), at most one
// term per variable: adding a term for a variable already present adds the coefficients
// (bellperson's Indexer::insert_or_update). Storage is a small buffer of kInlineTerms terms
// inside the object (most LCs of the PoRep circuit have 1–4 terms) and a heap vector beyond.
// Appending a variable larger than the last one (the usual case: gadgets add fresh variables)
// is O(1); other insertions binary-search and shift.
//
// Zero coefficients are KEPT: a term whose coefficient is zero, or whose coefficients cancel to
// zero, stays in the list, as in bellperson. Every consumer treats such a term as absent:
// evaluate() skips it (no value, no density bit — bellperson's eval_with_trackers only touches
// a variable whose coefficient is non-zero) and ShapeRecorder does not store it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/density.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

class LinearCombination {
   public:
    static constexpr size_t kInlineTerms = 4;

    LinearCombination() {}
    LinearCombination(const LinearCombination& o);
    LinearCombination(LinearCombination&& o) noexcept;
    LinearCombination& operator=(const LinearCombination& o);
    LinearCombination& operator=(LinearCombination&& o) noexcept;
    ~LinearCombination() = default;
    LinearCombination(Variable v) { add(ff::Fr::one(), v); }   // NOLINT: implicit by design
    LinearCombination(const Term& t) { add(t.coeff, t.var); }  // NOLINT: implicit by design
    static LinearCombination zero() { return LinearCombination(); }

    // Inserts c·v, or adds c to v's coefficient when v is present.
    LinearCombination& add(const ff::Fr& c, Variable v);

    size_t size() const { return on_heap() ? heap_.size() : inline_size_; }
    bool empty() const { return size() == 0; }
    std::span<const Term> terms() const { return {data(), size()}; }
    const Term* begin() const { return data(); }
    const Term* end() const { return data() + size(); }
    // The coefficient of v (zero when absent).
    ff::Fr coeff_of(Variable v) const;
    void clear();

    LinearCombination& operator+=(Variable v) { return add(ff::Fr::one(), v); }
    LinearCombination& operator-=(Variable v) { return add(-ff::Fr::one(), v); }
    LinearCombination& operator+=(const Term& t) { return add(t.coeff, t.var); }
    LinearCombination& operator-=(const Term& t) { return add(-t.coeff, t.var); }
    LinearCombination& operator+=(const LinearCombination& o);
    LinearCombination& operator-=(const LinearCombination& o);
    // Multiplies every coefficient by s.
    LinearCombination& operator*=(const ff::Fr& s);

    friend LinearCombination operator+(LinearCombination x, Variable v) { return x += v; }
    friend LinearCombination operator-(LinearCombination x, Variable v) { return x -= v; }
    friend LinearCombination operator+(LinearCombination x, const Term& t) { return x += t; }
    friend LinearCombination operator-(LinearCombination x, const Term& t) { return x -= t; }
    friend LinearCombination operator+(LinearCombination x, const LinearCombination& y) {
        return x += y;
    }
    friend LinearCombination operator-(LinearCombination x, const LinearCombination& y) {
        return x -= y;
    }
    friend LinearCombination operator*(LinearCombination x, const ff::Fr& s) { return x *= s; }
    friend LinearCombination operator*(const ff::Fr& s, LinearCombination x) { return x *= s; }

   private:
    bool on_heap() const { return !heap_.empty(); }
    const Term* data() const { return on_heap() ? heap_.data() : inline_.t; }
    Term* data() { return on_heap() ? heap_.data() : inline_.t; }
    void insert_at(size_t pos, const Term& t);

    // Inline terms, left uninitialized: only the first inline_size_ are live (constructing,
    // copying and moving an LC touch only those, not the whole buffer).
    union InlineTerms {
        InlineTerms() {}
        Term t[kInlineTerms];
    };
    InlineTerms inline_;
    std::vector<Term> heap_;    // non-empty iff the terms live here
    uint32_t inline_size_ = 0;  // 0 when on the heap
};

using LC = LinearCombination;

// Sums of bare terms and variables start a LinearCombination: x + y, 2·x − y, ...
inline LC operator+(const Term& x, const Term& y) { return LC(x) += y; }
inline LC operator-(const Term& x, const Term& y) { return LC(x) -= y; }
inline LC operator+(Variable x, Variable y) { return LC(x) += y; }
inline LC operator-(Variable x, Variable y) { return LC(x) -= y; }
inline LC operator+(const Term& x, Variable y) { return LC(x) += y; }
inline LC operator-(const Term& x, Variable y) { return LC(x) -= y; }
inline LC operator+(Variable x, const Term& y) { return LC(x) += y; }
inline LC operator-(Variable x, const Term& y) { return LC(x) -= y; }

// ⟨lc, z⟩ with z = (inputs, aux), exactly as bellperson's eval_with_trackers: a term with a zero
// coefficient is skipped; any other term adds coeff·value (no product when coeff is one) and
// sets its variable's bit in input_density / aux_density when that tracker is given. Indices
// must be within the spans (debug-checked).
ff::Fr evaluate(const LinearCombination& lc, std::span<const ff::Fr> inputs,
                std::span<const ff::Fr> aux, DensityBits* input_density, DensityBits* aux_density);

// Only the density side of evaluate(): marks the variables with non-zero coefficients.
void mark_density(const LinearCombination& lc, DensityBits* input_density,
                  DensityBits* aux_density);

}  // namespace cuzk::r1cs
