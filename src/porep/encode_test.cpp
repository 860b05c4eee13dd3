// Encoding against a schoolbook 256-bit addition mod r written here (r from the spec's field
// parameters: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001).
#include "porep/encode.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

using Limbs = std::array<uint64_t, 4>;
constexpr Limbs kR = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                      0x73eda753299d7d48ULL};

Limbs load(const uint8_t* p) {
    Limbs l{};
    for (int i = 0; i < 32; ++i) l[i / 8] |= uint64_t{p[i]} << (8 * (i % 8));
    return l;
}

bool geq(const Limbs& a, const Limbs& b) {
    for (int i = 3; i >= 0; --i) {
        if (a[i] != b[i]) return a[i] > b[i];
    }
    return true;
}

Limbs sub(const Limbs& a, const Limbs& b) {
    Limbs out{};
    uint64_t borrow = 0;
    for (int i = 0; i < 4; ++i) {
        const uint64_t d = a[i] - b[i] - borrow;
        borrow = (a[i] < b[i] || (a[i] == b[i] && borrow)) ? 1 : 0;
        out[i] = d;
    }
    return out;
}

Limbs add_mod_r(const Limbs& a, const Limbs& b) {
    Limbs s{};
    uint64_t carry = 0;
    for (int i = 0; i < 4; ++i) {
        const uint64_t t = a[i] + carry;
        const uint64_t c1 = t < carry ? 1 : 0;
        s[i] = t + b[i];
        carry = c1 + (s[i] < t ? 1 : 0);
    }
    // a, b < r < 2^255, so the sum fits in 256 bits (carry is 0).
    return geq(s, kR) ? sub(s, kR) : s;
}

std::vector<uint8_t> random_scalars(util::TestRng& rng, size_t nodes) {
    std::vector<uint8_t> v(nodes * 32);
    rng.fill(v.data(), v.size());
    for (size_t n = 0; n < nodes; ++n) v[n * 32 + 31] &= 0x3f;  // < 2^254 < r
    return v;
}

TEST(Encode, MatchesSchoolbookAdditionAndDecodes) {
    util::TestRng rng(901);
    const std::vector<uint8_t> key = random_scalars(rng, 64), data = random_scalars(rng, 64);
    auto replica = encode_replica(key, data);
    ASSERT_TRUE(replica.ok());
    for (size_t n = 0; n < 64; ++n) {
        const Limbs expect = add_mod_r(load(key.data() + 32 * n), load(data.data() + 32 * n));
        EXPECT_EQ(load(replica->data() + 32 * n), expect) << n;
    }
    auto back = decode_replica(key, *replica);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, data);
}

TEST(Encode, WrapsModR) {
    // key = r − 1, data = 2 → 1.
    std::vector<uint8_t> key(32), data(32, 0);
    const Limbs r_minus_1 = sub(kR, Limbs{1, 0, 0, 0});
    for (int i = 0; i < 32; ++i) key[i] = static_cast<uint8_t>(r_minus_1[i / 8] >> (8 * (i % 8)));
    data[0] = 2;
    auto replica = encode_replica(key, data);
    ASSERT_TRUE(replica.ok());
    std::vector<uint8_t> one(32, 0);
    one[0] = 1;
    EXPECT_EQ(*replica, one);
}

TEST(Encode, RejectsBadInput) {
    std::vector<uint8_t> a(64, 0), b(32, 0);
    EXPECT_FALSE(encode_replica(a, b).ok());
    std::vector<uint8_t> big(32, 0xff);  // ≥ r
    auto r = encode_replica(big, b);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("key node 0"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::porep
