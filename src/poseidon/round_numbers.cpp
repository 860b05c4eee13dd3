#include "poseidon/round_numbers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuzk::poseidon {
namespace {

// n = 256 (neptune rounds BLS12-381's 255 bits up: one bit does not change the bounds), M = 128.
constexpr float kPrimeBits = 256.0f;
constexpr float kSecurityBits = 128.0f;

// The Poseidon paper's security inequalities (statistical, interpolation and two Gröbner-basis
// bounds) for R_F given t and R_P; neptune `round_numbers_are_secure`, all in f32.
bool is_secure(size_t t, size_t rf, size_t rp) {
    const float rp_f = static_cast<float>(rp);
    const float t_f = static_cast<float>(t);
    const float n = kPrimeBits;
    const float m = kSecurityBits;
    const float rf_stat = m <= (n - 3.0f) * (t_f + 1.0f) ? 6.0f : 10.0f;
    const float rf_interp = 0.43f * m + std::log2(t_f) - rp_f;
    const float rf_grob_1 = 0.21f * n - rp_f;
    const float rf_grob_2 = (0.14f * n - 1.0f - rp_f) / (t_f - 1.0f);
    // neptune casts each ceil to usize (a negative float saturates to 0).
    auto to_count = [](float x) -> size_t {
        const float c = std::ceil(x);
        return c <= 0.0f ? 0 : static_cast<size_t>(c);
    };
    const size_t rf_max = std::max({to_count(rf_stat), to_count(rf_interp), to_count(rf_grob_1),
                                    to_count(rf_grob_2)});
    return rf >= rf_max;
}

}  // namespace

RoundNumbers calc_round_numbers(size_t width, bool security_margin) {
    size_t best_rf = 0;
    size_t best_rp = 0;
    size_t best_cost = std::numeric_limits<size_t>::max();
    for (size_t rf_loop = 2; rf_loop <= 1000; rf_loop += 2) {
        for (size_t rp_loop = 4; rp_loop < 200; ++rp_loop) {
            if (!is_secure(width, rf_loop, rp_loop)) continue;
            size_t rf = rf_loop;
            size_t rp = rp_loop;
            if (security_margin) {
                rf += 2;
                rp = static_cast<size_t>(std::ceil(1.075f * static_cast<float>(rp)));
            }
            const size_t cost = width * rf + rp;
            if (cost < best_cost || (cost == best_cost && rf < best_rf)) {
                best_rf = rf;
                best_rp = rp;
                best_cost = cost;
            }
        }
    }
    return RoundNumbers{best_rf, best_rp};
}

RoundNumbers round_numbers(size_t arity, Strength strength) {
    RoundNumbers r = calc_round_numbers(arity + 1, true);
    if (strength == Strength::kStrengthened) {
        r.partial_rounds =
            static_cast<size_t>(std::ceil(static_cast<double>(r.partial_rounds) * 1.25));
    }
    return r;
}

}  // namespace cuzk::poseidon
