// Insertion of an AllocatedNum into a list at a position given by bits (storage-proofs-core
// `gadgets/insertion.rs`): the Merkle-path gadget puts the current node among its siblings.
//
//   pick(cond, a, b)  = cond ? a : b: aux "pick result", constraint "pick":
//                       A = b − a, B = cond, C = b − c   (1 constraint, 1 aux)
//   insert_2          2 picks ("binary insert 0/1")
//   insert_4          8 picks (p0_x0, p0, p1_x0, p1, p2_x1, p2, p3_x1, p3)
//   insert_8          b0 nor b1, b0 and b1, then 20 picks (22 constraints); bits 0 and 1 must be
//                     allocated, non-negated bits
//   insert            dispatches on the size (2, 4, 8), else `select` per position
//                     (size·(size − 1) picks)
// `bits` are the position, least significant first; elements.size() + 1 = 2^bits.size().
// insert and insert_N work in the caller's current namespace, as in insertion.rs.
#pragma once

#include <span>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

util::Result<AllocatedNum> pick(ConstraintSystem& cs, const Name& name, const Boolean& condition,
                                const AllocatedNum& a, const AllocatedNum& b);

// from[n] where n is given by path_bits (LSB first); from.size() = 2^path_bits.size().
util::Result<AllocatedNum> select(ConstraintSystem& cs, const Name& name,
                                  std::span<const AllocatedNum> from,
                                  std::span<const Boolean> path_bits);

util::Result<std::vector<AllocatedNum>> insert_2(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements);
util::Result<std::vector<AllocatedNum>> insert_4(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements);
util::Result<std::vector<AllocatedNum>> insert_8(ConstraintSystem& cs, const AllocatedNum& element,
                                                 std::span<const Boolean> bits,
                                                 std::span<const AllocatedNum> elements);
// Errors: sizes that do not match (elements.size() + 1 ≠ 2^bits.size()), or for size 8,
// bits 0/1 not allocated non-negated bits.
util::Result<std::vector<AllocatedNum>> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                               std::span<const Boolean> bits,
                                               std::span<const AllocatedNum> elements);

}  // namespace cuzk::gadgets
