// Summary statistics of a benchmark's repeated timings, shared by the `cuzk bench` commands: the
// median (the mean of the two middle values for an even count, so that two repetitions give
// their mean, not the slower one), the fastest and the slowest. An empty sample gives zeros.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace cuzk::cli {

struct SampleStats {
    double median = 0;
    double min = 0;
    double max = 0;
};

inline SampleStats sample_stats(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double mid = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {mid, v.front(), v.back()};
}

inline double median(std::vector<double> v) { return sample_stats(std::move(v)).median; }

}  // namespace cuzk::cli
