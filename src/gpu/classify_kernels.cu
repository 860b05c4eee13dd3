// Scalar classification kernels (see classify.hpp): the ones bitmap by warp ballots, the stable
// selection of the other scalars by CUB, and their conversion to canonical integers.
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>

#include "gpu/classify_launch.hpp"
#include "gpu/device_field.cuh"

namespace cuzk::gpu::detail {

namespace {

static_assert(kClassifyBlock % 64 == 0 && kClassifyBlock <= 1024);
constexpr unsigned kWarpsPerBlock = kClassifyBlock / 32;

__device__ bool is_zero(const uint64_t* k) { return (k[0] | k[1] | k[2] | k[3]) == 0; }

// The Montgomery form of 1 is R mod r.
__device__ bool is_one(const uint64_t* k) {
    constexpr DeviceFr one = DeviceFr::one();
    return ((k[0] ^ one.limb[0]) | (k[1] ^ one.limb[1]) | (k[2] ^ one.limb[2]) |
            (k[3] ^ one.limb[3])) == 0;
}

// Thread i classifies scalar i; warp w of the block covers bits [32w, 32w + 32) of the block's
// kClassifyBlock / 64 words. Lanes past n vote 0, which clears the stray bits of the last word.
__global__ void ones_kernel(const uint64_t* scalars, size_t n, uint64_t* ones_bits,
                            uint32_t* counts) {
    __shared__ uint32_t ballots[kWarpsPerBlock];
    const size_t i = size_t{blockIdx.x} * kClassifyBlock + threadIdx.x;
    bool one = false;
    if (i < n) {
        uint64_t k[4];
        for (int l = 0; l < 4; ++l) k[l] = scalars[4 * i + l];
        one = is_one(k);
    }
    const uint32_t ballot = __ballot_sync(0xffffffffu, one);
    if (threadIdx.x % 32 == 0) ballots[threadIdx.x / 32] = ballot;
    __syncthreads();
    if (threadIdx.x < kClassifyBlock / 64) {
        const size_t word = size_t{blockIdx.x} * (kClassifyBlock / 64) + threadIdx.x;
        const uint64_t bits =
            ballots[2 * threadIdx.x] | (uint64_t{ballots[2 * threadIdx.x + 1]} << 32);
        if (word < (n + 63) / 64) ones_bits[word] = bits;
        const uint32_t pop = static_cast<uint32_t>(__popcll(bits));
        if (pop != 0) atomicAdd(counts, pop);
    }
}

// Index i is selected when scalar i is neither 0 nor 1.
struct IsOther {
    const uint64_t* scalars;
    __device__ bool operator()(uint32_t i) const {
        const uint64_t* k = scalars + 4 * size_t{i};
        return !is_zero(k) && !is_one(k);
    }
};

// Montgomery form a·R → a: the Montgomery product with the integer 1 (fully reduced result).
// indices == nullptr: the identity list (out[j] from scalars[j]; out may then be scalars, since
// each thread reads its element before writing it); num_selected == nullptr: all n.
__global__ void gather_kernel(const uint64_t* scalars, size_t n, const uint32_t* indices,
                              const uint32_t* num_selected, uint64_t* out) {
    const size_t count = num_selected != nullptr ? *num_selected : n;
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    DeviceFr unit = DeviceFr::zero();
    unit.limb[0] = 1;
    for (size_t j = size_t{blockIdx.x} * blockDim.x + threadIdx.x; j < count && j < n;
         j += stride) {
        const size_t i = indices != nullptr ? indices[j] : j;
        DeviceFr a;
        for (int l = 0; l < 4; ++l) a.limb[l] = scalars[4 * i + l];
        const DeviceFr c = a * unit;
        for (int l = 0; l < 4; ++l) out[4 * j + l] = c.limb[l];
    }
}

}  // namespace

cudaError_t launch_classify_ones(const uint64_t* scalars, size_t n, uint64_t* ones_bits,
                                 uint32_t* counts, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    const size_t blocks = (n + kClassifyBlock - 1) / kClassifyBlock;
    ones_kernel<<<static_cast<unsigned>(blocks), kClassifyBlock, 0, stream>>>(scalars, n, ones_bits,
                                                                              counts);
    return cudaGetLastError();
}

cudaError_t classify_select_temp_bytes(size_t n, size_t* bytes) {
    return cub::DeviceSelect::If(nullptr, *bytes, thrust::counting_iterator<uint32_t>(0),
                                 static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                 static_cast<int64_t>(n), IsOther{nullptr});
}

cudaError_t launch_classify_select_others(void* temp, size_t temp_bytes, const uint64_t* scalars,
                                          size_t n, uint32_t* other_indices, uint32_t* num_selected,
                                          cudaStream_t stream) {
    return cub::DeviceSelect::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(0),
                                 other_indices, num_selected, static_cast<int64_t>(n),
                                 IsOther{scalars}, stream);
}

cudaError_t launch_classify_gather(const uint64_t* scalars, size_t n, const uint32_t* other_indices,
                                   const uint32_t* num_selected, uint64_t* other_scalars,
                                   cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    constexpr unsigned block = 256;
    const size_t want = (n + block - 1) / block;
    const unsigned grid = static_cast<unsigned>(want < (size_t{1} << 16) ? want : size_t{1} << 16);
    gather_kernel<<<grid, block, 0, stream>>>(scalars, n, other_indices, num_selected,
                                              other_scalars);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
