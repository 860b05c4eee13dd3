// AllocatedNum: constraint shapes (counts, which side each variable is on) and values.
#include "gadgets/num.hpp"

#include <gtest/gtest.h>

#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

TEST(AllocatedNum, InputizeMulSquareSatisfyAndCount) {
    util::TestRng rng(11);
    r1cs::TestConstraintSystem cs;
    Fr x = Fr::random(rng), y = Fr::random(rng);
    auto a = AllocatedNum::alloc(cs, "a", x);
    auto b = AllocatedNum::alloc(cs, "b", y);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_TRUE(a->inputize(cs, "a public").ok());
    auto p = a->mul(cs, "a*b", *b);
    auto s = a->square(cs, "a^2");
    ASSERT_TRUE(p.ok() && s.ok());
    EXPECT_EQ(*p->value, x * y);
    EXPECT_EQ(*s->value, x * x);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), 3u);
    EXPECT_EQ(cs.num_inputs(), 2u);  // ONE + inputized a
    EXPECT_EQ(cs.num_aux(), 4u);
    EXPECT_EQ(cs.input_assignment()[1], x);
}

TEST(AllocatedNum, WrongValueIsReportedByName) {
    util::TestRng rng(12);
    r1cs::TestConstraintSystem cs;
    Fr x = Fr::random(rng);
    auto a = AllocatedNum::alloc(cs, "a", x);
    ASSERT_TRUE(a.ok());
    // A product whose allocated value is wrong: build it by hand like mul does.
    auto bad = AllocatedNum::alloc(cs, "bad", x + Fr::one());
    ASSERT_TRUE(bad.ok());
    cs.enforce("square check", a->lc(), a->lc(), bad->lc());
    EXPECT_FALSE(cs.is_satisfied());
    EXPECT_EQ(cs.which_is_unsatisfied().value_or(""), "square check");
}

TEST(AllocatedNum, ShapeOnlyBackendsNeedNoValues) {
    r1cs::Counter cs;
    auto a = AllocatedNum::alloc(cs, "a", std::nullopt);
    ASSERT_TRUE(a.ok());
    EXPECT_FALSE(a->value.has_value());
    ASSERT_TRUE(a->inputize(cs, "in").ok());
    ASSERT_TRUE(a->square(cs, "sq").ok());
    EXPECT_EQ(cs.num_constraints(), 2u);
    EXPECT_EQ(cs.num_aux(), 2u);
}

TEST(AllocatedNum, MissingValueIsAnError) {
    r1cs::TestConstraintSystem cs;
    auto a = AllocatedNum::alloc(cs, "lonely", std::nullopt);
    ASSERT_FALSE(a.ok());
    EXPECT_NE(a.status().message().find("lonely"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::gadgets
