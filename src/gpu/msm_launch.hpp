// Internal to src/gpu: the Pippenger MSM's point kernel launchers (msm_kernels.cu,
// msm_affine_kernels.cu) that msm.cpp calls. Device pointers, enqueued on `stream`; each returns
// the launch error. The work items they read (sorted key/value pairs) are msm_keys_launch.hpp's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpu/device_curve.cuh"
#include "gpu/msm_keys_launch.hpp"

namespace cuzk::gpu::detail {

// The bucket kernel's shape (GpuMsmOptions): the next base prefetched or not, (G1 only;
// ignored for G2) the variant bounded to 3 or 4 blocks per SM, and the threads per block.
struct AccumulateVariant {
    bool prefetch = true;
    unsigned min_blocks = 0;  // 0 (unbounded), 3 or 4 blocks per SM (G1 only)
    unsigned block = 128;     // threads per block: 32, 64 or 128
};

// The bucket step is three launches: fill_identity (every bucket the identity), one of the two
// accumulations below (each finished run to its bucket, or to first/last when the bucket spans
// chunks: msm_run_store.cuh), then combine (the spanning buckets from their pieces).
// The point launchers are templates over the device curve C, instantiated (msm_kernels.cu,
// msm_affine_kernels.cu) for DeviceG1Curve, DeviceG2Curve and DeviceG2LazyCurve (the G2
// kernels with the lazily reduced Fp2 product: GpuMsmOptions::g2_lazy_product).
template <class C>
cudaError_t launch_msm_fill_identity(ec::Xyzz<C>* buckets, uint32_t count, cudaStream_t stream);
template <class C>
cudaError_t launch_msm_combine(const uint32_t* start, const uint32_t* end, uint32_t num_buckets,
                               uint32_t chunk, const ec::Xyzz<C>* first, const ec::Xyzz<C>* last,
                               ec::Xyzz<C>* buckets, cudaStream_t stream);

// XYZZ accumulation: one thread per chunk of `chunk` sorted items, mixed additions
// (msm_kernels.cu). The runs' sums of bucket b < num_buckets are Σ ±bases[value & ~kNegativeFlag]
// over its items; first and last are scratch of ⌈items/chunk⌉ points each.
template <class C>
cudaError_t launch_msm_accumulate(const ec::Affine<C>* bases, const uint32_t* sorted_keys,
                                  const uint32_t* sorted_values, size_t items,
                                  uint32_t num_buckets, uint32_t chunk, ec::Xyzz<C>* buckets,
                                  ec::Xyzz<C>* first, ec::Xyzz<C>* last,
                                  AccumulateVariant variant, cudaStream_t stream);

// Batch-affine accumulation (msm_affine_kernels.cu): the same runs and outputs, each chunk a
// "lane" whose running sum is an affine point, all lanes stepping through their chunks together;
// at every step the lanes' slope denominators share one levelled batch inversion
// (batch_inverse_launch.hpp), so an addition costs about 6 products instead of 10.
// kAffineLanesPerThread lanes per thread form the first level of Montgomery's trick.
// lane_keys / lane_values: ⌈items/chunk⌉·chunk words each, overwritten (the items rewritten
// lane-major by step; the unsorted pairs' buffers serve). scratch: msm_affine_scratch_bytes
// (field_bytes = the size of one base-field element: 48 for G1, 96 for G2) — per lane two field
// elements of running sum and one of prefix product, plus ~2/kAffineLanesPerThread per lane
// for the inversion's levels. scratch may overlap sorted_keys / sorted_values: only the first
// kernel reads them, and nothing writes scratch before it has run. variant.prefetch: each
// thread asks L2 for the point of the lane it visits next (GpuMsmOptions::batch_affine_prefetch);
// variant.fused: each step's additions and the next step's denominators in one kernel
// (GpuMsmOptions::batch_affine_fused); variant.add_min_blocks ≥ 4: G1's addition kernel
// compiled for 4 resident blocks per SM (GpuMsmOptions::batch_affine_add_min_blocks);
// variant.priority (unfused only): each part's denominators and inversion on a stream of the
// greatest priority (GpuMsmOptions::batch_affine_priority); variant.parts: the lanes stepped in
// that many parts on their own streams (1..kMaxAffineParts; GpuMsmOptions::batch_affine_parts).
// The scratch size covers every part count.
inline constexpr size_t kAffineLanesPerThread = 8;
inline constexpr unsigned kMaxAffineParts = 4;
struct AffineVariant {
    bool prefetch = false;
    bool fused = false;
    unsigned add_min_blocks = 0;
    bool priority = false;
    unsigned parts = 2;
    // G2 (Fp2 denominators), unfused steps: the batch inversion in Fp through the norms,
    // d⁻¹ = conj(d)·N(d)⁻¹ (GpuMsmOptions::batch_affine_norm_inverse_g2). Ignored for G1.
    bool norm_inverse = false;
    // Unfused steps of G1, and of G2 with norm_inverse (not the lazy Fp2 product): the
    // gathered points and the running sums in 16-byte accesses
    // (GpuMsmOptions::batch_affine_vector_io), where bases and scratch are 16-byte aligned.
    bool vector_io = false;
    // G1's bounded addition kernel (add_min_blocks ≥ 4, unfused): the inversion walk's running
    // inverse moved on before each addition (GpuMsmOptions::batch_affine_early_advance).
    bool early_advance = false;
};
size_t msm_affine_scratch_bytes(size_t items, uint32_t chunk, size_t field_bytes);
template <class C>
cudaError_t launch_msm_accumulate_affine(const ec::Affine<C>* bases, const uint32_t* sorted_keys,
                                         const uint32_t* sorted_values, size_t items,
                                         uint32_t num_buckets, uint32_t chunk,
                                         ec::Xyzz<C>* buckets, ec::Xyzz<C>* first,
                                         ec::Xyzz<C>* last, uint32_t* lane_keys,
                                         uint32_t* lane_values, void* scratch,
                                         size_t scratch_bytes, AffineVariant variant,
                                         cudaStream_t stream);

// For every window j and segment s of `segment_len` buckets: out[j·segments + s] =
// Σ_{b in segment} (b + w0)·bucket_{j,b} (b counted within the window, w0 = weight_base: 1 for
// the buckets of digit b + 1, 0 for the grid step's row sums), so that the window's weighted
// sum is Σ_s out[j·segments + s].
template <class C>
cudaError_t launch_msm_aggregate(const ec::Xyzz<C>* buckets, unsigned windows,
                                 uint32_t buckets_per_window, uint32_t segment_len,
                                 uint32_t weight_base, ec::Xyzz<C>* out, cudaStream_t stream);

// The same windows step in three kernels that hold at most two points per thread and need no
// per-segment scalar multiple (msm_kernels.cu, "split running sums"): buckets are overwritten
// with their suffix sums within each segment; segment_sums (windows × segments points) is
// scratch; out[j·groups + g] = the sum over the segments s of group g of window j of
// Σ_{b in s} (b + 1)·bucket_{j,b}, so that S_j = Σ_g out[j·groups + g]. segment_len a power of
// two, groups·group·segment_len = buckets_per_window.
template <class C>
cudaError_t launch_msm_aggregate_split(ec::Xyzz<C>* buckets, unsigned windows,
                                       uint32_t buckets_per_window, uint32_t segment_len,
                                       uint32_t groups, uint32_t group, ec::Xyzz<C>* segment_sums,
                                       ec::Xyzz<C>* out, cudaStream_t stream);

// out[j·groups + g] = Σ_{s < group} in[j·(groups·group) + g·group + s] for every window j < windows
// and g < groups: the segments' sums of one window added up in groups on the GPU, so that the
// host adds only windows × groups points.
template <class C>
cudaError_t launch_msm_sum_groups(const ec::Xyzz<C>* in, unsigned windows, uint32_t groups,
                                  uint32_t group, ec::Xyzz<C>* out, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
