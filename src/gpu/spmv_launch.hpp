// Internal to src/gpu: the launchers of the compiled-circuit kernels (spmv_kernels.cu) that
// device_circuit.cpp calls. Device pointers, enqueued on the legacy default stream; each returns
// the launch error. Fr values are 4 little-endian 64-bit limbs, Montgomery form, fully reduced.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuzk::gpu::detail {

// Coefficient-table indices with a fast path (no product): set by the host from the table.
inline constexpr uint32_t kNoCoefficient = 0xffffffffu;

// out[r] = Σ_{k ∈ [row_ptr[r], row_ptr[r+1])} coeff_table[coeff[k]]·z[col[k]] for r < rows,
// where entries whose coefficient index is `one_index` add z[col] and those with `minus_one_index`
// subtract it (either may be kNoCoefficient); out[r] = 0 for rows ≤ r < padded. Rows of at least
// warp_row_min entries are summed by a whole warp (0: every row by one thread); same results.
cudaError_t launch_csr_multiply(const uint64_t* row_ptr, const uint32_t* col, const uint32_t* coeff,
                                const uint64_t* coeff_table, uint32_t one_index,
                                uint32_t minus_one_index, const uint64_t* z, size_t rows,
                                size_t padded, uint32_t warp_row_min, uint64_t* out);

// out[j] = z[list[j]] for j < n.
cudaError_t launch_gather_fr(const uint64_t* z, const uint32_t* list, size_t n, uint64_t* out);

// *first = min(*first, r) over the rows r < rows with a[r]·b[r] ≠ c[r] (*first preset to
// UINT64_MAX by the caller).
cudaError_t launch_first_unsatisfied(const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                     size_t rows, unsigned long long* first);

}  // namespace cuzk::gpu::detail
