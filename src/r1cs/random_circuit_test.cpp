// Random circuits: K constraints over random sparse LCs (repeated variables, zero and cancelling
// coefficients, inputs allocated mid-way) with a satisfying witness — for each constraint, a
// and b are random LCs over the variables so far and c is a fresh aux equal to ⟨a,z⟩·⟨b,z⟩.
// Every backend must agree at several sizes, and perturbing any aux value must make the test CS
// name the constraint that first uses it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "r1cs/backend_check.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::r1cs::testing {
namespace {

using ff::Fr;

struct Op {
    enum Kind { kAux, kInput, kConstraint } kind;
    Fr value;  // kAux, kInput
    LC a, b;   // kConstraint: a·b = c, c = the aux allocated just before
    Variable c;
};

struct RandomCircuit {
    std::vector<Op> ops;
    std::vector<Fr> inputs{Fr::one()}, aux;
    std::vector<size_t> first_use;  // per aux: index of the first constraint using it

    util::Status synthesize(ConstraintSystem& cs, long perturb = -1) const {
        Namespace ns(cs, "random");
        size_t constraint = 0;
        for (const Op& op : ops) {
            switch (op.kind) {
                case Op::kAux: {
                    Fr v = op.value;
                    if (static_cast<long>(cs.num_aux()) == perturb) v += Fr::one();
                    auto var = cs.alloc("aux", [&] { return v; });
                    if (!var.ok()) return var.status();
                    break;
                }
                case Op::kInput: {
                    auto var = cs.alloc_input("input", op.value);
                    if (!var.ok()) return var.status();
                    break;
                }
                case Op::kConstraint:
                    cs.enforce(Name("constraint ", constraint++), op.a, op.b, op.c);
                    break;
            }
        }
        return util::Status();
    }
};

Fr value_of(const RandomCircuit& rc, Variable v) {
    return v.is_aux() ? rc.aux[v.index()] : rc.inputs[v.index()];
}

LC random_lc(util::TestRng& rng, const RandomCircuit& rc) {
    LC lc;
    const size_t terms = 1 + rng.uniform(rng.uniform(8) == 0 ? 12 : 4);
    const size_t vars = rc.inputs.size() + rc.aux.size();
    for (size_t t = 0; t < terms; ++t) {
        const size_t pick = rng.uniform(vars);
        const Variable v = pick < rc.inputs.size()
                               ? Variable::input(static_cast<uint32_t>(pick))
                               : Variable::aux(static_cast<uint32_t>(pick - rc.inputs.size()));
        Fr c;
        switch (rng.uniform(5)) {
            case 0:
                c = Fr::one();
                break;
            case 1:
                c = -Fr::one();
                break;
            case 2:
                c = Fr::from_u64(uint64_t{1} << rng.uniform(64));
                break;
            case 3:
                c = Fr::zero();
                break;
            default:
                c = Fr::random(rng);
                break;
        }
        lc += c * v;
        if (rng.uniform(6) == 0) lc -= c * v;  // cancels this addition
    }
    return lc;
}

Fr eval(const RandomCircuit& rc, const LC& lc) {
    Fr acc;
    for (const Term& t : lc) acc += t.coeff * value_of(rc, t.var);
    return acc;
}

RandomCircuit make_random_circuit(uint64_t seed, size_t constraints) {
    util::TestRng rng(seed);
    RandomCircuit rc;
    const auto push_aux = [&](const Fr& v) {
        rc.ops.push_back(Op{Op::kAux, v, {}, {}, {}});
        rc.aux.push_back(v);
        rc.first_use.push_back(SIZE_MAX);
    };
    for (int k = 0; k < 3; ++k) push_aux(Fr::random(rng));
    for (size_t k = 0; k < constraints; ++k) {
        if (rng.uniform(16) == 0) {
            const Fr v = Fr::random(rng);
            rc.ops.push_back(Op{Op::kInput, v, {}, {}, {}});
            rc.inputs.push_back(v);
        }
        if (rng.uniform(8) == 0) push_aux(rng.uniform(2) == 0 ? Fr::zero() : Fr::random(rng));
        LC a = random_lc(rng, rc), b = random_lc(rng, rc);
        for (const LC* lc : {&a, &b})
            for (const Term& t : *lc)
                if (t.var.is_aux() && rc.first_use[t.var.index()] == SIZE_MAX)
                    rc.first_use[t.var.index()] = k;
        push_aux(eval(rc, a) * eval(rc, b));
        const Variable c = Variable::aux(static_cast<uint32_t>(rc.aux.size() - 1));
        rc.first_use.back() = k;
        rc.ops.push_back(Op{Op::kConstraint, Fr(), std::move(a), std::move(b), c});
    }
    return rc;
}

TEST(RandomCircuit, BackendsAgreeAtSeveralSizes) {
    const auto start = std::chrono::steady_clock::now();
    for (size_t k : {size_t{1}, size_t{10}, size_t{100}, size_t{1000}, size_t{5000}}) {
        const RandomCircuit rc = make_random_circuit(1000 + k, k);
        SCOPED_TRACE("constraints " + std::to_string(k));
        expect_backends_agree([&](ConstraintSystem& cs) { return rc.synthesize(cs); },
                              Capacity{k, rc.inputs.size(), rc.aux.size()});
        // A too-small hint only costs regrowth.
        expect_backends_agree([&](ConstraintSystem& cs) { return rc.synthesize(cs); },
                              Capacity{k / 2, 1, 1});
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(s, 30.0);
}

// The CSR product split across several threads equals the single-threaded one.
TEST(RandomCircuit, MultiplyThreadCountIndependent) {
    const RandomCircuit rc = make_random_circuit(5, 3000);
    ShapeRecorder rec;
    ASSERT_TRUE(rc.synthesize(rec).ok());
    rec.finish();
    WitnessOnly w;
    ASSERT_TRUE(rc.synthesize(w).ok());
    util::ThreadPool one(1), four(4);
    std::vector<Fr> a1, b1, c1, a4, b4, c4;
    ASSERT_TRUE(rec.multiply(w.z(), a1, b1, c1, &one).ok());
    ASSERT_TRUE(rec.multiply(w.z(), a4, b4, c4, &four).ok());
    EXPECT_EQ(a1, a4);
    EXPECT_EQ(b1, b4);
    EXPECT_EQ(c1, c4);
    EXPECT_EQ(a1.size(), rec.num_constraints());
    EXPECT_LT(rec.coefficients().size(), rec.a().nnz() + rec.b().nnz() + rec.c().nnz());
}

// Perturbing aux j can only break constraints that use it with a non-zero coefficient, so the
// first failure, if any, is at or after j's first use; perturbing the c of constraint k (a
// fresh product, coefficient one, unused before) always breaks constraint k first.
TEST(RandomCircuit, FirstFailureIsFirstUse) {
    const RandomCircuit rc = make_random_circuit(7, 300);
    util::TestRng rng(8);
    for (int trial = 0; trial < 40; ++trial) {
        const size_t j = rng.uniform(rc.aux.size());
        TestConstraintSystem tcs;
        ASSERT_TRUE(rc.synthesize(tcs, static_cast<long>(j)).ok());
        if (!tcs.is_satisfied()) {
            ASSERT_NE(rc.first_use[j], SIZE_MAX);
            EXPECT_GE(*tcs.first_failure_index(), rc.first_use[j]);
            std::string expected = "random/constraint ";
            expected += std::to_string(*tcs.first_failure_index());
            EXPECT_EQ(*tcs.which_is_unsatisfied(), expected);
        }
    }
    for (size_t k : {size_t{0}, size_t{17}, size_t{299}}) {
        size_t seen = 0, aux_index = 0;
        for (const Op& op : rc.ops) {
            if (op.kind != Op::kConstraint) continue;
            if (seen++ == k) aux_index = op.c.index();
        }
        TestConstraintSystem tcs;
        ASSERT_TRUE(rc.synthesize(tcs, static_cast<long>(aux_index)).ok());
        std::string expected = "random/constraint ";
        expected += std::to_string(k);
        EXPECT_EQ(tcs.which_is_unsatisfied(), std::optional<std::string>(expected));
    }
}

}  // namespace
}  // namespace cuzk::r1cs::testing
