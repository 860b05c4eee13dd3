// page_advice: the advice never changes a buffer's contents — unaligned ranges, ranges smaller
// than a page, empty ones, any thread count — and populated or huge-page-advised buffers read
// and write as before.
#include "util/page_advice.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace cuzk::util {
namespace {

std::vector<uint64_t> pattern(size_t n) {
    std::vector<uint64_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i * 0x9e3779b97f4a7c15ull + 1;
    return v;
}

TEST(PageAdvice, ContentsUnchanged) {
    const size_t n = (size_t{24} << 20) / sizeof(uint64_t);  // 24 MiB
    const std::vector<uint64_t> want = pattern(n);
    std::vector<uint64_t> v = want;
    for (unsigned threads : {0u, 1u, 3u, 16u, 1000u}) {
        populate_pages(v.data(), v.size() * sizeof(uint64_t), threads);
        EXPECT_TRUE(v == want) << "threads " << threads;
    }
    // Unaligned and sub-page ranges; empty ones.
    auto* bytes = reinterpret_cast<unsigned char*>(v.data());
    populate_pages(bytes + 13, 100, 4);
    populate_pages(bytes + 4093, 9000, 4);
    populate_pages(bytes, 0, 4);
    advise_huge_pages(bytes + 7, v.size() * sizeof(uint64_t) - 7);
    advise_huge_pages(bytes, 0);
    EXPECT_TRUE(v == want);
    for (size_t i = 0; i < n; i += 4097) v[i] ^= 1;  // still writable
    for (size_t i = 0; i < n; i += 4097) EXPECT_EQ(v[i], want[i] ^ 1);
}

TEST(PageAdvice, FreshReservedStorage) {
    // As WitnessOnly uses it: capacity reserved, its pages populated before elements are added.
    std::vector<uint64_t> v;
    v.reserve((size_t{80} << 20) / sizeof(uint64_t));
    advise_huge_pages(v.data(), v.capacity() * sizeof(uint64_t));
    populate_pages(v.data(), v.capacity() * sizeof(uint64_t), 4);
    const std::vector<uint64_t> want = pattern(v.capacity());
    v.insert(v.end(), want.begin(), want.end());
    EXPECT_TRUE(v == want);
}

}  // namespace
}  // namespace cuzk::util
