// Batch addition: Σ_{i selected} P_i for a bit vector of selected bases — what the Groth16
// prover does for the points whose scalar is 1 (most aux values are bits), with the rest going
// through a small MSM. The GPU version mirrors this file.
//
// Selection bit order: bit i (base i) is bit (i % 64) of bits[i / 64], least significant first —
// the layout of a bellperson/SupraSeal density bit vector. bits.size() must be ⌈n/64⌉ for n
// bases (checked; a mismatch aborts); bits of the last word at positions ≥ n are ignored.
// Identity bases are allowed (they contribute nothing), as are repeated bases and P with −P.
//
// Methods (same result, both tested):
//   kXyzz   — one ec::Xyzz mixed addition (8M + 2S) per selected base.
//   kAffine — batch-affine additions: selected bases are gathered into a buffer of up to
//             kAffineBatch points; when it is full it is halved by adding disjoint pairs
//             (P_0 + P_1, P_2 + P_3, ...) in affine coordinates with all the slope denominators
//             inverted at once (Montgomery's trick, ff::batch_inverse: 3M each, one field
//             inversion per round). Per addition: λ = (y_2 − y_1)/(x_2 − x_1), x_3 = λ² − x_1 −
//             x_2, y_3 = λ(x_1 − x_3) − y_1 — about 6M in all, against 10 for kXyzz. Equal
//             points use the tangent slope λ = 3x²/(2y); P + (−P) drops out. When the input is
//             exhausted the buffer is halved down to kAffineTail points, which are finished with
//             XYZZ mixed additions.
// Threading: the bit words are split into about 4 contiguous chunks per pool thread; each chunk
// is summed on its own (either method) and the chunk sums are added in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::msm {

enum class BatchAddMethod { kXyzz, kAffine };

inline constexpr size_t kAffineBatch = 2048;  // buffer that triggers a halving round
inline constexpr size_t kAffineTail = 64;     // below this, finish with XYZZ additions

struct BatchAddOptions {
    BatchAddMethod method = BatchAddMethod::kAffine;
    util::ThreadPool* pool = nullptr;  // nullptr = util::ThreadPool::global()
};

ec::G1Jacobian batch_add(std::span<const ec::G1Affine> bases, std::span<const uint64_t> bits,
                         const BatchAddOptions& options = {});
ec::G2Jacobian batch_add(std::span<const ec::G2Affine> bases, std::span<const uint64_t> bits,
                         const BatchAddOptions& options = {});

}  // namespace cuzk::msm
