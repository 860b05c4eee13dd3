// One G1 MSM split as the Groth16 prover splits it, every step on the GPU but the tail's
// hand-over: Σ k_i·P_i = Σ_{k_i = 1} P_i + Σ_{k_i ∉ {0,1}} k_i·P_i (zeros dropped) —
// SupraSeal's decomposition (cuzk-supraseal-reference.md §2.4), and what groth16/prover.cpp's
// msm_sets does on the CPU.
//   1. gpu::classify_scalars  — ones bitmap, the other scalars (canonical) and their indices;
//   2. gpu::batch_add_g1      — the sum of the bases under the ones bitmap;
//   3. the bases of the other scalars are gathered on the device, and gpu::msm_g1 runs over
//      them. msm_g1 takes host scalars and uploaded bases (no index indirection yet), so the
//      gathered bases and scalars make one round trip through the host (k·128 bytes for k
//      other scalars); an msm_g1 over device-resident index lists would remove it.
// Host C++ header: no CUDA types. Errors as msm_g1's.
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {

struct SplitMsmCounts {
    size_t ones = 0, others = 0;  // zeros = n − ones − others
};

// scalars: bases.size() device-resident Fr (Montgomery form). Synchronous (default stream).
util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases, const ff::Fr* scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);

// Convenience: uploads the Fr scalars (scalars.size() == bases.size()).
util::Result<ec::G1Jacobian> msm_g1_split(const DeviceG1Bases& bases,
                                          std::span<const ff::Fr> scalars,
                                          const GpuMsmOptions& options = {},
                                          SplitMsmCounts* counts = nullptr);

}  // namespace cuzk::gpu
