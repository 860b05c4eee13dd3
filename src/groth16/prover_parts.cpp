#include "groth16/prover_parts.hpp"

#include <atomic>
#include <limits>
#include <string>
#include <utility>

#include "groth16/prover.hpp"
#include "ntt/domain.hpp"
#include "r1cs/density.hpp"

namespace cuzk::groth16 {

using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::Fr;

std::string circuit_prefix(size_t index) {
    std::string m = "circuit ";
    m += std::to_string(index);
    m += ": ";
    return m;
}

namespace {

util::Status circuit_error(size_t index, const std::string& message) {
    std::string m = circuit_prefix(index);
    m += message;
    return util::invalid_argument(std::move(m));
}

// "circuit has X WHAT but the OWNER has Y"
util::Status count_mismatch(size_t index, size_t have, const char* what, const char* owner,
                            size_t want) {
    std::string m = "circuit has ";
    m += std::to_string(have);
    m += ' ';
    m += what;
    m += " but the ";
    m += owner;
    m += " has ";
    m += std::to_string(want);
    return circuit_error(index, m);
}

util::Status check_shape(const ParamsShape& params, const r1cs::ProvingAssignment& pa,
                         size_t index) {
    const size_t inputs = pa.input_assignment().size();
    const size_t aux = pa.aux_assignment().size();
    if (inputs != params.ic)
        return count_mismatch(index, inputs, "inputs", "verifying key", params.ic);
    if (aux != params.l)
        return count_mismatch(index, aux, "aux variables", "parameters' L query", params.l);
    if (pa.a_aux_density().size() != aux || pa.b_aux_density().size() != aux ||
        pa.b_input_density().size() != inputs)
        return circuit_error(index, "density bit vectors do not match the variable counts");
    const size_t a_count = inputs + pa.a_aux_density().popcount();
    if (a_count != params.a)
        return count_mismatch(index, a_count, "A-query points (inputs + dense aux)",
                              "parameters' A query", params.a);
    const size_t b_count = pa.b_input_density().popcount() + pa.b_aux_density().popcount();
    if (b_count != params.b_g1)
        return count_mismatch(index, b_count, "B-query points (dense inputs + dense aux)",
                              "parameters' B_G1 query", params.b_g1);
    if (b_count != params.b_g2)
        return count_mismatch(index, b_count, "B-query points (dense inputs + dense aux)",
                              "parameters' B_G2 query", params.b_g2);
    const size_t rows = pa.a().size();
    if (pa.b().size() != rows || pa.c().size() != rows)
        return circuit_error(index, "a, b, c evaluation vectors differ in length");
    auto domain = ntt::EvaluationDomain::create(rows);
    if (!domain.ok()) return circuit_error(index, domain.status().message());
    if (domain->size() != params.domain_size()) {
        std::string m = "circuit has ";
        m += std::to_string(rows);
        m += " constraint rows (domain size ";
        m += std::to_string(domain->size());
        m += ") but the parameters' H query has ";
        m += std::to_string(params.h);
        m += " points (domain size ";
        m += std::to_string(params.domain_size());
        m += ')';
        return circuit_error(index, m);
    }
    return util::Status();
}

// The first row with a·b ≠ c, or SIZE_MAX.
size_t first_unsatisfied_row(const std::vector<Fr>& a, const std::vector<Fr>& b,
                             const std::vector<Fr>& c, util::ThreadPool& pool) {
    std::atomic<size_t> first{std::numeric_limits<size_t>::max()};
    pool.parallel_ranges(a.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            if (i >= first.load(std::memory_order_relaxed)) return;
            if (!(a[i] * b[i] == c[i])) {
                size_t cur = first.load(std::memory_order_relaxed);
                while (i < cur && !first.compare_exchange_weak(cur, i)) {
                }
                return;
            }
        }
    });
    return first.load();
}

// The values whose bit is set, in order (appended to out).
void gather(const std::vector<Fr>& values, const r1cs::DensityBits& bits, std::vector<Fr>& out) {
    const std::vector<uint64_t>& words = bits.words();
    for (size_t w = 0; w < words.size(); ++w) {
        uint64_t word = words[w];
        while (word != 0) {
            const unsigned bit = static_cast<unsigned>(__builtin_ctzll(word));
            out.push_back(values[w * 64 + bit]);
            word &= word - 1;
        }
    }
}

}  // namespace

util::Status check_delta(const VerifyingKey& vk) {
    if (vk.delta_g1.is_identity())
        return util::invalid_argument("parameters: delta_g1 is the identity");
    if (vk.delta_g2.is_identity())
        return util::invalid_argument("parameters: delta_g2 is the identity");
    return util::Status();
}

r1cs::ProvingAssignment::Options presized_assignment_options(const ParamsShape& shape) {
    r1cs::ProvingAssignment::Options o;
    o.presize = true;
    o.capacity.inputs = shape.ic;
    o.capacity.aux = shape.l;
    const size_t rows = shape.domain_size();
    o.capacity.constraints = rows > shape.ic ? rows - shape.ic : 0;
    return o;
}

util::Status synthesize_into(const Circuit& circuit, r1cs::ProvingAssignment& pa, size_t index) {
    if (!circuit) return circuit_error(index, "empty circuit function");
    util::Status st = circuit(pa);
    if (!st.ok()) {
        std::string m = "synthesis: ";
        m += st.message();
        return util::Status(st.code(), circuit_prefix(index) += m);
    }
    pa.finish();
    return util::Status();
}

util::Status check_assignment(const ParamsShape& shape, const r1cs::ProvingAssignment& pa,
                              bool check_satisfied, util::ThreadPool& pool, size_t index) {
    if (!pa.finished()) return circuit_error(index, "proving assignment not finished");
    CUZK_RETURN_IF_ERROR(check_shape(shape, pa, index));
    if (check_satisfied) {
        const size_t row = first_unsatisfied_row(pa.a(), pa.b(), pa.c(), pool);
        if (row != std::numeric_limits<size_t>::max()) {
            std::string m = "constraint row ";
            m += std::to_string(row);
            m += " is not satisfied (a*b != c)";
            return circuit_error(index, m);
        }
    }
    return util::Status();
}

namespace {
MsmScalars gather_with_aux(const r1cs::ProvingAssignment& pa, const ParamsShape& shape,
                           std::vector<Fr> aux) {
    MsmScalars out;
    const std::vector<Fr>& inputs = pa.input_assignment();
    out.l = std::move(aux);
    out.a.reserve(shape.a);
    out.a.insert(out.a.end(), inputs.begin(), inputs.end());
    gather(out.l, pa.a_aux_density(), out.a);
    out.b.reserve(shape.b_g1);
    gather(inputs, pa.b_input_density(), out.b);
    gather(out.l, pa.b_aux_density(), out.b);
    return out;
}
}  // namespace

MsmScalars gather_msm_scalars(const r1cs::ProvingAssignment& pa, const ParamsShape& shape) {
    return gather_with_aux(pa, shape, pa.aux_assignment());
}

MsmScalars take_msm_scalars(r1cs::ProvingAssignment& pa, const ParamsShape& shape) {
    return gather_with_aux(pa, shape, pa.take_aux());
}

util::Result<Proof> assemble_proof(const VerifyingKey& vk, const MsmSums& sums,
                                   const ProverRandomness& randomness, size_t index) {
    const Fr& r = randomness.r;
    const Fr& s = randomness.s;
    const G1Jacobian delta1 = G1Jacobian::from_affine(vk.delta_g1);
    const G2Jacobian delta2 = G2Jacobian::from_affine(vk.delta_g2);
    const G1Jacobian a_full = sums.a.add_mixed(vk.alpha_g1) + ec::mul(delta1, r);
    const G2Jacobian b_full = sums.b2.add_mixed(vk.beta_g2) + ec::mul(delta2, s);
    const G1Jacobian b1_full = sums.b1.add_mixed(vk.beta_g1) + ec::mul(delta1, s);
    const G1Jacobian c_full =
        ec::mul(a_full, s) + ec::mul(b1_full, r) - ec::mul(delta1, r * s) + sums.h + sums.l;
    Proof proof{a_full.to_affine(), b_full.to_affine(), c_full.to_affine()};
    if (proof.a.is_identity() || proof.b.is_identity() || proof.c.is_identity())
        return util::internal_error(circuit_prefix(index) +=
                                    "a proof component is the identity; prove again with fresh "
                                    "randomness");
    return proof;
}

}  // namespace cuzk::groth16
