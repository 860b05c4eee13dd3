// Where the bucket kernels put the sum of a finished run (device code; compiles as host C++).
//
// A thread (a lane, in the batch-affine kernels) sums the sorted items [lo, hi) of its chunk
// (chunk index `chunk_index`) as runs of equal keys. When the run of `key` ends at item q:
//   - it lies wholly inside the chunk (it did not begin at lo with the same key before lo, and
//     does not go on past hi): the thread is the bucket's only writer → buckets[key];
//   - it began at lo and the bucket continues from the chunk before → first[chunk_index];
//   - otherwise (it continues into the next chunk) → last[chunk_index].
// combine_kernel (msm_kernels.cu) adds the pieces of buckets that span chunks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "util/hd.hpp"

namespace cuzk::gpu {

enum class RunDestination : uint8_t { kBucket, kFirst, kLast };

inline CUZK_HD RunDestination run_destination(const uint32_t* keys, size_t items, size_t lo,
                                              size_t hi, size_t q, uint32_t key,
                                              bool run_began_at_lo) {
    const bool from_before = run_began_at_lo && lo > 0 && keys[lo - 1] == key;
    const bool into_after = q + 1 == hi && hi < items && keys[hi] == key;
    if (!from_before && !into_after) return RunDestination::kBucket;
    return run_began_at_lo ? RunDestination::kFirst : RunDestination::kLast;
}

template <class Point>
CUZK_HD void store_run_sum(RunDestination where, uint32_t key, size_t chunk_index,
                           const Point& sum, Point* buckets, Point* first, Point* last) {
    if (where == RunDestination::kBucket) {
        buckets[key] = sum;
    } else if (where == RunDestination::kFirst) {
        first[chunk_index] = sum;
    } else {
        last[chunk_index] = sum;
    }
}

}  // namespace cuzk::gpu
