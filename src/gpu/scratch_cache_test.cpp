// ScratchCache / ScratchLeases on the device: kept leases come back to the next take of about
// the same size (same address, no new allocation), leases not kept are freed, an out-of-memory
// allocation empties the cache before it fails, and release_all frees everything; pooled leases
// (ScratchPool) reuse the pool's memory and trim. The MSM tests run a few calls with each source,
// so they cover reuse of stale buffer contents.
// Skips itself without a usable CUDA device.
#include "gpu/scratch_cache.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

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
        ScratchLeases leases(ScratchSource::kCache);
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
        ScratchLeases leases(ScratchSource::kCache);
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
        ScratchLeases leases(ScratchSource::kCache);
        ASSERT_TRUE(leases.take(4 * kMiB).ok());
    }  // no keep(): an error path, work may still be queued
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
    {
        ScratchLeases leases(ScratchSource::kAllocate);  // the cache switched off
        ASSERT_TRUE(leases.take(4 * kMiB).ok());
        leases.keep();
    }
    EXPECT_EQ(ScratchCache::instance().cached_bytes(), 0u);
    ScratchLeases leases(ScratchSource::kCache);
    EXPECT_EQ(leases.take(0).status().code(), util::StatusCode::kInvalidArgument);
}

TEST_F(ScratchCacheTest, AnAllocationThatCannotFitEmptiesTheCacheFirst) {
    {
        ScratchLeases leases(ScratchSource::kCache);
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

// The pool keeps freed memory mapped: a second call's smaller buffers come out of it without
// the pool growing, the contents written through a pooled buffer read back, and trim() gives
// the idle memory back.
TEST_F(ScratchCacheTest, PooledLeasesDrawOnTheSameMemoryAndTrim) {
    (void)ScratchPool::instance().trim();
    std::vector<uint32_t> pattern(16 * kMiB / 4);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint32_t>(i * 2654435761u);
    {
        ScratchLeases leases(ScratchSource::kPool);
        auto b = leases.take(64 * kMiB);
        ASSERT_TRUE(b.ok()) << b.status().to_string();
        EXPECT_EQ((*b)->size(), 64 * kMiB);
        ASSERT_EQ(cudaMemset((*b)->data(), 0x5a, 64 * kMiB), cudaSuccess);
        ASSERT_TRUE((*b)->upload(pattern.data(), 16 * kMiB).ok());
        std::vector<uint32_t> back(pattern.size());
        ASSERT_TRUE((*b)->download(back.data(), 16 * kMiB).ok());
        EXPECT_EQ(back, pattern);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const size_t reserved = ScratchPool::instance().reserved_bytes();
    EXPECT_GE(reserved, 64 * kMiB);  // freed into the pool, still mapped
    {
        ScratchLeases leases(ScratchSource::kPool);
        auto a = leases.take(32 * kMiB);
        auto b = leases.take(16 * kMiB);
        ASSERT_TRUE(a.ok() && b.ok());
        EXPECT_NE((*a)->data(), (*b)->data());
        EXPECT_EQ(ScratchPool::instance().reserved_bytes(), reserved);  // no new memory
    }
    EXPECT_GE(ScratchPool::instance().trim(), 64 * kMiB);
    EXPECT_EQ(ScratchPool::instance().reserved_bytes(), 0u);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(ScratchCacheTest, APooledAllocationThatCannotFitFailsCleanly) {
    size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
    ScratchLeases leases(ScratchSource::kPool);
    auto too_big = leases.take(total_bytes + 1024 * kMiB);
    EXPECT_EQ(too_big.status().code(), util::StatusCode::kResourceExhausted)
        << too_big.status().to_string();
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    auto fits = leases.take(kMiB);  // the pool still works
    EXPECT_TRUE(fits.ok()) << fits.status().to_string();
}

}  // namespace
}  // namespace cuzk::gpu
