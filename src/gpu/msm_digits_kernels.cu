// The MSM's work items (msm_keys_launch.hpp): signed digits of the scalars as (key, value) pairs,
// and each bucket's range in the sorted keys. Integer code only: no curve arithmetic.
#include "gpu/grid.hpp"
#include "gpu/msm_keys_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

unsigned blocks_for(size_t n) { return grid_stride_blocks(n, kBlock); }

// Bits [lo, lo + c) of a 256-bit little-endian integer (c ≤ 32).
__device__ uint32_t bits_at(const uint64_t* k, unsigned lo, unsigned c) {
    if (lo >= 256) return 0;
    const unsigned limb = lo / 64, shift = lo % 64;
    uint64_t v = k[limb] >> shift;
    if (shift + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
    return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// Digits with the carry rule of msm::SignedDigits: u_j + carry kept when ≤ h, else minus 2^c
// with a carry into the next window (k < 2^255 and c·W ≥ 256, so the top window never carries).
// The carry runs from window 0; items are written for windows [first, first + count) only.
// The point index of scalar i is indices[i] (or i); an invalid scalar or index flags *error and
// makes all of the scalar's digits empty.
__global__ void digits_kernel(const uint64_t* scalars, const uint32_t* indices, size_t n,
                              uint32_t num_bases, unsigned c, unsigned first, unsigned count,
                              uint32_t* keys, uint32_t* values, uint32_t* error) {
    const uint32_t h = 1u << (c - 1);
    const uint32_t empty = count * h;
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint64_t k[4];
        for (int l = 0; l < 4; ++l) k[l] = scalars[4 * i + l];
        const uint32_t index = indices != nullptr ? indices[i] : static_cast<uint32_t>(i);
        uint32_t bad = 0;
        if (k[3] >> 63) bad |= kErrorScalarTooLarge;
        if (index >= num_bases) bad |= kErrorIndexOutOfRange;
        if (bad != 0) {
            atomicOr(error, bad);
            for (int l = 0; l < 4; ++l) k[l] = 0;  // all digits zero: no items
        }
        uint32_t carry = 0;
        for (unsigned j = 0; j < first + count; ++j) {
            int64_t d = static_cast<int64_t>(bits_at(k, j * c, c)) + carry;
            carry = 0;
            if (d > static_cast<int64_t>(h)) {
                d -= int64_t{1} << c;
                carry = 1;
            }
            if (j < first) continue;
            const size_t item = size_t{j - first} * n + i;
            if (d == 0) {
                keys[item] = empty;
                values[item] = 0;
            } else {
                const uint32_t mag = static_cast<uint32_t>(d > 0 ? d : -d);
                keys[item] = (j - first) * h + mag - 1;
                values[item] = index | (d < 0 ? kNegativeFlag : 0u);
            }
        }
    }
}

__global__ void bucket_ranges_kernel(const uint32_t* keys, size_t items, uint32_t num_keys,
                                     uint32_t* start, uint32_t* end) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t p = size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < items; p += stride) {
        const uint32_t key = keys[p];
        if (key >= num_keys) continue;
        if (p == 0 || keys[p - 1] != key) start[key] = static_cast<uint32_t>(p);
        if (p + 1 == items || keys[p + 1] != key) end[key] = static_cast<uint32_t>(p + 1);
    }
}

}  // namespace

cudaError_t launch_msm_digits(const uint64_t* scalars, const uint32_t* indices, size_t n,
                              uint32_t num_bases, unsigned window_bits, unsigned first_window,
                              unsigned windows, uint32_t* keys, uint32_t* values, uint32_t* error,
                              cudaStream_t stream) {
    if (n == 0 || windows == 0) return cudaSuccess;
    digits_kernel<<<blocks_for(n), kBlock, 0, stream>>>(scalars, indices, n, num_bases, window_bits,
                                                        first_window, windows, keys, values, error);
    return cudaGetLastError();
}

cudaError_t launch_msm_bucket_ranges(const uint32_t* sorted_keys, size_t items, uint32_t num_keys,
                                     uint32_t* start, uint32_t* end, cudaStream_t stream) {
    if (items == 0) return cudaSuccess;
    bucket_ranges_kernel<<<blocks_for(items), kBlock, 0, stream>>>(sorted_keys, items, num_keys,
                                                                   start, end);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
