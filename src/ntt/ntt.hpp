// The CPU reference number-theoretic transform over Fr: the oracle every GPU kernel is tested
// against. Clarity first, then speed.
//
// Representation: a polynomial of degree < m is the span of its m coefficients in natural order
// (index i holds the coefficient of x^i); its evaluations are in natural order too (index i holds
// the value at ω^i, or at g·ω^i on the coset). Elements are Montgomery-form ff::Fr. The length m
// must be a power of two with log m ≤ EvaluationDomain::kMaxLogSize (error Status otherwise; the
// data is then left untouched). ω, g = 7 and the scalings are exactly bellperson's
// EvaluationDomain (fft / ifft / coset_fft / icoset_fft / divide_by_z_on_coset, see domain.hpp).
//
// Algorithm: iterative radix-2 Cooley–Tukey decimation in time — bit-reversal permutation, then
// log m butterfly stages of doubling length (Cormen, Leiserson, Rivest, Stein, "Introduction to
// Algorithms", 3rd ed., ch. 30.3, ITERATIVE-FFT). The twiddles ω^j, j < m/2, are computed once
// per call and shared by all stages (stage with butterfly length L uses ω^(j·m/L)). The first
// kLocalLog stages only mix values inside blocks of 2^kLocalLog elements, so each block is taken
// through all of them while it is in cache; the remaining stages are split over the butterflies.
//
// Threads: every function takes an optional pool (nullptr = util::ThreadPool::global()) and
// splits its work over it; below kParallelThreshold elements it runs on the calling thread. The
// result does not depend on the pool or on the number of threads.
#pragma once

#include <cstddef>
#include <span>

#include "ff/fr.hpp"
#include "ntt/domain.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::ntt {

inline constexpr size_t kParallelThreshold = size_t{1} << 10;  // fewer elements: one thread
inline constexpr unsigned kLocalLog = 10;  // 2^10 Fr = 32 KiB per cache-resident block

// a ← (A(ω^i))_i: coefficients → evaluations on the domain (bellperson `fft`).
util::Status forward(std::span<ff::Fr> a, util::ThreadPool* pool = nullptr);
// a ← the coefficients of the polynomial whose evaluations at ω^i were given; the transform with
// ω⁻¹ followed by ×m⁻¹ (bellperson `ifft`).
util::Status inverse(std::span<ff::Fr> a, util::ThreadPool* pool = nullptr);
// a ← (A(g·ω^i))_i: coefficient i ×= g^i, then forward (bellperson `coset_fft`).
util::Status coset_forward(std::span<ff::Fr> a, util::ThreadPool* pool = nullptr);
// Undoes coset_forward: inverse, then coefficient i ×= g^−i (bellperson `icoset_fft`).
util::Status coset_inverse(std::span<ff::Fr> a, util::ThreadPool* pool = nullptr);

// The same four, with the domain's constants instead of recomputing them; a.size() must equal
// domain.size().
util::Status forward(std::span<ff::Fr> a, const EvaluationDomain& domain,
                     util::ThreadPool* pool = nullptr);
util::Status inverse(std::span<ff::Fr> a, const EvaluationDomain& domain,
                     util::ThreadPool* pool = nullptr);
util::Status coset_forward(std::span<ff::Fr> a, const EvaluationDomain& domain,
                           util::ThreadPool* pool = nullptr);
util::Status coset_inverse(std::span<ff::Fr> a, const EvaluationDomain& domain,
                           util::ThreadPool* pool = nullptr);

// Evaluations on the coset of P(x) → of P(x)/Z(x), Z(x) = x^m − 1 constant on the coset: every
// value ×= (g^m − 1)⁻¹ (bellperson `divide_by_z_on_coset`). a.size() must equal domain.size().
util::Status divide_by_z_on_coset(std::span<ff::Fr> a, const EvaluationDomain& domain,
                                  util::ThreadPool* pool = nullptr);

// a[i] ×= g^i for every i (any length, including 0; bellperson `distribute_powers`).
void distribute_powers(std::span<ff::Fr> a, const ff::Fr& g, util::ThreadPool* pool = nullptr);

}  // namespace cuzk::ntt
