// Multi-scalar multiplication on the host: Σ k_i·P_i over G1 or G2 by Pippenger's bucket method.
// This is the CPU prover's MSM and the reference every GPU kernel is tested against, so the
// algorithm below is spelled out in full; the GPU version follows the same steps.
//
// Algorithm (for n points, window c bits, h = 2^(c−1) buckets per window):
//   1. Scalars: canonical integers k_i < 2^255 (Fr values are converted once per call, in
//      parallel; the BigInt overload takes them as they are).
//   2. Signed digits (SignedDigits below): k = Σ_j d_j·2^(c·j) over W = ⌊255/c⌋ + 1 windows with
//      every d_j in [−h + 1, h]. A raw window value u_j in [0, 2^c) plus the incoming carry is
//      kept when it is ≤ h and otherwise replaced by u_j + carry − 2^c with a carry of 1 into the
//      next window. Because k < 2^255 and c·W ≥ 256, the last window never carries out.
//   3. Buckets, one window at a time: bucket b (b = 1..h) collects Σ P_i over the i with
//      d_j(k_i) = b and −P_i over those with d_j(k_i) = −b. Points with d_j = 0 cost nothing.
//      Two ways to fill them (MsmMethod), same result:
//      kXyzz        — XYZZ buckets (ec::Xyzz); each point costs one mixed addition
//                     (ec::Xyzz::add_mixed with the affine base or its negation), 8M + 2S.
//                     The plain reference.
//      kBatchAffine — affine buckets. Additions are queued, each bucket at most once per batch
//                     of up to min(h/4, 1024) additions; a batch is then done in affine
//                     coordinates with all slope denominators inverted at once (Montgomery's
//                     trick): λ = (y_p − y_b)/(x_p − x_b), x' = λ² − x_b − x_p,
//                     y' = λ(x_b − x') − y_b, about 6M each plus a share of one inversion. An
//                     addition whose bucket is already in the current batch goes instead into a
//                     second, XYZZ bucket (mixed addition) that is merged at aggregation. Equal
//                     points use the tangent slope 3x²/(2y); P + (−P) empties the bucket.
//   4. Bucket aggregation by running sums: S_j = Σ_b b·B_b = Σ_{b=1..h} (Σ_{b' ≥ b} B_b'), i.e.
//      walking b from h down to 1, running += B_b; total += running — two XYZZ additions per
//      bucket (with affine buckets the first is a mixed addition). Runs of empty buckets are
//      folded into one small multiple (g·running by double-and-add), which only matters when n
//      is small next to h.
//   5. Windows: result = Σ_j 2^(c·j)·S_j by Horner's rule — c doublings between windows.
//
// Cost: about n·W bucket additions + 2·h·W aggregation additions (+ 256 doublings), e.g. for
// n = 2^16 and c = 13: 20 windows × 65,536 = 1.31 M bucket additions (1.25 M with a non-zero
// digit) + ≤ 20 × 4,096 × 2 = 0.16 M aggregation additions.
//
// Window size (default_window_bits): the c in [1, kMaxWindowBits] minimising the cost model
//     W(c) · (n + 3·h(c)) ,  W(c) = ⌊255/c⌋ + 1,  h(c) = 2^(c−1),
// (a full XYZZ addition costs about 1.5 mixed additions, aggregation takes two per bucket). It
// amounts to c ≈ log2(n) − 3, with plateaus where a larger c would not remove a window:
// 2^10 → 7, 2^12 → 9, 2^14 → 10, 2^16 → 13, 2^18 → 14, 2^19..2^22 → 16, 2^23 → 19, 2^24 and
// above → kMaxWindowBits = 20. MsmOptions::window_bits overrides it.
//
// Threading: the work is W × S independent tasks (window j, point chunk s), each with its own
// buckets, producing one partial window sum; partial sums of a window are then added. S (point
// chunks per window) is the smallest makespan under the same cost model:
//     ⌈W·S / T⌉ · (⌈n/S⌉ + 3·h)  for T pool threads,
// so with fewer threads than windows (2 cores: W ≈ 16..22) each window is one task and threads
// split the windows (no aggregation is repeated); with many threads S grows so that every thread
// has work. Measured on 2 cores, n = 2^16, c = 13 (W = 20): splitting windows (S = 1) 0.36 s,
// splitting points (S = 2: both threads do every window over half the points) 0.40–0.50 s —
// the aggregation, a fifth of the work here, is done twice. MsmOptions::point_chunks overrides S.
//
// Preconditions (caller bugs, checked in every build; a violation prints a message and aborts):
//   bases.size() == scalars.size(); canonical scalars below 2^255 (any value in [r, 2^255) gives
//   the same result on the order-r subgroups as k mod r); window_bits ≤ kMaxWindowBits.
// Zero scalars and identity bases are fine (they contribute nothing). Bases need not be in the
// subgroup; the result is then exact for the integer scalars given.
// Thread safety: msm may be called from several threads (calls on one pool are serialized by it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"
#include "ff/fr.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::msm {

inline constexpr unsigned kScalarBits = 255;     // scalars are < 2^255
inline constexpr unsigned kMaxWindowBits = 20;   // 2^19 buckets: 100 MB (G1, XYZZ) per task

// kAuto: kBatchAffine for windows of kBatchAffineMinWindowBits or more (batches of ≥ 512
// additions per inversion), kXyzz below, where the inversion would not pay for itself.
enum class MsmMethod { kAuto, kXyzz, kBatchAffine };
inline constexpr unsigned kBatchAffineMinWindowBits = 12;

struct MsmOptions {
    unsigned window_bits = 0;           // c; 0 = default_window_bits(n)
    util::ThreadPool* pool = nullptr;   // nullptr = util::ThreadPool::global()
    unsigned point_chunks = 0;          // S, point chunks per window; 0 = chosen by cost model
    MsmMethod method = MsmMethod::kAuto;
};

// The default window size for n points (see the header comment); 1 for n ≤ 1.
unsigned default_window_bits(size_t n);

// Point chunks per window for n points, c-bit windows and T threads (see the header comment).
unsigned default_point_chunks(size_t n, unsigned window_bits, unsigned threads);

// Signed base-2^c digits of scalars below 2^255, computed per (scalar, window) without walking
// the lower windows. The carry into window j is 1 exactly when (k mod 2^(c·j)) > H_j, where
// H_j = Σ_{i<j} h·2^(c·i) is the largest value the digits d_0..d_{j−1} can represent (each
// ≤ h); so d_j = u_j + carry_j − 2^c·carry_{j+1} with u_j the raw bits [c·j, c·j + c) of k.
// Every (scalar, window) digit is independent of the others, so a GPU thread can compute its own.
class SignedDigits {
   public:
    explicit SignedDigits(unsigned window_bits);  // 1 ≤ window_bits ≤ kMaxWindowBits

    unsigned window_bits() const { return c_; }
    unsigned num_windows() const { return windows_; }  // ⌊255/c⌋ + 1
    size_t num_buckets() const { return size_t{1} << (c_ - 1); }  // h = 2^(c−1)

    // d_j in [−h + 1, h]; k < 2^255, window < num_windows().
    int digit(const ff::BigInt<4>& k, unsigned window) const;

   private:
    bool carry_into(const ff::BigInt<4>& k, unsigned window) const;

    unsigned c_;
    unsigned windows_;
    std::vector<ff::BigInt<4>> thresholds_;  // H_j, j < windows_
};

// Σ scalars[i]·bases[i]. Scalars in Montgomery form (ff::Fr).
ec::G1Jacobian msm(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars,
                   const MsmOptions& options = {});
ec::G2Jacobian msm(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars,
                   const MsmOptions& options = {});

// The same with canonical integer scalars (< 2^255), skipping the conversion.
ec::G1Jacobian msm(std::span<const ec::G1Affine> bases, std::span<const ff::BigInt<4>> scalars,
                   const MsmOptions& options = {});
ec::G2Jacobian msm(std::span<const ec::G2Affine> bases, std::span<const ff::BigInt<4>> scalars,
                   const MsmOptions& options = {});

// Several MSMs over the same bases: result[k] = Σ_i scalar_sets[k][i]·bases[i] (canonical
// integer scalars, every set as long as bases). One pass over the bases serves all the sets:
// each (window, chunk) task walks its points in cache-sized blocks and lets every set add the
// block's points into its own buckets before moving on, so the parameter bytes are streamed
// from memory once per call instead of once per set — how the prover shares the parameter
// passes across the circuits of one call. Bucket memory
// grows with the number of sets (K·2^(c−1) buckets per task). Same window and chunk choice as
// msm(); with one set it is exactly msm().
std::vector<ec::G1Jacobian> msm_many(std::span<const ec::G1Affine> bases,
                                     std::span<const std::span<const ff::BigInt<4>>> scalar_sets,
                                     const MsmOptions& options = {});
std::vector<ec::G2Jacobian> msm_many(std::span<const ec::G2Affine> bases,
                                     std::span<const std::span<const ff::BigInt<4>>> scalar_sets,
                                     const MsmOptions& options = {});

}  // namespace cuzk::msm
