// Out-of-circuit Poseidon against published vectors: neptune poseidon.rs hash_values_aux
// (preimage [0, 1, …, arity−1], MerkleTree tag, Standard and Strengthened) and rust-fil-proofs
// filecoin-hashers poseidon.rs test_poseidon_hasher (binary tree over [1, 0, 0, 1]) and
// test_hash_md (arity-36 Merkle–Damgård over 71 ones); and optimised == reference on random
// inputs for every supported arity.
#include "poseidon/hash.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

// neptune scalar_from_u64s: canonical value from little-endian u64 limbs.
Fr from_limbs(std::array<uint64_t, 4> limbs) {
    ff::BigInt<4> v;
    for (size_t i = 0; i < 4; ++i) v.limb[i] = limbs[i];
    EXPECT_TRUE(v < Fr::modulus());
    return Fr::from_int(v);
}

std::vector<Fr> counting(size_t n) {
    std::vector<Fr> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = Fr::from_u64(i);
    return v;
}

struct Vector {
    size_t arity;
    std::array<uint64_t, 4> limbs;
};

// neptune src/poseidon.rs hash_values_aux, Strength::Standard.
constexpr Vector kStandard[] = {
    {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
    {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
    {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
    {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
    {16, {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a}},
    {24, {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15}},
    {36, {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f}},
};

// neptune src/poseidon.rs hash_values_aux, Strength::Strengthened.
constexpr Vector kStrengthened[] = {
    {2, {0x793dbaf54552cd69, 0x5278ecbf17040ea6, 0xc48b36ecc4cab748, 0x33d28a753baee41b}},
    {4, {0x4650ee190212aa9a, 0xe5113a254d6f5c7e, 0x54013bdaf68ba4c2, 0x09d8207c51ca3f43}},
    {8, {0x9f0c3c93c3fc894e, 0xe843d4cfba662df1, 0xd69aae8fe1cb63e8, 0x69e61465981ae17e}},
    {11, {0x778af344d8f9e8b7, 0xc94fe2ca3f46d433, 0x07abbcf9b406e8d8, 0x28bb83ff439753c0}},
    {16, {0x3cc2664c5fd6ae07, 0xd7431eaaa5e43189, 0x43ba5f418c6ef01d, 0x68d7856395aa217e}},
    {24, {0x1df1da58827cb39d, 0x0566756b7b80fb10, 0x222eb82c6666be3d, 0x086e4e81a35bfd92}},
    {36, {0x636401e9371dc311, 0x8f69e35a702ed188, 0x64d73b2ddc03d43b, 0x609f8c6fe45cc054}},
};

void check_vectors(const Vector* vs, size_t n, Strength strength) {
    for (size_t k = 0; k < n; ++k) {
        const Vector& v = vs[k];
        auto c = constants(v.arity, strength);
        ASSERT_TRUE(c.ok());
        const auto pre = counting(v.arity);
        const Fr expected = from_limbs(v.limbs);
        auto opt = hash_optimized(**c, pre);
        auto ref = hash_correct(**c, pre);
        ASSERT_TRUE(opt.ok() && ref.ok());
        EXPECT_EQ(*ref, expected) << "reference, arity " << v.arity;
        EXPECT_EQ(*opt, expected) << "optimised, arity " << v.arity;
        auto h = hash(pre, strength);
        ASSERT_TRUE(h.ok());
        EXPECT_EQ(*h, expected);
    }
}

TEST(PoseidonHash, NeptuneStandardVectors) {
    check_vectors(kStandard, std::size(kStandard), Strength::kStandard);
}

TEST(PoseidonHash, NeptuneStrengthenedVectors) {
    check_vectors(kStrengthened, std::size(kStrengthened), Strength::kStrengthened);
}

TEST(PoseidonHash, FilecoinHashersBinaryTree) {
    // filecoin-hashers poseidon.rs test_poseidon_hasher: leaves [1, 0, 0, 1], a binary tree of
    // node(l, r) = Poseidon2(l, r); node 4 = H(1, 0), node 6 = the root H(H(1,0), H(0,1)).
    const Fr one = Fr::one(), zero = Fr::zero();
    const Fr i1 = hash2(one, zero);
    const Fr i2 = hash2(zero, one);
    EXPECT_EQ(i1, from_limbs({0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26,
                              0x042f94ffbe786bc3}));
    EXPECT_EQ(hash2(i1, i2), from_limbs({0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2,
                                         0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb}));
}

TEST(PoseidonHash, FilecoinHashersHashMd) {
    // filecoin-hashers poseidon.rs test_hash_md: 71 ones, arity-36 Merkle–Damgård: acc = x_0;
    // for each chunk of 35 further elements acc = Poseidon36(acc, chunk).
    const std::vector<Fr> data(71, Fr::one());
    Fr acc = data[0];
    for (size_t start = 1; start < data.size(); start += 35) {
        std::vector<Fr> pre(36, Fr::zero());
        pre[0] = acc;
        for (size_t i = 0; i < 35 && start + i < data.size(); ++i) pre[i + 1] = data[start + i];
        auto h = hash(pre);
        ASSERT_TRUE(h.ok());
        acc = *h;
    }
    EXPECT_EQ(acc, from_limbs({0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622,
                               0x59f42220e09ff6f7}));
}

TEST(PoseidonHash, OptimizedEqualsReferenceOnRandomInputs) {
    util::TestRng rng(2026);
    for (Strength s : {Strength::kStandard, Strength::kStrengthened}) {
        for (size_t arity : {1u, 2u, 3u, 4u, 5u, 8u, 11u, 16u, 24u, 36u}) {
            auto c = constants(arity, s);
            ASSERT_TRUE(c.ok());
            for (int rep = 0; rep < 8; ++rep) {
                std::vector<Fr> pre(arity);
                for (auto& x : pre) x = Fr::random(rng);
                if (rep == 1) pre.assign(arity, Fr::zero());
                if (rep == 2) pre.assign(arity, -Fr::one());
                auto a = hash_optimized(**c, pre);
                auto b = hash_correct(**c, pre);
                ASSERT_TRUE(a.ok() && b.ok());
                EXPECT_EQ(*a, *b) << "arity " << arity << " rep " << rep;
            }
        }
    }
}

TEST(PoseidonHash, InputsMatterAndOrderMatters) {
    util::TestRng rng(7);
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    EXPECT_NE(hash2(a, b), hash2(b, a));
    EXPECT_NE(hash2(a, b), hash2(a, b + Fr::one()));
}

TEST(PoseidonHash, WrongSizeIsAnError) {
    auto c = constants(8);
    ASSERT_TRUE(c.ok());
    const std::vector<Fr> pre(7, Fr::one());
    EXPECT_FALSE(hash_optimized(**c, pre).ok());
    EXPECT_FALSE(hash_correct(**c, pre).ok());
    EXPECT_FALSE(hash(std::vector<Fr>{}).ok());
    EXPECT_FALSE(hash(std::vector<Fr>(37, Fr::one())).ok());
}

// Not a pass/fail test: prints ns per hash for the arities trees use.
TEST(PoseidonHash, Throughput) {
    for (size_t arity : {2u, 8u, 11u}) {
        auto c = constants(arity);
        ASSERT_TRUE(c.ok());
        std::vector<Fr> pre(arity);
        util::TestRng rng(arity);
        for (auto& x : pre) x = Fr::random(rng);
        const int n = 20000;
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) pre[0] = hash_unchecked(**c, pre.data());
        const auto t1 = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
        std::printf("poseidon arity %zu: %.0f ns/hash\n", arity, ns);
        EXPECT_FALSE(pre[0].is_zero());
    }
}

}  // namespace
}  // namespace cuzk::poseidon
