// Forked synthesis (ConstraintSystem::fork / join_forks, synthesize_independent) against
// sequential synthesis: random circuits with a shared prelude and independent parts that use
// prelude variables (aux and inputs), their own aux and inputs, bits and field values, zero and
// one coefficients — the forked ProvingAssignment must equal the sequential one in every
// vector, density bit and count; backends that do not fork give their sequential result; the
// lowest failing part's error is returned; misuse of join_forks is refused.
#include "r1cs/fork.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "r1cs/counter.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_circuits.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::r1cs {
namespace {

using ff::Fr;

struct Prelude {
    std::vector<Variable> vars;  // aux and inputs allocated before the fork
};

using r1cs::testing::random_value;

LC random_lc(util::TestRng& rng, const std::vector<Variable>& pool) {
    LC lc;
    const size_t terms = rng.next_u64() % 5;
    for (size_t t = 0; t < terms; ++t) {
        const Variable v = pool[rng.next_u64() % pool.size()];
        const uint64_t kind = rng.next_u64() % 4;
        const Fr c = kind == 0 ? Fr::one() : kind == 1 ? Fr::zero() : kind == 2 ? -Fr::one()
                                                                          : Fr::random(rng);
        lc.add(c, v);
    }
    return lc;
}

util::Status prelude(ConstraintSystem& cs, util::TestRng& rng, Prelude& out) {
    for (int i = 0; i < 12; ++i) {
        const bool input = i % 4 == 3;
        auto v = input ? cs.alloc_input("p", random_value(rng)) : cs.alloc("p", random_value(rng));
        if (!v.ok()) return v.status();
        out.vars.push_back(*v);
    }
    cs.enforce("pre", random_lc(rng, out.vars), random_lc(rng, out.vars), random_lc(rng, out.vars));
    return util::Status();
}

// Part k: a few own variables (one of them an input) and constraints over own and prelude ones.
util::Status part(ConstraintSystem& cs, size_t k, const Prelude& pre, uint64_t seed, int fail_at) {
    if (static_cast<int>(k) == fail_at) return util::invalid_argument("part " + std::to_string(k));
    util::TestRng rng(seed * 1000 + k);
    std::vector<Variable> pool = pre.vars;
    Namespace ns(cs, Name("part_", k));
    const size_t own = 3 + rng.next_u64() % 20;
    for (size_t i = 0; i < own; ++i) {
        const bool input = i == 1;
        auto v = input ? cs.alloc_input("x", random_value(rng)) : cs.alloc("x", random_value(rng));
        if (!v.ok()) return v.status();
        pool.push_back(*v);
    }
    const size_t rows = 1 + rng.next_u64() % 30;
    for (size_t r = 0; r < rows; ++r)
        cs.enforce("c", random_lc(rng, pool), random_lc(rng, pool), random_lc(rng, pool));
    return util::Status();
}

util::Status whole(ConstraintSystem& cs, size_t parts, uint64_t seed, int fail_at = -1) {
    util::TestRng rng(seed);
    Prelude pre;
    CUZK_RETURN_IF_ERROR(prelude(cs, rng, pre));
    CUZK_RETURN_IF_ERROR(synthesize_independent(
        cs, parts, [&](ConstraintSystem& sub, size_t k) { return part(sub, k, pre, seed, fail_at); }));
    // Something after the join, on the joined system.
    auto tail = cs.alloc("tail", Fr::from_u64(5));
    if (!tail.ok()) return tail.status();
    cs.enforce("tail", LC(*tail), LC(pre.vars[0]), LC(pre.vars[1]));
    return util::Status();
}

void expect_equal(const ProvingAssignment& x, const ProvingAssignment& y, uint64_t seed) {
    EXPECT_EQ(x.num_inputs(), y.num_inputs()) << seed;
    EXPECT_EQ(x.num_aux(), y.num_aux()) << seed;
    EXPECT_EQ(x.num_constraints(), y.num_constraints()) << seed;
    EXPECT_TRUE(x.a() == y.a()) << seed;
    EXPECT_TRUE(x.b() == y.b()) << seed;
    EXPECT_TRUE(x.c() == y.c()) << seed;
    EXPECT_TRUE(x.input_assignment() == y.input_assignment()) << seed;
    EXPECT_TRUE(x.aux_assignment() == y.aux_assignment()) << seed;
    EXPECT_TRUE(x.a_aux_density() == y.a_aux_density()) << seed;
    EXPECT_TRUE(x.b_aux_density() == y.b_aux_density()) << seed;
    EXPECT_TRUE(x.b_input_density() == y.b_input_density()) << seed;
    EXPECT_EQ(x.a_aux_density().popcount(), y.a_aux_density().recount()) << seed;
    EXPECT_EQ(x.b_aux_density().popcount(), x.b_aux_density().recount()) << seed;
    EXPECT_EQ(x.b_input_density().popcount(), x.b_input_density().recount()) << seed;
}

class ForkTest : public ::testing::Test {
   protected:
    void TearDown() override {
        set_parallel_synthesis(true);
        set_fork_threads(true);
    }
};

// The forks on synthesis_pool() and on threads of their own (set_fork_threads).
TEST_F(ForkTest, ForkedEqualsSequentialOnRandomCircuits) {
    for (bool own_threads : {false, true}) {
        for (uint64_t seed = 1; seed <= 40; ++seed) {
            const size_t parts = 1 + seed % 9;
            set_parallel_synthesis(false);
            ProvingAssignment seq;
            ASSERT_TRUE(whole(seq, parts, seed).ok());
            seq.finish();
            set_parallel_synthesis(true);
            set_fork_threads(own_threads);
            ProvingAssignment par;
            ASSERT_TRUE(whole(par, parts, seed).ok());
            par.finish();
            expect_equal(par, seq, seed);
        }
    }
}

// More forks than fork threads: the threads take the forks in turn.
TEST_F(ForkTest, MoreForksThanForkThreads) {
    const size_t parts = max_fork_threads() + 5;
    ASSERT_GT(parts, size_t{5});
    set_parallel_synthesis(false);
    ProvingAssignment seq;
    ASSERT_TRUE(whole(seq, parts, 77).ok());
    set_parallel_synthesis(true);
    set_fork_threads(true);
    ProvingAssignment par;
    ASSERT_TRUE(whole(par, parts, 77).ok());
    expect_equal(par, seq, 77);
}

TEST_F(ForkTest, DensityBitsAcrossWordBoundaries) {
    // Parts whose variable counts straddle 64-bit words in every alignment.
    for (uint64_t seed = 100; seed < 130; ++seed) {
        set_parallel_synthesis(false);
        ProvingAssignment seq;
        ASSERT_TRUE(whole(seq, 23, seed).ok());
        set_parallel_synthesis(true);
        ProvingAssignment par;
        ASSERT_TRUE(whole(par, 23, seed).ok());
        expect_equal(par, seq, seed);
    }
}

TEST_F(ForkTest, BackendsThatDoNotForkRunInOrder) {
    Counter counter;
    ASSERT_TRUE(whole(counter, 7, 9).ok());
    ProvingAssignment pa;
    ASSERT_TRUE(whole(pa, 7, 9).ok());
    EXPECT_EQ(counter.num_constraints(), pa.num_constraints());
    EXPECT_EQ(counter.num_aux(), pa.num_aux());
    EXPECT_EQ(counter.num_inputs(), pa.num_inputs());
    TestConstraintSystem tcs;
    ASSERT_TRUE(whole(tcs, 7, 9).ok());
    EXPECT_EQ(tcs.num_constraints(), pa.num_constraints());
    EXPECT_TRUE(counter.fork(3).empty());
}

TEST_F(ForkTest, LowestFailingPartIsReported) {
    for (bool own_threads : {false, true}) {
        set_fork_threads(own_threads);
        ProvingAssignment pa;
        // Parts 2 and 5 fail in the forked run too; part 2's error must win.
        util::TestRng rng(3);
        Prelude pre;
        ASSERT_TRUE(prelude(pa, rng, pre).ok());
        auto st = synthesize_independent(pa, 8, [&](ConstraintSystem& sub, size_t k) {
            return k == 2 || k == 5 ? util::invalid_argument("part " + std::to_string(k))
                                    : part(sub, k, pre, 3, -1);
        });
        ASSERT_FALSE(st.ok());
        EXPECT_EQ(st.message(), "part 2") << "own threads " << own_threads;
    }
}

TEST_F(ForkTest, JoinRefusesForeignOrStaleForks) {
    ProvingAssignment a, b;
    auto forks = a.fork(2);
    ASSERT_EQ(forks.size(), 2u);
    EXPECT_FALSE(b.join_forks(std::move(forks)).ok());  // not b's
    auto stale = a.fork(1);
    ASSERT_TRUE(a.alloc("x", Fr::one()).ok());  // a moved on since the fork
    EXPECT_FALSE(a.join_forks(std::move(stale)).ok());
}

// WitnessOnly forks too: forked equals sequential and both equal ProvingAssignment's
// assignments and counts, with and without the gadgets' LC skipping.
TEST_F(ForkTest, WitnessOnlyForkedEqualsSequential) {
    for (uint64_t seed = 1; seed <= 30; ++seed) {
        const size_t parts = 1 + seed % 9;
        set_fork_threads(seed % 2 == 1);  // the forks on the pool or on threads of their own
        set_parallel_synthesis(false);
        ProvingAssignment pa;
        ASSERT_TRUE(whole(pa, parts, seed).ok());
        WitnessOnly::Options options;
        options.skip_constraints = seed % 2 == 0;
        options.aux_capacity = seed % 3 == 0 ? 500 : 0;
        WitnessOnly seq(options);
        ASSERT_TRUE(whole(seq, parts, seed).ok());
        set_parallel_synthesis(true);
        WitnessOnly par(options);
        ASSERT_TRUE(whole(par, parts, seed).ok());
        for (const WitnessOnly* w : {&seq, &par}) {
            EXPECT_EQ(w->num_inputs(), pa.num_inputs()) << seed;
            EXPECT_EQ(w->num_aux(), pa.num_aux()) << seed;
            EXPECT_EQ(w->num_constraints(), pa.num_constraints()) << seed;
            EXPECT_TRUE(w->input_assignment() == pa.input_assignment()) << seed;
            EXPECT_TRUE(w->aux_assignment() == pa.aux_assignment()) << seed;
            EXPECT_EQ(w->aux_assignment().size(), w->num_aux()) << seed;
        }
    }
    WitnessOnly w;
    EXPECT_EQ(w.fork(3).size(), 3u);
}

// Page advice (WitnessOnly::Options::page_advice) on a witness large enough to take it: 2 forks
// of 2^21 + 7 aux values each (64 MiB and a bit each, past the threshold), with the aux reserved
// (the join populates each fork's destination first) and not: the same values as without
// advice, in order.
TEST_F(ForkTest, WitnessOnlyPageAdviceSameValues) {
    constexpr size_t kParts = 2, kPerPart = (size_t{1} << 21) + 7;
    auto circuit = [&](ConstraintSystem& cs) -> util::Status {
        auto x = cs.alloc("x", Fr::from_u64(3));
        if (!x.ok()) return x.status();
        return synthesize_independent(cs, kParts, [&](ConstraintSystem& sub, size_t k) {
            Fr v = Fr::from_u64(k + 5);
            for (size_t i = 0; i < kPerPart; ++i) {
                v = v * v + Fr::one();
                auto a = sub.alloc("a", v);
                if (!a.ok()) return a.status();
            }
            return util::Status();
        });
    };
    const size_t total = 1 + 1 + kParts * kPerPart;  // x, then the forks' values (ONE is input)
    WitnessOnly::Options plain;
    plain.page_advice = false;
    plain.aux_capacity = total;
    WitnessOnly want(plain);
    ASSERT_TRUE(circuit(want).ok());
    ASSERT_GE(want.aux_assignment().size(), kParts * kPerPart);
    for (size_t capacity : {total, size_t{0}}) {
        WitnessOnly::Options advised;
        advised.page_advice = true;
        advised.aux_capacity = capacity;
        WitnessOnly got(advised);
        ASSERT_TRUE(circuit(got).ok());
        EXPECT_TRUE(got.aux_assignment() == want.aux_assignment()) << "capacity " << capacity;
        EXPECT_TRUE(got.input_assignment() == want.input_assignment());
    }
}

TEST_F(ForkTest, WitnessOnlyJoinRefusesForeignOrStaleForks) {
    WitnessOnly a, b;
    auto forks = a.fork(2);
    ASSERT_EQ(forks.size(), 2u);
    EXPECT_FALSE(b.join_forks(std::move(forks)).ok());
    auto stale = a.fork(1);
    ASSERT_TRUE(a.alloc("x", Fr::one()).ok());
    EXPECT_FALSE(a.join_forks(std::move(stale)).ok());
    ProvingAssignment pa;
    auto other = pa.fork(1);
    EXPECT_FALSE(a.join_forks(std::move(other)).ok());  // not a WitnessOnly
}

}  // namespace
}  // namespace cuzk::r1cs
