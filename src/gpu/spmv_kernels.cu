// Compiled-circuit kernels (see device_circuit.hpp and spmv_launch.hpp): the CSR products
// a = A·z, b = B·z, c = C·z, the gathers of MSM scalars from z, and the a·b = c check.
// One thread per row: the PoRep circuit's rows hold ~2 entries on average (SHA-256's
// booleanity and XOR rows), so a row's work is a few gathers and additions, and the kernel is
// bound by reading z (32 bytes per entry) and writing the rows — except for the long rows
// (SHA-256's sums of 32-bit words, ~100 entries with power-of-two coefficients), which a whole
// warp sums (csr_multiply_kernel<true>).
#include "gpu/device_field.cuh"
#include "gpu/grid.hpp"
#include "gpu/spmv_launch.hpp"

namespace cuzk::gpu::detail {

namespace {

constexpr unsigned kBlock = 256;

unsigned grid_for(size_t n) { return grid_stride_blocks(n, kBlock); }

__device__ __forceinline__ DeviceFr load_fr(const uint64_t* p, size_t i) {
    DeviceFr v;
    for (int l = 0; l < 4; ++l) v.limb[l] = p[4 * i + l];
    return v;
}
__device__ __forceinline__ void store_fr(uint64_t* p, size_t i, const DeviceFr& v) {
    for (int l = 0; l < 4; ++l) p[4 * i + l] = v.limb[l];
}

// coeff·v for one entry (products skipped for the coefficients 1 and −1, which add or subtract).
struct EntryTerms {
    const uint32_t* col;
    const uint32_t* coeff;
    const uint64_t* coeff_table;
    uint32_t one_index, minus_one_index;
    const uint64_t* z;

    __device__ __forceinline__ void accumulate(DeviceFr& acc, uint64_t k) const {
        const DeviceFr v = load_fr(z, col[k]);
        const uint32_t ci = coeff[k];
        if (ci == one_index) {
            acc += v;
        } else if (ci == minus_one_index) {
            acc -= v;
        } else {
            acc += load_fr(coeff_table, ci) * v;
        }
    }
};

// Σ over the warp's lanes, in every lane (butterfly of shuffles; field addition is exact, so
// the order does not change the result).
__device__ __forceinline__ DeviceFr warp_sum(DeviceFr x) {
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
        DeviceFr other;
        for (int l = 0; l < 4; ++l)
            other.limb[l] = __shfl_xor_sync(0xffffffffu, x.limb[l], offset);
        x += other;
    }
    return x;
}

// The loop runs over warp-aligned bases (the stride is a multiple of 32), so each warp's lanes
// stay together: lane ℓ owns row base + ℓ. kWarpRows: rows of at least warp_row_min entries are
// left by their thread and summed afterwards by the whole warp, one row at a time (lane ℓ takes
// entries ℓ, ℓ + 32, …), so that a warp holding one long row among short ones does not run the
// long row's entries one after another with 31 lanes idle.
template <bool kWarpRows>
__global__ void csr_multiply_kernel(const uint64_t* row_ptr, EntryTerms terms, size_t rows,
                                    size_t padded, uint64_t warp_row_min, uint64_t* out) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    const unsigned lane = threadIdx.x & 31u;
    for (size_t base = size_t{blockIdx.x} * blockDim.x + (threadIdx.x & ~31u); base < padded;
         base += stride) {
        const size_t r = base + lane;
        uint64_t begin = 0, end = 0;
        if (r < rows) {
            begin = row_ptr[r];
            end = row_ptr[r + 1];
        }
        const bool warp_row = kWarpRows && end - begin >= warp_row_min;
        DeviceFr acc = DeviceFr::zero();
        if (!warp_row)
            for (uint64_t k = begin; k < end; ++k) terms.accumulate(acc, k);
        if (kWarpRows) {
            for (unsigned pending = __ballot_sync(0xffffffffu, warp_row); pending != 0;
                 pending &= pending - 1) {
                const int owner = __ffs(pending) - 1;
                const uint64_t b = __shfl_sync(0xffffffffu, begin, owner);
                const uint64_t e = __shfl_sync(0xffffffffu, end, owner);
                DeviceFr part = DeviceFr::zero();
                for (uint64_t k = b + lane; k < e; k += 32) terms.accumulate(part, k);
                part = warp_sum(part);
                if (lane == static_cast<unsigned>(owner)) acc = part;
            }
        }
        if (r < padded) store_fr(out, r, acc);
    }
}

__global__ void gather_fr_kernel(const uint64_t* z, const uint32_t* list, size_t n,
                                 uint64_t* out) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t j = size_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += stride)
        store_fr(out, j, load_fr(z, list[j]));
}

__global__ void first_unsatisfied_kernel(const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                         size_t rows, unsigned long long* first) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t r = size_t{blockIdx.x} * blockDim.x + threadIdx.x; r < rows; r += stride) {
        if (load_fr(a, r) * load_fr(b, r) != load_fr(c, r)) {
            atomicMin(first, static_cast<unsigned long long>(r));
            return;  // this thread's later rows are higher
        }
    }
}

}  // namespace

cudaError_t launch_csr_multiply(const uint64_t* row_ptr, const uint32_t* col, const uint32_t* coeff,
                                const uint64_t* coeff_table, uint32_t one_index,
                                uint32_t minus_one_index, const uint64_t* z, size_t rows,
                                size_t padded, uint32_t warp_row_min, uint64_t* out) {
    if (padded == 0) return cudaSuccess;
    const EntryTerms terms{col, coeff, coeff_table, one_index, minus_one_index, z};
    if (warp_row_min == 0)
        csr_multiply_kernel<false><<<grid_for(padded), kBlock>>>(row_ptr, terms, rows, padded, 0,
                                                                 out);
    else
        csr_multiply_kernel<true><<<grid_for(padded), kBlock>>>(row_ptr, terms, rows, padded,
                                                                warp_row_min, out);
    return cudaGetLastError();
}

cudaError_t launch_gather_fr(const uint64_t* z, const uint32_t* list, size_t n, uint64_t* out) {
    if (n == 0) return cudaSuccess;
    gather_fr_kernel<<<grid_for(n), kBlock>>>(z, list, n, out);
    return cudaGetLastError();
}

cudaError_t launch_first_unsatisfied(const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                     size_t rows, unsigned long long* first) {
    if (rows == 0) return cudaSuccess;
    first_unsatisfied_kernel<<<grid_for(rows), kBlock>>>(a, b, c, rows, first);
    return cudaGetLastError();
}

}  // namespace cuzk::gpu::detail
