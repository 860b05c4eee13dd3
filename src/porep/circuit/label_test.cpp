// create_label_circuit against rust-fil-proofs' own test (storage-proofs-porep
// stacked/circuit/create_label.rs test_create_label): replica id and the 37 parents given as
// allocated bits (bytes_into_boolean_vec_be: 8 AllocatedBits per byte, most significant
// first), layer 3 and node 22 as constants → 532,025 constraints in total; the label equals
// SHA-256(id ‖ layer BE ‖ node BE ‖ 0^20 ‖ parents) with the top two bits cleared (OpenSSL).
#include "porep/circuit/label.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

using gadgets::AllocatedBit;
using gadgets::Boolean;

std::vector<Boolean> alloc_bytes_be(r1cs::ConstraintSystem& cs, const std::string& name,
                                    std::span<const uint8_t> bytes) {
    r1cs::Namespace ns(cs, name);
    std::vector<Boolean> bits;
    for (size_t i = 0; i < bytes.size(); ++i) {
        for (int j = 7; j >= 0; --j) {
            auto b = AllocatedBit::alloc(cs, r1cs::Name("bit ", 8 * i + (7 - j)),
                                         ((bytes[i] >> j) & 1) != 0);
            EXPECT_TRUE(b.ok());
            bits.emplace_back(*b);
        }
    }
    return bits;
}

std::array<uint8_t, 32> random_fr_bytes(util::TestRng& rng) {
    std::array<uint8_t, 32> out;
    ff::Fr::random(rng).to_bytes_le(std::span<uint8_t, 32>(out));
    return out;
}

TEST(CreateLabel, PublishedCountAndOpenSslValue) {
    util::TestRng rng(37);
    const uint32_t layer = 3;
    const uint64_t node = 22;
    const auto id = random_fr_bytes(rng);
    std::vector<std::array<uint8_t, 32>> raw;
    for (int i = 0; i < 14; ++i) raw.push_back(random_fr_bytes(rng));
    std::vector<std::array<uint8_t, 32>> parents = raw;
    parents.insert(parents.end(), raw.begin(), raw.end());
    parents.insert(parents.end(), raw.begin(), raw.begin() + 9);
    ASSERT_EQ(parents.size(), kLabelParents);

    r1cs::TestConstraintSystem cs;
    std::vector<std::vector<Boolean>> parent_bits;
    for (size_t i = 0; i < parents.size(); ++i) {
        parent_bits.push_back(alloc_bytes_be(cs, "parents " + std::to_string(i), parents[i]));
    }
    const std::vector<Boolean> id_bits = alloc_bytes_be(cs, "id", id);
    auto label = create_label_circuit(cs, "create_label", id_bits, parent_bits, layer,
                                      gadgets::UInt64::constant(node));
    ASSERT_TRUE(label.ok()) << label.status().to_string();
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), 532'025u);

    std::vector<uint8_t> msg(id.begin(), id.end());
    for (int s = 24; s >= 0; s -= 8) msg.push_back(static_cast<uint8_t>(layer >> s));
    for (int s = 56; s >= 0; s -= 8) msg.push_back(static_cast<uint8_t>(node >> s));
    msg.resize(64, 0);
    for (const auto& p : parents) msg.insert(msg.end(), p.begin(), p.end());
    std::array<uint8_t, 32> digest;
    unsigned int n = 0;
    ASSERT_EQ(EVP_Digest(msg.data(), msg.size(), digest.data(), &n, EVP_sha256(), nullptr), 1);
    digest[31] &= 0x3f;
    auto expect = ff::Fr::from_bytes_le(std::span<const uint8_t, 32>(digest));
    ASSERT_TRUE(expect.ok());
    ASSERT_TRUE(label->value.has_value());
    EXPECT_EQ(*label->value, *expect);
}

TEST(CreateLabel, RejectsBadShapes) {
    r1cs::TestConstraintSystem cs;
    std::vector<Boolean> id(256, Boolean::constant(false));
    std::vector<std::vector<Boolean>> parents(36, std::vector<Boolean>(256));
    EXPECT_FALSE(create_label_circuit(cs, "l", id, parents, 1, gadgets::UInt64::constant(1)).ok());
    parents.emplace_back(257, Boolean::constant(true));
    EXPECT_FALSE(create_label_circuit(cs, "l", id, parents, 1, gadgets::UInt64::constant(1)).ok());
    id.resize(16);
    parents.back().resize(256);
    EXPECT_FALSE(create_label_circuit(cs, "l", id, parents, 1, gadgets::UInt64::constant(1)).ok());
}

}  // namespace
}  // namespace cuzk::porep
