// Test inputs shared by the src/gpu tests and benchmarks (host only): field edge values, operand
// vectors that pair every edge value with every other one and then random values, and G1 point
// pairs that hit every branch of the mixed addition (random, P = Q, P = −Q, identities).
#pragma once

#include <cstddef>
#include <vector>

#include "ec/curves.hpp"
#include "ff/bigint.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu::testing {

// 0, 1, 2, p − 1, p − 2, (p − 1)/2, (p + 1)/2, and the elements whose Montgomery limbs are the
// smallest and the largest possible (1 and p − 1 as raw limbs).
template <class F>
std::vector<F> field_edge_values() {
    using Int = typename F::Int;
    const Int p = F::modulus();
    const Int half = p.shr(1);  // (p − 1)/2
    return {F::zero(),
            F::one(),
            F::from_u64(2),
            -F::one(),
            -F::from_u64(2),
            F::from_int(half),
            F::from_int(half + Int::from_u64(1)),
            F::raw(Int::from_u64(1)),
            F::raw(p - Int::from_u64(1))};
}

template <class F>
struct FieldOperands {
    std::vector<F> a, b;
};

// Every (edge, edge) pair, then `random_count` pairs where each side is random except that one
// pair in eight has an edge value on one side.
template <class F>
FieldOperands<F> field_operands(uint64_t seed, size_t random_count) {
    util::TestRng rng(seed);
    const std::vector<F> edges = field_edge_values<F>();
    FieldOperands<F> ops;
    for (const F& x : edges) {
        for (const F& y : edges) {
            ops.a.push_back(x);
            ops.b.push_back(y);
        }
    }
    for (size_t i = 0; i < random_count; ++i) {
        F x = F::random(rng), y = F::random(rng);
        switch (rng.uniform(16)) {
            case 0: x = edges[rng.uniform(edges.size())]; break;
            case 1: y = edges[rng.uniform(edges.size())]; break;
            case 2: y = x; break;
            case 3: y = -x; break;
            default: break;
        }
        ops.a.push_back(x);
        ops.b.push_back(y);
    }
    return ops;
}

// The same point as `a` in XYZZ with a random representation: (x·λ², y·λ³, λ², λ³), λ ≠ 0.
inline ec::G1Xyzz random_xyzz_representation(const ec::G1Affine& a, util::TestRng& rng) {
    if (a.is_identity()) return ec::G1Xyzz::identity();
    ff::Fp lambda = ff::Fp::random(rng);
    while (lambda.is_zero()) lambda = ff::Fp::random(rng);
    const ff::Fp l2 = lambda.square();
    const ff::Fp l3 = l2 * lambda;
    return {a.x * l2, a.y * l3, l2, l3};
}

// n distinct-looking points of G1: s + i·d for random multiples s, d of the generator.
inline std::vector<ec::G1Affine> g1_random_points(util::TestRng& rng, size_t n) {
    const ec::G1Jacobian g = ec::G1Jacobian::from_affine(ec::kG1Generator);
    ec::G1Jacobian acc = ec::mul(g, ff::Fr::random(rng));
    const ec::G1Jacobian step = ec::mul(g, ff::Fr::random(rng));
    std::vector<ec::G1Jacobian> jac(n);
    for (size_t i = 0; i < n; ++i) {
        jac[i] = acc;
        acc += step;
    }
    std::vector<ec::G1Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

struct G1Operands {
    std::vector<ec::G1Xyzz> p;
    std::vector<ec::G1Affine> q;
};

// Mixed-addition operands: the exceptional cases first (both identities, each identity, P = Q
// with P normalised and not, P = −Q, the generator with itself), then `random_count` pairs of
// which one in eight is P = Q and one in eight P = −Q, the rest unrelated points; P always in a
// random XYZZ representation.
inline G1Operands g1_operands(uint64_t seed, size_t random_count) {
    util::TestRng rng(seed);
    const std::vector<ec::G1Affine> pts = g1_random_points(rng, 2 * random_count + 2);
    const ec::G1Affine u = pts[0], v = pts[1];
    const ec::G1Affine gen = ec::kG1Generator;
    G1Operands ops;
    auto add = [&ops](const ec::G1Xyzz& p, const ec::G1Affine& q) {
        ops.p.push_back(p);
        ops.q.push_back(q);
    };
    add(ec::G1Xyzz::identity(), ec::G1Affine::identity());
    add(ec::G1Xyzz::identity(), u);
    add(ec::G1Xyzz::from_affine(u), ec::G1Affine::identity());
    add(random_xyzz_representation(u, rng), ec::G1Affine::identity());
    add(ec::G1Xyzz::from_affine(u), u);
    add(random_xyzz_representation(u, rng), u);
    add(ec::G1Xyzz::from_affine(u), -u);
    add(random_xyzz_representation(u, rng), -u);
    add(ec::G1Xyzz::from_affine(gen), gen);
    add(random_xyzz_representation(gen, rng), -gen);
    add(random_xyzz_representation(u, rng), v);
    for (size_t i = 0; i < random_count; ++i) {
        const ec::G1Affine a = pts[2 + 2 * i], b = pts[3 + 2 * i];
        switch (rng.uniform(8)) {
            case 0: add(random_xyzz_representation(a, rng), a); break;
            case 1: add(random_xyzz_representation(a, rng), -a); break;
            default: add(random_xyzz_representation(a, rng), b); break;
        }
    }
    return ops;
}

}  // namespace cuzk::gpu::testing
