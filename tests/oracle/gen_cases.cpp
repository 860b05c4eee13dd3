// Writes BLS12-381 test cases computed by cuzk as JSON Lines, for the independent Node oracle
// (check_cases.mjs, built on @noble/curves) to verify byte for byte. The format is documented
// at the top of check_cases.mjs.
//
// Usage: oracle_gen_cases OUT.jsonl [SEED]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "msm/pippenger.hpp"
#include "pairing/pairing.hpp"
#include "util/hex.hpp"
#include "util/rng.hpp"

namespace {

using namespace cuzk;
using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Affine;
using ec::G2Jacobian;
using ff::BigInt;
using ff::Fr;

template <size_t N>
std::string hex(const std::array<uint8_t, N>& a) {
    return util::to_hex(a);
}
std::string hex(const std::vector<uint8_t>& v) { return util::to_hex(v); }

std::string scalar_hex(const BigInt<4>& k) {
    std::array<uint8_t, 32> be{};
    for (size_t i = 0; i < 32; ++i) be[31 - i] = static_cast<uint8_t>(k.limb[i / 8] >> (8 * (i % 8)));
    return hex(be);
}

// A JSON string literal (our strings never need escaping: hex digits and plain messages).
std::string q(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    out += s;
    out += '"';
    return out;
}

struct Writer {
    std::ofstream out;
    size_t count = 0;
    void line(const std::string& json) {
        out << json << "\n";
        ++count;
    }
};

G1Affine g1_times(const BigInt<4>& k) {
    return ec::mul(G1Jacobian::from_affine(ec::kG1Generator), k).to_affine();
}
G2Affine g2_times(const BigInt<4>& k) {
    return ec::mul(G2Jacobian::from_affine(ec::kG2Generator), k).to_affine();
}

std::vector<BigInt<4>> interesting_scalars(util::TestRng& rng, int random_count) {
    const BigInt<4> r = ff::FrParams::kModulus;
    std::vector<BigInt<4>> ks = {BigInt<4>{}, BigInt<4>::from_u64(1), BigInt<4>::from_u64(2),
                                 r - BigInt<4>::from_u64(1), r - BigInt<4>::from_u64(2),
                                 BigInt<4>::from_u64(ff::kBlsX)};
    for (int i = 0; i < random_count; ++i) ks.push_back(Fr::random(rng).to_int());
    return ks;
}

void mul_cases(Writer& w, util::TestRng& rng) {
    for (const auto& k : interesting_scalars(rng, 24)) {
        const G1Affine p = g1_times(k);
        w.line("{\"op\":\"g1_mul\",\"k\":" + q(scalar_hex(k)) + ",\"compressed\":" +
               q(hex(ec::g1_compress(p))) + ",\"uncompressed\":" + q(hex(ec::g1_serialize(p))) + "}");
        const G2Affine p2 = g2_times(k);
        w.line("{\"op\":\"g2_mul\",\"k\":" + q(scalar_hex(k)) + ",\"compressed\":" +
               q(hex(ec::g2_compress(p2))) + ",\"uncompressed\":" + q(hex(ec::g2_serialize(p2))) + "}");
    }
}

template <class Jac, class Aff, class Compress>
void add_cases_for(Writer& w, util::TestRng& rng, const char* op, const Aff& gen, Compress compress) {
    std::vector<std::pair<Aff, Aff>> pairs;
    for (int i = 0; i < 12; ++i) {
        const Aff a = ec::mul(Jac::from_affine(gen), Fr::random(rng)).to_affine();
        const Aff b = ec::mul(Jac::from_affine(gen), Fr::random(rng)).to_affine();
        pairs.push_back({a, b});
    }
    const Aff a = pairs[0].first;
    pairs.push_back({a, a});                  // doubling
    pairs.push_back({a, -a});                 // cancellation
    pairs.push_back({a, Aff::identity()});    // identity on either side
    pairs.push_back({Aff::identity(), a});
    pairs.push_back({Aff::identity(), Aff::identity()});
    for (const auto& [x, y] : pairs) {
        const Aff sum = (Jac::from_affine(x) + Jac::from_affine(y)).to_affine();
        w.line(std::string("{\"op\":\"") + op + "\",\"p\":" + q(hex(compress(x))) + ",\"q\":" +
               q(hex(compress(y))) + ",\"sum\":" + q(hex(compress(sum))) + "}");
    }
}

template <class Jac, class Aff, class Compress, class Msm>
void msm_cases_for(Writer& w, util::TestRng& rng, const char* op, const Aff& gen, Compress compress,
                   Msm msm) {
    for (size_t n : {1, 2, 5, 33, 130}) {
        std::vector<Aff> bases;
        std::vector<Fr> scalars;
        for (size_t i = 0; i < n; ++i) {
            bases.push_back(ec::mul(Jac::from_affine(gen), Fr::random(rng)).to_affine());
            scalars.push_back(Fr::random(rng));
        }
        if (n > 4) {  // edge cases inside a larger sum
            scalars[0] = Fr::zero();
            scalars[1] = Fr::one();
            scalars[2] = -Fr::one();
            bases[3] = bases[4];           // repeated base
            bases[n - 1] = -bases[4];      // and its negation
            bases[n - 2] = Aff::identity();
        }
        const Aff result = msm(bases, scalars).to_affine();
        std::string pts = "[", sc = "[";
        for (size_t i = 0; i < n; ++i) {
            if (i) pts += ',', sc += ',';
            pts += q(hex(compress(bases[i])));
            sc += q(scalar_hex(scalars[i].to_int()));
        }
        w.line(std::string("{\"op\":\"") + op + "\",\"points\":" + pts + "],\"scalars\":" + sc +
               "],\"result\":" + q(hex(compress(result))) + "}");
    }
}

void pairing_cases(Writer& w, util::TestRng& rng) {
    std::vector<std::pair<G1Affine, G2Affine>> inputs = {{ec::kG1Generator, ec::kG2Generator}};
    for (int i = 0; i < 4; ++i)
        inputs.push_back({g1_times(Fr::random(rng).to_int()), g2_times(Fr::random(rng).to_int())});
    inputs.push_back({G1Affine::identity(), ec::kG2Generator});
    for (const auto& [p, qq] : inputs) {
        std::array<uint8_t, 576> gt{};
        pairing::pairing(p, qq).to_bytes_be(gt.data());
        w.line("{\"op\":\"pairing\",\"p\":" + q(hex(ec::g1_compress(p))) + ",\"q\":" +
               q(hex(ec::g2_compress(qq))) + ",\"gt\":" + q(hex(gt)) + "}");
    }
    // Product checks e(aP, bQ)·e(−abP, Q) = 1 and perturbed versions.
    for (int i = 0; i < 4; ++i) {
        const Fr a = Fr::random(rng), b = Fr::random(rng);
        const Fr ab = (i % 2 == 0) ? a * b : a * b + Fr::one();
        std::vector<std::pair<G1Affine, G2Affine>> pairs = {
            {g1_times(a.to_int()), g2_times(b.to_int())}, {-g1_times(ab.to_int()), ec::kG2Generator}};
        if (i == 3) pairs.push_back({G1Affine::identity(), g2_times(a.to_int())});
        const bool verdict = pairing::pairing_product_is_one(pairs);
        std::string list = "[";
        for (size_t j = 0; j < pairs.size(); ++j) {
            list += j ? ",[" : "[";
            list += q(hex(ec::g1_compress(pairs[j].first)));
            list += ',';
            list += q(hex(ec::g2_compress(pairs[j].second)));
            list += ']';
        }
        w.line("{\"op\":\"pairing_check\",\"pairs\":" + list + "],\"expect\":" +
               (verdict ? "true" : "false") + "}");
    }
}

// Encodings, valid and malformed, with our decoder's verdict.
template <class Decode>
void decode_case(Writer& w, const char* op, const std::vector<uint8_t>& bytes, Decode decode) {
    const auto result = decode(bytes);
    std::string reason = result.ok() ? "valid" : result.status().message();
    w.line(std::string("{\"op\":\"") + op + "\",\"bytes\":" + q(hex(bytes)) + ",\"valid\":" +
           (result.ok() ? "true" : "false") + ",\"reason\":" + q(reason) + "}");
}

template <class Aff, class Jac, class Compress, class Serialize, class Decode, class RandomOnCurve>
void decode_cases_for(Writer& w, util::TestRng& rng, const char* op, const Aff& gen,
                      Compress compress, Serialize serialize, Decode decode,
                      RandomOnCurve random_on_curve) {
    auto to_vec = [](const auto& a) { return std::vector<uint8_t>(a.begin(), a.end()); };
    const Aff p = ec::mul(Jac::from_affine(gen), Fr::random(rng)).to_affine();
    const auto c = to_vec(compress(p));
    const auto u = to_vec(serialize(p));
    for (const auto& bytes : {c, u, to_vec(compress(-p)), to_vec(compress(Aff::identity())),
                              to_vec(serialize(Aff::identity()))})
        decode_case(w, op, bytes, decode);
    auto with = [](std::vector<uint8_t> b, size_t i, uint8_t v) {
        b[i] = v;
        return b;
    };
    auto xor_at = [](std::vector<uint8_t> b, size_t i, uint8_t v) {
        b[i] ^= v;
        return b;
    };
    // flags
    decode_case(w, op, xor_at(c, 0, 0x80), decode);            // compressed without the flag
    decode_case(w, op, xor_at(u, 0, 0x80), decode);            // uncompressed with the flag
    decode_case(w, op, xor_at(u, 0, 0x20), decode);            // sign flag on uncompressed
    decode_case(w, op, xor_at(c, 0, 0x40), decode);            // infinity flag on a real point
    decode_case(w, op, xor_at(u, 0, 0x40), decode);
    std::vector<uint8_t> inf_c = to_vec(compress(Aff::identity()));
    decode_case(w, op, with(inf_c, inf_c.size() - 1, 1), decode);  // infinity with junk
    decode_case(w, op, xor_at(inf_c, 0, 0x20), decode);            // infinity with sign
    decode_case(w, op, xor_at(inf_c, 0, 0x01), decode);
    std::vector<uint8_t> zeros_c(c.size(), 0);
    decode_case(w, op, zeros_c, decode);                           // all zero, no flags
    // x ≥ p: put p in the first Fp slot (with the compression flag).
    std::vector<uint8_t> big = c;
    ff::Fp::Int pm = ff::FpParams::kModulus;
    for (size_t i = 0; i < 48; ++i) big[47 - i] = static_cast<uint8_t>(pm.limb[i / 8] >> (8 * (i % 8)));
    big[0] |= 0x80;
    decode_case(w, op, big, decode);
    std::vector<uint8_t> ones = c;
    for (auto& b : ones) b = 0xff;
    ones[0] = 0x9f;  // compressed, sign, x all ones ≥ p
    decode_case(w, op, ones, decode);
    // not on the curve: perturb y of the uncompressed form
    decode_case(w, op, xor_at(u, u.size() - 1, 0x01), decode);
    // compressed x that is not an abscissa: search
    for (uint8_t t = 1;; ++t) {
        auto cand = xor_at(c, c.size() - 1, t);
        if (!decode(cand).ok()) {
            decode_case(w, op, cand, decode);
            break;
        }
    }
    // on the curve, not in the subgroup (both forms)
    const Aff outside = random_on_curve(rng);
    decode_case(w, op, to_vec(compress(outside)), decode);
    decode_case(w, op, to_vec(serialize(outside)), decode);
    // wrong lengths
    decode_case(w, op, std::vector<uint8_t>(c.begin(), c.end() - 1), decode);
    std::vector<uint8_t> longer = u;
    longer.push_back(0);
    decode_case(w, op, longer, decode);
    decode_case(w, op, std::vector<uint8_t>{}, decode);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT.jsonl [SEED]\n", argv[0]);
        return 2;
    }
    const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 20261130;
    Writer w;
    w.out.open(argv[1]);
    if (!w.out) {
        std::fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    util::TestRng rng(seed);
    auto g1c = [](const G1Affine& p) { return ec::g1_compress(p); };
    auto g1u = [](const G1Affine& p) { return ec::g1_serialize(p); };
    auto g2c = [](const G2Affine& p) { return ec::g2_compress(p); };
    auto g2u = [](const G2Affine& p) { return ec::g2_serialize(p); };
    auto g1d = [](const std::vector<uint8_t>& b) { return ec::g1_decode(b); };
    auto g2d = [](const std::vector<uint8_t>& b) { return ec::g2_decode(b); };
    mul_cases(w, rng);
    add_cases_for<G1Jacobian>(w, rng, "g1_add", ec::kG1Generator, g1c);
    add_cases_for<G2Jacobian>(w, rng, "g2_add", ec::kG2Generator, g2c);
    msm_cases_for<G1Jacobian>(w, rng, "g1_msm", ec::kG1Generator, g1c,
                              [](const auto& b, const auto& s) { return msm::msm(std::span(b), std::span(s)); });
    msm_cases_for<G2Jacobian>(w, rng, "g2_msm", ec::kG2Generator, g2c,
                              [](const auto& b, const auto& s) { return msm::msm(std::span(b), std::span(s)); });
    pairing_cases(w, rng);
    decode_cases_for<G1Affine, G1Jacobian>(w, rng, "g1_decode", ec::kG1Generator, g1c, g1u, g1d,
                                           ec::random_curve_point_g1);
    decode_cases_for<G2Affine, G2Jacobian>(w, rng, "g2_decode", ec::kG2Generator, g2c, g2u, g2d,
                                           ec::random_curve_point_g2);
    std::printf("wrote %zu cases to %s\n", w.count, argv[1]);
    return 0;
}
