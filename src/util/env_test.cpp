// util::env_switch: "1" on, "0" off, anything else (or unset) the fallback.
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

}  // namespace
}  // namespace cuzk::util
