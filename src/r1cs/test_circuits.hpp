// Hand-built circuits for the r1cs tests (header-only, test use only).
//
// Each circuit synthesizes into any ConstraintSystem; values are computed only when
// cs.computes_values(). `perturb` names an aux index whose value is allocated off by one
// (−1 = none), to check that TestConstraintSystem finds the first failing constraint.
#pragma once

#include <optional>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "util/rng.hpp"

namespace cuzk::r1cs::testing {

using ff::Fr;
using OptFr = std::optional<Fr>;

inline util::Result<Variable> alloc_aux(ConstraintSystem& cs, const Name& name, OptFr value,
                                        long perturb) {
    if (value.has_value() && static_cast<long>(cs.num_aux()) == perturb) *value += Fr::one();
    return cs.alloc(name, value);
}

// 0 or 1 (a quarter of the time each, the values the provers treat specially) or a random field
// element: witness values for random-circuit tests.
inline Fr random_value(util::TestRng& rng) {
    switch (rng.next_u64() % 4) {
        case 0: return Fr::zero();
        case 1: return Fr::one();
        default: return Fr::random(rng);
    }
}

inline OptFr mul(const OptFr& x, const OptFr& y) {
    if (!x || !y) return std::nullopt;
    return *x * *y;
}

// x³ + x + 5 = y, y public (bellman's classic example). Constraints: "x_sq", "x_cu", "y".
inline util::Status cubic(ConstraintSystem& cs, Fr x_value, long perturb = -1) {
    Namespace ns(cs, "cubic");
    const OptFr x_v = cs.computes_values() ? OptFr(x_value) : std::nullopt;
    auto x = alloc_aux(cs, "x", x_v, perturb);
    if (!x.ok()) return x.status();
    const OptFr x_sq_v = mul(x_v, x_v);
    auto x_sq = alloc_aux(cs, "x_sq", x_sq_v, perturb);
    if (!x_sq.ok()) return x_sq.status();
    cs.enforce("x_sq", *x, *x, *x_sq);
    const OptFr x_cu_v = mul(x_sq_v, x_v);
    auto x_cu = alloc_aux(cs, "x_cu", x_cu_v, perturb);
    if (!x_cu.ok()) return x_cu.status();
    cs.enforce("x_cu", *x_sq, *x, *x_cu);
    auto y = cs.alloc_input("y", [&]() -> OptFr {
        if (!x_cu_v) return std::nullopt;
        return *x_cu_v + *x_v + Fr::from_u64(5);
    });
    if (!y.ok()) return y.status();
    cs.enforce("y", LC(*x_cu) + *x + Fr::from_u64(5) * Variable::one(), Variable::one(), *y);
    return util::Status();
}

// v_0 = x, v_{k+1} = v_k · x for k < n (namespace "step k", constraint "mul"), then the last
// value is made public ("inputize": A = input, B = ONE, C = v_n, as bellpepper's inputize).
inline util::Status mul_chain(ConstraintSystem& cs, Fr x_value, size_t n, long perturb = -1) {
    Namespace ns(cs, "chain");
    const OptFr x_v = cs.computes_values() ? OptFr(x_value) : std::nullopt;
    auto x = alloc_aux(cs, "x", x_v, perturb);
    if (!x.ok()) return x.status();
    Variable cur = *x;
    OptFr cur_v = x_v;
    for (size_t k = 0; k < n; ++k) {
        Namespace step(cs, Name("step ", k));
        const OptFr next_v = mul(cur_v, x_v);
        auto next = alloc_aux(cs, "v", next_v, perturb);
        if (!next.ok()) return next.status();
        cs.enforce("mul", cur, *x, *next);
        cur = *next;
        cur_v = next_v;
    }
    auto out = cs.alloc_input("out", cur_v);
    if (!out.ok()) return out.status();
    cs.enforce("inputize", *out, Variable::one(), cur);
    return util::Status();
}

// Repeated variables and cancelling coefficients (aux x, y, w = x·y, u = 0; input z = x + y):
//   "product":  (y + x − x) · (x + ONE − ONE) = w
//   "repeated": (y + y + y) · (x + x) = 6·w
//   "input":    ONE · (z − ONE + ONE) = x + y
//   "zero":     u · (ONE − ONE) = 0
// Densities: a_aux = {y, u}; b_aux = {x}; b_input = {z} (ONE only cancels in B).
inline util::Status cancelling(ConstraintSystem& cs, Fr x_value, Fr y_value, long perturb = -1) {
    Namespace ns(cs, "cancel");
    const bool values = cs.computes_values();
    const OptFr x_v = values ? OptFr(x_value) : std::nullopt;
    const OptFr y_v = values ? OptFr(y_value) : std::nullopt;
    auto x = alloc_aux(cs, "x", x_v, perturb);
    if (!x.ok()) return x.status();
    auto y = alloc_aux(cs, "y", y_v, perturb);
    if (!y.ok()) return y.status();
    auto w = alloc_aux(cs, "w", mul(x_v, y_v), perturb);
    if (!w.ok()) return w.status();
    auto u = alloc_aux(cs, "u", values ? OptFr(Fr::zero()) : std::nullopt, perturb);
    if (!u.ok()) return u.status();
    auto z = cs.alloc_input("z", values ? OptFr(x_value + y_value) : std::nullopt);
    if (!z.ok()) return z.status();
    const Variable one = Variable::one();
    cs.enforce("product", LC(*y) + *x - *x, LC(*x) + one - one, *w);
    cs.enforce("repeated", LC(*y) + *y + *y, LC(*x) + *x, Fr::from_u64(6) * *w);
    cs.enforce("input", one, LC(*z) - one + one, LC(*x) + *y);
    cs.enforce("zero", *u, LC(one) - one, LC());
    return util::Status();
}

// num allocated, then its low `bits` bits b_i (namespace "bit i", constraint "boolean":
// (ONE − b)·b = 0), then "unpacking": 0·0 = Σ 2^i b_i − num. num must fit in `bits` bits.
inline util::Status booleans(ConstraintSystem& cs, uint64_t num_value, size_t bits,
                             long perturb = -1) {
    Namespace ns(cs, "bits");
    const bool values = cs.computes_values();
    auto num =
        alloc_aux(cs, "num", values ? OptFr(Fr::from_u64(num_value)) : std::nullopt, perturb);
    if (!num.ok()) return num.status();
    LC packed;
    Fr coeff = Fr::one();
    for (size_t i = 0; i < bits; ++i) {
        Namespace bit_ns(cs, Name("bit ", i));
        const OptFr v = values ? OptFr(Fr::from_u64((num_value >> i) & 1)) : std::nullopt;
        auto b = alloc_aux(cs, "b", v, perturb);
        if (!b.ok()) return b.status();
        cs.enforce("boolean", LC(Variable::one()) - *b, *b, LC());
        packed += coeff * *b;
        coeff = coeff.dbl();
    }
    packed -= *num;
    cs.enforce("unpacking", LC(), LC(), packed);
    return util::Status();
}

}  // namespace cuzk::r1cs::testing
