// IdleBuffers (the reuse bookkeeping of the pinned pool and the device scratch cache), on the
// host with a counting stand-in buffer: the smallest fit within the size window, tags kept
// apart, eviction of the oldest over the cap, take_all, and every buffer freed exactly once.
#include "gpu/idle_buffers.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace cuzk::gpu {
namespace {

int g_live = 0;  // stand-in buffers alive

class FakeBuffer {
   public:
    FakeBuffer() = default;
    FakeBuffer(size_t size, int id) : size_(size), id_(id) { ++g_live; }
    ~FakeBuffer() {
        if (size_ != 0) --g_live;
    }
    FakeBuffer(FakeBuffer&& o) noexcept : size_(std::exchange(o.size_, 0)), id_(o.id_) {}
    FakeBuffer& operator=(FakeBuffer&& o) noexcept {
        if (this != &o) {
            if (size_ != 0) --g_live;
            size_ = std::exchange(o.size_, 0);
            id_ = o.id_;
        }
        return *this;
    }
    size_t size() const { return size_; }
    int id() const { return id_; }

   private:
    size_t size_ = 0;
    int id_ = -1;
};

TEST(IdleBuffersTest, TakesTheSmallestFitWithinTheWindowAndTag) {
    g_live = 0;
    {
        IdleBuffers<FakeBuffer> idle;
        std::vector<FakeBuffer> evicted;
        idle.put(0, FakeBuffer(1000, 1), SIZE_MAX, evicted);
        idle.put(0, FakeBuffer(400, 2), SIZE_MAX, evicted);
        idle.put(1, FakeBuffer(300, 3), SIZE_MAX, evicted);
        idle.put(0, FakeBuffer(600, 4), SIZE_MAX, evicted);
        EXPECT_TRUE(evicted.empty());
        EXPECT_EQ(idle.count(), 4u);
        EXPECT_EQ(idle.bytes(), 2300u);
        EXPECT_FALSE(idle.take(0, 300, 350).has_value());  // 400 is past the window
        EXPECT_FALSE(idle.take(2, 1, SIZE_MAX).has_value());  // no buffer with that tag
        auto a = idle.take(0, 300, 1000);  // 400, 600, 1000 fit: the smallest
        ASSERT_TRUE(a.has_value());
        EXPECT_EQ(a->id(), 2);
        auto b = idle.take(1, 300, 300);  // exact size, its own tag
        ASSERT_TRUE(b.has_value());
        EXPECT_EQ(b->id(), 3);
        EXPECT_EQ(idle.count(), 2u);
        EXPECT_EQ(idle.bytes(), 1600u);
        EXPECT_EQ(g_live, 4);  // taken buffers live on in a and b
        std::vector<FakeBuffer> all = idle.take_all();
        EXPECT_EQ(all.size(), 2u);
        EXPECT_EQ(idle.count(), 0u);
        EXPECT_EQ(idle.bytes(), 0u);
    }
    EXPECT_EQ(g_live, 0);  // each freed once
}

TEST(IdleBuffersTest, EvictsTheOldestOfTheTagOverTheCap) {
    g_live = 0;
    {
        IdleBuffers<FakeBuffer> idle;
        std::vector<FakeBuffer> evicted;
        idle.put(1, FakeBuffer(500, 1), 1000, evicted);
        idle.put(0, FakeBuffer(900, 2), 1000, evicted);  // another tag: its own cap
        idle.put(1, FakeBuffer(400, 3), 1000, evicted);
        EXPECT_TRUE(evicted.empty());
        idle.put(1, FakeBuffer(300, 4), 1000, evicted);  // 1200 > 1000: the oldest (1) goes
        ASSERT_EQ(evicted.size(), 1u);
        EXPECT_EQ(evicted[0].id(), 1);
        EXPECT_EQ(idle.bytes(), 1600u);
        idle.put(1, FakeBuffer(2000, 5), 1000, evicted);  // alone above the cap: all of tag 1 go
        EXPECT_EQ(evicted.size(), 4u);
        EXPECT_EQ(idle.count(), 1u);
        EXPECT_EQ(idle.bytes(), 900u);
        EXPECT_EQ(g_live, 5);
    }
    EXPECT_EQ(g_live, 0);
}

}  // namespace
}  // namespace cuzk::gpu
