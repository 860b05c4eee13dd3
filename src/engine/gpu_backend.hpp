// The GPU prover as an engine backend (built only with CUDA: CUZK_HAVE_GPU).
//
// Devices: every visible CUDA device, or the ordinals in GpuBackendOptions::devices (each opened
// GpuBackendOptions::instances_per_device times, 1 by default: see there). Each device
// has its own gpu::ParamsCache (LRU within that device's free memory less a reserve for the
// prover's buffers, pinned-host fallback: gpu/params_cache.hpp), so a parameter set is resident
// once per device. Every CUDA use runs with its device made current on the calling thread
// (cudaSetDevice, the previous device restored after): the gpu layer allocates, launches and
// queries on the current device. load_params and evict_params act on every device (loads in
// parallel, one thread per device); prove() takes a device from a DevicePicker (the least busy,
// round-robin among equals: engine/device_picker.hpp), holds that device's lock for the call
// (one call per device at a time: the prover's buffers are sized for the whole device), pins
// its set there and runs gpu::prove_gpu_assignments. parallel_provers() = number of devices, so
// the engine's default prover_workers gives every device a prover thread of its own.
// install_generated_params runs gpu::generate_resident_params on every device (in parallel) and
// inserts each result into that device's cache as a permanent entry (ParamsCache::insert) —
// placed on the device when it fits the device's parameter budget, else in pinned host memory.
// device_status() reports, per device, its memory, its name, the circuits proved on it (each
// counted as its proof is made) and whether a prover call holds it now.
// The phase names are the GPU prover's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/prover_backend.hpp"
#include "groth16/coset_bases.hpp"
#include "util/status.hpp"

namespace cuzk::engine {

struct GpuBackendOptions {
    bool subgroup_check = true;  // of parameter points when a file is loaded
    // The H bases the compiled path proves over. kCosetLagrange: each device converts a file's
    // set once, the first time it proves with it (gpu::ParamsCache::acquire_coset_lagrange:
    // minutes at 32 GiB, logged on stderr), and keeps the converted set in its cache; the H step
    // then runs four transforms instead of six (groth16/coset_bases.hpp), same proofs. Proofs
    // on assignments (direct synthesis), load_params and held parameters
    // (install_generated_params) keep their monomial sets.
    groth16::HBasis h_basis = groth16::HBasis::kMonomial;
    // With kCosetLagrange: the directory of converted sets (gpu::ParamsCacheOptions::
    // coset_bases_dir): a file's converted bases are saved there after the first conversion and
    // read from there by later processes and other devices (seconds instead of minutes). Empty:
    // not kept.
    std::string coset_bases_dir;
    // Device memory kept out of each device's parameter cache for the prover's buffers (at
    // least 40 % of the device is kept in any case: ~57 GB on a 141 GB H200, about what a 32 GiB
    // partition's full plan needs on the compiled path beside its 44 GiB of parameters; ~34 GB
    // on an 80 GB card, where its lean plan fits — gpu_backend.cpp, open_device).
    uint64_t prover_reserve_bytes = uint64_t{24} << 30;
    // CUDA device ordinals to use (each at most once); empty: every visible device.
    std::vector<unsigned> devices;
    // Instances of each device (1 or more): every instance is a device of its own to the
    // backend — its own parameter cache, prover lock and picker slot — on the same card, so
    // that several prover calls run there at once, and the card's parameter budget is split
    // evenly between them. For exercising the several-device paths (picker, per-device caches,
    // loads on one thread per device, concurrent calls) on a machine with one card: the test
    // engine_2kib_gpu_two_instances. Each instance keeps its own copy of a parameter set.
    unsigned instances_per_device = 1;
};

// kUnavailable when the build has no CUDA or no device is usable (with the reason);
// kInvalidArgument when `devices` names an ordinal that does not exist or one twice, or when
// instances_per_device is 0.
util::Result<std::unique_ptr<ProverBackend>> make_gpu_backend(const GpuBackendOptions& options);

}  // namespace cuzk::engine
