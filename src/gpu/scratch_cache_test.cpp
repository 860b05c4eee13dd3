// ScratchCache / ScratchLeases on the device: kept leases come back to the next take of about
// the same size (same address, no new allocation), leases not kept are freed, an out-of-memory
// allocation empties the cache before it fails, and release_all frees everything. The MSM
// tests run with the cache on (the default), so they cover reuse of stale buffer contents.
// Skips itself without a usable CUDA device.
#include "gpu/scratch_cache.hpp"

#include <gtest/gtest.h>

#include "gpu/device.hpp"

namespace cuzk::gpu {
namespace {

class ScratchCacheTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); scratch cache test skipped";
        }
        ScratchCache::instance().release_all();
    }
    void TearDown() override { ScratchCache::instance().release_all(); }
};

constexpr size_t kMiB = size_t{1} << 20;

TEST_F(ScratchCacheTest, KeptLeasesAreReusedWithinTwiceTheSize) {
    void* first = nullptr;
    {
        ScratchLeases leases(true);
        auto b = leases.take(8 * kMiB);
        ASSERT_TRUE(b.ok()) << b.status().to_string();
        EXPECT_GE((*b)->size(), 8 * kMiB);
        first = (*b)->data();
        ASSERT_EQ(cudaMemset((*b)->data(), 0x5a, 8 * kMiB), cudaSuccess);  // usable memory
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        leases.keep();
    }
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 8 * kMiB);
    {
        ScratchLeases leases(true);
        auto small = leases.take(2 * kMiB);  // 8 MiB is more than twice 2: a new buffer
        ASSERT_TRUE(small.ok());
        EXPECT_NE((*small)->data(), first);
        auto again = leases.take(5 * kMiB);  // within twice: the cached one
        ASSERT_TRUE(again.ok());
        EXPECT_EQ((*again)->data(), first);
        EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
        leases.keep();
    }
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 10 * kMiB);
    EXPECT_EQ(ScratchCache::instance().release_all(), 10 * kMiB);
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
}

TEST_F(ScratchCacheTest, LeasesNotKeptOrNotCachedAreFreed) {
    {
        ScratchLeases leases(true);
        ASSERT_TRUE(leases.take(4 * kMiB).ok());
    }  // no keep(): an error path, work may still be queued
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
    {
        ScratchLeases leases(false);  // the cache switched off
        ASSERT_TRUE(leases.take(4 * kMiB).ok());
        leases.keep();
    }
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
    ScratchLeases leases(true);
    EXPECT_EQ(leases.take(0).status().code(), util::StatusCode::kInvalidArgument);
}

TEST_F(ScratchCacheTest, AnAllocationThatCannotFitEmptiesTheCacheFirst) {
    {
        ScratchLeases leases(true);
        ASSERT_TRUE(leases.take(16 * kMiB).ok());
        leases.keep();
    }
    ASSERT_EQ(ScratchCache::instance().cached_bytes(), 16 * kMiB);
    size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
    auto too_big = DeviceBuffer::allocate(total_bytes + 1024 * kMiB);
    EXPECT_EQ(too_big.status().code(), util::StatusCode::kResourceExhausted)
        << too_big.status().to_string();
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);  // given up for the attempt
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);              // no error left behind
}

}  // namespace
}  // namespace cuzk::gpu
