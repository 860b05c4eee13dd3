// AllocatedBit and Boolean: bits in a constraint system, with bellpepper-core's constant
// short-cuts (bellpepper-core `gadgets/boolean.rs`), plus the bit decompositions the PoRep
// circuit uses: `to_bits_le` of an AllocatedNum (`gadgets/num.rs`, non-strict) and
// `reverse_bit_numbering` (storage-proofs-core `util.rs`).
//
// Representation:
//   AllocatedBit  one aux variable constrained to {0, 1}, with its value when the constraint
//                 system computes values (nullopt otherwise — the same invariant as
//                 AllocatedNum).
//   Boolean       Constant(c) | Is(bit) | Not(bit): a constant costs no variable; Not(bit) is
//                 1 − bit as a linear combination, also free. 8 bytes.
//
// Constraint shapes, operand order and allocation order follow boolean.rs line by line (the
// R1CS must be row-identical to bellperson's, spec/porep-c2-circuit.md "Golden rule"):
//   alloc    aux "boolean";        A = ONE − b,   B = b,        C = 0
//   xor      aux "xor result";     A = a + a,     B = b,        C = a + b − c
//   and      aux "and result";     A = a,         B = b,        C = c
//   and_not  aux "and not result"; A = a,         B = ONE − b,  C = c
//   nor      aux "nor result";     A = ONE − a,   B = ONE − b,  C = c
//   Boolean::sha256_ch   aux "ch";  A = b − c,  B = a,  C = ch − c
//   Boolean::sha256_maj  aux "maj", then bc = b∧c (namespace "b and c"), then
//                        A = 2·bc − b − c,  B = a,  C = bc − maj
//   to_bits_le  255 AllocatedBits LE (namespaces "bit i"), then "unpacking constraint":
//               A = 0, B = 0, C = Σ 2^i·b_i − num
//
// Naming: functions that bellpepper always calls through a fresh namespace take a `name` and
// push it; the bit operations (xor_, and_, …) work in the caller's current namespace, as their
// Rust counterparts do. Trailing underscores avoid the C++ alternative tokens (xor, and, not).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gadgets/num.hpp"
#include "gadgets/term_buffer.hpp"

namespace cuzk::gadgets {

struct AllocatedBit {
    Variable var;
    std::optional<bool> value;

    // A new boolean-constrained aux variable inside namespace `name` (boolean.rs
    // AllocatedBit::alloc). `value` is read only when cs.computes_values().
    static util::Result<AllocatedBit> alloc(ConstraintSystem& cs, const Name& name,
                                            std::optional<bool> value);

    // a ⊕ b, a ∧ b, a ∧ ¬b, ¬a ∧ ¬b: one aux and one constraint each.
    static util::Result<AllocatedBit> xor_(ConstraintSystem& cs, const AllocatedBit& a,
                                           const AllocatedBit& b);
    static util::Result<AllocatedBit> and_(ConstraintSystem& cs, const AllocatedBit& a,
                                           const AllocatedBit& b);
    static util::Result<AllocatedBit> and_not(ConstraintSystem& cs, const AllocatedBit& a,
                                              const AllocatedBit& b);
    static util::Result<AllocatedBit> nor(ConstraintSystem& cs, const AllocatedBit& a,
                                          const AllocatedBit& b);
};

class Boolean {
   public:
    enum class Kind : uint8_t { kConstant, kIs, kNot };

    Boolean() : Boolean(constant(false)) {}
    Boolean(const AllocatedBit& bit) : kind_(Kind::kIs), bit_(bit) {}  // NOLINT: Is(bit)
    static Boolean constant(bool c) {
        Boolean b(AllocatedBit{});
        b.kind_ = Kind::kConstant;
        b.bit_.value = c;
        return b;
    }

    Kind kind() const { return kind_; }
    bool is_constant() const { return kind_ == Kind::kConstant; }
    // The constant's value (kConstant only).
    bool constant_value() const { return *bit_.value; }
    // The underlying bit (kIs / kNot only).
    const AllocatedBit& bit() const { return bit_; }
    // The boolean's value: the constant, the bit's value, or its negation; nullopt when the
    // bit's value is unknown (shape-only constraint systems).
    std::optional<bool> value() const {
        if (kind_ == Kind::kNot && bit_.value) return !*bit_.value;
        return bit_.value;
    }

    // ¬self: Constant(c) → Constant(¬c), Is ↔ Not. No constraint.
    Boolean not_() const;

    // coeff·self as a linear combination (boolean.rs Boolean::lc): Constant(true) → coeff·ONE,
    // Constant(false) → empty, Is(v) → coeff·v, Not(v) → coeff·ONE − coeff·v.
    LC lc(const Fr& coeff) const;
    LC lc() const { return lc(Fr::one()); }
    // out += coeff·self, without a temporary.
    void add_to(LC& out, const Fr& coeff) const;
    void add_to(TermBuffer& out, const Fr& coeff) const;

    // Boolean::xor / and with the constant short-cuts and the Is/Not case analysis of
    // boolean.rs (which operand is `a` in the allocated gadget follows the Rust match arms).
    static util::Result<Boolean> xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
    static util::Result<Boolean> and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
    // (a ∧ b) ⊕ (¬a ∧ c) and (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), with boolean.rs's short-cuts.
    static util::Result<Boolean> sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                           const Boolean& c);
    static util::Result<Boolean> sha256_maj(ConstraintSystem& cs, const Boolean& a,
                                            const Boolean& b, const Boolean& c);

    // a = b (boolean.rs Boolean::enforce_equal): two different constants are an error
    // (kInvalidArgument, "unsatisfiable"); otherwise one constraint A = 0, B = 0, C = a − b
    // ("enforce equal to one": C = ONE − a; "enforce equal to zero": C = a).
    static util::Status enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

   private:
    Kind kind_;
    AllocatedBit bit_;  // for kConstant: var unused, value = the constant
};

// 255 AllocatedBits of `value`, least significant first, each in namespace "bit i"
// (boolean.rs field_into_allocated_bits_le). Works in the current namespace.
util::Result<std::vector<AllocatedBit>> field_into_allocated_bits_le(
    ConstraintSystem& cs, const std::optional<Fr>& value);

// The non-strict little-endian decomposition of `num` (num.rs AllocatedNum::to_bits_le):
// 255 bits and one unpacking constraint, inside namespace `name`. No range check: the bits of
// num + r would satisfy it too.
util::Result<std::vector<Boolean>> to_bits_le(ConstraintSystem& cs, const Name& name,
                                              const AllocatedNum& num);

// Pads with Constant(false) to a multiple of 8, then reverses the bit order inside each byte
// (storage-proofs-core util.rs reverse_bit_numbering). No constraint.
std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits);

// A Boolean's value as a field element (0 or 1); nullopt when unknown.
inline std::optional<Fr> bool_to_fr(std::optional<bool> b) {
    if (!b) return std::nullopt;
    return *b ? Fr::one() : Fr::zero();
}

}  // namespace cuzk::gadgets
