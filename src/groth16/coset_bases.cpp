// Coset-Lagrange H bases (see coset_bases.hpp).
#include "groth16/coset_bases.hpp"

#include <atomic>
#include <string>
#include <utility>

#include "msm/pippenger.hpp"

namespace cuzk::groth16 {

using ff::Fr;

const char* h_basis_name(HBasis basis) {
    return basis == HBasis::kCosetLagrange ? "coset-lagrange" : "monomial";
}

util::Result<HBasis> parse_h_basis(std::string_view name) {
    if (name == "monomial") return HBasis::kMonomial;
    if (name == "coset-lagrange") return HBasis::kCosetLagrange;
    std::string msg = "unknown H basis '";
    msg += name;
    msg += "' (known: monomial, coset-lagrange)";
    return util::invalid_argument(std::move(msg));
}

namespace {

// out[k] = scale·(P/x_k − 1)/(x_k − 1) = scale·Σ_{j<m−1} x_k^j, with x_k = base·ω^−k and
// P = x_k^m = base^m. x_k and 1/x_k = ω^k/base run as power sequences per chunk; the
// denominators x_k − 1 are inverted per chunk (one field inversion, Montgomery's trick). A zero
// denominator (x_k = 1) fails naming `what`.
util::Status geometric_sums(const ntt::EvaluationDomain& d, const Fr& base, const Fr& scale,
                            std::vector<Fr>& out, util::ThreadPool& pool, const char* what) {
    const size_t m = d.size();
    const Fr base_inv = base.inverse();
    const Fr power_m = base.pow(static_cast<uint64_t>(m));
    out.resize(m);
    std::atomic<bool> degenerate{false};
    pool.parallel_ranges(m, [&](size_t begin, size_t end) {
        const size_t n = end - begin;
        std::vector<Fr> denominators(n), scratch;
        Fr x = base * d.omega_inv().pow(static_cast<uint64_t>(begin));
        Fr x_inv = base_inv * d.omega().pow(static_cast<uint64_t>(begin));
        for (size_t i = 0; i < n; ++i) {
            denominators[i] = x - Fr::one();
            if (denominators[i].is_zero()) degenerate = true;
            out[begin + i] = (power_m * x_inv - Fr::one()) * scale;
            x *= d.omega_inv();
            x_inv *= d.omega();
        }
        ff::batch_inverse(denominators.data(), n, scratch);
        for (size_t i = 0; i < n; ++i) out[begin + i] *= denominators[i];
    });
    if (!degenerate) return util::Status();
    std::string msg = "coset-Lagrange bases: ";
    msg += what;
    msg += " (degenerate toxic waste)";
    return util::invalid_argument(std::move(msg));
}

}  // namespace

util::Result<CosetLagrangeScalars> coset_lagrange_scalars(const ntt::EvaluationDomain& d,
                                                          const Fr& tau, const Fr& t,
                                                          util::ThreadPool* pool) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    if (tau.is_zero()) return util::invalid_argument("coset-Lagrange bases: tau is zero");
    const Fr m = Fr::from_u64(d.size());
    const Fr z_g = d.coset_generator().pow(static_cast<uint64_t>(d.size())) - Fr::one();
    const Fr scale = t * (m * z_g).inverse();
    CosetLagrangeScalars out;
    CUZK_RETURN_IF_ERROR(geometric_sums(d, tau * d.coset_generator_inv(), scale, out.q, p,
                                        "tau lies on the coset g*omega^k"));
    CUZK_RETURN_IF_ERROR(
        geometric_sums(d, tau, scale, out.r, p, "tau lies in the domain (Z(tau) = 0)"));
    return out;
}

util::Result<ec::G1Jacobian> input_c_correction(std::span<const ec::G1Affine> c_input,
                                                std::span<const Fr> inputs) {
    if (c_input.size() != inputs.size()) {
        std::string msg = "coset-Lagrange bases: ";
        msg += std::to_string(inputs.size());
        msg += " inputs but ";
        msg += std::to_string(c_input.size());
        msg += " input C points";
        return util::invalid_argument(std::move(msg));
    }
    return -msm::msm(c_input, inputs);
}

}  // namespace cuzk::groth16
