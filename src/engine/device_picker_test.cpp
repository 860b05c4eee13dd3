// DevicePicker: each of N concurrent callers gets its own device, equal devices take turns,
// a caller beyond N goes to a least-held device, and holder counts follow the leases.
#include "engine/device_picker.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace cuzk::engine {
namespace {

TEST(DevicePicker, ConcurrentHoldersGetDistinctDevices) {
    DevicePicker picker(4);
    std::vector<DevicePicker::Lease> leases;
    std::set<size_t> seen;
    for (int k = 0; k < 4; ++k) {
        leases.push_back(picker.acquire());
        seen.insert(leases.back().index());
    }
    EXPECT_EQ(seen, (std::set<size_t>{0, 1, 2, 3}));
    EXPECT_EQ(picker.holders(), (std::vector<unsigned>{1, 1, 1, 1}));
}

TEST(DevicePicker, SequentialCallsTakeTurns) {
    DevicePicker picker(3);
    std::vector<size_t> order;
    for (int k = 0; k < 7; ++k) order.push_back(picker.acquire().index());  // released at once
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(picker.holders(), (std::vector<unsigned>{0, 0, 0}));
}

TEST(DevicePicker, FreedDeviceIsPreferredOverBusyOnes) {
    DevicePicker picker(3);
    DevicePicker::Lease a = picker.acquire(), b = picker.acquire(), c = picker.acquire();
    const size_t freed = b.index();
    b.release();
    EXPECT_EQ(picker.holders()[freed], 0u);
    DevicePicker::Lease d = picker.acquire();
    EXPECT_EQ(d.index(), freed);
    // All busy: a fourth caller shares a device (holders 2 there), a fifth another one.
    DevicePicker::Lease e = picker.acquire(), f = picker.acquire();
    EXPECT_NE(e.index(), f.index());
    std::vector<unsigned> h = picker.holders();
    std::sort(h.begin(), h.end());
    EXPECT_EQ(h, (std::vector<unsigned>{1, 2, 2}));
}

TEST(DevicePicker, MovedLeaseReleasesOnce) {
    DevicePicker picker(2);
    DevicePicker::Lease a = picker.acquire();
    const size_t i = a.index();
    DevicePicker::Lease b = std::move(a);
    EXPECT_FALSE(static_cast<bool>(a));  // NOLINT(bugprone-use-after-move): checking the move
    EXPECT_EQ(picker.holders()[i], 1u);
    DevicePicker::Lease c = picker.acquire();
    c = std::move(b);  // c's own device is released, b's is now held by c
    EXPECT_EQ(picker.holders()[i], 1u);
    EXPECT_EQ(picker.holders()[1 - i], 0u);
    c.release();
    EXPECT_EQ(picker.holders(), (std::vector<unsigned>{0, 0}));
}

TEST(DevicePicker, ZeroDevicesMeansOne) {
    DevicePicker picker(0);
    EXPECT_EQ(picker.devices(), 1u);
    EXPECT_EQ(picker.acquire().index(), 0u);
}

// N threads, repeatedly: acquire, stay a while, check nobody else holds the device, release.
TEST(DevicePicker, ThreadsAsManyAsDevicesNeverShare) {
    constexpr size_t kDevices = 3;
    DevicePicker picker(kDevices);
    std::atomic<int> in_use[kDevices] = {};
    std::atomic<int> collisions{0};
    std::vector<std::atomic<int>> uses(kDevices);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kDevices; ++t) {
        threads.emplace_back([&] {
            for (int k = 0; k < 2000; ++k) {
                DevicePicker::Lease lease = picker.acquire();
                const size_t i = lease.index();
                if (in_use[i].fetch_add(1) != 0) ++collisions;
                ++uses[i];
                std::this_thread::yield();
                in_use[i].fetch_sub(1);
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(collisions.load(), 0);
    for (size_t i = 0; i < kDevices; ++i) EXPECT_GT(uses[i].load(), 0) << "device " << i;
    EXPECT_EQ(picker.holders(), (std::vector<unsigned>(kDevices, 0)));
}

}  // namespace
}  // namespace cuzk::engine
