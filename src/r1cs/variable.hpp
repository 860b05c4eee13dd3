// Variable: a column of the R1CS witness z = (ONE, inputs…, aux…), as in bellperson.
//
// Representation: one 32-bit key. Bit 31 clear: input i (key = i); bit 31 set: aux i
// (key = 2^31 + i). ONE is input 0: every constraint system allocates it first. Ordering by key
// puts every input before every aux variable, which is the order LinearCombination keeps its
// terms in and the column order of ShapeRecorder (inputs first, then aux). Limits: fewer than
// 2^31 inputs and 2^31 aux variables (checked where variables are created).
//
// Term: a coefficient (ff::Fr, Montgomery form) times a variable; `c * v` builds one.
#pragma once

#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

class Variable {
   public:
    enum class Kind : uint8_t { kInput, kAux };
    static constexpr uint32_t kAuxFlag = uint32_t{1} << 31;
    static constexpr uint32_t kMaxIndex = kAuxFlag - 1;

    constexpr Variable() = default;  // ONE
    static constexpr Variable one() { return Variable(0); }
    static constexpr Variable input(uint32_t index) { return Variable(index); }
    static constexpr Variable aux(uint32_t index) { return Variable(index | kAuxFlag); }
    static constexpr Variable from_key(uint32_t key) { return Variable(key); }

    constexpr Kind kind() const { return is_aux() ? Kind::kAux : Kind::kInput; }
    constexpr bool is_aux() const { return (key_ & kAuxFlag) != 0; }
    constexpr bool is_input() const { return !is_aux(); }
    constexpr bool is_one() const { return key_ == 0; }
    constexpr uint32_t index() const { return key_ & kMaxIndex; }
    constexpr uint32_t key() const { return key_; }

    friend constexpr bool operator==(Variable x, Variable y) { return x.key_ == y.key_; }
    friend constexpr bool operator<(Variable x, Variable y) { return x.key_ < y.key_; }

   private:
    explicit constexpr Variable(uint32_t key) : key_(key) {}
    uint32_t key_ = 0;
};

struct Term {
    ff::Fr coeff;
    Variable var;
};

inline Term operator*(const ff::Fr& coeff, Variable var) { return Term{coeff, var}; }

}  // namespace cuzk::r1cs
