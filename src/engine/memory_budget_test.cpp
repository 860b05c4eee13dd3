// MemoryBudget: the sum of reservations never exceeds the budget, under many threads; requests
// larger than the budget are refused at once; blocking reservations wake on release.
#include "engine/memory_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::engine {
namespace {

TEST(MemoryBudget, ReserveAndRelease) {
    MemoryBudget b(100);
    EXPECT_TRUE(b.try_reserve(60));
    EXPECT_FALSE(b.try_reserve(41));
    EXPECT_TRUE(b.try_reserve(40));
    EXPECT_EQ(b.reserved(), 100u);
    EXPECT_EQ(b.available(), 0u);
    EXPECT_FALSE(b.try_reserve(1));
    b.release(60);
    EXPECT_EQ(b.reserved(), 40u);
    EXPECT_EQ(b.peak(), 100u);
    b.release(1000);  // over-release clamps
    EXPECT_EQ(b.reserved(), 0u);
}

TEST(MemoryBudget, RefusesWhatCanNeverFit) {
    MemoryBudget b(100);
    EXPECT_FALSE(b.fits(101));
    EXPECT_TRUE(b.fits(100));
    // Would block forever otherwise: it must answer at once.
    EXPECT_FALSE(b.reserve_blocking(101, nullptr));
    EXPECT_EQ(b.reserved(), 0u);
}

TEST(MemoryBudget, BlockingWakesOnReleaseAndGivesUp) {
    MemoryBudget b(10);
    ASSERT_TRUE(b.try_reserve(10));
    std::atomic<bool> got{false};
    std::thread t([&] { got = b.reserve_blocking(5, nullptr); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(got.load());
    b.release(5);
    t.join();
    EXPECT_TRUE(got.load());
    EXPECT_EQ(b.reserved(), 10u);
    std::atomic<bool> stop{false};
    std::thread u([&] {
        got = b.reserve_blocking(
            5, [&] { return stop.load(); }, std::chrono::hours(1), std::chrono::milliseconds(5));
    });
    stop = true;
    u.join();
    EXPECT_FALSE(got.load());
    EXPECT_FALSE(b.reserve_blocking(5, nullptr, std::chrono::milliseconds(20)));
}

TEST(MemoryBudget, NeverExceededUnderConcurrency) {
    constexpr uint64_t kTotal = 1000;
    MemoryBudget b(kTotal);
    std::atomic<uint64_t> held{0}, max_held{0};
    std::atomic<bool> over{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            util::TestRng rng(static_cast<uint64_t>(t) + 1);
            for (int i = 0; i < 2000; ++i) {
                const uint64_t want = 1 + rng.uniform(300);
                const bool ok =
                    (i % 2 == 0) ? b.try_reserve(want)
                                 : b.reserve_blocking(want, nullptr, std::chrono::milliseconds(50),
                                                      std::chrono::milliseconds(1));
                if (!ok) continue;
                // What the holders hold, counted independently of the budget.
                const uint64_t now = held.fetch_add(want) + want;
                if (now > kTotal) over = true;
                uint64_t m = max_held.load();
                while (now > m && !max_held.compare_exchange_weak(m, now)) {
                }
                if (b.reserved() > kTotal) over = true;
                std::this_thread::yield();
                held.fetch_sub(want);
                b.release(want);
            }
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_FALSE(over.load());
    EXPECT_EQ(b.reserved(), 0u);
    EXPECT_LE(b.peak(), kTotal);
    EXPECT_GT(max_held.load(), 0u);
}

TEST(MemoryBudget, ProcessMemoryIsReadable) {
    const ProcessMemory pm = process_memory();
    EXPECT_GT(pm.rss_bytes, 0u);
    EXPECT_GE(pm.rss_peak_bytes, pm.rss_bytes);
    EXPECT_GT(physical_memory_bytes(), uint64_t{1} << 20);
}

}  // namespace
}  // namespace cuzk::engine
