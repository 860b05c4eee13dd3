// One MSM split as the Groth16 prover splits it, every step on the GPU:
// Σ k_i·P_i = Σ_{k_i = 1} P_i + Σ_{k_i ∉ {0,1}} k_i·P_i (zeros dropped) — SupraSeal's
// decomposition (cuzk-supraseal-reference.md §2.4), and what groth16/prover.cpp's msm_sets does
// on the CPU.
//   1. gpu::classify_scalars     — ones bitmap, the other scalars (canonical) and their indices;
//   2. gpu::batch_add_g1 / _g2   — the sum of the bases under the ones bitmap;
//   3. gpu::msm_g1_device / _g2_device — the tail MSM over the other scalars, through their
//      index list into the resident bases (nothing is gathered or copied through the host).
// Only the two counts and the batch sum come back to the host between the steps.
// Host C++ header: no CUDA types. Errors as msm_g1's.
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

// What one split MSM did: the scalar classes and the milliseconds of its three steps (each
// measured to its end on the device).
struct SplitMsmCounts {
    size_t ones = 0, others = 0;  // zeros = n − ones − others
    double classify_ms = 0, batch_add_ms = 0, tail_ms = 0;
    GpuMsmTimings tail_steps;  // the tail MSM's own step times (zero when there are no others)
};

// scalars: bases.size() device-resident Fr (Montgomery form). Synchronous (default stream).
util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);
util::Result<ec::G2Jacobian> msm_g2_split(const DeviceG2Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);

// The same over any device-accessible base array (e.g. a gpu::ResidentParams section).
util::Result<ec::G1Jacobian> msm_g1_split(const ec::G1Affine* bases, size_t n,
                                          const ff::Fr* scalars, const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);
util::Result<ec::G2Jacobian> msm_g2_split(const ec::G2Affine* bases, size_t n,
                                          const ff::Fr* scalars, const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);

// Convenience: uploads the Fr scalars (scalars.size() == bases.size()).
util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);
util::Result<ec::G2Jacobian> msm_g2_split(const DeviceG2Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);

}  // namespace cuzk::gpu
