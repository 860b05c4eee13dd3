// Poseidon constants against neptune's published values: the round-number table
// (neptune round_numbers.rs / lib.rs tests), the Grain constants file
// parameters/round_constants-1-1-255-9-8-57-….txt (output of the Poseidon authors' sage script),
// domain tags (hash_type.rs test), and the algebraic identities the matrices must satisfy.
#include "poseidon/constants.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <utility>
#include <vector>

#include "poseidon/grain.hpp"
#include "poseidon/round_numbers.hpp"
#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

TEST(PoseidonRoundNumbers, MatchNeptuneTable) {
    // neptune round_numbers.rs test_round_numbers_against_known_values: (t, R_P), R_F = 8.
    const std::pair<size_t, size_t> cases[] = {
        {2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
        {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
        {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
    for (auto [t, rp] : cases) {
        const RoundNumbers r = calc_round_numbers(t, true);
        EXPECT_EQ(r.full_rounds, 8u) << "t=" << t;
        EXPECT_EQ(r.partial_rounds, rp) << "t=" << t;
    }
}

TEST(PoseidonRoundNumbers, StrengthenedMatchNeptuneTable) {
    // neptune lib.rs test_strengthened_round_numbers: (arity, R_P).
    const std::pair<size_t, size_t> cases[] = {{1, 69},  {2, 69},  {3, 70},  {4, 70},  {5, 70},
                                               {6, 70},  {7, 72},  {8, 72},  {9, 72},  {10, 72},
                                               {11, 72}, {16, 74}, {24, 74}, {36, 75}, {64, 77}};
    for (auto [arity, rp] : cases) {
        const RoundNumbers r = round_numbers(arity, Strength::kStrengthened);
        EXPECT_EQ(r.full_rounds, 8u);
        EXPECT_EQ(r.partial_rounds, rp) << "arity=" << arity;
    }
}

Fr hex(std::string_view s) { return Fr::from_int(ff::BigInt<4>::from_hex(s)); }

TEST(PoseidonGrain, MatchesPublishedConstantsT9) {
    // neptune parameters/round_constants-1-1-255-9-8-57-73EDA753…00000001.txt
    // ("sage create_rcs_grain.sage 1 1 255 9 8 57 …", 585 constants).
    const auto rc = grain_round_constants(1, 1, 255, 9, 8, 57);
    ASSERT_EQ(rc.size(), 585u);
    const std::pair<size_t, const char*> expected[] = {
        {0, "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"},
        {1, "0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39"},
        {2, "0x513ad11016ab7bb8c7ce9ae51256040e062487edf7168d206ba1b86dfe963629"},
        {8, "0x5f2a741651a2e15ce1479c0409485bcc62fffb8f1c10d818f7e1ee309632904b"},
        {9, "0x360b2608f1646cc80cbfcd36b07403013063c7ab25ce9b466296de838b37e488"},
        {582, "0x5abb07d3913be306b2f6679332f6005bdda988586396e3a9fd063c288f2e274f"},
        {583, "0x5861985c6ad8159e1a4f056d02df583d9c79c96bae8c3b9313812b4e0b3bda60"},
        {584, "0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"},
    };
    for (auto [i, h] : expected) EXPECT_EQ(rc[i], hex(h)) << "constant " << i;
}

TEST(PoseidonConstants, ArityEightUsesThePublishedGrainConstants) {
    auto c = constants(8);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ((*c)->round_constants.size(), 585u);
    EXPECT_EQ((*c)->round_constants[0],
              hex("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
    // The first t compressed constants are the first round's keys, unchanged.
    for (size_t i = 0; i < 9; ++i)
        EXPECT_EQ((*c)->compressed_round_constants[i], (*c)->round_constants[i]);
}

TEST(PoseidonConstants, DomainTags) {
    // hash_type.rs test_domain_tags: MerkleTree arity 8 → 0xff.
    EXPECT_EQ(merkle_tree_domain_tag(8), Fr::from_u64(0xff));
    EXPECT_EQ(merkle_tree_domain_tag(2), Fr::from_u64(3));
    EXPECT_EQ(merkle_tree_domain_tag(11), Fr::from_u64(2047));
    EXPECT_EQ(merkle_tree_domain_tag(36), Fr::from_u64(0xfffffffffULL));
}

TEST(PoseidonConstants, UnsupportedArityIsAnError) {
    EXPECT_FALSE(constants(0).ok());
    EXPECT_FALSE(constants(37).ok());
    EXPECT_FALSE(constants(1000).ok());
}

TEST(PoseidonConstants, ShapesAndRounds) {
    const std::pair<size_t, size_t> arity_rp[] = {{2, 55},  {4, 56},  {8, 57}, {11, 57},
                                                  {16, 59}, {24, 59}, {36, 60}};
    for (auto [arity, rp] : arity_rp) {
        auto r = constants(arity);
        ASSERT_TRUE(r.ok());
        const PoseidonConstants& c = **r;
        const size_t t = arity + 1;
        EXPECT_EQ(c.width, t);
        EXPECT_EQ(c.full_rounds, 8u);
        EXPECT_EQ(c.partial_rounds, rp);
        EXPECT_EQ(c.round_constants.size(), (8 + rp) * t);
        EXPECT_EQ(c.compressed_round_constants.size(), 8 * t + rp);
        EXPECT_EQ(c.sparse_matrixes.size(), rp);
        EXPECT_EQ(c.pre_sparse_matrix.size(), t);
        EXPECT_EQ(c.domain_tag, merkle_tree_domain_tag(arity));
    }
}

TEST(PoseidonConstants, CachedInstanceIsStable) {
    auto a = constants(4);
    auto b = constants(4);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b);
    auto built = build_constants(4, Strength::kStandard);
    ASSERT_TRUE(built.ok());
    EXPECT_EQ(built->compressed_round_constants, (*a)->compressed_round_constants);
    EXPECT_TRUE(built->pre_sparse_matrix == (*a)->pre_sparse_matrix);
}

TEST(PoseidonConstants, ConcurrentFirstUseBuildsOnce) {
    // No earlier test uses arity 5: the threads race to build it.
    std::vector<const PoseidonConstants*> seen(8, nullptr);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i) {
        threads.emplace_back([&seen, i] {
            auto c = constants(5);
            if (c.ok()) seen[i] = *c;
        });
    }
    for (auto& t : threads) t.join();
    for (const PoseidonConstants* p : seen) {
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p, seen[0]);
    }
    EXPECT_EQ(seen[0]->partial_rounds, 56u);
}

TEST(PoseidonMds, CauchyEntriesAndIdentities) {
    for (size_t t : {3u, 5u, 9u, 12u}) {
        const Matrix m = generate_mds(t);
        for (size_t i = 0; i < t; ++i)
            for (size_t j = 0; j < t; ++j)
                EXPECT_EQ(m.at(i, j) * Fr::from_u64(i + j + t), Fr::one());
        EXPECT_TRUE(m == transpose(m));
        auto d = derive_mds_matrices(m);
        ASSERT_TRUE(d.ok());
        EXPECT_TRUE(mat_mul(d->m_inv, m).is_identity());
        EXPECT_TRUE(mat_mul(m, d->m_inv).is_identity());
        EXPECT_TRUE(mat_mul(d->m_hat, d->m_hat_inv).is_identity());
        // neptune mds.rs test_mds_matrices_creation: M' · M'' = M.
        EXPECT_TRUE(mat_mul(d->m_prime, d->m_double_prime) == m);
    }
}

TEST(PoseidonMds, InvertRejectsSingular) {
    Matrix s(3);
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) s.at(i, j) = Fr::from_u64(3 * i + j + 1);  // rank 2
    EXPECT_FALSE(invert(s).has_value());
}

// neptune mds.rs test_factor_to_sparse_matrices: n+1 rounds of (state·M, S-box on state[0] with
// a key) equal the same rounds with the pre-sparse matrix first and then the sparse factors.
TEST(PoseidonMds, SparseFactorisationReproducesTheDenseRounds) {
    util::TestRng rng(811);
    for (size_t t = 3; t < 10; ++t) {
        const size_t n = 5;
        const Matrix m = generate_mds(t);
        auto f = factor_to_sparse_matrixes(m, n);
        ASSERT_TRUE(f.ok());
        std::vector<Fr> x(t);
        for (auto& v : x) v = Fr::random(rng);
        std::vector<Fr> keys(n + 1);
        for (auto& v : keys) v = Fr::random(rng);
        auto sbox0 = [](std::vector<Fr>& s, const Fr& k) {
            s[0] = s[0].square().square() * s[0] + k;
        };
        std::vector<Fr> expect = x;
        for (size_t r = 0; r <= n; ++r) {
            expect = left_apply_matrix(m, expect);
            sbox0(expect, keys[r]);
        }
        std::vector<Fr> got = left_apply_matrix(f->first, x);
        sbox0(got, keys[0]);
        for (size_t r = 0; r < n; ++r) {
            got = left_apply_matrix(f->second[r].to_matrix(), got);
            sbox0(got, keys[r + 1]);
        }
        EXPECT_EQ(got, expect) << "t=" << t;
    }
}

}  // namespace
}  // namespace cuzk::poseidon
