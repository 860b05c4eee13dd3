// PinnedPool: buffers are reused (no new cudaHostAlloc for a request an idle buffer can serve),
// the smallest idle buffer that fits is chosen, idle memory is capped, leases move and return
// once; mapped PinnedBuffers have a device address (reading through it is covered by the
// resident-parameter tests' pinned placement). Skips itself without a usable CUDA device.
#include "gpu/pinned_pool.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <utility>

#include "gpu/device.hpp"

namespace cuzk::gpu {
namespace {

class PinnedPoolTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); pinned pool test skipped";
        }
    }
};

TEST_F(PinnedPoolTest, ReusesIdleBuffers) {
    PinnedPool pool(1 << 20);
    uint8_t* first = nullptr;
    {
        auto lease = pool.acquire(4096);
        ASSERT_TRUE(lease.ok()) << lease.status().to_string();
        EXPECT_GE(lease->size(), 4096u);
        std::memset(lease->data(), 0xab, 4096);  // writable host memory
        first = lease->data();
    }
    EXPECT_EQ(pool.idle_buffers(), 1u);
    EXPECT_EQ(pool.idle_bytes(), 4096u);
    auto again = pool.acquire(1000);  // served by the idle 4096-byte buffer
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->data(), first);
    EXPECT_EQ(pool.allocations(), 1u);
    EXPECT_EQ(pool.idle_buffers(), 0u);
    auto bigger = pool.acquire(8192);  // none idle: a new one
    ASSERT_TRUE(bigger.ok());
    EXPECT_EQ(pool.allocations(), 2u);
}

TEST_F(PinnedPoolTest, PicksTheSmallestFittingBuffer) {
    PinnedPool pool(1 << 20);
    {
        auto a = pool.acquire(16384);
        auto b = pool.acquire(4096);
        auto c = pool.acquire(8192);
        ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    }
    EXPECT_EQ(pool.idle_buffers(), 3u);
    auto lease = pool.acquire(5000);
    ASSERT_TRUE(lease.ok());
    EXPECT_EQ(lease->size(), 8192u);
    EXPECT_EQ(pool.allocations(), 3u);
}

TEST_F(PinnedPoolTest, CapsIdleMemoryAndTrims) {
    PinnedPool pool(10000);
    {
        auto a = pool.acquire(6000);
        auto b = pool.acquire(6000);
        ASSERT_TRUE(a.ok() && b.ok());
    }
    EXPECT_EQ(pool.idle_buffers(), 1u);  // the second would exceed the cap: freed
    EXPECT_EQ(pool.idle_bytes(), 6000u);
    pool.trim();
    EXPECT_EQ(pool.idle_buffers(), 0u);
    EXPECT_EQ(pool.idle_bytes(), 0u);
}

TEST_F(PinnedPoolTest, LeasesMoveAndReturnOnce) {
    PinnedPool pool(1 << 20);
    auto lease = pool.acquire(2048);
    ASSERT_TRUE(lease.ok());
    PinnedPool::Lease moved = std::move(*lease);
    PinnedPool::Lease target;
    target = std::move(moved);
    EXPECT_EQ(pool.idle_buffers(), 0u);
    target = PinnedPool::Lease();
    EXPECT_EQ(pool.idle_buffers(), 1u);
    EXPECT_FALSE(pool.acquire(0).ok());
}

TEST_F(PinnedPoolTest, MappedBuffersHaveADevicePointer) {
    auto plain = PinnedBuffer::allocate(1024);
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain->device_pointer().ok());
    auto mapped = PinnedBuffer::allocate(1024, true);
    ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
    auto device = mapped->device_pointer();
    ASSERT_TRUE(device.ok()) << device.status().to_string();
    EXPECT_NE(*device, nullptr);
    EXPECT_FALSE(PinnedBuffer::allocate(0).ok());
}

}  // namespace
}  // namespace cuzk::gpu
