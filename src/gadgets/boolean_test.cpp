// AllocatedBit / Boolean / to_bits_le: exact constraint shapes (boolean.rs, num.rs), values
// against plain C++ boolean logic over every input combination, constant short-cuts, and a
// wrong witness value being reported by the name of the constraint it breaks.
#include "gadgets/boolean.hpp"

#include <gtest/gtest.h>

#include <array>

#include "gadgets/recording_cs_test_util.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_cs.hpp"
#include "util/rng.hpp"

namespace cuzk::gadgets {
namespace {

using testing::lc_is;
using testing::RecordingCS;

const Fr kOne = Fr::one();
const Fr kTwo = Fr::from_u64(2);
const Variable kOneVar = Variable::one();

TEST(AllocatedBit, AllocShapeAndWrongValue) {
    for (bool v : {false, true}) {
        RecordingCS cs;
        auto b = AllocatedBit::alloc(cs, "a", v);
        ASSERT_TRUE(b.ok());
        EXPECT_EQ(b->value, v);
        ASSERT_EQ(cs.rows().size(), 1u);
        ASSERT_EQ(cs.num_aux(), 1u);
        const auto& r = cs.rows()[0];
        EXPECT_EQ(r.name, "a/boolean constraint");
        EXPECT_TRUE(lc_is(r.a, {{kOneVar, kOne}, {b->var, -kOne}}));
        EXPECT_TRUE(lc_is(r.b, {{b->var, kOne}}));
        EXPECT_TRUE(lc_is(r.c, {}));
        EXPECT_FALSE(cs.first_unsatisfied().has_value());
        cs.aux()[0] = Fr::from_u64(2);
        EXPECT_EQ(cs.first_unsatisfied().value_or(""), "a/boolean constraint");
    }
}

// Each allocated operation over the four input pairs: value, one aux + one constraint, exact
// shape, and a flipped result breaking the named constraint.
TEST(AllocatedBit, BinaryOperations) {
    struct Op {
        const char* constraint;
        bool (*f)(bool, bool);
        util::Result<AllocatedBit> (*g)(ConstraintSystem&, const AllocatedBit&,
                                        const AllocatedBit&);
    };
    const std::array<Op, 4> ops = {{
        {"xor constraint", [](bool x, bool y) { return x != y; }, &AllocatedBit::xor_},
        {"and constraint", [](bool x, bool y) { return x && y; }, &AllocatedBit::and_},
        {"and not constraint", [](bool x, bool y) { return x && !y; }, &AllocatedBit::and_not},
        {"nor constraint", [](bool x, bool y) { return !x && !y; }, &AllocatedBit::nor},
    }};
    for (size_t k = 0; k < ops.size(); ++k) {
        for (int m = 0; m < 4; ++m) {
            const bool x = m & 1, y = m & 2;
            RecordingCS cs;
            auto a = AllocatedBit::alloc(cs, "a", x);
            auto b = AllocatedBit::alloc(cs, "b", y);
            ASSERT_TRUE(a.ok() && b.ok());
            auto c = ops[k].g(cs, *a, *b);
            ASSERT_TRUE(c.ok());
            EXPECT_EQ(c->value, ops[k].f(x, y));
            ASSERT_EQ(cs.rows().size(), 3u);
            EXPECT_EQ(cs.num_aux(), 3u);
            EXPECT_EQ(cs.eval(LC(c->var)), ops[k].f(x, y) ? kOne : Fr::zero());
            const auto& r = cs.rows()[2];
            EXPECT_EQ(r.name, ops[k].constraint);
            const Variable av = a->var, bv = b->var, cv = c->var;
            switch (k) {
                case 0:  // (a + a)·b = a + b − c
                    EXPECT_TRUE(lc_is(r.a, {{av, kTwo}}));
                    EXPECT_TRUE(lc_is(r.b, {{bv, kOne}}));
                    EXPECT_TRUE(lc_is(r.c, {{av, kOne}, {bv, kOne}, {cv, -kOne}}));
                    break;
                case 1:  // a·b = c
                    EXPECT_TRUE(lc_is(r.a, {{av, kOne}}));
                    EXPECT_TRUE(lc_is(r.b, {{bv, kOne}}));
                    EXPECT_TRUE(lc_is(r.c, {{cv, kOne}}));
                    break;
                case 2:  // a·(1 − b) = c
                    EXPECT_TRUE(lc_is(r.a, {{av, kOne}}));
                    EXPECT_TRUE(lc_is(r.b, {{kOneVar, kOne}, {bv, -kOne}}));
                    EXPECT_TRUE(lc_is(r.c, {{cv, kOne}}));
                    break;
                case 3:  // (1 − a)·(1 − b) = c
                    EXPECT_TRUE(lc_is(r.a, {{kOneVar, kOne}, {av, -kOne}}));
                    EXPECT_TRUE(lc_is(r.b, {{kOneVar, kOne}, {bv, -kOne}}));
                    EXPECT_TRUE(lc_is(r.c, {{cv, kOne}}));
                    break;
            }
            EXPECT_FALSE(cs.first_unsatisfied().has_value());
            cs.aux()[2] = ops[k].f(x, y) ? Fr::zero() : kOne;
            EXPECT_EQ(cs.first_unsatisfied().value_or(""), ops[k].constraint);
        }
    }
}

// A Boolean of every kind (constant false/true, Is, Not) with every value.
struct Case {
    Boolean b;
    bool value;
};

std::vector<Case> all_kinds(ConstraintSystem& cs, const char* name) {
    std::vector<Case> out;
    for (bool v : {false, true}) out.push_back({Boolean::constant(v), v});
    for (bool v : {false, true}) {
        std::string n = name;
        n += v ? "1" : "0";
        auto bit = AllocatedBit::alloc(cs, n, v);
        out.push_back({Boolean(*bit), v});
        auto nbit = AllocatedBit::alloc(cs, n + "n", !v);
        out.push_back({Boolean(*nbit).not_(), v});
    }
    return out;
}

TEST(Boolean, XorAndOverAllKinds) {
    r1cs::TestConstraintSystem cs;
    auto as = all_kinds(cs, "a");
    auto bs = all_kinds(cs, "b");
    for (const Case& a : as) {
        for (const Case& b : bs) {
            for (int op = 0; op < 2; ++op) {
                const size_t before = cs.num_constraints();
                auto r = op == 0 ? Boolean::xor_(cs, a.b, b.b) : Boolean::and_(cs, a.b, b.b);
                ASSERT_TRUE(r.ok());
                const bool want = op == 0 ? (a.value != b.value) : (a.value && b.value);
                EXPECT_EQ(r->value(), want);
                const bool any_const = a.b.is_constant() || b.b.is_constant();
                EXPECT_EQ(cs.num_constraints() - before, any_const ? 0u : 1u);
                if (a.b.is_constant() && b.b.is_constant()) {
                    EXPECT_TRUE(r->is_constant());
                }
                // The linear combination evaluates to the value.
                LC check = r->lc();
                check -= LC(Variable::one()) * (want ? kOne : Fr::zero());
                cs.enforce("lc value", LC(), LC(), check);
            }
        }
    }
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
}

TEST(Boolean, XorOfIsAndNotUsesTheIsOperandFirst) {
    // boolean.rs: (Is a, Not b) and (Not b, Is a) both compute ¬(a ⊕ b) with `a` on side A.
    for (int order = 0; order < 2; ++order) {
        RecordingCS cs;
        auto a = AllocatedBit::alloc(cs, "a", true);
        auto b = AllocatedBit::alloc(cs, "b", false);
        Boolean is(*a), nb = Boolean(*b).not_();
        auto r = order == 0 ? Boolean::xor_(cs, is, nb) : Boolean::xor_(cs, nb, is);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r->kind(), Boolean::Kind::kNot);
        EXPECT_EQ(r->value(), false);  // 1 ⊕ ¬0
        EXPECT_TRUE(lc_is(cs.rows().back().a, {{a->var, kTwo}}));
        EXPECT_TRUE(lc_is(cs.rows().back().b, {{b->var, kOne}}));
    }
}

TEST(Boolean, ChMajOverAllKinds) {
    r1cs::TestConstraintSystem cs;
    auto as = all_kinds(cs, "a");
    auto bs = all_kinds(cs, "b");
    auto cs_ = all_kinds(cs, "c");
    for (const Case& a : as) {
        for (const Case& b : bs) {
            for (const Case& c : cs_) {
                const bool ch = (a.value && b.value) != (!a.value && c.value);
                const bool maj =
                    ((a.value && b.value) != (a.value && c.value)) != (b.value && c.value);
                const bool none_const =
                    !a.b.is_constant() && !b.b.is_constant() && !c.b.is_constant();
                const bool all_const = a.b.is_constant() && b.b.is_constant() && c.b.is_constant();
                size_t before = cs.num_constraints();
                auto r = Boolean::sha256_ch(cs, a.b, b.b, c.b);
                ASSERT_TRUE(r.ok());
                EXPECT_EQ(r->value(), ch);
                if (none_const) {
                    EXPECT_EQ(cs.num_constraints() - before, 1u);
                }
                if (all_const) {
                    EXPECT_EQ(cs.num_constraints() - before, 0u);
                }
                EXPECT_LE(cs.num_constraints() - before, 1u);
                before = cs.num_constraints();
                auto s = Boolean::sha256_maj(cs, a.b, b.b, c.b);
                ASSERT_TRUE(s.ok());
                EXPECT_EQ(s->value(), maj);
                if (none_const) {
                    EXPECT_EQ(cs.num_constraints() - before, 2u);
                }
                if (all_const) {
                    EXPECT_EQ(cs.num_constraints() - before, 0u);
                }
                EXPECT_LE(cs.num_constraints() - before, 2u);
            }
        }
    }
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
}

TEST(Boolean, ChAndMajShapes) {
    RecordingCS cs;
    auto a = AllocatedBit::alloc(cs, "a", true);
    auto b = AllocatedBit::alloc(cs, "b", false);
    auto c = AllocatedBit::alloc(cs, "c", true);
    const Variable av = a->var, bv = b->var, cv = c->var;
    auto ch = Boolean::sha256_ch(cs, Boolean(*a), Boolean(*b), Boolean(*c));
    ASSERT_TRUE(ch.ok());
    {  // (b − c)·a = ch − c
        const auto& r = cs.rows().back();
        EXPECT_EQ(r.name, "ch computation");
        EXPECT_TRUE(lc_is(r.a, {{bv, kOne}, {cv, -kOne}}));
        EXPECT_TRUE(lc_is(r.b, {{av, kOne}}));
        EXPECT_TRUE(lc_is(r.c, {{ch->bit().var, kOne}, {cv, -kOne}}));
    }
    const uint32_t next_aux = static_cast<uint32_t>(cs.num_aux());
    auto maj = Boolean::sha256_maj(cs, Boolean(*a), Boolean(*b), Boolean(*c));
    ASSERT_TRUE(maj.ok());
    // maj is allocated first, then b ∧ c.
    EXPECT_EQ(maj->bit().var, Variable::aux(next_aux));
    const Variable bc = Variable::aux(next_aux + 1);
    ASSERT_EQ(cs.rows().size(), 6u);
    EXPECT_EQ(cs.rows()[4].name, "b and c/and constraint");
    EXPECT_TRUE(lc_is(cs.rows()[4].c, {{bc, kOne}}));
    const auto& r = cs.rows()[5];
    EXPECT_EQ(r.name, "maj computation");
    EXPECT_TRUE(lc_is(r.a, {{bc, kTwo}, {bv, -kOne}, {cv, -kOne}}));
    EXPECT_TRUE(lc_is(r.b, {{av, kOne}}));
    EXPECT_TRUE(lc_is(r.c, {{bc, kOne}, {maj->bit().var, -kOne}}));
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    cs.aux()[next_aux] = maj->value().value() ? Fr::zero() : kOne;
    EXPECT_EQ(cs.first_unsatisfied().value_or(""), "maj computation");
}

// bellperson boolean.rs tests test_boolean_xor / test_boolean_and: the kind of the result
// (and which allocated gadget runs) for every pair of operand types, in the order
// True, False, AllocatedTrue, AllocatedFalse, NegatedAllocatedTrue, NegatedAllocatedFalse.
// "T"/"F": constant; "Is"/"Not": a view of an operand (no constraint); otherwise the name of the
// one constraint added and, after '|', the result's kind.
TEST(Boolean, PublishedResultKinds) {
    const char* const kXor[6][6] = {
        {"F", "T", "Not", "Not", "Is", "Is"},
        {"T", "F", "Is", "Is", "Not", "Not"},
        {"Not", "Is", "xor constraint|Is", "xor constraint|Is", "xor constraint|Not",
         "xor constraint|Not"},
        {"Not", "Is", "xor constraint|Is", "xor constraint|Is", "xor constraint|Not",
         "xor constraint|Not"},
        {"Is", "Not", "xor constraint|Not", "xor constraint|Not", "xor constraint|Is",
         "xor constraint|Is"},
        {"Is", "Not", "xor constraint|Not", "xor constraint|Not", "xor constraint|Is",
         "xor constraint|Is"},
    };
    const char* const kAnd[6][6] = {
        {"T", "F", "Is", "Is", "Not", "Not"},
        {"F", "F", "F", "F", "F", "F"},
        {"Is", "F", "and constraint|Is", "and constraint|Is", "and not constraint|Is",
         "and not constraint|Is"},
        {"Is", "F", "and constraint|Is", "and constraint|Is", "and not constraint|Is",
         "and not constraint|Is"},
        {"Not", "F", "and not constraint|Is", "and not constraint|Is", "nor constraint|Is",
         "nor constraint|Is"},
        {"Not", "F", "and not constraint|Is", "and not constraint|Is", "nor constraint|Is",
         "nor constraint|Is"},
    };
    auto make = [](ConstraintSystem& cs, int type, const char* name) -> std::pair<Boolean, bool> {
        switch (type) {
            case 0:
                return {Boolean::constant(true), true};
            case 1:
                return {Boolean::constant(false), false};
            case 2:
                return {Boolean(*AllocatedBit::alloc(cs, name, true)), true};
            case 3:
                return {Boolean(*AllocatedBit::alloc(cs, name, false)), false};
            case 4:
                return {Boolean(*AllocatedBit::alloc(cs, name, true)).not_(), false};
            default:
                return {Boolean(*AllocatedBit::alloc(cs, name, false)).not_(), true};
        }
    };
    auto describe = [](const Boolean& r, const RecordingCS& cs, size_t rows_before) {
        std::string d;
        if (cs.rows().size() > rows_before) {
            d = cs.rows().back().name;
            d += '|';
        }
        if (r.is_constant()) {
            d += r.constant_value() ? "T" : "F";
        } else {
            d += r.kind() == Boolean::Kind::kIs ? "Is" : "Not";
        }
        return d;
    };
    for (int op = 0; op < 2; ++op) {
        for (int i = 0; i < 6; ++i) {
            for (int j = 0; j < 6; ++j) {
                RecordingCS cs;
                auto [a, av] = make(cs, i, "a");
                auto [b, bv] = make(cs, j, "b");
                const size_t rows = cs.rows().size();
                auto r = op == 0 ? Boolean::xor_(cs, a, b) : Boolean::and_(cs, a, b);
                ASSERT_TRUE(r.ok());
                EXPECT_EQ(describe(*r, cs, rows), op == 0 ? kXor[i][j] : kAnd[i][j])
                    << (op == 0 ? "xor " : "and ") << i << " " << j;
                EXPECT_LE(cs.rows().size(), rows + 1);
                EXPECT_EQ(r->value(), op == 0 ? (av != bv) : (av && bv));
                EXPECT_FALSE(cs.first_unsatisfied().has_value());
            }
        }
    }
}

// bellperson boolean.rs test_boolean_sha256_ch / _maj: with no constant operand, flipping the
// allocated result breaks "ch computation" / "maj computation".
TEST(Boolean, ChMajWrongResultIsNamed) {
    for (int m = 0; m < 64; ++m) {
        for (int op = 0; op < 2; ++op) {
            RecordingCS cs;
            std::array<Boolean, 3> x;
            std::array<bool, 3> v;
            for (int k = 0; k < 3; ++k) {
                const bool bit = (m >> k) & 1, neg = (m >> (k + 3)) & 1;
                Boolean b(*AllocatedBit::alloc(cs, Name("x", static_cast<uint64_t>(k)), bit));
                x[k] = neg ? b.not_() : b;
                v[k] = bit != neg;
            }
            auto r = op == 0 ? Boolean::sha256_ch(cs, x[0], x[1], x[2])
                             : Boolean::sha256_maj(cs, x[0], x[1], x[2]);
            ASSERT_TRUE(r.ok());
            const bool want = op == 0 ? ((v[0] && v[1]) != (!v[0] && v[2]))
                                      : (((v[0] && v[1]) != (v[0] && v[2])) != (v[1] && v[2]));
            EXPECT_EQ(r->value(), want);
            EXPECT_FALSE(cs.first_unsatisfied().has_value());
            cs.aux()[r->bit().var.index()] = want ? Fr::zero() : kOne;
            EXPECT_EQ(cs.first_unsatisfied().value_or(""),
                      op == 0 ? "ch computation" : "maj computation");
        }
    }
}

// bellperson boolean.rs test_field_into_allocated_bits_le.
TEST(ToBitsLe, PublishedFieldBits) {
    r1cs::TestConstraintSystem cs;
    // 9147677615426976802526883532204139322118074541891858454835346926874644257775
    const Fr r = Fr::from_hex("143966ecc1a8456c7f7a991e3585257a42e9aee8763a0979363b4cc1a3211bef");
    auto bits = field_into_allocated_bits_le(cs, r);
    ASSERT_TRUE(bits.ok());
    ASSERT_EQ(bits->size(), 255u);
    EXPECT_TRUE(cs.is_satisfied());
    const auto& b = *bits;
    EXPECT_EQ(b[254 - 0].value, false);
    EXPECT_EQ(b[254 - 1].value, false);
    EXPECT_EQ(b[254 - 2].value, true);
    EXPECT_EQ(b[254 - 3].value, false);
    EXPECT_EQ(b[254 - 4].value, true);
    EXPECT_EQ(b[254 - 5].value, false);
    EXPECT_EQ(b[254 - 20].value, true);
    EXPECT_EQ(b[254 - 23].value, true);
}

TEST(Boolean, EnforceEqual) {
    for (int m = 0; m < 16; ++m) {
        const bool av = m & 1, bv = m & 2, an = m & 4, bn = m & 8;
        r1cs::TestConstraintSystem cs;
        Boolean a(*AllocatedBit::alloc(cs, "a", av));
        Boolean b(*AllocatedBit::alloc(cs, "b", bv));
        if (an) a = a.not_();
        if (bn) b = b.not_();
        ASSERT_TRUE(Boolean::enforce_equal(cs, a, b).ok());
        EXPECT_EQ(cs.is_satisfied(), (av != an) == (bv != bn));
        EXPECT_EQ(cs.num_constraints(), 3u);
    }
    for (int m = 0; m < 8; ++m) {  // one constant side
        const bool cv = m & 1, bv = m & 2, swap = m & 4;
        r1cs::TestConstraintSystem cs;
        Boolean b(*AllocatedBit::alloc(cs, "b", bv));
        Boolean c = Boolean::constant(cv);
        ASSERT_TRUE(
            (swap ? Boolean::enforce_equal(cs, b, c) : Boolean::enforce_equal(cs, c, b)).ok());
        EXPECT_EQ(cs.is_satisfied(), cv == bv);
        if (cv != bv) {
            EXPECT_EQ(cs.which_is_unsatisfied().value_or(""),
                      cv ? "enforce equal to one" : "enforce equal to zero");
        }
    }
    r1cs::TestConstraintSystem cs;
    EXPECT_TRUE(Boolean::enforce_equal(cs, Boolean::constant(true), Boolean::constant(true)).ok());
    EXPECT_FALSE(
        Boolean::enforce_equal(cs, Boolean::constant(true), Boolean::constant(false)).ok());
    EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(ToBitsLe, CountsValuesAndUnpacking) {
    util::TestRng rng(21);
    for (int iter = 0; iter < 20; ++iter) {
        Fr x = iter == 0 ? Fr::zero() : iter == 1 ? -Fr::one() : Fr::random(rng);
        RecordingCS cs;
        auto num = AllocatedNum::alloc(cs, "num", x);
        ASSERT_TRUE(num.ok());
        auto bits = to_bits_le(cs, "bits", *num);
        ASSERT_TRUE(bits.ok());
        ASSERT_EQ(bits->size(), 255u);
        EXPECT_EQ(cs.num_constraints(), 256u);
        EXPECT_EQ(cs.num_aux(), 256u);
        const auto xi = x.to_int();
        for (size_t i = 0; i < 255; ++i) {
            EXPECT_EQ((*bits)[i].value(), xi.bit(i)) << i;
            EXPECT_EQ((*bits)[i].kind(), Boolean::Kind::kIs);
            EXPECT_EQ((*bits)[i].bit().var, Variable::aux(static_cast<uint32_t>(i + 1)));
        }
        EXPECT_EQ(cs.rows()[0].name, "bits/bit 0/boolean constraint");
        const auto& u = cs.rows()[255];
        EXPECT_EQ(u.name, "bits/unpacking constraint");
        EXPECT_TRUE(u.a.empty() && u.b.empty());
        ASSERT_EQ(u.c.size(), 256u);
        Fr coeff = kOne;
        for (size_t i = 0; i < 255; ++i) {
            EXPECT_EQ(u.c.coeff_of(Variable::aux(static_cast<uint32_t>(i + 1))), coeff);
            coeff = coeff + coeff;
        }
        EXPECT_EQ(u.c.coeff_of(num->var), -kOne);
        EXPECT_FALSE(cs.first_unsatisfied().has_value());
        cs.aux()[0] = cs.aux()[0] + kOne;  // the number no longer matches its bits
        EXPECT_EQ(cs.first_unsatisfied().value_or(""), "bits/unpacking constraint");
    }
}

TEST(ToBitsLe, WrongClaimedValueFailsUnpacking) {
    r1cs::TestConstraintSystem cs;
    auto num = AllocatedNum::alloc(cs, "num", Fr::from_u64(5));
    AllocatedNum lying{num->var, Fr::from_u64(6)};
    ASSERT_TRUE(to_bits_le(cs, "bits", lying).ok());
    EXPECT_EQ(cs.which_is_unsatisfied().value_or(""), "bits/unpacking constraint");
}

TEST(ToBitsLe, SameCountsInEveryBackend) {
    r1cs::Counter counter;
    r1cs::ShapeRecorder shape;
    for (ConstraintSystem* cs :
         {static_cast<ConstraintSystem*>(&counter), static_cast<ConstraintSystem*>(&shape)}) {
        auto num = AllocatedNum::alloc(*cs, "num", std::nullopt);
        ASSERT_TRUE(num.ok());
        auto bits = to_bits_le(*cs, "bits", *num);
        ASSERT_TRUE(bits.ok());
        EXPECT_FALSE((*bits)[0].value().has_value());
        EXPECT_EQ(cs->num_constraints(), 256u);
        EXPECT_EQ(cs->num_aux(), 256u);
    }
    r1cs::TestConstraintSystem test;
    auto missing = AllocatedNum{Variable::aux(0), std::nullopt};
    EXPECT_FALSE(to_bits_le(test, "bits", missing).ok());  // value needed, not given
}

TEST(ReverseBitNumbering, PadsAndReversesWithinBytes) {
    std::vector<Boolean> in;
    for (size_t i = 0; i < 13; ++i) in.push_back(Boolean::constant(i % 3 == 0));
    auto out = reverse_bit_numbering(in);
    ASSERT_EQ(out.size(), 16u);
    for (size_t i = 0; i < 16; ++i) {
        const size_t src = (i / 8) * 8 + 7 - i % 8;
        const bool want = src < 13 ? (src % 3 == 0) : false;
        EXPECT_TRUE(out[i].is_constant());
        EXPECT_EQ(out[i].constant_value(), want) << i;
    }
    EXPECT_TRUE(reverse_bit_numbering({}).empty());
}

}  // namespace
}  // namespace cuzk::gadgets
