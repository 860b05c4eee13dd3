// The MSM's (key, value) pair sort: CUB's device radix sort over the key bits in use.
#include <cub/device/device_radix_sort.cuh>

#include "gpu/msm_keys_launch.hpp"

namespace cuzk::gpu::detail {

cudaError_t msm_sort_temp_bytes(size_t items, size_t* bytes) {
    return cub::DeviceRadixSort::SortPairs(nullptr, *bytes, static_cast<const uint32_t*>(nullptr),
                                           static_cast<uint32_t*>(nullptr),
                                           static_cast<const uint32_t*>(nullptr),
                                           static_cast<uint32_t*>(nullptr), items);
}

cudaError_t launch_msm_sort(void* temp, size_t temp_bytes, const uint32_t* keys_in,
                            uint32_t* keys_out, const uint32_t* values_in, uint32_t* values_out,
                            size_t items, unsigned key_bits, cudaStream_t stream) {
    return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in,
                                           values_out, items, 0, static_cast<int>(key_bits),
                                           stream);
}

}  // namespace cuzk::gpu::detail
