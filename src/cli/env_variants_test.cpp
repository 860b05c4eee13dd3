// parse_env_variants: variants, assignments, the empty "defaults" variant and each error;
// ScopedEnv sets and restores (a variable that was set, one that was not).
#include "cli/env_variants.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace cuzk::cli {
namespace {

TEST(EnvVariantsTest, ParsesVariantsAndAssignments) {
    auto v = parse_env_variants("CUZK_A=1,CUZK_B_2=x;CUZK_A=0;");
    ASSERT_TRUE(v.ok()) << v.status().to_string();
    ASSERT_EQ(v->size(), 3u);
    EXPECT_EQ((*v)[0].label, "CUZK_A=1,CUZK_B_2=x");
    ASSERT_EQ((*v)[0].assignments.size(), 2u);
    EXPECT_EQ((*v)[0].assignments[1].first, "CUZK_B_2");
    EXPECT_EQ((*v)[0].assignments[1].second, "x");
    EXPECT_EQ((*v)[1].assignments.size(), 1u);
    EXPECT_EQ((*v)[1].assignments[0].second, "0");
    EXPECT_EQ((*v)[2].label, "defaults");
    EXPECT_TRUE((*v)[2].assignments.empty());
}

TEST(EnvVariantsTest, RejectsBadPiecesByName) {
    for (const char* spec : {"", "CUZK_A", "CUZK_A=", "PATH=/tmp", "CUZK_=1", "CUZK_a=1",
                             "CUZK_A=1,CUZK_A=2", "CUZK_A=1,,CUZK_B=2"}) {
        auto v = parse_env_variants(spec);
        ASSERT_FALSE(v.ok()) << spec;
        EXPECT_EQ(v.status().code(), util::StatusCode::kInvalidArgument) << spec;
        EXPECT_NE(v.status().to_string().find("--variants"), std::string::npos) << spec;
    }
}

TEST(EnvVariantsTest, ScopedEnvSetsAndRestores) {
    ::setenv("CUZK_TEST_SET_BEFORE", "old", 1);
    ::unsetenv("CUZK_TEST_UNSET_BEFORE");
    auto v = parse_env_variants("CUZK_TEST_SET_BEFORE=new,CUZK_TEST_UNSET_BEFORE=1");
    ASSERT_TRUE(v.ok());
    {
        ScopedEnv env((*v)[0]);
        EXPECT_STREQ(std::getenv("CUZK_TEST_SET_BEFORE"), "new");
        EXPECT_STREQ(std::getenv("CUZK_TEST_UNSET_BEFORE"), "1");
    }
    EXPECT_STREQ(std::getenv("CUZK_TEST_SET_BEFORE"), "old");
    EXPECT_EQ(std::getenv("CUZK_TEST_UNSET_BEFORE"), nullptr);
    ::unsetenv("CUZK_TEST_SET_BEFORE");
}

}  // namespace
}  // namespace cuzk::cli
