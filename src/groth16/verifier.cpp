// Groth16 verification (see verifier.hpp).
#include "groth16/verifier.hpp"

#include <string>
#include <utility>

#include "ec/curves.hpp"
#include "msm/pippenger.hpp"

namespace cuzk::groth16 {

using ff::Fr;

namespace {

util::Status input_count_error(size_t got, size_t want, const size_t* proof_index) {
    std::string msg = "groth16 verify: ";
    if (proof_index != nullptr) {
        msg += "proof ";
        msg += std::to_string(*proof_index);
        msg += ": ";
    }
    msg += std::to_string(got);
    msg += " public inputs given, the verifying key expects ";
    msg += std::to_string(want);
    msg += " (ONE excluded)";
    return util::invalid_argument(std::move(msg));
}

// Σ_i k_i·ic_i over all of ic (scalars[0] belongs to ic[0]).
ec::G1Jacobian combine_ic(const std::vector<G1Affine>& ic, std::span<const Fr> scalars) {
    return msm::msm(std::span<const G1Affine>(ic), scalars);
}

// A random non-zero scalar below 2^128.
Fr random_coefficient(util::TestRng* rng) {
    for (;;) {
        uint64_t w[2];
        if (rng != nullptr) {
            w[0] = rng->next_u64();
            w[1] = rng->next_u64();
        } else {
            util::os_random_bytes(w, sizeof(w));
        }
        if ((w[0] | w[1]) == 0) continue;
        ff::BigInt<4> k;
        k.limb[0] = w[0];
        k.limb[1] = w[1];
        return Fr::from_int(k);
    }
}

}  // namespace

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
    PreparedVerifyingKey pvk;
    pvk.alpha_g1_beta_g2 = pairing::pairing(vk.alpha_g1, vk.beta_g2);
    pvk.neg_gamma_g2 = pairing::prepare(-vk.gamma_g2);
    pvk.neg_delta_g2 = pairing::prepare(-vk.delta_g2);
    pvk.ic = vk.ic;
    return pvk;
}

util::Result<bool> verify(const PreparedVerifyingKey& pvk, const Proof& proof,
                          std::span<const Fr> public_inputs) {
    if (pvk.ic.empty() || public_inputs.size() != pvk.ic.size() - 1) {
        return input_count_error(public_inputs.size(), pvk.num_public_inputs(), nullptr);
    }
    std::vector<Fr> scalars;
    scalars.reserve(pvk.ic.size());
    scalars.push_back(Fr::one());
    scalars.insert(scalars.end(), public_inputs.begin(), public_inputs.end());
    const G1Affine acc = combine_ic(pvk.ic, scalars).to_affine();

    const pairing::G2Prepared b = pairing::prepare(proof.b);
    const std::pair<G1Affine, const pairing::G2Prepared*> terms[3] = {
        {proof.a, &b}, {acc, &pvk.neg_gamma_g2}, {proof.c, &pvk.neg_delta_g2}};
    const ff::Fp12 f = pairing::multi_miller_loop(terms);
    return pairing::final_exponentiation(f) == pvk.alpha_g1_beta_g2;
}

util::Result<bool> batch_verify(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                std::span<const std::vector<Fr>> inputs, util::TestRng* rng) {
    if (proofs.size() != inputs.size()) {
        std::string msg = "groth16 batch_verify: ";
        msg += std::to_string(proofs.size());
        msg += " proofs but ";
        msg += std::to_string(inputs.size());
        msg += " input vectors";
        return util::invalid_argument(std::move(msg));
    }
    if (pvk.ic.empty()) return input_count_error(0, 0, nullptr);
    for (size_t j = 0; j < inputs.size(); ++j) {
        if (inputs[j].size() != pvk.ic.size() - 1) {
            return input_count_error(inputs[j].size(), pvk.num_public_inputs(), &j);
        }
    }
    if (proofs.empty()) return true;

    const size_t n = proofs.size();
    std::vector<Fr> r(n);
    for (Fr& x : r) x = random_coefficient(rng);

    // Σ_j r_j·IC_j = Σ_i (Σ_j r_j x_ji)·ic_i with x_j0 = 1.
    std::vector<Fr> ic_scalars(pvk.ic.size(), Fr::zero());
    Fr r_sum = Fr::zero();
    for (size_t j = 0; j < n; ++j) {
        r_sum += r[j];
        for (size_t i = 0; i < inputs[j].size(); ++i) ic_scalars[i + 1] += r[j] * inputs[j][i];
    }
    ic_scalars[0] = r_sum;
    const G1Affine ic_acc = combine_ic(pvk.ic, ic_scalars).to_affine();

    // Σ_j r_j·C_j and r_j·A_j.
    std::vector<G1Affine> cs(n);
    for (size_t j = 0; j < n; ++j) cs[j] = proofs[j].c;
    const G1Affine c_acc = msm::msm(std::span<const G1Affine>(cs), std::span<const Fr>(r)).to_affine();
    std::vector<ec::G1Jacobian> ra(n);
    for (size_t j = 0; j < n; ++j) ra[j] = ec::mul(ec::G1Jacobian::from_affine(proofs[j].a), r[j]);
    std::vector<G1Affine> ra_affine(n);
    ec::batch_to_affine(ra.data(), ra_affine.data(), n);

    std::vector<pairing::G2Prepared> bs(n);
    for (size_t j = 0; j < n; ++j) bs[j] = pairing::prepare(proofs[j].b);
    std::vector<std::pair<G1Affine, const pairing::G2Prepared*>> terms;
    terms.reserve(n + 2);
    for (size_t j = 0; j < n; ++j) terms.emplace_back(ra_affine[j], &bs[j]);
    terms.emplace_back(ic_acc, &pvk.neg_gamma_g2);
    terms.emplace_back(c_acc, &pvk.neg_delta_g2);
    const ff::Fp12 lhs = pairing::final_exponentiation(pairing::multi_miller_loop(terms));
    const ff::Fp12 rhs = pvk.alpha_g1_beta_g2.pow(r_sum.to_int());
    return lhs == rhs;
}

}  // namespace cuzk::groth16
