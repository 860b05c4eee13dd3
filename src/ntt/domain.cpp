#include "ntt/domain.hpp"

#include <string>

namespace cuzk::ntt {

util::Result<EvaluationDomain> EvaluationDomain::create(size_t n) {
    if (n == 0) return util::invalid_argument("EvaluationDomain: requested size 0 (no values)");
    // Smallest power of two ≥ n, counting the exponent as bellperson does.
    size_t m = 1;
    unsigned log_m = 0;
    while (m < n) {
        if (log_m == kMaxLogSize)
            return util::out_of_range("EvaluationDomain: requested size " + std::to_string(n) +
                                      " needs more than 2^" + std::to_string(kMaxLogSize) +
                                      " points (Fr two-adicity is 32)");
        m <<= 1;
        ++log_m;
    }

    EvaluationDomain d;
    d.size_ = m;
    d.log_size_ = log_m;
    d.omega_ = ff::fr_root_of_unity(log_m);
    d.omega_inv_ = d.omega_.inverse();
    d.size_inv_ = ff::Fr::from_u64(m).inverse();
    d.g_ = ff::Fr::from_u64(kCosetGenerator);
    d.g_inv_ = d.g_.inverse();
    d.z_on_coset_ = d.g_.pow(uint64_t{m}) - ff::Fr::one();
    d.z_on_coset_inv_ = d.z_on_coset_.inverse();  // non-zero: 7 has order r − 1 > m
    return d;
}

util::Status pad_to_domain(std::vector<ff::Fr>& coeffs, const EvaluationDomain& domain) {
    if (coeffs.size() > domain.size())
        return util::invalid_argument("pad_to_domain: " + std::to_string(coeffs.size()) +
                                      " values do not fit a domain of size " +
                                      std::to_string(domain.size()));
    coeffs.resize(domain.size(), ff::Fr::zero());
    return util::Status::ok_status();
}

}  // namespace cuzk::ntt
