#include "cli/fr_decimal.hpp"

#include <gtest/gtest.h>

#include "util/rng.hpp"

namespace cuzk::cli {
namespace {

using ff::Fr;

// r in decimal (the BLS12-381 scalar field modulus).
constexpr const char* kR =
    "52435875175126190479447740508185965837690552500527637822603658699938581184513";
constexpr const char* kRMinus1 =
    "52435875175126190479447740508185965837690552500527637822603658699938581184512";

TEST(FrDecimal, SmallValues) {
    EXPECT_EQ(fr_to_decimal(Fr::zero()), "0");
    EXPECT_EQ(fr_to_decimal(Fr::one()), "1");
    EXPECT_EQ(fr_to_decimal(Fr::from_u64(35)), "35");
    EXPECT_EQ(fr_to_decimal(Fr::from_u64(18446744073709551615ULL)), "18446744073709551615");
    auto x = fr_from_decimal("18446744073709551616");  // 2^64
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(*x, Fr::from_u64(1ULL << 63) * Fr::from_u64(2));
}

TEST(FrDecimal, RoundTripRandom) {
    util::TestRng rng(7);
    for (int i = 0; i < 200; ++i) {
        const Fr x = Fr::random(rng);
        const std::string s = fr_to_decimal(x);
        ASSERT_FALSE(s.empty());
        EXPECT_NE(s[0], '0');
        auto back = fr_from_decimal(s);
        ASSERT_TRUE(back.ok()) << back.status().message();
        EXPECT_EQ(*back, x);
    }
}

TEST(FrDecimal, ModulusBoundary) {
    auto top = fr_from_decimal(kRMinus1);
    ASSERT_TRUE(top.ok()) << top.status().message();
    EXPECT_EQ(*top, -Fr::one());
    EXPECT_EQ(fr_to_decimal(-Fr::one()), kRMinus1);
    auto r = fr_from_decimal(kR);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("modulus"), std::string::npos);
    std::string big(200, '9');
    EXPECT_FALSE(fr_from_decimal(big).ok());
}

TEST(FrDecimal, LeadingZerosAndBadInput) {
    auto x = fr_from_decimal("0007");
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(*x, Fr::from_u64(7));
    std::string padded(100, '0');
    padded += kRMinus1;
    auto y = fr_from_decimal(padded);
    ASSERT_TRUE(y.ok());
    EXPECT_EQ(*y, -Fr::one());
    auto empty = fr_from_decimal("");
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
    for (const char* bad : {"12a", "-1", "+1", " 1", "1 ", "0x10", "1.0"}) {
        auto b = fr_from_decimal(bad);
        EXPECT_FALSE(b.ok()) << bad;
    }
}

TEST(FrDecimal, JsonArray) {
    auto xs = parse_fr_json_array(" [ \"35\", 7 ,\"0\"]\n");
    ASSERT_TRUE(xs.ok()) << xs.status().message();
    ASSERT_EQ(xs->size(), 3u);
    EXPECT_EQ((*xs)[0], Fr::from_u64(35));
    EXPECT_EQ((*xs)[1], Fr::from_u64(7));
    EXPECT_EQ(fr_json_array(*xs), "[\"35\",\"7\",\"0\"]");
    auto empty = parse_fr_json_array("[]");
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(empty->empty());
    for (const char* bad : {"", "[", "[\"1\"", "[\"1\",]", "[\"x\"]", "[1] x", "{}", "[\"\"]"}) {
        EXPECT_FALSE(parse_fr_json_array(bad).ok()) << bad;
    }
    auto big = parse_fr_json_array(std::string("[\"") + kR + "\"]");
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.status().message().find("element 0"), std::string::npos);
}

TEST(FrDecimal, JsonQuote) {
    EXPECT_EQ(json_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
}

}  // namespace
}  // namespace cuzk::cli
