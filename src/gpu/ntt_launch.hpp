// Internal to src/gpu: the NTT kernel launchers (ntt_kernels.cu) that ntt.cpp calls. Device
// pointers, enqueued on `stream`, returning the launch error. See ntt.hpp for the algorithm.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu/device_field.cuh"

namespace cuzk::gpu::detail {

// x^e for 0 ≤ e < 2^(lo_bits + hi_bits), from two tables: lo[i] = x^i (i < 2^lo_bits) and
// hi[j] = x^(j·2^lo_bits); x^e = lo[e mod 2^lo_bits] · hi[e >> lo_bits] — one lookup and no
// product when e < 2^lo_bits (a table as wide as its exponents needs no hi part).
// negate_bits = b > 0 (one-level tables of a root x of order 2^b, b = lo_bits): the table is
// read at (2^b − e) mod 2^b, i.e. it gives x^−e — the powers of ω serve ω⁻¹ as well.
inline constexpr unsigned kPowLoBits = 14;  // the lo_bits of the domain's full-size tables

struct PowerTable {
    const DeviceFr* lo;
    const DeviceFr* hi;
    unsigned lo_bits = kPowLoBits;
    unsigned negate_bits = 0;
};

// The field arithmetic of the kernels below (NttOptions::ptx_mul, sparse_reduction,
// karatsuba_product): the 64-bit limb code shared with the host, the 32-bit PTX carry chains
// (DeviceFr::mul_ptx), those with the products' sparse reduction (DeviceFr::mul_ptx_sparse), or
// the product with one level of Karatsuba and the sparse reduction (DeviceFr::mul_ptx_karatsuba);
// in the butterfly passes of the default shape only (3 register stages, staged, unbounded; other
// passes and kernels take kPtxSparse instead), every product on the FP64 pipe
// (DeviceFr::mul_fp64) or half of them (kHybridFp64, the others sparse; NttOptions::
// fp64_products), or kPtxSparse with DIF's differences left unreduced (kPtxSparseLazyDifference;
// NttOptions::lazy_difference: ntt_kernels.cu, lazy_difference). The same values.
enum class FieldArith {
    kWide,
    kPtx,
    kPtxSparse,
    kPtxKaratsuba,
    kFp64,
    kHybridFp64,
    kPtxSparseLazyDifference
};

// Whether `a` runs in the butterfly passes of the default shape only (3 register stages,
// staged, pass_min_blocks 0): launch_ntt_pass gives other passes kPtxSparse.
constexpr bool default_pass_shape_only(FieldArith a) {
    return a == FieldArith::kFp64 || a == FieldArith::kHybridFp64 ||
           a == FieldArith::kPtxSparseLazyDifference;
}

// Elements per thread block of a butterfly pass (log2), and so the most stages one pass fuses.
inline constexpr unsigned kPassLogElements = 10;

// One radix-2^k pass (k ≤ kPassLogElements) over data[0, 2^log_n), in shared memory, on the
// index bits [r, r + k) (see ntt_kernels.cu for the decomposition):
// dif — the inner 2^k-point decimation-in-frequency DFT over those bits, then the inter-pass
//       twiddle ω'^(lane·rev_k(f)) (ω' = ω^(2^(log_n − k − r)), lane = the low r bits);
// !dif — the inter-pass twiddle, then the inner decimation-in-time DFT.
// `twiddles` holds ω'^x for x < 2^(k + r) when twiddle_shift is 0 (a table for this pass),
// else ω^e for e < 2^log_n, read at e = x·2^twiddle_shift (twiddle_shift = log_n − k − r);
// `roots` the 2^kmax-th roots ω^(j·2^(log_n − kmax)),
// j < 2^(kmax − 1), kmax = min(log_n, kPassLogElements); arith: the field arithmetic.
// prefetch_twiddles (DIF, one-level `twiddles` only): each element's inter-pass twiddle is
// asked into L2 (prefetch.global.L2) when the block loads its elements, so that the lookup
// after the inner DFT finds it there.
// register_stages (1..kMaxRegisterStages): the stages a thread runs in registers between two
// trips through shared memory (min(register_stages, k) is used); each thread group holds
// 2^register_stages elements, so a block has 2^(eb − register_stages) groups.
// threads: per block, a power of two ≥ 32 (at most one per group is used).
// direct_rounds (NttOptions::direct_rounds): the first register round loads from device memory
// and the last stores to it, without the staging copies through shared memory; used where each
// thread has one group (threads = groups after the cap) and the arithmetic is PTX with
// min_blocks 0, else the staged pass runs.
// vector_io (NttOptions::vector_io): the staged pass with 3 register stages, the sparse PTX
// arithmetic and min_blocks 0 in 16-byte device-memory accesses, batched (ntt_kernels.cu); used
// where data and the twiddle tables are 16-byte aligned, else the default pass runs.
// dif_partial_first (NttOptions::dif_partial_round_first): where the register rounds' width q
// does not divide k, DIF runs its round of k mod q stages first (at the top f bits) and whole
// windows after it, so that its last window starts at f bit 0, where the trivial twiddles are
// skipped at compile time; else that round comes last, inside the window before it. DIT always
// runs whole windows from f bit 0 up with its partial round last (at the top).
inline constexpr unsigned kMaxRegisterStages = 3;
cudaError_t launch_ntt_pass(DeviceFr* data, unsigned log_n, unsigned r, unsigned k, bool dif,
                            FieldArith arith, PowerTable twiddles, unsigned twiddle_shift,
                            const DeviceFr* roots, unsigned threads, unsigned register_stages,
                            bool prefetch_twiddles, unsigned min_blocks, bool direct_rounds,
                            bool vector_io, bool dif_partial_first, cudaStream_t stream);

// out[e] = x^e for e < n, from the table `powers` of x (a one-level table of any x^e, e < n,
// built on the device: n products).
cudaError_t launch_fill_powers(DeviceFr* out, size_t n, PowerTable powers, cudaStream_t stream);

// data[i] ↔ data[bitreverse_{log_n}(i)] for every i. tiled: through shared-memory tiles of
// 16 × 16 elements with runs of 16 consecutive elements in memory (log_n ≥ 8; smaller sizes
// and tiled = false swap element by element).
cudaError_t launch_bit_reverse(DeviceFr* data, unsigned log_n, bool tiled, cudaStream_t stream);

// data[i] ← data[i] · c · x^i for i < n (x^i from `powers`; with powers.lo == nullptr, × c only).
// reversed_log > 0 (then n = 2^reversed_log): the vector is in bit-reversed order, position i
// holding element rev(i), so the factor is c · x^rev(i).
cudaError_t launch_scale_by_powers(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                   FieldArith arith, cudaStream_t stream,
                                   unsigned reversed_log = 0);

// data[i] ← (data[i]·x^e − other[i])·c for i < n, e = i, or rev(i) when reversed_log > 0 (as in
// launch_scale_by_powers; powers.lo must be set).
cudaError_t launch_scale_by_powers_minus(DeviceFr* data, const DeviceFr* other, size_t n,
                                         DeviceFr c, PowerTable powers, FieldArith arith,
                                         cudaStream_t stream, unsigned reversed_log = 0);

// a[i] ← a[i]·b[i] for i < n.
cudaError_t launch_product(DeviceFr* a, const DeviceFr* b, size_t n, FieldArith arith,
                           cudaStream_t stream);

// a[i] ← (a[i]·b[i] − c[i])·z_inv for i < n.
cudaError_t launch_quotient(DeviceFr* a, const DeviceFr* b, const DeviceFr* c, size_t n,
                            DeviceFr z_inv, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
