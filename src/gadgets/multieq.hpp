// MultiEq: batches several equalities lhs_k = rhs_k, each known to hold over at most num_bits_k
// bits, into one constraint  (Σ 2^{o_k}·lhs_k) · ONE = Σ 2^{o_k}·rhs_k  where o_k is the running
// bit offset (bellperson/bellpepper `gadgets/multieq.rs`). UInt32::addmany pushes its sums here,
// so SHA-256 pays one constraint per ~254 bits of additions instead of one per addition.
//
// Emission rule (multieq.rs enforce_equal / accumulate / Drop): before adding an equality of
// num_bits, if CAPACITY (254 for Fr) ≤ bits_used + num_bits the pending batch is emitted as
// constraint "multieq <ops>" (A = lhs, B = ONE, C = rhs) in the caller's current namespace; the
// last batch is emitted when the Rust MultiEq is dropped. Here that final emission is explicit:
// call finish() where bellperson's MultiEq goes out of scope (sha256_compression_function's
// end). When the constraint system does not want constraints (WitnessOnly), the sides are not
// accumulated and each batch is only counted (ConstraintSystem::enforce_lazy). The destructor asserts (debug builds) that nothing is pending unless discard() was
// called on an error path.
#pragma once

#include <cstddef>

#include "gadgets/num.hpp"
#include "gadgets/term_buffer.hpp"

namespace cuzk::gadgets {

class MultiEq {
   public:
    static constexpr size_t kCapacity = 254;  // Fr::CAPACITY

    explicit MultiEq(ConstraintSystem& cs) : cs_(cs) {}
    ~MultiEq();
    MultiEq(const MultiEq&) = delete;
    MultiEq& operator=(const MultiEq&) = delete;

    ConstraintSystem& cs() { return cs_; }
    size_t bits_used() const { return bits_used_; }
    size_t ops() const { return ops_; }

    // Records lhs = rhs (both < 2^num_bits); may first emit the pending batch. Errors:
    // num_bits ≥ kCapacity (kInvalidArgument).
    util::Status enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs);
    // enforce_equal without the sides, for constraint systems that do not want constraints
    // (!cs().wants_constraints()): the same batching and constraint count, no rows built.
    util::Status count_equal(size_t num_bits);
    // Emits the pending batch, if any (multieq.rs Drop).
    void finish();
    // Drops the pending batch without a constraint (after an error, when the constraint system
    // is abandoned anyway).
    void discard();

   private:
    void accumulate();

    ConstraintSystem& cs_;
    size_t ops_ = 0;
    size_t bits_used_ = 0;
    TermBuffer lhs_, rhs_;  // the pending batch, scaled
};

}  // namespace cuzk::gadgets
