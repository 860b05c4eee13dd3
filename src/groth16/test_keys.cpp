#include "groth16/test_keys.hpp"

#include "ff/fr.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16::testing {
namespace {

template <class Jac, class Aff>
std::vector<Aff> random_multiples(size_t n, util::TestRng& rng, const Aff& generator) {
    std::vector<ff::Fr> scalars(n);
    for (auto& k : scalars) {
        do k = ff::Fr::random(rng);
        while (k.is_zero());
    }
    std::vector<Jac> jac(n);
    util::ThreadPool::global().parallel_for(
        n, [&](size_t i) { jac[i] = ec::mul(Jac::from_affine(generator), scalars[i]); });
    std::vector<Aff> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

}  // namespace

std::vector<G1Affine> random_g1_points(size_t n, util::TestRng& rng) {
    return random_multiples<ec::G1Jacobian>(n, rng, ec::kG1Generator);
}
std::vector<G2Affine> random_g2_points(size_t n, util::TestRng& rng) {
    return random_multiples<ec::G2Jacobian>(n, rng, ec::kG2Generator);
}

std::vector<G1Affine> cheap_g1_points(size_t n, util::TestRng& rng) {
    const auto base = random_g1_points(2, rng);
    std::vector<ec::G1Jacobian> jac(n);
    ec::G1Jacobian acc = ec::G1Jacobian::from_affine(base[0]);
    for (size_t i = 0; i < n; ++i) {
        jac[i] = acc;
        acc = acc.add_mixed(base[1]);
    }
    std::vector<G1Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

Parameters random_parameters(const KeySizes& sizes, uint64_t seed) {
    util::TestRng rng(seed);
    Parameters p;
    auto g1 = random_g1_points(4, rng);
    auto g2 = random_g2_points(3, rng);
    p.vk.alpha_g1 = g1[0];
    p.vk.beta_g1 = g1[1];
    p.vk.delta_g1 = g1[2];
    p.vk.beta_g2 = g2[0];
    p.vk.gamma_g2 = g2[1];
    p.vk.delta_g2 = g2[2];
    p.vk.ic = random_g1_points(sizes.ic, rng);
    p.h = random_g1_points(sizes.h, rng);
    p.l = random_g1_points(sizes.l, rng);
    p.a = random_g1_points(sizes.a, rng);
    p.b_g1 = random_g1_points(sizes.b, rng);
    p.b_g2 = random_g2_points(sizes.b, rng);
    return p;
}

}  // namespace cuzk::groth16::testing
