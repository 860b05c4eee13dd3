// `cuzk selfcheck`: exercises the CPU arithmetic end to end on random inputs. Every result is
// checked by a second, independent route (not a stored answer): field inverses by products,
// encodings by round trips, the pairing by bilinearity, the MSM by the discrete-log shortcut
// (bases i·G), the NTT by Horner evaluation and the inverse transform.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "ec/encoding.hpp"
#include "msm/pippenger.hpp"
#include "ntt/ntt.hpp"
#include "pairing/pairing.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

using ff::Fp;
using ff::Fr;

struct StepResult {
    std::string name;
    bool ok;
    double ms;
    std::string detail;
};

bool check_fields(util::TestRng& rng, std::string& detail) {
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const Fp a = Fp::random(rng), b = Fp::random(rng);
        if (a * b != Fp::mul_reference(a, b)) return detail = "Fp product paths disagree", false;
        if (!a.is_zero() && a * a.inverse() != Fp::one()) return detail = "Fp inverse", false;
        const Fr c = Fr::random(rng), d = Fr::random(rng);
        if (c * d != Fr::mul_reference(c, d)) return detail = "Fr product paths disagree", false;
    }
    detail = std::to_string(n) + " random Fp and Fr pairs";
    return true;
}

bool check_encodings(util::TestRng& rng, std::string& detail) {
    const int n = 64;
    for (int i = 0; i < n; ++i) {
        const auto p = ec::mul(ec::G1Jacobian::from_affine(ec::kG1Generator), Fr::random(rng)).to_affine();
        const auto q = ec::mul(ec::G2Jacobian::from_affine(ec::kG2Generator), Fr::random(rng)).to_affine();
        auto p1 = ec::g1_decode(ec::g1_compress(p));
        auto p2 = ec::g1_decode(ec::g1_serialize(p));
        auto q1 = ec::g2_decode(ec::g2_compress(q));
        auto q2 = ec::g2_decode(ec::g2_serialize(q));
        if (!p1.ok() || !p2.ok() || !(*p1 == p) || !(*p2 == p)) return detail = "G1 round trip", false;
        if (!q1.ok() || !q2.ok() || !(*q1 == q) || !(*q2 == q)) return detail = "G2 round trip", false;
    }
    detail = std::to_string(n) + " G1 and G2 points, both forms";
    return true;
}

bool check_pairing(util::TestRng& rng, std::string& detail) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    const auto g1 = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const auto g2 = ec::G2Jacobian::from_affine(ec::kG2Generator);
    const auto lhs = pairing::pairing(ec::mul(g1, a).to_affine(), ec::mul(g2, b).to_affine());
    const auto rhs = pairing::pairing(ec::mul(g1, a * b).to_affine(), ec::kG2Generator);
    if (!(lhs == rhs) || lhs.is_one()) return detail = "e(aP, bQ) != e(abP, Q)", false;
    const std::pair<ec::G1Affine, ec::G2Affine> pairs[] = {
        {ec::mul(g1, a).to_affine(), ec::mul(g2, b).to_affine()},
        {-ec::mul(g1, a * b).to_affine(), ec::kG2Generator}};
    if (!pairing::pairing_product_is_one(pairs)) return detail = "product check", false;
    detail = "bilinearity and e(aP,bQ)·e(−abP,Q) = 1";
    return true;
}

bool check_msm(util::TestRng& rng, unsigned log_size, std::string& detail) {
    const size_t n = size_t{1} << log_size;
    // Bases P_i = (c + i)·G, so Σ s_i P_i = (Σ s_i (c + i))·G can be computed in Fr.
    const Fr c = Fr::random(rng);
    const auto g = ec::G1Jacobian::from_affine(ec::kG1Generator);
    std::vector<ec::G1Jacobian> jac(n);
    jac[0] = ec::mul(g, c);
    for (size_t i = 1; i < n; ++i) jac[i] = jac[i - 1] + g;
    std::vector<ec::G1Affine> bases(n);
    ec::batch_to_affine(jac.data(), bases.data(), n);
    std::vector<Fr> scalars(n);
    Fr expected = Fr::zero(), index = c;
    for (size_t i = 0; i < n; ++i) {
        scalars[i] = Fr::random(rng);
        expected += scalars[i] * index;
        index += Fr::one();
    }
    util::Stopwatch sw;
    const auto got = msm::msm(std::span<const ec::G1Affine>(bases), std::span<const Fr>(scalars));
    const double ms = sw.elapsed_ms();
    if (!(got == ec::mul(g, expected))) return detail = "MSM result wrong", false;
    char buf[96];
    std::snprintf(buf, sizeof buf, "G1 MSM of 2^%u points in %.1f ms", log_size, ms);
    detail = buf;
    return true;
}

bool check_ntt(util::TestRng& rng, unsigned log_size, std::string& detail) {
    const size_t n = size_t{1} << log_size;
    std::vector<Fr> coeffs(n);
    for (auto& x : coeffs) x = Fr::random(rng);
    std::vector<Fr> evals = coeffs;
    util::Stopwatch sw;
    if (!ntt::forward(evals).ok()) return detail = "forward NTT failed", false;
    const double ms = sw.elapsed_ms();
    // evals[1] = Σ a_j ω^j by Horner
    const Fr omega = ff::fr_root_of_unity(log_size);
    Fr horner = Fr::zero();
    for (size_t j = n; j-- > 0;) horner = horner * omega + coeffs[j];
    if (!(horner == evals[1])) return detail = "NTT disagrees with Horner evaluation", false;
    if (!ntt::inverse(evals).ok() || evals != coeffs) return detail = "inverse NTT round trip", false;
    char buf[96];
    std::snprintf(buf, sizeof buf, "forward NTT of 2^%u in %.1f ms, inverse round trip", log_size, ms);
    detail = buf;
    return true;
}

}  // namespace

int run_selfcheck(int argc, char** argv) {
    bool json = false;
    unsigned log_size = 14;
    uint64_t seed = 0;
    util::os_random_bytes(&seed, sizeof seed);  // fresh inputs every run unless --seed
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            json = true;
        } else if (arg == "--log-size" && i + 1 < argc) {
            log_size = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
            if (log_size < 1 || log_size > 24) {
                std::fprintf(stderr, "cuzk selfcheck: --log-size must be in 1..24\n");
                return 2;
            }
        } else if (arg == "--seed" && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 0);
        } else {
            std::fprintf(stderr, "cuzk selfcheck: unknown option '%s'\n", arg.c_str());
            return 2;
        }
    }
    util::TestRng rng(seed);
    std::vector<std::pair<std::string, std::function<bool(std::string&)>>> steps = {
        {"fields", [&](std::string& d) { return check_fields(rng, d); }},
        {"encodings", [&](std::string& d) { return check_encodings(rng, d); }},
        {"pairing", [&](std::string& d) { return check_pairing(rng, d); }},
        {"msm", [&](std::string& d) { return check_msm(rng, log_size, d); }},
        {"ntt", [&](std::string& d) { return check_ntt(rng, log_size, d); }},
    };
    std::vector<StepResult> results;
    bool all_ok = true;
    if (!json)
        std::fprintf(stderr, "cuzk selfcheck: %u threads, sizes 2^%u, seed %llu\n",
                     util::ThreadPool::global().size(), log_size,
                     static_cast<unsigned long long>(seed));
    for (size_t i = 0; i < steps.size(); ++i) {
        if (!json) std::fprintf(stderr, "[%zu/%zu] %-10s ... ", i + 1, steps.size(), steps[i].first.c_str());
        std::string detail;
        util::Stopwatch sw;
        const bool ok = steps[i].second(detail);
        results.push_back({steps[i].first, ok, sw.elapsed_ms(), detail});
        all_ok = all_ok && ok;
        if (!json)
            std::fprintf(stderr, "%s  %8.1f ms  %s\n", ok ? "ok  " : "FAIL", results.back().ms,
                         detail.c_str());
    }
    if (json) {
        std::printf("{\"ok\":%s,\"threads\":%u,\"log_size\":%u,\"seed\":%llu,\"steps\":[",
                    all_ok ? "true" : "false", util::ThreadPool::global().size(), log_size,
                    static_cast<unsigned long long>(seed));
        for (size_t i = 0; i < results.size(); ++i)
            std::printf("%s{\"name\":\"%s\",\"ok\":%s,\"ms\":%.3f}", i ? "," : "",
                        results[i].name.c_str(), results[i].ok ? "true" : "false", results[i].ms);
        std::printf("]}\n");
    } else {
        std::printf("selfcheck: %s\n", all_ok ? "all checks passed" : "FAILED");
    }
    return all_ok ? 0 : 1;
}

}  // namespace cuzk::cli
