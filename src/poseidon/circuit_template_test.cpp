// Template replay gives exactly the direct synthesis: the same allocations (values included)
// and the same rows, term by term, for preimages of aux and input variables in any order, after
// unrelated earlier allocations, with and without values; duplicate or ONE preimage variables
// and named backends take the direct path.
#include "poseidon/circuit_template.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "poseidon/circuit.hpp"
#include "poseidon/circuit_direct.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::poseidon {
namespace {

using gadgets::AllocatedNum;
using r1cs::LC;

// A nameless recorder (like the proving and shape backends: needs_names() is false).
class Recorder final : public r1cs::ConstraintSystem {
   public:
    explicit Recorder(bool values) : ConstraintSystem(values, false) { allocate_one(); }
    struct Row {
        LC a, b, c;
    };
    std::vector<Row> rows;
    std::vector<Fr> aux, inputs;
    std::vector<char> events;  // 'a' alloc, 'i' input, 'e' enforce

   private:
    void on_alloc(const r1cs::Name&, uint32_t, const Fr* v) override {
        aux.push_back(v ? *v : Fr::zero());
        events.push_back('a');
    }
    void on_alloc_input(const r1cs::Name&, uint32_t, const Fr* v) override {
        inputs.push_back(v ? *v : Fr::zero());
        events.push_back('i');
    }
    void on_enforce(const r1cs::Name&, const LC& a, const LC& b, const LC& c) override {
        rows.push_back(Row{a, b, c});
        events.push_back('e');
    }
};

bool same_lc(const LC& x, const LC& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
        if (!(x.terms()[i].var == y.terms()[i].var)) return false;
        if (x.terms()[i].coeff != y.terms()[i].coeff) return false;
    }
    return true;
}

void expect_same(const Recorder& x, const Recorder& y) {
    ASSERT_EQ(x.rows.size(), y.rows.size());
    EXPECT_EQ(x.events, y.events);
    EXPECT_EQ(x.aux, y.aux);
    for (size_t i = 0; i < x.rows.size(); ++i) {
        EXPECT_TRUE(same_lc(x.rows[i].a, y.rows[i].a)) << "row " << i << " A";
        EXPECT_TRUE(same_lc(x.rows[i].b, y.rows[i].b)) << "row " << i << " B";
        EXPECT_TRUE(same_lc(x.rows[i].c, y.rows[i].c)) << "row " << i << " C";
    }
}

// Builds a preimage in cs: some inputs, some aux, in a scrambled order, after `extra` aux.
std::vector<AllocatedNum> make_preimage(Recorder& cs, size_t arity, uint64_t seed, size_t extra) {
    util::TestRng rng(seed);
    for (size_t i = 0; i < extra; ++i) EXPECT_TRUE(cs.alloc("pad", Fr::from_u64(i)).ok());
    std::vector<AllocatedNum> pool;
    for (size_t i = 0; i < arity; ++i) {
        const Fr v = Fr::random(rng);
        const std::optional<Fr> ov = cs.computes_values() ? std::optional<Fr>(v) : std::nullopt;
        auto n = (i % 3 == 1) ? AllocatedNum::alloc_input(cs, "in", ov)
                              : AllocatedNum::alloc(cs, "x", ov);
        EXPECT_TRUE(n.ok());
        pool.push_back(*n);
    }
    for (size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[rng.uniform(i)]);
    return pool;
}

TEST(PoseidonTemplate, ReplayEqualsDirectSynthesis) {
    for (bool values : {true, false}) {
        for (size_t arity : {1u, 2u, 4u, 8u, 11u}) {
            auto c = constants(arity);
            ASSERT_TRUE(c.ok());
            for (uint64_t seed : {1u, 2u}) {
                Recorder direct(values), replay(values);
                const auto pd = make_preimage(direct, arity, seed, seed * 3);
                const auto pr = make_preimage(replay, arity, seed, seed * 3);
                ASSERT_TRUE(can_replay_template(replay, pr));
                auto od = poseidon_hash_circuit_direct(direct, "h", pd, **c);
                auto orp = replay_poseidon_template(replay, "h", pr, **c);
                ASSERT_TRUE(od.ok() && orp.ok());
                EXPECT_TRUE(od->var == orp->var);
                EXPECT_EQ(od->value, orp->value);
                expect_same(direct, replay);
                // A second hash in the same system (the template's cached copy is reused).
                auto od2 = poseidon_hash_circuit_direct(direct, "h2", pd, **c);
                auto or2 = poseidon_hash_circuit(replay, "h2", pr, **c);
                ASSERT_TRUE(od2.ok() && or2.ok());
                expect_same(direct, replay);
            }
        }
    }
}

TEST(PoseidonTemplate, FallsBackWhenReplayIsNotOneToOne) {
    Recorder cs(true);
    auto x = AllocatedNum::alloc(cs, "x", Fr::from_u64(3));
    ASSERT_TRUE(x.ok());
    const std::vector<AllocatedNum> dup = {*x, *x};
    EXPECT_FALSE(can_replay_template(cs, dup));
    const std::vector<AllocatedNum> with_one = {AllocatedNum{r1cs::Variable::one(), Fr::one()},
                                                *x};
    EXPECT_FALSE(can_replay_template(cs, with_one));
    // The public entry point still hashes them (directly).
    auto h = poseidon_hash_circuit(cs, "h", dup);
    ASSERT_TRUE(h.ok());
    r1cs::TestConstraintSystem named;
    EXPECT_FALSE(can_replay_template(named, std::vector<AllocatedNum>{}));
}

TEST(PoseidonTemplate, MissingValueIsAnError) {
    Recorder cs(true);
    auto x = AllocatedNum::alloc(cs, "x", Fr::from_u64(3));
    auto y = AllocatedNum::alloc(cs, "y", Fr::from_u64(4));
    ASSERT_TRUE(x.ok() && y.ok());
    const std::vector<AllocatedNum> pre = {*x, AllocatedNum{y->var, std::nullopt}};
    EXPECT_FALSE(poseidon_hash_circuit(cs, "h", pre).ok());
}

}  // namespace
}  // namespace cuzk::poseidon
