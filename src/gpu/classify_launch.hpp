// Internal to src/gpu: the classification kernel launchers (classify_kernels.cu) that
// classify.cpp calls. Device pointers, enqueued on `stream`; each returns the launch error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

// Threads per block of the bitmap kernel: a multiple of 64, so that a block writes whole words.
inline constexpr unsigned kClassifyBlock = 256;

// ones_bits[w] for w < ⌈n/64⌉ and counts[0] += the number of ones (counts[0] must be zeroed
// first). scalars: n Fr in Montgomery form, 4 limbs each.
cudaError_t launch_classify_ones(const uint64_t* scalars, size_t n, uint64_t* ones_bits,
                                 uint32_t* counts, cudaStream_t stream);

// CUB select storage for n scalars.
cudaError_t classify_select_temp_bytes(size_t n, size_t* bytes);

// other_indices[0, k) = the ascending i < n whose scalar is neither 0 nor 1; *num_selected = k.
cudaError_t launch_classify_select_others(void* temp, size_t temp_bytes, const uint64_t* scalars,
                                          size_t n, uint32_t* other_indices, uint32_t* num_selected,
                                          cudaStream_t stream);

// other_scalars[j] = canonical(scalars[other_indices[j]]) for j < *num_selected (≤ n);
// other_indices == nullptr: the identity list (in place allowed), num_selected == nullptr: n.
cudaError_t launch_classify_gather(const uint64_t* scalars, size_t n, const uint32_t* other_indices,
                                   const uint32_t* num_selected, uint64_t* other_scalars,
                                   cudaStream_t stream);

}  // namespace cuzk::gpu::detail
