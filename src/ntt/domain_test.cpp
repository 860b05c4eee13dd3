// Tests of EvaluationDomain: bellperson's sizes, roots and coset constants, and its limits.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ntt/domain.hpp"

namespace cuzk::ntt {
namespace {

using ff::Fr;

EvaluationDomain domain(size_t n) { return EvaluationDomain::create(n).value(); }

TEST(EvaluationDomainTest, SizesAndConstants) {
    for (size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 1000, 1024, 1025, (1 << 20) + 1}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const EvaluationDomain d = domain(n);
        size_t m = 1;
        while (m < n) m *= 2;
        ASSERT_EQ(d.size(), m);
        ASSERT_EQ(size_t{1} << d.log_size(), m);
        EXPECT_EQ(d.omega(), ff::fr_root_of_unity(d.log_size()));
        EXPECT_EQ(d.omega().pow(uint64_t{m}), Fr::one());
        if (m >= 2) {  // primitive
            EXPECT_EQ(d.omega().pow(uint64_t{m / 2}), -Fr::one());
        }
        EXPECT_EQ(d.omega() * d.omega_inv(), Fr::one());
        EXPECT_EQ(Fr::from_u64(m) * d.size_inv(), Fr::one());
        EXPECT_EQ(d.coset_generator(), Fr::from_u64(7));
        EXPECT_EQ(d.coset_generator() * d.coset_generator_inv(), Fr::one());
        EXPECT_EQ(d.z_on_coset(), Fr::from_u64(7).pow(uint64_t{m}) - Fr::one());
        EXPECT_EQ(d.z_on_coset() * d.z_on_coset_inverse(), Fr::one());
    }
}

TEST(EvaluationDomainTest, LargestAndRejectedSizes) {
    const EvaluationDomain big = domain(size_t{1} << 31);  // no tables: constants only
    EXPECT_EQ(big.log_size(), 31u);
    EXPECT_EQ(big.omega().pow(uint64_t{1} << 30), -Fr::one());
    // bellperson's ROOT_OF_UNITY (blstrs / zkcrypto bls12_381 Scalar), squared once for 2^31.
    const Fr root_of_unity =
        Fr::from_hex("0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    EXPECT_EQ(big.omega(), root_of_unity.square());

    const auto zero = EvaluationDomain::create(0);
    ASSERT_FALSE(zero.ok());
    EXPECT_EQ(zero.status().code(), util::StatusCode::kInvalidArgument);
    for (size_t n : {(size_t{1} << 31) + 1, size_t{1} << 32, ~size_t{0}}) {
        const auto r = EvaluationDomain::create(n);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.status().code(), util::StatusCode::kOutOfRange);
        EXPECT_NE(r.status().message().find(std::to_string(n)), std::string::npos)
            << r.status().message();
    }
}

TEST(EvaluationDomainTest, PadToDomain) {
    std::vector<Fr> v(5, Fr::one());
    ASSERT_TRUE(pad_to_domain(v, domain(5)).ok());
    ASSERT_EQ(v.size(), 8u);
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(v[i], i < 5 ? Fr::one() : Fr::zero()) << i;
    std::vector<Fr> too_long(9);
    const util::Status s = pad_to_domain(too_long, domain(8));
    EXPECT_EQ(s.code(), util::StatusCode::kInvalidArgument);
    EXPECT_EQ(too_long.size(), 9u);
}

}  // namespace
}  // namespace cuzk::ntt
