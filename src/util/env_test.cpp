// util::env_switch: "1" on, "0" off, anything else (or unset) the fallback. util::env_unsigned:
// a decimal number, anything else (or unset) the fallback.
#include "util/env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cuzk::util {
namespace {

constexpr const char* kName = "CUZK_ENV_SWITCH_TEST";

TEST(EnvSwitch, ReadsOnOffAndFallsBack) {
    ::unsetenv(kName);
    EXPECT_TRUE(env_switch(kName, true));
    EXPECT_FALSE(env_switch(kName, false));
    ::setenv(kName, "0", 1);
    EXPECT_FALSE(env_switch(kName, true));
    ::setenv(kName, "1", 1);
    EXPECT_TRUE(env_switch(kName, false));
    for (const char* other : {"", "yes", "10", "off"}) {
        ::setenv(kName, other, 1);
        EXPECT_TRUE(env_switch(kName, true)) << other;
        EXPECT_FALSE(env_switch(kName, false)) << other;
    }
    ::unsetenv(kName);
}

TEST(EnvUnsigned, ReadsDecimalAndFallsBack) {
    ::unsetenv(kName);
    EXPECT_EQ(env_unsigned(kName, 77), 77u);
    ::setenv(kName, "256", 1);
    EXPECT_EQ(env_unsigned(kName, 77), 256u);
    ::setenv(kName, "0", 1);
    EXPECT_EQ(env_unsigned(kName, 77), 0u);
    ::setenv(kName, "4294967295", 1);
    EXPECT_EQ(env_unsigned(kName, 77), 4294967295u);
    for (const char* bad : {"", "abc", "12x", "-3", "4294967296", " 5"}) {
        ::setenv(kName, bad, 1);
        EXPECT_EQ(env_unsigned(kName, 77), 77u) << bad;
    }
    ::unsetenv(kName);
}

}  // namespace
}  // namespace cuzk::util
