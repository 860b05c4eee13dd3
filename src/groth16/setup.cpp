// Groth16 test-ceremony parameter generation (see setup.hpp for the conventions).
//
// Steps:
//   1. record the circuit's matrices (ShapeRecorder; finish() appends the input rows);
//   2. the domain of m ≥ rows elements and the Lagrange basis at τ: L_i(τ) = the inverse NTT of
//      (1, τ, τ², …, τ^(m−1)), since (1/m)·Σ_j τ^j ω^(−ij) = L_i(τ) — bellperson's
//      `powers_of_tau` + `ifft`;
//   3. u_j(τ), v_j(τ), w_j(τ) = Σ_i M_ij L_i(τ): each CSR matrix is transposed once by counting
//      sort (per column: its rows and coefficient ids), then the columns are summed in
//      parallel — no two threads ever write the same column, and the result does not depend on
//      the number of threads;
//   4. all scalars of a group are gathered and multiplied by one windowed fixed-base table of
//      the generator (FixedBaseTable below), then normalized to affine per chunk.
#include "groth16/setup.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "ec/curves.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {

using ff::Fr;

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
    util::TestRng rng(seed);
    auto non_zero = [&rng]() {
        Fr x;
        do x = Fr::random(rng);
        while (x.is_zero());
        return x;
    };
    ToxicWaste t;
    t.tau = non_zero();
    t.alpha = non_zero();
    t.beta = non_zero();
    t.gamma = non_zero();
    t.delta = non_zero();
    return t;
}

namespace {

// ---- fixed-base scalar multiplication ----------------------------------------------------------
//
// For a base G and window width w: windows k = 0 .. W−1 (W = ⌈255/w⌉, scalars are < r < 2^255)
// and table[k][d − 1] = d·2^(w·k)·G for d = 1 .. 2^w − 1, in affine coordinates. Then
// s·G = Σ_k table[k][digit_k(s)] — at most W mixed additions per scalar, no doublings.
template <class C>
class FixedBaseTable {
   public:
    using Jac = ec::Jacobian<C>;
    using Aff = ec::Affine<C>;

    FixedBaseTable(const Aff& base, size_t num_scalars, util::ThreadPool& pool)
        : window_(choose_window(num_scalars)),
          windows_((255 + window_ - 1) / window_),
          row_((size_t{1} << window_) - 1) {
        // Window bases 2^(w·k)·G, serially (w doublings each).
        std::vector<Jac> bases(windows_);
        Jac b = Jac::from_affine(base);
        for (size_t k = 0; k < windows_; ++k) {
            bases[k] = b;
            for (unsigned i = 0; i < window_; ++i) b = b.dbl();
        }
        std::vector<Jac> multiples(windows_ * row_);
        pool.parallel_for(windows_, [&](size_t k) {
            Jac acc = bases[k];
            Jac* out = multiples.data() + k * row_;
            out[0] = acc;
            for (size_t d = 1; d < row_; ++d) {
                acc += bases[k];
                out[d] = acc;
            }
        });
        table_.resize(multiples.size());
        ec::batch_to_affine(multiples.data(), table_.data(), multiples.size());
    }

    Jac mul(const ff::BigInt<4>& k) const {
        Jac acc = Jac::identity();
        const uint64_t mask = (uint64_t{1} << window_) - 1;
        for (size_t j = 0; j < windows_; ++j) {
            const size_t bit = j * window_;
            const size_t limb = bit / 64;
            const unsigned shift = static_cast<unsigned>(bit % 64);
            uint64_t digit = k.limb[limb] >> shift;
            if (shift + window_ > 64 && limb + 1 < 4) digit |= k.limb[limb + 1] << (64 - shift);
            digit &= mask;
            if (digit != 0) acc = acc.add_mixed(table_[j * row_ + (digit - 1)]);
        }
        return acc;
    }

    // s_i·G for all scalars, in affine (parallel over the pool, one normalization per chunk).
    std::vector<Aff> mul_all(std::span<const Fr> scalars, util::ThreadPool& pool) const {
        std::vector<Aff> out(scalars.size());
        pool.parallel_ranges(scalars.size(), [&](size_t begin, size_t end) {
            std::vector<Jac> tmp(end - begin);
            for (size_t i = begin; i < end; ++i) tmp[i - begin] = mul(scalars[i].to_int());
            ec::batch_to_affine(tmp.data(), out.data() + begin, end - begin);
        });
        return out;
    }

   private:
    // Minimizes table building plus lookups: W(w)·(2^w + n), w in [2, 16].
    static unsigned choose_window(size_t n) {
        unsigned best = 2;
        double best_cost = -1;
        for (unsigned w = 2; w <= 16; ++w) {
            const double windows = static_cast<double>((255 + w - 1) / w);
            const double cost =
                windows * (static_cast<double>(size_t{1} << w) + static_cast<double>(n));
            if (best_cost < 0 || cost < best_cost) {
                best = w;
                best_cost = cost;
            }
        }
        return best;
    }

    unsigned window_;
    size_t windows_;
    size_t row_;
    std::vector<Aff> table_;
};

// ---- QAP evaluation ----------------------------------------------------------------------------

// Σ_i M_ij·L_i for every column j of a CSR matrix; nonempty[j] is set when column j has an entry.
void column_sums(const r1cs::CsrMatrix& m, std::span<const Fr> coefficients,
                 std::span<const Fr> lagrange, size_t num_columns, std::vector<Fr>& out,
                 std::vector<uint8_t>& nonempty, util::ThreadPool& pool) {
    // Transpose by counting sort: offsets per column, then (row, coefficient id) per entry.
    std::vector<uint64_t> offset(num_columns + 1, 0);
    for (uint32_t c : m.col) ++offset[c + 1];
    for (size_t c = 0; c < num_columns; ++c) offset[c + 1] += offset[c];
    std::vector<uint32_t> rows(m.nnz()), coeffs(m.nnz());
    {
        std::vector<uint64_t> cursor(offset.begin(), offset.end() - 1);
        for (size_t r = 0; r < m.rows(); ++r) {
            for (uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
                const uint64_t pos = cursor[m.col[e]]++;
                rows[pos] = static_cast<uint32_t>(r);
                coeffs[pos] = m.coeff[e];
            }
        }
    }
    out.assign(num_columns, Fr::zero());
    pool.parallel_ranges(num_columns, [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c) {
            Fr sum = Fr::zero();
            for (uint64_t e = offset[c]; e < offset[c + 1]; ++e) {
                sum += coefficients[coeffs[e]] * lagrange[rows[e]];
            }
            out[c] = sum;
            if (offset[c + 1] != offset[c]) nonempty[c] = 1;
        }
    });
}

struct Evaluation {
    detail::QapEvaluation qap;
    std::vector<uint8_t> constrained;  // per column: some non-zero entry in A, B or C
};

util::Result<Evaluation> evaluate(const r1cs::ShapeRecorder& rec, const Fr& tau,
                                  util::ThreadPool& pool) {
    Evaluation ev;
    detail::QapEvaluation& q = ev.qap;
    q.num_inputs = rec.num_inputs();
    q.num_aux = rec.num_aux();
    q.num_rows = rec.a().rows();
    auto domain = ntt::EvaluationDomain::create(q.num_rows);
    if (!domain.ok()) {
        std::string msg = "groth16 setup: domain too large for ";
        msg += std::to_string(q.num_rows);
        msg += " rows (constraints + inputs): ";
        msg += domain.status().message();
        return util::Status(domain.status().code(), std::move(msg));
    }
    const size_t m = domain->size();
    q.domain_size = m;
    q.z_tau = tau.pow(static_cast<uint64_t>(m)) - Fr::one();
    if (q.z_tau.is_zero()) {
        return util::invalid_argument("groth16 setup: tau is in the evaluation domain (Z(tau) = 0)");
    }

    // Powers of τ, chunk starts by exponentiation so the chunks run in parallel.
    std::vector<Fr> lagrange(m);
    pool.parallel_ranges(m, [&](size_t begin, size_t end) {
        Fr p = tau.pow(static_cast<uint64_t>(begin));
        for (size_t i = begin; i < end; ++i) {
            lagrange[i] = p;
            p *= tau;
        }
    });
    CUZK_RETURN_IF_ERROR(ntt::inverse(std::span<Fr>(lagrange), *domain, &pool));

    const size_t columns = rec.num_columns();
    ev.constrained.assign(columns, 0);
    const auto& coefficients = rec.coefficients();
    column_sums(rec.a(), coefficients, lagrange, columns, q.u, ev.constrained, pool);
    column_sums(rec.b(), coefficients, lagrange, columns, q.v, ev.constrained, pool);
    column_sums(rec.c(), coefficients, lagrange, columns, q.w, ev.constrained, pool);
    return ev;
}

util::Status record(const Circuit& circuit, r1cs::ShapeRecorder& rec) {
    CUZK_RETURN_IF_ERROR(circuit(rec));
    rec.finish();
    return util::Status();
}

util::Status zero_scalar(const char* what, const char* kind, size_t index) {
    std::string msg = "groth16 setup: ";
    msg += what;
    msg += " scalar of ";
    msg += kind;
    msg += " variable ";
    msg += std::to_string(index);
    msg += " is zero (degenerate toxic waste)";
    return util::invalid_argument(std::move(msg));
}

}  // namespace

namespace detail {

util::Result<QapEvaluation> evaluate_qap(const Circuit& circuit, const Fr& tau,
                                         util::ThreadPool* pool) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    r1cs::ShapeRecorder rec;
    CUZK_RETURN_IF_ERROR(record(circuit, rec));
    auto ev = evaluate(rec, tau, p);
    if (!ev.ok()) return ev.status();
    return std::move(ev->qap);
}

}  // namespace detail

util::Result<Parameters> generate_parameters(const Circuit& circuit, const ToxicWaste& toxic,
                                             util::ThreadPool* pool) {
    util::ThreadPool& p = pool != nullptr ? *pool : util::ThreadPool::global();
    if (toxic.tau.is_zero() || toxic.alpha.is_zero() || toxic.beta.is_zero() ||
        toxic.gamma.is_zero() || toxic.delta.is_zero()) {
        return util::invalid_argument("groth16 setup: toxic waste must be non-zero");
    }
    r1cs::ShapeRecorder rec;
    CUZK_RETURN_IF_ERROR(record(circuit, rec));
    auto evaluated = evaluate(rec, toxic.tau, p);
    if (!evaluated.ok()) return evaluated.status();
    const detail::QapEvaluation& q = evaluated->qap;
    const std::vector<uint8_t>& constrained = evaluated->constrained;
    const size_t ni = q.num_inputs;
    const size_t na = q.num_aux;
    const size_t m = q.domain_size;

    for (size_t j = 0; j < na; ++j) {
        if (constrained[ni + j] == 0) {
            std::string msg = "groth16 setup: aux variable ";
            msg += std::to_string(j);
            msg += " is unconstrained (no non-zero coefficient in A, B or C; its l point would "
                   "be the identity)";
            return util::invalid_argument(std::move(msg));
        }
    }

    const Fr gamma_inv = toxic.gamma.inverse();
    const Fr delta_inv = toxic.delta.inverse();
    const r1cs::DensityBits a_aux = rec.a_aux_density();
    const r1cs::DensityBits b_input = rec.b_input_density();
    const r1cs::DensityBits b_aux = rec.b_aux_density();

    // G1 scalars, laid out section after section: ic | l | h | a | b_g1.
    std::vector<Fr> g1;
    std::vector<Fr> g2;  // b_g2
    const size_t num_a = ni + a_aux.popcount();
    const size_t num_b = b_input.popcount() + b_aux.popcount();
    g1.reserve(ni + na + (m - 1) + num_a + num_b);
    g2.reserve(num_b);

    for (size_t j = 0; j < ni + na; ++j) {
        const bool input = j < ni;
        const Fr s = (toxic.beta * q.u[j] + toxic.alpha * q.v[j] + q.w[j]) *
                     (input ? gamma_inv : delta_inv);
        if (s.is_zero()) {
            return zero_scalar(input ? "ic" : "l", input ? "input" : "aux", input ? j : j - ni);
        }
        g1.push_back(s);
    }
    {
        const size_t base = g1.size();
        g1.resize(base + (m - 1));
        const Fr zd = q.z_tau * delta_inv;
        p.parallel_ranges(m - 1, [&](size_t begin, size_t end) {
            Fr s = toxic.tau.pow(static_cast<uint64_t>(begin)) * zd;
            for (size_t i = begin; i < end; ++i) {
                g1[base + i] = s;
                s *= toxic.tau;
            }
        });
    }
    for (size_t j = 0; j < ni + na; ++j) {
        const bool input = j < ni;
        if (!input && !a_aux.get(j - ni)) continue;
        if (q.u[j].is_zero()) return zero_scalar("a", input ? "input" : "aux", input ? j : j - ni);
        g1.push_back(q.u[j]);
    }
    for (size_t j = 0; j < ni + na; ++j) {
        const bool input = j < ni;
        if (input ? !b_input.get(j) : !b_aux.get(j - ni)) continue;
        if (q.v[j].is_zero()) return zero_scalar("b", input ? "input" : "aux", input ? j : j - ni);
        g1.push_back(q.v[j]);
        g2.push_back(q.v[j]);
    }

    Parameters params;
    {
        FixedBaseTable<ec::G1Curve> table(ec::kG1Generator, g1.size(), p);
        std::vector<ec::G1Affine> points = table.mul_all(g1, p);
        auto take = [&points](size_t& pos, size_t n) {
            std::vector<ec::G1Affine> section(points.begin() + static_cast<std::ptrdiff_t>(pos),
                                              points.begin() + static_cast<std::ptrdiff_t>(pos + n));
            pos += n;
            return section;
        };
        size_t pos = 0;
        params.vk.ic = take(pos, ni);
        params.l = take(pos, na);
        params.h = take(pos, m - 1);
        params.a = take(pos, num_a);
        params.b_g1 = take(pos, num_b);
    }
    {
        FixedBaseTable<ec::G2Curve> table(ec::kG2Generator, g2.size(), p);
        params.b_g2 = table.mul_all(g2, p);
    }

    const ec::G1Jacobian g1_gen = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const ec::G2Jacobian g2_gen = ec::G2Jacobian::from_affine(ec::kG2Generator);
    params.vk.alpha_g1 = ec::mul(g1_gen, toxic.alpha).to_affine();
    params.vk.beta_g1 = ec::mul(g1_gen, toxic.beta).to_affine();
    params.vk.delta_g1 = ec::mul(g1_gen, toxic.delta).to_affine();
    params.vk.beta_g2 = ec::mul(g2_gen, toxic.beta).to_affine();
    params.vk.gamma_g2 = ec::mul(g2_gen, toxic.gamma).to_affine();
    params.vk.delta_g2 = ec::mul(g2_gen, toxic.delta).to_affine();
    return params;
}

}  // namespace cuzk::groth16
