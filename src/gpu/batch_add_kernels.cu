// Batch-addition kernels (see batch_add.hpp): per-thread XYZZ sums over the set bits of a run of
// bit words, a shared-memory tree per block, and a one-block reduction of the block sums. The
// point formulas are ec/point.hpp's, instantiated with the device field.
#include "gpu/batch_add_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlockG1 = 128;                  // 128 G1 XYZZ points = 24 KiB of shared memory
constexpr unsigned kBlockG2 = 64;                   // 64 G2 XYZZ points = 24 KiB
constexpr size_t kTargetThreads = kBatchAddTargetThreads;

// Sums the kBlock points of `shared` into shared[0] (all threads of the block take part).
template <class C, unsigned kBlock>
__device__ void block_reduce(ec::Xyzz<C>* shared) {
    for (unsigned s = kBlock / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) shared[threadIdx.x] = shared[threadIdx.x] + shared[threadIdx.x + s];
        __syncthreads();
    }
}

// Thread t sums the selected bases of words [t·wpt, t·wpt + wpt); the block's sum goes to
// partial[blockIdx.x].
template <class C, unsigned kBlock>
__global__ void sum_selected_kernel(const ec::Affine<C>* bases, size_t n, const uint64_t* bits,
                                    size_t words_per_thread, ec::Xyzz<C>* partial) {
    __shared__ ec::Xyzz<C> shared[kBlock];
    const size_t words = (n + 63) / 64;
    const size_t t = size_t{blockIdx.x} * kBlock + threadIdx.x;
    const size_t w_begin = t * words_per_thread;
    const size_t w_end = w_begin + words_per_thread < words ? w_begin + words_per_thread : words;
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    for (size_t w = w_begin; w < w_end; ++w) {
        uint64_t word = bits[w];
        const size_t first = 64 * w;
        if (n - first < 64) word &= (uint64_t{1} << (n - first)) - 1;  // bits ≥ n are ignored
        while (word != 0) {
            const size_t i = first + static_cast<size_t>(__ffsll(static_cast<long long>(word)) - 1);
            word &= word - 1;
            acc = acc.add_mixed(bases[i]);
        }
    }
    shared[threadIdx.x] = acc;
    __syncthreads();
    block_reduce<C, kBlock>(shared);
    if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

// The position of the r-th set bit (from 0, least significant first) of w; r < popcount(w).
// Halving: keep the low half when it holds more than r set bits, else skip past it.
__device__ __forceinline__ unsigned nth_set_bit(uint64_t w, unsigned r) {
    unsigned pos = 0;
    for (unsigned width = 32; width > 0; width /= 2) {
        const uint64_t low = w & ((uint64_t{1} << width) - 1);
        const unsigned c = static_cast<unsigned>(__popcll(low));
        if (r >= c) {
            r -= c;
            w >>= width;
            pos += width;
        } else {
            w = low;
        }
    }
    return pos;
}

// The warp-compacted form of sum_selected_kernel (GpuBatchAddOptions::warp_compact): the same
// words per warp (32·words_per_thread, warp-contiguous), taken 32 at a time — lane ℓ loads word
// ℓ of the group, a shuffle scan of their popcounts numbers the group's set bits 0 … T − 1, and
// lane ℓ adds bits ℓ, ℓ + 32, … (each located by a binary search over the scan in shared memory
// and nth_set_bit). Every lane then adds in every round but the group's last, where the
// per-word loop above idles the lanes whose word has fewer set bits than the warp's fullest.
template <class C, unsigned kBlock>
__global__ void sum_selected_compact_kernel(const ec::Affine<C>* bases, size_t n,
                                            const uint64_t* bits, size_t words_per_thread,
                                            ec::Xyzz<C>* partial) {
    __shared__ ec::Xyzz<C> shared[kBlock];
    __shared__ uint64_t group_words[kBlock];
    __shared__ uint32_t group_ends[kBlock];  // inclusive scan of the popcounts, per warp
    constexpr unsigned kFull = 0xffffffffu;
    const unsigned lane = threadIdx.x % 32, warp_at = threadIdx.x - lane;
    const size_t words = (n + 63) / 64;
    const size_t warp = (size_t{blockIdx.x} * kBlock + threadIdx.x) / 32;
    const size_t warp_first = warp * 32 * words_per_thread;
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    for (size_t g = 0; g < words_per_thread; ++g) {
        const size_t group_first = warp_first + 32 * g;
        const size_t w = group_first + lane;
        uint64_t word = 0;
        if (w < words) {
            word = bits[w];
            if (n - 64 * w < 64) word &= (uint64_t{1} << (n - 64 * w)) - 1;  // bits ≥ n ignored
        }
        uint32_t end = static_cast<uint32_t>(__popcll(word));
        for (unsigned d = 1; d < 32; d *= 2) {
            const uint32_t v = __shfl_up_sync(kFull, end, d);
            if (lane >= d) end += v;
        }
        const uint32_t total = __shfl_sync(kFull, end, 31);
        group_words[threadIdx.x] = word;
        group_ends[threadIdx.x] = end;
        __syncwarp();
        for (uint32_t j = lane; j < total; j += 32) {
            unsigned k = 0;  // the first word whose scan passes j: ends[< k] ≤ j < ends[k]
            for (unsigned step = 16; step > 0; step /= 2)
                if (group_ends[warp_at + k + step - 1] <= j) k += step;
            const uint32_t before = k == 0 ? 0 : group_ends[warp_at + k - 1];
            const size_t i =
                64 * (group_first + k) + nth_set_bit(group_words[warp_at + k], j - before);
            acc = acc.add_mixed(bases[i]);
        }
        __syncwarp();
    }
    shared[threadIdx.x] = acc;
    __syncthreads();
    block_reduce<C, kBlock>(shared);
    if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

// Thread t sums in[t·per_thread, t·per_thread + per_thread) ∩ [0, count); the block's sum goes
// to partial[blockIdx.x].
template <class C, unsigned kBlock>
__global__ void sum_points_kernel(const ec::Xyzz<C>* in, size_t count, size_t per_thread,
                                  ec::Xyzz<C>* partial) {
    __shared__ ec::Xyzz<C> shared[kBlock];
    const size_t t = size_t{blockIdx.x} * kBlock + threadIdx.x;
    const size_t begin = t * per_thread;
    const size_t end = begin + per_thread < count ? begin + per_thread : count;
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    for (size_t i = begin; i < end; ++i) acc += in[i];
    shared[threadIdx.x] = acc;
    __syncthreads();
    block_reduce<C, kBlock>(shared);
    if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}

// One block: *out = Σ in[0, count).
template <class C, unsigned kBlock>
__global__ void reduce_kernel(const ec::Xyzz<C>* in, size_t count, ec::Xyzz<C>* out) {
    __shared__ ec::Xyzz<C> shared[kBlock];
    ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
    for (size_t j = threadIdx.x; j < count; j += kBlock) acc += in[j];
    shared[threadIdx.x] = acc;
    __syncthreads();
    block_reduce<C, kBlock>(shared);
    if (threadIdx.x == 0) *out = shared[0];
}

template <class C>
__global__ void write_identity_kernel(ec::Xyzz<C>* out) {
    *out = ec::Xyzz<C>::identity();
}

// `units` (bit words, or points) split over threads of `per_thread` units each (0: automatic).
template <unsigned kBlock>
BatchAddShape shape_for_units(size_t units, size_t per_thread) {
    BatchAddShape shape;
    if (per_thread != 0) {
        shape.words_per_thread = per_thread;
    } else {
        shape.words_per_thread =
            units <= kTargetThreads ? 1 : (units + kTargetThreads - 1) / kTargetThreads;
    }
    const size_t threads = (units + shape.words_per_thread - 1) / shape.words_per_thread;
    shape.blocks = (threads + kBlock - 1) / kBlock;
    return shape;
}

template <unsigned kBlock>
BatchAddShape shape_for(size_t n, size_t words_per_thread) {
    return shape_for_units<kBlock>((n + 63) / 64, words_per_thread);
}

// The two levels both sums share: first_level(blocks) launches the per-block sums into
// partial, one block of reduce_kernel adds those into *result; nothing to add writes the
// identity.
template <class C, unsigned kBlock, class FirstLevel>
cudaError_t launch_two_levels(size_t units, const BatchAddShape& shape, ec::Xyzz<C>* partial,
                              ec::Xyzz<C>* result, cudaStream_t stream,
                              const FirstLevel& first_level) {
    if (units == 0 || shape.blocks == 0) {
        write_identity_kernel<C><<<1, 1, 0, stream>>>(result);
        return cudaGetLastError();
    }
    if (shape.blocks > 0x7fffffffu || shape.words_per_thread == 0) return cudaErrorInvalidValue;
    first_level(static_cast<unsigned>(shape.blocks));
    reduce_kernel<C, kBlock><<<1, kBlock, 0, stream>>>(partial, shape.blocks, result);
    return cudaGetLastError();
}

template <class C, unsigned kBlock>
cudaError_t launch_sum(const ec::Xyzz<C>* in, size_t count, const BatchAddShape& shape,
                       ec::Xyzz<C>* partial, ec::Xyzz<C>* result, cudaStream_t stream) {
    return launch_two_levels<C, kBlock>(count, shape, partial, result, stream, [&](unsigned blocks) {
        sum_points_kernel<C, kBlock><<<blocks, kBlock, 0, stream>>>(in, count,
                                                                    shape.words_per_thread, partial);
    });
}

template <class C, unsigned kBlock>
cudaError_t launch(const ec::Affine<C>* bases, size_t n, const uint64_t* bits,
                   const BatchAddShape& shape, bool warp_compact, ec::Xyzz<C>* partial,
                   ec::Xyzz<C>* result, cudaStream_t stream) {
    return launch_two_levels<C, kBlock>(n, shape, partial, result, stream, [&](unsigned blocks) {
        const auto kernel = warp_compact ? sum_selected_compact_kernel<C, kBlock>
                                         : sum_selected_kernel<C, kBlock>;
        kernel<<<blocks, kBlock, 0, stream>>>(bases, n, bits, shape.words_per_thread, partial);
    });
}

}  // namespace

BatchAddShape batch_add_shape_g1(size_t n, size_t words_per_thread) {
    return shape_for<kBlockG1>(n, words_per_thread);
}

cudaError_t launch_batch_add_g1(const DeviceG1Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, bool warp_compact,
                                bool dedicated_square, DeviceG1Xyzz* partial,
                                DeviceG1Xyzz* result, cudaStream_t stream) {
    if (dedicated_square) {  // the same layout (device_curve.cuh), the squaring's kernels
        using C = DeviceG1SquareCurve;
        return launch<C, kBlockG1>(reinterpret_cast<const ec::Affine<C>*>(bases), n, bits, shape,
                                   warp_compact, reinterpret_cast<ec::Xyzz<C>*>(partial),
                                   reinterpret_cast<ec::Xyzz<C>*>(result), stream);
    }
    return launch<DeviceG1Curve, kBlockG1>(bases, n, bits, shape, warp_compact, partial, result,
                                         stream);
}

BatchAddShape batch_add_sum_shape_g1(size_t count) { return shape_for_units<kBlockG1>(count, 0); }
BatchAddShape batch_add_sum_shape_g2(size_t count) { return shape_for_units<kBlockG2>(count, 0); }

cudaError_t launch_sum_points_g1(const DeviceG1Xyzz* in, size_t count, const BatchAddShape& shape,
                                 DeviceG1Xyzz* partial, DeviceG1Xyzz* result,
                                 cudaStream_t stream) {
    return launch_sum<DeviceG1Curve, kBlockG1>(in, count, shape, partial, result, stream);
}
cudaError_t launch_sum_points_g2(const DeviceG2Xyzz* in, size_t count, const BatchAddShape& shape,
                                 DeviceG2Xyzz* partial, DeviceG2Xyzz* result,
                                 cudaStream_t stream) {
    return launch_sum<DeviceG2Curve, kBlockG2>(in, count, shape, partial, result, stream);
}

BatchAddShape batch_add_shape_g2(size_t n, size_t words_per_thread) {
    return shape_for<kBlockG2>(n, words_per_thread);
}

cudaError_t launch_batch_add_g2(const DeviceG2Affine* bases, size_t n, const uint64_t* bits,
                                const BatchAddShape& shape, bool warp_compact,
                                DeviceG2Xyzz* partial, DeviceG2Xyzz* result,
                                cudaStream_t stream) {
    return launch<DeviceG2Curve, kBlockG2>(bases, n, bits, shape, warp_compact, partial, result,
                                         stream);
}

}  // namespace cuzk::gpu::detail
