// Internal to src/gpu: the NTT kernel launchers (ntt_kernels.cu) that ntt.cpp calls. Device
// pointers, enqueued on `stream`, returning the launch error. See ntt.hpp for the algorithm.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu/device_field.cuh"

namespace cuzk::gpu::detail {

// x^e for 0 ≤ e < 2^(kPowLoBits + hi_bits), from two tables: lo[i] = x^i (i < 2^kPowLoBits) and
// hi[j] = x^(j·2^kPowLoBits); x^e = lo[e mod 2^kPowLoBits] · hi[e >> kPowLoBits].
inline constexpr unsigned kPowLoBits = 14;

struct PowerTable {
    const DeviceFr* lo;
    const DeviceFr* hi;
};

// Elements per thread block of a butterfly pass (log2), and so the most stages one pass fuses.
inline constexpr unsigned kPassLogElements = 10;

// One pass of k ≤ kPassLogElements radix-2 stages over data[0, 2^log_n), in shared memory.
// The stages are those whose butterfly partners differ in index bit r + b for b in [0, k):
// dif — decimation in frequency, b from k − 1 down to 0: (u, v) ← (u + v, (u − v)·w);
// !dif — decimation in time, b from 0 up to k − 1: (u, v) ← (u + v·w, u − v·w);
// with w = ω^((((f mod 2^b) << r) | lane) << (log_n − 1 − r − b)), f the k-bit field of the
// index at bit r and lane its low r bits, ω from `twiddles` (a table of ω^e, e < 2^(log_n − 1)).
// ptx: the 32-bit PTX product (DeviceFr::mul_ptx), else the 64-bit one (mul_wide).
cudaError_t launch_ntt_pass(DeviceFr* data, unsigned log_n, unsigned r, unsigned k, bool dif,
                            bool ptx, PowerTable twiddles, cudaStream_t stream);

// data[i] ↔ data[bitreverse_{log_n}(i)] for every i.
cudaError_t launch_bit_reverse(DeviceFr* data, unsigned log_n, cudaStream_t stream);

// data[i] ← data[i] · c · x^i for i < n (x^i from `powers`; with powers.lo == nullptr, × c only).
cudaError_t launch_scale_by_powers(DeviceFr* data, size_t n, DeviceFr c, PowerTable powers,
                                   bool ptx, cudaStream_t stream);

}  // namespace cuzk::gpu::detail
