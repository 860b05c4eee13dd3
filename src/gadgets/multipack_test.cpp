// multipack and UInt64: packed values against an independent big-integer oracle, counts
// (one input and one constraint per 254-bit chunk; pack_bits 1 + 1; UInt64 65 constraints),
// constraint shapes, and wrong witness values reported by name.
#include "gadgets/multipack.hpp"

#include <gtest/gtest.h>

#include "gadgets/recording_cs_test_util.hpp"
#include "gadgets/uint64.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

// Σ 2^i·bits[i] (i < 254) built as an integer, then reduced: independent of the doubling loops.
Fr oracle_pack(const std::vector<bool>& bits, size_t start, size_t len) {
    Fr::Int v{};
    for (size_t i = 0; i < len; ++i) {
        if (bits[start + i]) v.limb[i / 64] |= uint64_t{1} << (i % 64);
    }
    return Fr::from_int(v);
}

std::vector<Boolean> alloc_bits(ConstraintSystem& cs, const std::vector<bool>& bits,
                                util::TestRng& rng, bool mixed) {
    std::vector<Boolean> out;
    for (size_t i = 0; i < bits.size(); ++i) {
        const uint64_t m = mixed ? rng.uniform(3) : 1;
        if (m == 0) {
            out.push_back(Boolean::constant(bits[i]));
        } else if (m == 1) {
            out.push_back(Boolean(*AllocatedBit::alloc(cs, Name("bit ", i), bits[i])));
        } else {
            out.push_back(Boolean(*AllocatedBit::alloc(cs, Name("nbit ", i), !bits[i])).not_());
        }
    }
    return out;
}

TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
    util::TestRng rng(51);
    for (size_t n : {0u, 1u, 2u, 253u, 254u, 255u, 507u, 508u, 509u, 1000u, 1499u}) {
        for (int mixed = 0; mixed < 2; ++mixed) {
            std::vector<bool> bits(n);
            for (size_t i = 0; i < n; ++i) bits[i] = (rng.next_u64() & 1) != 0;
            r1cs::TestConstraintSystem cs;
            auto cb = alloc_bits(cs, bits, rng, mixed != 0);
            const size_t c0 = cs.num_constraints();
            ASSERT_TRUE(pack_into_inputs(cs, "pack", cb).ok());
            const size_t chunks = (n + 253) / 254;
            EXPECT_EQ(cs.num_constraints() - c0, chunks);
            EXPECT_EQ(cs.num_inputs(), 1 + chunks);
            EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
            const auto expected = compute_multipacking(bits);
            ASSERT_EQ(expected.size(), chunks);
            for (size_t k = 0; k < chunks; ++k) {
                const size_t len = std::min<size_t>(254, n - 254 * k);
                EXPECT_EQ(expected[k], oracle_pack(bits, 254 * k, len)) << n << " " << k;
                EXPECT_EQ(cs.input_assignment()[1 + k], expected[k]) << n << " " << k;
            }
        }
    }
}

TEST(Multipack, PackingConstraintShapeAndWrongValue) {
    testing::RecordingCS cs;
    std::vector<Boolean> bits;
    for (size_t i = 0; i < 3; ++i) {
        bits.push_back(Boolean(*AllocatedBit::alloc(cs, Name("b", i), i != 1)));
    }
    bits.push_back(Boolean::constant(true));
    bits.push_back(bits[1].not_());
    ASSERT_TRUE(pack_into_inputs(cs, "pack", bits).ok());
    const auto& r = cs.rows().back();
    EXPECT_EQ(r.name, "pack/packing constraint 0");
    // A = 1·b0 + 2·b1 + 4·b2 + 8·ONE + 16·(ONE − b1) = 24·ONE + b0 − 14·b1 + 4·b2
    EXPECT_TRUE(testing::lc_is(r.a, {{Variable::one(), Fr::from_u64(24)},
                                     {bits[0].bit().var, Fr::one()},
                                     {bits[1].bit().var, -Fr::from_u64(14)},
                                     {bits[2].bit().var, Fr::from_u64(4)}}));
    EXPECT_TRUE(testing::lc_is(r.b, {{Variable::one(), Fr::one()}}));
    EXPECT_TRUE(testing::lc_is(r.c, {{Variable::input(1), Fr::one()}}));
    EXPECT_EQ(cs.inputs()[1], Fr::from_u64(1 + 4 + 8 + 16));
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    cs.inputs()[1] += Fr::one();
    EXPECT_EQ(cs.first_unsatisfied().value_or(""), "pack/packing constraint 0");

    // A bit whose claimed value lies: the input is computed from the claim.
    r1cs::TestConstraintSystem test;
    AllocatedBit lying = *AllocatedBit::alloc(test, "x", false);
    lying.value = true;
    const Boolean one_bit[1] = {Boolean(lying)};
    ASSERT_TRUE(pack_into_inputs(test, "pack", one_bit).ok());
    EXPECT_EQ(test.which_is_unsatisfied().value_or(""), "pack/packing constraint 0");
}

TEST(Multipack, PackBitsTakesTheFirst254Bits) {
    util::TestRng rng(52);
    std::vector<bool> bits(256);
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = (rng.next_u64() & 1) != 0;
    bits[254] = bits[255] = true;  // must be ignored
    r1cs::TestConstraintSystem cs;
    auto cb = alloc_bits(cs, bits, rng, true);
    const size_t c0 = cs.num_constraints(), a0 = cs.num_aux();
    auto num = pack_bits(cs, "pack", cb);
    ASSERT_TRUE(num.ok());
    EXPECT_EQ(cs.num_constraints() - c0, 1u);
    EXPECT_EQ(cs.num_aux() - a0, 1u);
    EXPECT_EQ(cs.num_inputs(), 1u);
    EXPECT_EQ(*num->value, oracle_pack(bits, 0, 254));
    EXPECT_TRUE(cs.is_satisfied());

    // A lying bit claim makes the allocated number wrong.
    r1cs::TestConstraintSystem bad;
    AllocatedBit lying = *AllocatedBit::alloc(bad, "x", true);
    lying.value = false;
    const Boolean one_bit[1] = {Boolean(lying)};
    ASSERT_TRUE(pack_bits(bad, "pack", one_bit).ok());
    EXPECT_EQ(bad.which_is_unsatisfied().value_or(""), "pack/packing constraint");

    r1cs::Counter counter;
    std::vector<Boolean> shape_bits;
    for (size_t i = 0; i < 300; ++i) {
        shape_bits.push_back(Boolean(*AllocatedBit::alloc(counter, Name("b", i), std::nullopt)));
    }
    ASSERT_TRUE(pack_bits(counter, "pack", shape_bits).ok());
    ASSERT_TRUE(pack_into_inputs(counter, "inputs", shape_bits).ok());
    EXPECT_EQ(counter.num_constraints(), 300u + 1u + 2u);
    EXPECT_EQ(counter.num_inputs(), 1u + 2u);
}

TEST(Multipack, BytesToBits) {
    const uint8_t bytes[2] = {0x80, 0x03};
    const std::vector<bool> be = bytes_to_bits(bytes);
    const std::vector<bool> le = bytes_to_bits_le(bytes);
    const std::vector<bool> want_be = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1};
    const std::vector<bool> want_le = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(be, want_be);
    EXPECT_EQ(le, want_le);
}

TEST(UInt64, AllocAndPackIntoInputCost65) {
    util::TestRng rng(53);
    for (uint64_t v :
         {uint64_t{0}, ~uint64_t{0}, uint64_t{1} << 63, rng.next_u64(), uint64_t{12345}}) {
        r1cs::TestConstraintSystem cs;
        auto u = UInt64::alloc(cs, "challenge", v);
        ASSERT_TRUE(u.ok());
        EXPECT_EQ(u->value(), v);
        ASSERT_TRUE(u->pack_into_input(cs, "packed").ok());
        EXPECT_EQ(cs.num_constraints(), 65u);  // spec §2.5: UInt64::alloc + pack_into_input
        EXPECT_EQ(cs.num_aux(), 64u);
        ASSERT_EQ(cs.num_inputs(), 2u);
        Fr::Int want{};
        want.limb[0] = v;
        EXPECT_EQ(cs.input_assignment()[1], Fr::from_int(want));
        EXPECT_TRUE(cs.is_satisfied());
        const auto be = u->to_bits_be();
        const auto le = u->to_bits_le();
        for (size_t i = 0; i < 64; ++i) {
            EXPECT_EQ(le[i].value(), ((v >> i) & 1) != 0);
            EXPECT_EQ(be[63 - i].value(), ((v >> i) & 1) != 0);
        }
    }
    UInt64 c = UInt64::constant(0x8000000000000001ull);
    EXPECT_TRUE(c.bits()[0].is_constant() && c.bits()[0].constant_value());
    EXPECT_TRUE(c.bits()[63].constant_value() && !c.bits()[1].constant_value());
}

}  // namespace
}  // namespace cuzk::gadgets
