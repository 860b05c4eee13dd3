// WorkQueue order against a brute-force reference: every permutation of a small key set, and
// random pushes/pops/job removals checked against a sorted vector.
#include "engine/work_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::engine {
namespace {

// Reference order written independently of ServedBefore: sort by (-priority, seq, partition).
std::tuple<int, uint64_t, uint32_t> rank(const WorkKey& k) {
    return {-static_cast<int>(k.priority), k.job_seq, k.partition};
}

TEST(WorkQueue, PriorityThenSubmissionThenPartition) {
    WorkQueue q;
    // Pushed in an order that is wrong on every criterion.
    q.push({Priority::kLow, 1, 0});
    q.push({Priority::kNormal, 5, 2});
    q.push({Priority::kNormal, 5, 0});
    q.push({Priority::kNormal, 3, 9});
    q.push({Priority::kCritical, 9, 1});
    q.push({Priority::kHigh, 7, 0});
    const std::vector<WorkKey> expected = {{Priority::kCritical, 9, 1}, {Priority::kHigh, 7, 0},
                                           {Priority::kNormal, 3, 9},   {Priority::kNormal, 5, 0},
                                           {Priority::kNormal, 5, 2},   {Priority::kLow, 1, 0}};
    for (const WorkKey& e : expected) {
        auto k = q.pop();
        ASSERT_TRUE(k.has_value());
        EXPECT_EQ(*k, e);
    }
    EXPECT_FALSE(q.pop().has_value());
    EXPECT_FALSE(q.top().has_value());
}

TEST(WorkQueue, DuplicatesAndEraseJob) {
    WorkQueue q;
    EXPECT_TRUE(q.push({Priority::kNormal, 1, 0}));
    EXPECT_FALSE(q.push({Priority::kNormal, 1, 0}));
    for (uint32_t p = 1; p < 10; ++p) q.push({Priority::kNormal, 1, p});
    q.push({Priority::kLow, 2, 0});
    EXPECT_EQ(q.size(), 11u);
    EXPECT_EQ(q.count_job(1), 10u);
    EXPECT_EQ(q.erase_job(1), 10u);
    EXPECT_EQ(q.erase_job(1), 0u);
    EXPECT_EQ(q.size(), 1u);
    EXPECT_EQ(q.top()->job_seq, 2u);
    EXPECT_TRUE(q.erase({Priority::kLow, 2, 0}));
    EXPECT_FALSE(q.erase({Priority::kLow, 2, 0}));
    EXPECT_TRUE(q.empty());
}

TEST(WorkQueue, RandomAgainstSortedReference) {
    util::TestRng rng(42);
    WorkQueue q;
    std::vector<WorkKey> ref;
    for (int step = 0; step < 5000; ++step) {
        const uint64_t op = rng.uniform(10);
        if (op < 6) {
            WorkKey k{static_cast<Priority>(rng.uniform(4)), rng.uniform(20),
                      static_cast<uint32_t>(rng.uniform(10))};
            const bool fresh = std::find(ref.begin(), ref.end(), k) == ref.end();
            EXPECT_EQ(q.push(k), fresh);
            if (fresh) ref.push_back(k);
        } else if (op < 9) {
            auto best = std::min_element(ref.begin(), ref.end(),
                                         [](auto& a, auto& b) { return rank(a) < rank(b); });
            auto k = q.pop();
            if (best == ref.end()) {
                EXPECT_FALSE(k.has_value());
            } else {
                ASSERT_TRUE(k.has_value());
                EXPECT_EQ(*k, *best);
                ref.erase(best);
            }
        } else {
            const uint64_t seq = rng.uniform(20);
            const size_t n = static_cast<size_t>(std::count_if(
                ref.begin(), ref.end(), [&](const WorkKey& k) { return k.job_seq == seq; }));
            EXPECT_EQ(q.erase_job(seq), n);
            std::erase_if(ref, [&](const WorkKey& k) { return k.job_seq == seq; });
        }
        ASSERT_EQ(q.size(), ref.size());
    }
}

}  // namespace
}  // namespace cuzk::engine
