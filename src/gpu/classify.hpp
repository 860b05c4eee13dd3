// Classification of MSM scalars on the GPU: zero / one / other, as the Groth16 prover splits an
// MSM (SupraSeal's prep_msm pass 1 and 2, cuzk-supraseal-reference.md §2.4, done there on one
// CPU thread per circuit): the bases of unit scalars are summed by batch addition
// (gpu/batch_add.hpp), the "other" scalars go through the tail MSM, zeros go nowhere.
// Host C++ header: no CUDA types (streams are CUstream_st*, which is what cudaStream_t names).
//
// Input: n device-resident Fr (Montgomery form, the ff::Fr layout, fully reduced as ff::Fr
// always is). Outputs (device memory the caller owns):
//   ones_bits      ⌈n/64⌉ words: bit i (bit i % 64 of word i / 64, least significant first —
//                  the msm::batch_add / bellperson density layout) set iff scalar i is 1; the
//                  bits of the last word at positions ≥ n are cleared.
//   other_indices  the indices i (ascending) of the scalars that are neither 0 nor 1;
//   other_scalars  those scalars as canonical integers (ff::BigInt<4>, < r: what msm_g1
//                  takes), in the same order;
//   counts         counts[0] = number of ones, counts[1] = number of others (uint32).
// other_indices / other_scalars need room for n entries (the count is only known on the device).
//
// Method: one thread per scalar; a warp ballot builds 32 bits of the bitmap, two warps one word,
// one atomic add per block counts the ones; the others are compacted in index order by CUB's
// DeviceSelect::If over the indices (a stable select), then converted out of Montgomery form
// (a Montgomery product by the integer 1) in place of the gather.
//
// Sizes: n < 2^31 (indices are uint32, as in msm_g1). Errors: kInvalidArgument (sizes, a null
// pointer, scratch too small), kUnavailable (no device), kResourceExhausted, kInternal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/fr.hpp"
#include "util/status.hpp"

struct CUstream_st;

namespace cuzk::gpu {

inline constexpr size_t kMaxClassifyScalars = (size_t{1} << 31) - 1;

struct ClassifyOutputs {
    uint64_t* ones_bits = nullptr;           // ⌈n/64⌉ words
    uint32_t* other_indices = nullptr;       // room for n
    ff::BigInt<4>* other_scalars = nullptr;  // room for n
    uint32_t* counts = nullptr;              // 2 words: ones, others
};

// Bytes of device scratch classify_scalars needs for n scalars (CUB's select storage).
util::Result<size_t> classify_scratch_bytes(size_t n);

// Enqueues the classification of scalars[0, n) on `stream` (nullptr = the default stream);
// asynchronous: launch errors are returned, execution errors surface at the next
// synchronisation. n = 0 writes counts = {0, 0} and nothing else.
util::Status classify_scalars(const ff::Fr* scalars, size_t n, const ClassifyOutputs& out,
                              void* scratch, size_t scratch_bytes, CUstream_st* stream);

// Enqueues out[i] = canonical(scalars[i]) for i < n (Montgomery form → the integer < r that
// msm_g1_device takes); out may equal scalars (in place). For scalars that are neither bits nor
// worth classifying (the H MSM's). Errors as classify_scalars.
util::Status scalars_to_canonical(const ff::Fr* scalars, size_t n, ff::BigInt<4>* out,
                                  CUstream_st* stream);

// The classification brought back to the host.
struct Classification {
    std::vector<uint64_t> ones_bits;  // ⌈n/64⌉ words
    size_t ones = 0;
    std::vector<uint32_t> other_indices;
    std::vector<ff::BigInt<4>> other_scalars;
};

// Convenience (tests, tools): uploads the scalars, classifies them, downloads the result.
util::Result<Classification> classify_scalars(std::span<const ff::Fr> scalars);

}  // namespace cuzk::gpu
