// Test-ceremony parameters made directly on the GPU, resident from the start: the fixed-base
// multiplications of groth16 setup (setup.hpp) run on the device and write each point straight
// into its ResidentParams section — no .params file is written or read. For 32 GiB PoRep this is
// ~44 GiB of points (h 2^27 − 1, l and a ~130 M, b ~?) that the CPU would need hours for.
//
// Inputs are groth16::ParameterScalars (computed on the CPU by compute_parameter_scalars from
// the circuit and the toxic waste) — of either H basis: with HBasis::kCosetLagrange the h section
// gets the m points Q, l the aux points with C folded in, and the inputs' C points are made on
// the host (ResidentParams::c_input, groth16/coset_bases.hpp). Per group (G1: ic on the host, then h, l, a, b_g1; G2: b_g2)
// one ec::FixedBaseTable of the generator is built on the host and uploaded (window w: 2^w − 1
// points per window, ⌈255/w⌉ windows); the scalars go up chunk by chunk — converted from
// Montgomery form to canonical integers on the host pool into one half of a pinned staging buffer
// while the other half's copy and kernels run — and each chunk is multiplied (table lookups and
// XYZZ mixed additions) and normalized to affine (Montgomery batch inversion per run of 16
// points) on the device. The result equals groth16::generate_parameters' points exactly (the
// tests compare every point), so proofs made with either verify against the same vk.
// Errors: CUDA errors as Status; scalar counts inconsistent with the domain → kInvalidArgument.
// Host C++ header (no CUDA types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "ec/curves.hpp"
#include "ec/fixed_base.hpp"
#include "ff/fr.hpp"
#include "gpu/resident_params.hpp"
#include "groth16/setup.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"
#include "util/trace.hpp"

namespace cuzk::gpu {

struct GpuSetupOptions {
    unsigned g1_window = 0;                  // 0: ec::choose_fixed_base_window(n, max_window)
    unsigned g2_window = 0;
    unsigned max_window = 16;                // table: 16 windows × 65,535 points at w = 16
    size_t chunk_points = size_t{1} << 22;   // scalars per upload + kernel pass
    Placement placement = Placement::kAuto;  // of the generated sections
    std::string label = "gpu-setup";         // the ResidentParams' path()
    util::ThreadPool* pool = nullptr;        // host work (tables, conversions); null: global
    util::PhaseTimes* times = nullptr;       // setup_gpu_g1, setup_gpu_g2 (ms, device included)
    // After every chunk: the section ("h", "l", "a", "b_g1", "b_g2") and points done / total.
    std::function<void(const char* section, uint64_t done, uint64_t total)> progress;
};

util::Result<ResidentParams> generate_resident_params(const groth16::ParameterScalars& scalars,
                                                      const GpuSetupOptions& options = {});

// The building block (and what the tests compare with ec::FixedBaseTable::mul on the host):
// dev_out[i] = scalars[i]·G in affine, dev_out device-accessible, for the table's base G.
util::Status fixed_base_mul_device(const ec::FixedBaseTable<ec::G1Curve>& table,
                                   std::span<const ff::Fr> scalars, ec::G1Affine* dev_out,
                                   const GpuSetupOptions& options = {});
util::Status fixed_base_mul_device(const ec::FixedBaseTable<ec::G2Curve>& table,
                                   std::span<const ff::Fr> scalars, ec::G2Affine* dev_out,
                                   const GpuSetupOptions& options = {});

}  // namespace cuzk::gpu
