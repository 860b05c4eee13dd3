// Random, structurally valid Groth16 keys for tests and benchmarks — NOT a setup: the points are
// independent random multiples of the generators (so every point is in the subgroup and none is
// the identity), with no relation between sections.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "groth16/keys.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16::testing {

struct KeySizes {
    size_t ic;  // ≥ 1
    size_t h;   // 2^k − 1
    size_t l;
    size_t a;
    size_t b;  // b_g1 and b_g2
};

// k·G for random k, one per point (computed in parallel, normalized with one
// inversion).
std::vector<G1Affine> random_g1_points(size_t n, util::TestRng& rng);
std::vector<G2Affine> random_g2_points(size_t n, util::TestRng& rng);
// n distinct points P, P+Q, P+2Q, … for random P, Q: cheap, for large benchmark
// inputs.
std::vector<G1Affine> cheap_g1_points(size_t n, util::TestRng& rng);

Parameters random_parameters(const KeySizes& sizes, uint64_t seed);

}  // namespace cuzk::groth16::testing
