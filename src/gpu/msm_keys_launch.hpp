// Internal to src/gpu: the Pippenger MSM's work items — signed digits into (key, value) pairs,
// their sort, and the buckets' ranges in the sorted keys (msm_digits_kernels.cu, msm_sort.cu).
// Device pointers, enqueued on `stream`; each returns the launch error. No curve code here, so
// the files that include only this header compile in seconds.
//
// Work items of one pass over windows [first, first + count) (GpuMsmOptions::windows_per_pass): for
// point i and window j of the pass with signed digit d ≠ 0, one pair with key = (j − first)·h +
// |d| − 1 (h = 2^(c−1) buckets per window) and value = i | (d < 0) << 31. A zero digit gives
// key = count·h, which sorts after every bucket and is skipped. A single pass has first = 0 and
// count = W, all the windows.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

inline constexpr uint32_t kNegativeFlag = 0x80000000u;

// Bits of the digits kernel's error word (atomicOr; zeroed by the caller).
inline constexpr uint32_t kErrorScalarTooLarge = 1;   // a scalar ≥ 2^255
inline constexpr uint32_t kErrorIndexOutOfRange = 2;  // an index ≥ num_bases

// The windows [first_window, first_window + windows) of n canonical scalars (4 limbs each,
// < 2^255) as signed base-2^c digits (the carry rule of msm::SignedDigits, run from window 0),
// into keys/values laid out window-major: item (j − first_window)·n + i. The value's point index
// is indices[i], or i when indices is null. A scalar ≥ 2^255 or an index ≥ num_bases sets its
// bit in *error and gives only empty items (never an out-of-range read later).
cudaError_t launch_msm_digits(const uint64_t* scalars, const uint32_t* indices, size_t n,
                              uint32_t num_bases, unsigned window_bits, unsigned first_window,
                              unsigned windows, uint32_t* keys, uint32_t* values, uint32_t* error,
                              cudaStream_t stream);

// Bytes of temporary storage the pair sort needs for `items` items.
cudaError_t msm_sort_temp_bytes(size_t items, size_t* bytes);
// Sorts (keys_in, values_in) by the low key_bits bits of the key into (keys_out, values_out).
cudaError_t launch_msm_sort(void* temp, size_t temp_bytes, const uint32_t* keys_in,
                            uint32_t* keys_out, const uint32_t* values_in, uint32_t* values_out,
                            size_t items, unsigned key_bits, cudaStream_t stream);

// For sorted keys: start[k] / end[k] = the range of key k (buckets are zeroed by the caller).
cudaError_t launch_msm_bucket_ranges(const uint32_t* sorted_keys, size_t items, uint32_t num_keys,
                                     uint32_t* start, uint32_t* end, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
