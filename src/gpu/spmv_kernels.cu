// Compiled-circuit kernels (see device_circuit.hpp and spmv_launch.hpp): the CSR products
// a = A·z, b = B·z, c = C·z, the gathers of MSM scalars from z, and the a·b = c check.
// One thread per row: the PoRep circuit's rows hold ~2 entries on average (SHA-256's
// booleanity and XOR rows), so a row's work is a few gathers and additions, and the kernel is
// bound by reading z (32 bytes per entry) and writing the rows.
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

__global__ void csr_multiply_kernel(const uint64_t* row_ptr, const uint32_t* col,
                                    const uint32_t* coeff, const uint64_t* coeff_table,
                                    uint32_t one_index, uint32_t minus_one_index,
                                    const uint64_t* z, size_t rows, size_t padded,
                                    uint64_t* out) {
    const size_t stride = size_t{gridDim.x} * blockDim.x;
    for (size_t r = size_t{blockIdx.x} * blockDim.x + threadIdx.x; r < padded; r += stride) {
        DeviceFr acc = DeviceFr::zero();
        if (r < rows) {
            const uint64_t end = row_ptr[r + 1];
            for (uint64_t k = row_ptr[r]; k < end; ++k) {
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
        }
        store_fr(out, r, acc);
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
                                size_t padded, uint64_t* out) {
    if (padded == 0) return cudaSuccess;
    csr_multiply_kernel<<<grid_for(padded), kBlock>>>(row_ptr, col, coeff, coeff_table, one_index,
                                                      minus_one_index, z, rows, padded, out);
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
