// UInt32 and MultiEq: values against native uint32 arithmetic on random inputs, constant
// folding, result-bit counts of addmany, MultiEq batching (when a constraint is emitted and
// what it contains), and a wrong sum being reported by the name of the multieq constraint.
#include "gadgets/uint32.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "gadgets/recording_cs_test_util.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

uint32_t rand32(util::TestRng& rng) { return static_cast<uint32_t>(rng.next_u64()); }

// A UInt32 with random constant/allocated bits, to exercise every short-cut.
UInt32 mixed(ConstraintSystem& cs, const std::string& name, uint32_t v, util::TestRng& rng,
             int mode) {
    if (mode == 0) return UInt32::constant(v);
    auto a = UInt32::alloc(cs, name, v);
    if (mode == 1) return *a;
    std::vector<Boolean> be;
    for (int i = 31; i >= 0; --i) {
        const bool bit = (v >> i) & 1;
        switch (rng.uniform(3)) {
            case 0:
                be.push_back(Boolean::constant(bit));
                break;
            case 1:
                be.push_back(a->bits()[i]);
                break;
            default: {
                std::string n = name;
                n += "n";
                n += std::to_string(i);
                auto nb = AllocatedBit::alloc(cs, n, !bit);
                be.push_back(Boolean(*nb).not_());
            }
        }
    }
    return *UInt32::from_bits_be(be);
}

TEST(UInt32, ConstantBitsAndBitOrder) {
    util::TestRng rng(31);
    for (int k = 0; k < 100; ++k) {
        const uint32_t v = rand32(rng);
        UInt32 u = UInt32::constant(v);
        EXPECT_EQ(u.value(), v);
        auto be = u.into_bits_be();
        for (int i = 0; i < 32; ++i) {
            EXPECT_EQ(be[i].constant_value(), ((v >> (31 - i)) & 1) != 0);
        }
        auto back = UInt32::from_bits_be(be);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(back->value(), v);
        for (unsigned by : {0u, 1u, 7u, 17u, 31u, 32u, 45u}) {
            EXPECT_EQ(u.rotr(by).value(), std::rotr(v, static_cast<int>(by % 32)));
            EXPECT_EQ(u.shr(by).value(), v >> (by % 32));
            for (int i = 0; i < 32; ++i) {
                EXPECT_EQ(u.rotr(by).bits()[i].constant_value(),
                          ((std::rotr(v, static_cast<int>(by % 32)) >> i) & 1) != 0);
                EXPECT_EQ(u.shr(by).bits()[i].constant_value(), (((v >> (by % 32)) >> i) & 1) != 0);
            }
        }
    }
    EXPECT_FALSE(UInt32::from_bits_be(std::vector<Boolean>(31)).ok());
}

TEST(UInt32, AllocXorChMajMatchNativeOnMixedOperands) {
    util::TestRng rng(32);
    for (int k = 0; k < 60; ++k) {
        r1cs::TestConstraintSystem cs;
        const uint32_t x = rand32(rng), y = rand32(rng), z = rand32(rng);
        UInt32 a = mixed(cs, "a", x, rng, k % 3);
        UInt32 b = mixed(cs, "b", y, rng, (k / 3) % 3);
        UInt32 c = mixed(cs, "c", z, rng, 2);
        auto r = a.xor_(cs, "xor", b);
        auto ch = UInt32::sha256_ch(cs, "ch", a, b, c);
        auto maj = UInt32::sha256_maj(cs, "maj", a, b, c);
        ASSERT_TRUE(r.ok() && ch.ok() && maj.ok());
        EXPECT_EQ(r->value(), x ^ y);
        EXPECT_EQ(ch->value(), (x & y) ^ (~x & z));
        EXPECT_EQ(maj->value(), (x & y) ^ (x & z) ^ (y & z));
        for (int i = 0; i < 32; ++i) {
            EXPECT_EQ(r->bits()[i].value(), (((x ^ y) >> i) & 1) != 0);
        }
        EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    }
}

TEST(UInt32, AllocCounts) {
    r1cs::TestConstraintSystem cs;
    auto a = UInt32::alloc(cs, "a", 0xdeadbeef);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(cs.num_constraints(), 32u);
    EXPECT_EQ(cs.num_aux(), 32u);
    EXPECT_EQ(a->value(), 0xdeadbeefu);
    // xor with a constant is free; xor of two allocated words is 32 constraints.
    auto k = a->xor_(cs, "k", UInt32::constant(0x12345678));
    EXPECT_EQ(cs.num_constraints(), 32u);
    auto b = UInt32::alloc(cs, "b", 7);
    auto ab = a->xor_(cs, "ab", *b);
    ASSERT_TRUE(k.ok() && ab.ok());
    EXPECT_EQ(cs.num_constraints(), 32u + 32u + 32u);
    EXPECT_TRUE(cs.is_satisfied());
}

TEST(UInt32, AddmanyMatchesNativeSum) {
    util::TestRng rng(33);
    for (int k = 0; k < 200; ++k) {
        const size_t n = 2 + rng.uniform(9);  // 2..10 operands
        r1cs::TestConstraintSystem cs;
        std::vector<UInt32> ops;
        uint32_t want = 0;
        for (size_t j = 0; j < n; ++j) {
            const uint32_t v = k < 5 ? 0xffffffffu : rand32(rng);
            want += v;
            ops.push_back(mixed(cs, Name("op", j).str(), v, rng, static_cast<int>(rng.uniform(3))));
        }
        bool all_const = true;
        for (const auto& op : ops) {
            for (const auto& bit : op.bits()) all_const &= bit.is_constant();
        }
        const size_t c0 = cs.num_constraints(), a0 = cs.num_aux();
        MultiEq meq(cs);
        auto r = UInt32::addmany(meq, "sum", ops);
        ASSERT_TRUE(r.ok());
        meq.finish();
        EXPECT_EQ(r->value(), want);
        // bitlen(n·(2^32 − 1)) result bits, computed independently with std::bit_width.
        const size_t nbits = std::bit_width(static_cast<uint64_t>(n) * 0xffffffffull);
        if (all_const) {
            EXPECT_TRUE(r->bits()[0].is_constant());
            EXPECT_EQ(cs.num_constraints(), c0);
        } else {
            EXPECT_EQ(cs.num_aux() - a0, nbits);
            EXPECT_EQ(cs.num_constraints() - c0, nbits + 1);
        }
        EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    }
    r1cs::TestConstraintSystem cs;
    MultiEq meq(cs);
    std::vector<UInt32> one = {UInt32::constant(1)};
    EXPECT_FALSE(UInt32::addmany(meq, "one", one).ok());
    std::vector<UInt32> eleven(11, UInt32::constant(1));
    EXPECT_FALSE(UInt32::addmany(meq, "eleven", eleven).ok());
}

TEST(TermBuffer, BuildEqualsSequentialAdds) {
    util::TestRng rng(36);
    for (int k = 0; k < 50; ++k) {
        TermBuffer buf;
        LC seq;
        const size_t n = rng.uniform(400);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t idx = static_cast<uint32_t>(rng.uniform(64));
            const Variable v = rng.uniform(4) == 0 ? Variable::input(idx % 3) : Variable::aux(idx);
            // Small coefficients of both signs, so that some sums cancel to zero.
            Fr c = Fr::from_u64(1 + rng.uniform(3));
            if (rng.uniform(2) != 0) c = -c;
            buf.add(c, v);
            seq.add(c, v);
        }
        const LC built = buf.build();
        ASSERT_EQ(built.size(), seq.size());
        for (size_t i = 0; i < built.size(); ++i) {
            EXPECT_EQ(built.terms()[i].var, seq.terms()[i].var);
            EXPECT_EQ(built.terms()[i].coeff, seq.terms()[i].coeff);
        }
    }
}

TEST(MultiEq, BatchesUpToCapacity) {
    // Seven 2-operand additions of allocated words use 7·33 = 231 bits; the eighth (33 bits)
    // would reach 264 ≥ 254, so the first seven are emitted as "multieq 0" before it.
    testing::RecordingCS cs;
    util::TestRng rng(34);
    MultiEq meq(cs);
    std::vector<UInt32> words;
    for (int k = 0; k < 16; ++k)
        words.push_back(*UInt32::alloc(cs, Name("w", static_cast<uint64_t>(k)), rand32(rng)));
    size_t emitted = 0;
    for (int k = 0; k < 8; ++k) {
        const UInt32 ops[2] = {words[2 * k], words[2 * k + 1]};
        const size_t before = cs.rows().size();
        ASSERT_TRUE(UInt32::addmany(meq, Name("add ", static_cast<uint64_t>(k)), ops).ok());
        emitted += cs.rows().size() - before - 33;
        EXPECT_EQ(emitted, k < 7 ? 0u : 1u) << k;
    }
    EXPECT_EQ(meq.bits_used(), 33u);
    // The batch is emitted after the eighth addition's result bits, inside its namespace.
    EXPECT_EQ(cs.rows().back().name, "add 7/multieq 0");
    bool found = false;
    for (const auto& row : cs.rows()) {
        if (row.name == "add 7/multieq 0") {
            found = true;
            EXPECT_TRUE(testing::lc_is(row.b, {{Variable::one(), Fr::one()}}));
            // lhs contains operand bit 0 of the 7th addition with weight 2^(6·33).
            EXPECT_EQ(row.a.coeff_of(words[12].bits()[0].bit().var), Fr::from_u64(2).pow(198));
        }
    }
    EXPECT_TRUE(found);
    meq.finish();
    EXPECT_EQ(cs.rows().back().name, "multieq 1");
    EXPECT_EQ(meq.bits_used(), 0u);
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    // Break one result bit of the 8th sum: its own boolean constraint still holds if it stays
    // 0/1, so the batch constraint names the failure.
    Fr& v = cs.aux()[cs.aux().size() - 33];
    v = v.is_zero() ? Fr::one() : Fr::zero();
    EXPECT_EQ(cs.first_unsatisfied().value_or(""), "multieq 1");
    EXPECT_FALSE(meq.enforce_equal(254, LC(), LC()).ok());
}

TEST(UInt32, ShapeOnlyBackendGivesSameCounts) {
    util::TestRng rng(35);
    auto run = [&](ConstraintSystem& cs, bool values) {
        std::optional<uint32_t> x, y;
        if (values) x = rand32(rng), y = rand32(rng);
        auto a = UInt32::alloc(cs, "a", x);
        auto b = UInt32::alloc(cs, "b", y);
        MultiEq meq(cs);
        const UInt32 ops[3] = {*a, *b, UInt32::constant(5)};
        auto s = UInt32::addmany(meq, "s", ops);
        EXPECT_TRUE(s.ok());
        meq.finish();
        auto m = UInt32::sha256_maj(cs, "m", *a, *b, *s);
        EXPECT_TRUE(m.ok());
    };
    r1cs::TestConstraintSystem test;
    r1cs::Counter counter;
    run(test, true);
    run(counter, false);
    EXPECT_TRUE(test.is_satisfied());
    EXPECT_EQ(test.num_constraints(), counter.num_constraints());
    EXPECT_EQ(test.num_aux(), counter.num_aux());
}

}  // namespace
}  // namespace cuzk::gadgets
