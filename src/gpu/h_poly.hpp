// The quotient polynomial H of the Groth16 prover on the GPU — bellperson's execute_fft
// (spec/porep-c2-circuit.md §4.2; the CPU reference is groth16::compute_h_scalars, which this
// must equal bit for bit):
//   a, b, c ← zero-padded to m; each: iNTT (×1/m) then coset NTT (coefficient i ×= g^i);
//   a ← (a·b − c)·(g^m − 1)⁻¹ pointwise;  a ← inverse coset NTT;  H = a[0 .. m−2].
// Fusions (each saves a pass over the vector): the iNTT's 1/m and the coset shift g^i are one
// scaling (coefficient i ×= g^i/m between the two transforms); the pointwise step is one
// kernel. With NttOptions::h_six_transforms (the default) c skips the coset altogether:
//   a, b ← iNTT then coset NTT;  a ← a·b;  H = (icoset(a) − iNTT(c))·(g^m − 1)⁻¹,
// the same H by linearity of the last transform, one transform of m fewer.
// With coset-Lagrange bases (groth16/coset_bases.hpp: the parameter set's H bases are Q, and C
// is folded into L) the step stops at the coset product, in four transforms:
//   a, b ← iNTT then coset NTT;  a ← a·b  — the H MSM's m scalars, c not read.
// With NttOptions::h_pooled_twiddle_table (the default) the step takes a table of all m powers
// of ω from the device's ScratchPool for its transforms' outer passes and gives it back, in
// the order of `stream`, when they are done (without one where the pool has no room).
// Host C++ header (no CUDA types).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/ntt.hpp"
#include "groth16/coset_bases.hpp"
#include "util/status.hpp"

struct CUstream_st;

namespace cuzk::gpu {

struct HTimings {
    double upload = 0, ntt = 0, download = 0, total = 0;  // ms
};

// In place on device vectors a, b, c of m = domain.size() Fr each (zero-padded by the caller):
// afterwards a[0 .. m−2] holds H (a[m−1] is the top coefficient, zero for a satisfied witness);
// b and c are clobbered. With `basis` kCosetLagrange a holds the m coset products instead, b is
// clobbered and c is not read (it may be null). Enqueued on `stream`.
util::Status compute_h_device(const NttDomain& domain, ff::Fr* a, ff::Fr* b, ff::Fr* c,
                              CUstream_st* stream, const NttOptions& options = {},
                              groth16::HBasis basis = groth16::HBasis::kMonomial);

// Host convenience: a, b, c (equal lengths n ≥ 1, padded here to the domain of n) in, the m − 1
// H scalars out. Synchronous.
util::Result<std::vector<ff::Fr>> compute_h(std::span<const ff::Fr> a, std::span<const ff::Fr> b,
                                            std::span<const ff::Fr> c,
                                            const NttOptions& options = {},
                                            HTimings* timings = nullptr);

}  // namespace cuzk::gpu
