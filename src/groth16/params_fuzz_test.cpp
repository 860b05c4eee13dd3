// Mutation tests of the .params reader: flipped bits inside points must be
// rejected with an error naming exactly that point (or, rarely, give another
// valid point that re-encodes identically), and a random mutator over small
// files must never crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "groth16/params_io.hpp"
#include "groth16/test_keys.hpp"

namespace cuzk::groth16 {
namespace {

using ec::SubgroupCheck;

std::vector<uint8_t> small_file(uint64_t seed) {
    auto b = serialize_params(testing::random_parameters({2, 3, 4, 3, 2}, seed));
    EXPECT_TRUE(b.ok());
    return *b;
}

// What a byte offset belongs to: "field <name>" or "section <s>, point <i>:"
// (empty for a count).
std::string owner_of(const FileLayout& layout, uint64_t off) {
    static const char* const kFields[] = {"alpha_g1", "beta_g1",  "beta_g2",
                                          "gamma_g2", "delta_g1", "delta_g2"};
    static const uint64_t kEnds[] = {96, 192, 384, 576, 672, 864};
    for (size_t i = 0; i < 6; ++i)
        if (off < kEnds[i]) return std::string("field ") + kFields[i] + ":";
    for (const SectionInfo& s : layout.sections) {
        if (off >= s.offset && off < s.end()) {
            const uint64_t index = (off - s.offset) / section_point_bytes(s.section);
            std::string out = "section ";
            out += section_name(s.section);
            out += ", point ";
            out += std::to_string(index);
            out += ":";
            return out;
        }
    }
    return {};
}

TEST(ParamsFuzz, FlippedBitsInsidePointsNameThePoint) {
    const auto bytes = small_file(21);
    auto layout = inspect_params(bytes);
    ASSERT_TRUE(layout.ok());
    util::TestRng rng(22);
    int accepted = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        uint64_t off;
        std::string owner;
        do {
            off = rng.uniform(bytes.size());
            owner = owner_of(*layout, off);
        } while (owner.empty());
        auto copy = bytes;
        copy[off] ^= static_cast<uint8_t>(1u << rng.uniform(8));
        const auto mode = iter % 3 == 0 ? SubgroupCheck::kCheck : SubgroupCheck::kSkip;
        auto r = parse_params(copy, ReadOptions{mode, nullptr});
        if (r.ok()) {
            // Another valid point (rare): it must re-encode to the same bytes.
            ++accepted;
            auto again = serialize_params(*r);
            ASSERT_TRUE(again.ok());
            EXPECT_EQ(*again, copy) << "offset " << off;
        } else {
            EXPECT_NE(r.status().message().find(owner), std::string::npos)
                << "offset " << off << ": " << r.status().message();
        }
    }
    EXPECT_LT(accepted, 30);
}

TEST(ParamsFuzz, RandomMutationsNeverCrash) {
    std::vector<std::vector<uint8_t>> seeds = {small_file(31), small_file(32)};
    if (auto vk = serialize_vk(testing::random_parameters({3, 1, 1, 1, 1}, 33).vk); vk.ok())
        seeds.push_back(*vk);
    util::TestRng rng(34);
    const auto start = std::chrono::steady_clock::now();
    int ok = 0, failed = 0, params_ok = 0;
    for (int iter = 0; iter < 8000; ++iter) {
        auto data = seeds[rng.uniform(seeds.size())];
        const int edits = 1 + static_cast<int>(rng.uniform(4));
        // Half of the files keep their length (so decoding is reached), half change
        // structure.
        const uint64_t kinds = iter % 2 == 0 ? 2 : 6;
        for (int e = 0; e < edits && !data.empty(); ++e) {
            const uint64_t at = rng.uniform(data.size());
            switch (rng.uniform(kinds)) {
                case 0:
                    data[at] ^= static_cast<uint8_t>(1u << rng.uniform(8));
                    break;
                case 1:
                    data[at] = static_cast<uint8_t>(rng.next_u64());
                    break;
                case 2:
                    data.resize(at);
                    break;
                case 3:
                    data.insert(data.begin() + static_cast<std::ptrdiff_t>(at),
                                static_cast<uint8_t>(rng.next_u64()));
                    break;
                case 4:
                    data.erase(data.begin() + static_cast<std::ptrdiff_t>(at));
                    break;
                default:  // a count-sized big-endian word
                    for (uint64_t k = at; k < std::min<uint64_t>(at + 4, data.size()); ++k)
                        data[k] = static_cast<uint8_t>(rng.next_u64());
            }
        }
        const auto mode = iter % 4 == 0 ? SubgroupCheck::kCheck : SubgroupCheck::kSkip;
        const ReadOptions opts{mode, nullptr};
        auto p = parse_params(data, opts);
        auto v = parse_vk(data, opts);
        auto l = inspect_params(data);
        for (const util::Status& st : {p.status(), v.status(), l.status()}) {
            if (st.ok()) {
                ++ok;
            } else {
                ++failed;
                EXPECT_FALSE(st.message().empty());
                EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument) << st.message();
            }
        }
        if (p.ok()) {
            ++params_ok;
            auto again = serialize_params(*p);
            ASSERT_TRUE(again.ok());
            EXPECT_EQ(*again, data);
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GT(failed, 0);
    std::printf("fuzz: %d accepted (%d as params), %d rejected in %.2f s\n", ok, params_ok, failed,
                secs);
}

}  // namespace
}  // namespace cuzk::groth16
