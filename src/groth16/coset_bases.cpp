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

namespace {

using ec::G1Jacobian;

// v ← (Σ_j ω'^(jk)·v_j)_k, ω' = root (of order v.size(), a power of two): bit reversal, then
// radix-2 decimation in time, each stage's butterflies in parallel.
void group_transform(std::vector<G1Jacobian>& v, const Fr& root, util::ThreadPool& pool) {
    const size_t m = v.size();
    unsigned log_m = 0;
    while ((size_t{1} << log_m) < m) ++log_m;
    for (size_t i = 0; i < m; ++i) {
        size_t r = 0;
        for (unsigned b = 0; b < log_m; ++b) r |= ((i >> b) & 1) << (log_m - 1 - b);
        if (i < r) std::swap(v[i], v[r]);
    }
    for (size_t len = 2; len <= m; len <<= 1) {
        const size_t half = len / 2;
        const Fr w_len = root.pow(static_cast<uint64_t>(m / len));
        std::vector<Fr> twiddle(half);  // w_len^j
        twiddle[0] = Fr::one();
        for (size_t j = 1; j < half; ++j) twiddle[j] = twiddle[j - 1] * w_len;
        pool.parallel_ranges(m / 2, [&](size_t begin, size_t end) {
            for (size_t t = begin; t < end; ++t) {
                const size_t block = t / half, j = t % half;
                const size_t i = block * len + j;
                const G1Jacobian u = v[i];
                const G1Jacobian x = j == 0 ? v[i + half] : ec::mul(v[i + half], twiddle[j]);
                v[i] = u + x;
                v[i + half] = u - x;
            }
        });
    }
}

// (scale_j·H_j)_j for j < m − 1, the identity at m − 1 (scale_j = first·step^j).
std::vector<G1Jacobian> scaled_h(const Parameters& params, size_t m, const Fr& first,
                                 const Fr& step, util::ThreadPool& pool) {
    std::vector<G1Jacobian> out(m, G1Jacobian::identity());
    pool.parallel_ranges(m - 1, [&](size_t begin, size_t end) {
        Fr s = first * step.pow(static_cast<uint64_t>(begin));
        for (size_t j = begin; j < end; ++j) {
            out[j] = ec::mul(G1Jacobian::from_affine(params.h[j]), s);
            s *= step;
        }
    });
    return out;
}

std::vector<ec::G1Affine> to_affine(const std::vector<G1Jacobian>& v) {
    std::vector<ec::G1Affine> out(v.size());
    ec::batch_to_affine(v.data(), out.data(), v.size());
    return out;
}

}  // namespace

util::Result<CosetLagrangeSections> derive_coset_lagrange_sections(
    const Parameters& params, const r1cs::ShapeRecorder& shape, util::ThreadPool* pool) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    if (!shape.finished())
        return util::invalid_argument("coset-Lagrange bases: the shape is not finished");
    CUZK_ASSIGN_OR_RETURN(ntt::EvaluationDomain d,
                          ntt::EvaluationDomain::create(shape.c().rows()));
    const size_t m = d.size();
    if (params.vk.ic.size() != shape.num_inputs() || params.l.size() != shape.num_aux() ||
        params.domain_size() != m)
        return util::invalid_argument("coset-Lagrange bases: the parameter set does not fit the "
                                      "circuit (inputs, aux or domain size differ)");
    const Fr z_g = d.coset_generator().pow(static_cast<uint64_t>(m)) - Fr::one();
    const Fr scale = (Fr::from_u64(m) * z_g).inverse();
    CosetLagrangeSections out;
    {
        std::vector<G1Jacobian> q = scaled_h(params, m, scale, d.coset_generator_inv(), p);
        group_transform(q, d.omega_inv(), p);
        out.h = to_affine(q);
    }
    std::vector<G1Jacobian> r = scaled_h(params, m, scale, Fr::one(), p);
    group_transform(r, d.omega_inv(), p);
    // S = Cᵀ·R, per column (C's entries grouped by column), columns in parallel.
    const r1cs::CsrColumns c = r1cs::group_by_column(shape.c(), shape.num_columns());
    const std::vector<Fr>& coefficients = shape.coefficients();
    std::vector<G1Jacobian> s(shape.num_columns(), G1Jacobian::identity());
    p.parallel_ranges(s.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i)
            for (uint64_t e = c.offset[i]; e < c.offset[i + 1]; ++e) {
                const Fr& k = coefficients[c.coeff[e]];
                const G1Jacobian& rk = r[c.row[e]];
                s[i] = s[i] + (k == Fr::one() ? rk : ec::mul(rk, k));
            }
    });
    const size_t ni = shape.num_inputs();
    std::vector<G1Jacobian> l(shape.num_aux());
    p.parallel_ranges(l.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i)
            l[i] = G1Jacobian::from_affine(params.l[i]) - s[ni + i];
    });
    out.l = to_affine(l);
    out.c_input = to_affine(std::vector<G1Jacobian>(s.begin(), s.begin() + ni));
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
