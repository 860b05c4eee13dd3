// Every backend agrees on the hand-built circuits of test_circuits.hpp (backend_check.hpp), the
// densities follow the non-zero-coefficient rule, and the test CS names the first failing
// constraint when one witness value is perturbed.
#include <gtest/gtest.h>

#include "r1cs/backend_check.hpp"
#include "r1cs/test_circuits.hpp"

namespace cuzk::r1cs::testing {
namespace {

TEST(Backends, CubicAgrees) {
    expect_backends_agree([](ConstraintSystem& cs) { return cubic(cs, Fr::from_u64(3)); },
                          Capacity{3, 2, 3});
    ProvingAssignment pa;
    ASSERT_TRUE(cubic(pa, Fr::from_u64(3)).ok());
    pa.finish();
    EXPECT_EQ(pa.input_assignment()[1], Fr::from_u64(35));
    EXPECT_EQ(pa.a().size(), 5u);  // 3 constraints + 2 input rows
}

TEST(Backends, CubicFirstFailure) {
    const auto run = [](long perturb) {
        return first_failure(
            [=](ConstraintSystem& cs) { return cubic(cs, Fr::from_u64(3), perturb); });
    };
    EXPECT_EQ(run(-1), std::nullopt);
    EXPECT_EQ(run(0), std::optional<std::string>("cubic/x_sq"));  // x
    EXPECT_EQ(run(1), std::optional<std::string>("cubic/x_sq"));  // x_sq
    EXPECT_EQ(run(2), std::optional<std::string>("cubic/x_cu"));  // x_cu
}

TEST(Backends, ChainAgreesAndNamesFailure) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{64}}) {
        expect_backends_agree(
            [=](ConstraintSystem& cs) { return mul_chain(cs, Fr::from_u64(5), n); },
            Capacity{n + 1, 2, n + 1});
    }
    const auto fail = [](long perturb) {
        return first_failure(
            [=](ConstraintSystem& cs) { return mul_chain(cs, Fr::from_u64(5), 10, perturb); });
    };
    EXPECT_EQ(fail(-1), std::nullopt);
    EXPECT_EQ(fail(4), std::optional<std::string>("chain/step 3/mul"));
    EXPECT_EQ(fail(10), std::optional<std::string>("chain/step 9/mul"));
}

TEST(Backends, CancellingCoefficientsAndDensities) {
    const Circuit circuit = [](ConstraintSystem& cs) {
        return cancelling(cs, Fr::from_u64(4), Fr::from_u64(9));
    };
    expect_backends_agree(circuit, Capacity{4, 2, 4});
    ProvingAssignment pa;
    ASSERT_TRUE(circuit(pa).ok());
    pa.finish();
    // aux: x=0, y=1, w=2, u=3; inputs: ONE=0, z=1.
    const DensityBits& a_aux = pa.a_aux_density();
    EXPECT_FALSE(a_aux.get(0));
    EXPECT_TRUE(a_aux.get(1));
    EXPECT_FALSE(a_aux.get(2));
    EXPECT_TRUE(a_aux.get(3));
    EXPECT_EQ(a_aux.popcount(), 2u);
    const DensityBits& b_aux = pa.b_aux_density();
    EXPECT_TRUE(b_aux.get(0));
    EXPECT_EQ(b_aux.popcount(), 1u);
    const DensityBits& b_input = pa.b_input_density();
    EXPECT_FALSE(b_input.get(0));  // ONE only occurs with cancelling coefficients in B
    EXPECT_TRUE(b_input.get(1));
    EXPECT_EQ(b_input.popcount(), 1u);
    // "product": A = y (x cancelled), B = x (ONE cancelled): one non-zero entry each.
    ShapeRecorder rec;
    ASSERT_TRUE(circuit(rec).ok());
    rec.finish();
    EXPECT_EQ(rec.a().row_ptr[1], 1u);
    EXPECT_EQ(rec.b().row_ptr[1], 1u);
    EXPECT_EQ(rec.a().col[0], 2u + 1u);  // aux y after the 2 inputs
    EXPECT_EQ(rec.b().col[0], 2u + 0u);  // aux x
    // "zero": B is all zero → an empty row.
    EXPECT_EQ(rec.b().row_ptr[4], rec.b().row_ptr[3]);

    const auto fail = [](long perturb) {
        return first_failure([=](ConstraintSystem& cs) {
            return cancelling(cs, Fr::from_u64(4), Fr::from_u64(9), perturb);
        });
    };
    EXPECT_EQ(fail(-1), std::nullopt);
    EXPECT_EQ(fail(0), std::optional<std::string>("cancel/product"));
    EXPECT_EQ(fail(1), std::optional<std::string>("cancel/product"));
    EXPECT_EQ(fail(2), std::optional<std::string>("cancel/product"));
    EXPECT_EQ(fail(3), std::nullopt);  // u is only multiplied by zero: its value is free
}

TEST(Backends, BooleansAgreeAndNameFailure) {
    const uint64_t num = 0xb5;
    expect_backends_agree([=](ConstraintSystem& cs) { return booleans(cs, num, 8); },
                          Capacity{9, 1, 9});
    const auto fail = [=](long perturb) {
        return first_failure([=](ConstraintSystem& cs) { return booleans(cs, num, 8, perturb); });
    };
    EXPECT_EQ(fail(-1), std::nullopt);
    EXPECT_EQ(fail(0), std::optional<std::string>("bits/unpacking"));      // num
    EXPECT_EQ(fail(1), std::optional<std::string>("bits/bit 0/boolean"));  // b_0 = 1 → 2
    EXPECT_EQ(fail(3), std::optional<std::string>("bits/bit 2/boolean"));  // b_2 = 1 → 2
    EXPECT_EQ(fail(2), std::optional<std::string>("bits/unpacking"));      // b_1 = 0 → 1
    // Booleans are dense in A (ONE − b) and B (b); num only occurs in C.
    Counter counter;
    ASSERT_TRUE(booleans(counter, num, 8).ok());
    EXPECT_EQ(counter.a_aux_popcount(), 8u);
    EXPECT_EQ(counter.b_aux_popcount(), 8u);
    EXPECT_EQ(counter.b_input_popcount(), 0u);
}

}  // namespace
}  // namespace cuzk::r1cs::testing
