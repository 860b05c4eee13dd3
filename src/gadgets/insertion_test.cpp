// insertion: pick's shape, insert_2 / insert_4 / insert_8 / generic insert and select on every
// position against a plain list insertion, the published counts (2, 8, 22; select size − 1),
// and a wrong witness value reported by the name of the broken pick.
#include "gadgets/insertion.hpp"

#include <gtest/gtest.h>

#include "gadgets/recording_cs_test_util.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

TEST(Pick, ShapeValuesAndWrongValue) {
    for (bool cond : {false, true}) {
        testing::RecordingCS cs;
        auto a = AllocatedNum::alloc(cs, "a", Fr::from_u64(10));
        auto b = AllocatedNum::alloc(cs, "b", Fr::from_u64(20));
        auto c = AllocatedBit::alloc(cs, "c", cond);
        auto p = pick(cs, "pick", Boolean(*c), *a, *b);
        ASSERT_TRUE(p.ok());
        EXPECT_EQ(*p->value, Fr::from_u64(cond ? 10 : 20));
        ASSERT_EQ(cs.rows().size(), 2u);
        const auto& r = cs.rows()[1];
        EXPECT_EQ(r.name, "pick/pick");
        EXPECT_TRUE(testing::lc_is(r.a, {{b->var, Fr::one()}, {a->var, -Fr::one()}}));
        EXPECT_TRUE(testing::lc_is(r.b, {{c->var, Fr::one()}}));
        EXPECT_TRUE(testing::lc_is(r.c, {{b->var, Fr::one()}, {p->var, -Fr::one()}}));
        EXPECT_FALSE(cs.first_unsatisfied().has_value());
        cs.aux()[p->var.index()] = Fr::from_u64(cond ? 20 : 10);  // the other one
        EXPECT_EQ(cs.first_unsatisfied().value_or(""), "pick/pick");
    }
}

struct InsertCase {
    std::vector<AllocatedNum> elements;
    AllocatedNum element;
    std::vector<Boolean> bits;
    std::vector<Fr> values;  // elements' values
    Fr x;
};

InsertCase make_case(ConstraintSystem& cs, size_t log_size, size_t index, util::TestRng& rng,
                     std::optional<size_t> lie_bit = std::nullopt) {
    InsertCase s;
    const size_t size = size_t{1} << log_size;
    for (size_t i = 0; i + 1 < size; ++i) {
        s.values.push_back(Fr::random(rng));
        s.elements.push_back(*AllocatedNum::alloc(cs, Name("element ", i), s.values.back()));
    }
    s.x = Fr::random(rng);
    s.element = *AllocatedNum::alloc(cs, "insert", s.x);
    for (size_t i = 0; i < log_size; ++i) {
        AllocatedBit bit = *AllocatedBit::alloc(cs, Name("index bit ", i), ((index >> i) & 1) != 0);
        if (lie_bit && *lie_bit == i) bit.value = !*bit.value;
        s.bits.push_back(Boolean(bit));
    }
    return s;
}

TEST(Insert, EveryPositionAndSize) {
    util::TestRng rng(61);
    for (size_t log_size = 1; log_size <= 4; ++log_size) {
        const size_t size = size_t{1} << log_size;
        for (size_t index = 0; index < size; ++index) {
            r1cs::TestConstraintSystem cs;
            InsertCase s = make_case(cs, log_size, index, rng);
            const size_t c0 = cs.num_constraints(), a0 = cs.num_aux();
            auto out = insert(cs, s.element, s.bits, s.elements);
            ASSERT_TRUE(out.ok());
            ASSERT_EQ(out->size(), size);
            std::vector<Fr> want = s.values;
            want.insert(want.begin() + static_cast<std::ptrdiff_t>(index), s.x);
            for (size_t k = 0; k < size; ++k) EXPECT_EQ(*(*out)[k].value, want[k]);
            const size_t expected = log_size == 1   ? 2
                                    : log_size == 2 ? 8
                                    : log_size == 3 ? 22
                                                    : size * (size - 1);
            EXPECT_EQ(cs.num_constraints() - c0, expected) << log_size;
            EXPECT_EQ(cs.num_aux() - a0, expected) << log_size;
            EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
        }
    }
}

TEST(Insert, ValuePatternsWithRepeatedElements) {
    // Equal elements and zeros: a pick that selects the wrong operand would go unnoticed on
    // random values only if operands coincide — check every 0/1 value pattern for size 8.
    for (size_t index = 0; index < 8; ++index) {
        for (uint32_t pattern = 0; pattern < 256; pattern += 37) {
            r1cs::TestConstraintSystem cs;
            std::vector<AllocatedNum> elements;
            std::vector<Fr> vals;
            for (size_t i = 0; i < 7; ++i) {
                vals.push_back(Fr::from_u64((pattern >> i) & 1));
                elements.push_back(*AllocatedNum::alloc(cs, Name("e", i), vals.back()));
            }
            const Fr x = Fr::from_u64(2 + ((pattern >> 7) & 1));
            auto element = AllocatedNum::alloc(cs, "x", x);
            std::vector<Boolean> bits;
            for (size_t i = 0; i < 3; ++i) {
                bits.push_back(
                    Boolean(*AllocatedBit::alloc(cs, Name("i", i), ((index >> i) & 1) != 0)));
            }
            auto out = insert_8(cs, *element, bits, elements);
            ASSERT_TRUE(out.ok());
            vals.insert(vals.begin() + static_cast<std::ptrdiff_t>(index), x);
            for (size_t k = 0; k < 8; ++k) EXPECT_EQ(*(*out)[k].value, vals[k]) << index;
            EXPECT_TRUE(cs.is_satisfied());
        }
    }
}

TEST(Insert, Insert8ShapeOrderAndErrors) {
    testing::RecordingCS cs;
    util::TestRng rng(62);
    InsertCase s = make_case(cs, 3, 5, rng);
    const size_t r0 = cs.rows().size();
    ASSERT_TRUE(insert(cs, s.element, s.bits, s.elements).ok());
    ASSERT_EQ(cs.rows().size() - r0, 22u);
    EXPECT_EQ(cs.rows()[r0].name, "b0 nor b1/nor constraint");
    EXPECT_EQ(cs.rows()[r0 + 1].name, "b0 and b1/and constraint");
    EXPECT_EQ(cs.rows()[r0 + 2].name, "p0_xx0/pick");
    EXPECT_EQ(cs.rows().back().name, "p7/pick");
    EXPECT_FALSE(cs.first_unsatisfied().has_value());

    r1cs::TestConstraintSystem t;
    InsertCase u = make_case(t, 3, 2, rng);
    u.bits[0] = u.bits[0].not_();
    EXPECT_FALSE(insert_8(t, u.element, u.bits, u.elements).ok());
    EXPECT_FALSE(insert(t, u.element, std::span(u.bits).first(2), u.elements).ok());
    EXPECT_FALSE(insert_4(t, u.element, u.bits, u.elements).ok());
}

TEST(Insert, LyingIndexBitIsCaught) {
    util::TestRng rng(63);
    for (size_t log_size = 1; log_size <= 3; ++log_size) {
        r1cs::TestConstraintSystem cs;
        InsertCase s = make_case(cs, log_size, 1, rng, /*lie_bit=*/0);
        ASSERT_TRUE(insert(cs, s.element, s.bits, s.elements).ok());
        EXPECT_FALSE(cs.is_satisfied());
        const std::string where = cs.which_is_unsatisfied().value_or("");
        // insert_8 first combines the bits (nor/and), so the lie shows there.
        if (log_size == 3) {
            EXPECT_EQ(where, "b0 nor b1/nor constraint");
        } else {
            EXPECT_NE(where.find("/pick"), std::string::npos) << where;
        }
    }
}

TEST(Select, EveryIndexCostsSizeMinusOne) {
    util::TestRng rng(64);
    for (size_t log_size = 1; log_size <= 4; ++log_size) {
        const size_t size = size_t{1} << log_size;
        for (size_t index = 0; index < size; ++index) {
            r1cs::TestConstraintSystem cs;
            std::vector<AllocatedNum> from;
            for (size_t i = 0; i < size; ++i) {
                from.push_back(*AllocatedNum::alloc(cs, Name("e", i), Fr::random(rng)));
            }
            std::vector<Boolean> bits;
            for (size_t i = 0; i < log_size; ++i) {
                bits.push_back(
                    Boolean(*AllocatedBit::alloc(cs, Name("b", i), ((index >> i) & 1) != 0)));
            }
            const size_t c0 = cs.num_constraints();
            auto r = select(cs, "select", from, bits);
            ASSERT_TRUE(r.ok());
            EXPECT_EQ(*r->value, *from[index].value);
            EXPECT_EQ(cs.num_constraints() - c0, size - 1);
            EXPECT_TRUE(cs.is_satisfied());
        }
    }
}

TEST(Insert, ShapeOnlyCounts) {
    r1cs::Counter cs;
    std::vector<AllocatedNum> elements;
    for (size_t i = 0; i < 7; ++i) elements.push_back(*AllocatedNum::alloc(cs, "e", std::nullopt));
    auto element = AllocatedNum::alloc(cs, "x", std::nullopt);
    std::vector<Boolean> bits;
    for (size_t i = 0; i < 3; ++i)
        bits.push_back(Boolean(*AllocatedBit::alloc(cs, "b", std::nullopt)));
    const size_t c0 = cs.num_constraints();
    ASSERT_TRUE(insert(cs, *element, bits, elements).ok());
    EXPECT_EQ(cs.num_constraints() - c0, 22u);
}

}  // namespace
}  // namespace cuzk::gadgets
