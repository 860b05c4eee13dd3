// sample_stats: odd and even counts (the even median is the middle pair's mean), one value,
// unsorted input, an empty sample.
#include "cli/bench_stats.hpp"

#include <gtest/gtest.h>

namespace cuzk::cli {
namespace {

TEST(BenchStatsTest, OddCountTakesTheMiddleValue) {
    const SampleStats s = sample_stats({5.0, 1.0, 3.0});
    EXPECT_DOUBLE_EQ(s.median, 3.0);
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.max, 5.0);
}

TEST(BenchStatsTest, EvenCountTakesTheMeanOfTheMiddlePair) {
    const SampleStats two = sample_stats({3777.5, 3473.3});
    EXPECT_DOUBLE_EQ(two.median, (3777.5 + 3473.3) / 2);
    EXPECT_DOUBLE_EQ(two.min, 3473.3);
    EXPECT_DOUBLE_EQ(two.max, 3777.5);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 10.0, 2.0}), 3.0);
}

TEST(BenchStatsTest, OneValueAndNone) {
    const SampleStats one = sample_stats({7.25});
    EXPECT_DOUBLE_EQ(one.median, 7.25);
    EXPECT_DOUBLE_EQ(one.min, 7.25);
    EXPECT_DOUBLE_EQ(one.max, 7.25);
    const SampleStats none = sample_stats({});
    EXPECT_DOUBLE_EQ(none.median, 0.0);
    EXPECT_DOUBLE_EQ(none.min, 0.0);
    EXPECT_DOUBLE_EQ(none.max, 0.0);
}

}  // namespace
}  // namespace cuzk::cli
