// `cuzk info`: the curve parameters, generators and encodings in use.
#include <cstdio>
#include <string>

#include "cli/commands.hpp"
#include "ec/encoding.hpp"
#include "ff/fr.hpp"
#include "util/hex.hpp"

namespace cuzk::cli {
namespace {

template <size_t N>
std::string int_hex(const ff::BigInt<N>& v) {
    std::string s;
    char buf[17];
    for (size_t i = N; i-- > 0;) {
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v.limb[i]));
        s += buf;
    }
    const size_t nz = s.find_first_not_of('0');
    return "0x" + (nz == std::string::npos ? std::string("0") : s.substr(nz));
}

}  // namespace

int run_info(int argc, char** /*argv*/) {
    if (argc > 1) {
        std::fprintf(stderr, "cuzk info: takes no options\n");
        return 2;
    }
    std::printf("curve              BLS12-381, x = -0x%llx\n",
                static_cast<unsigned long long>(ff::kBlsX));
    std::printf("base field p       %s (%zu bits)\n", int_hex(ff::Fp::modulus()).c_str(), ff::Fp::bits());
    std::printf("scalar field r     %s (%zu bits)\n", int_hex(ff::Fr::modulus()).c_str(), ff::Fr::bits());
    std::printf("Fr 2-adicity       %zu, generator %llu, 2^32-th root of unity %s\n",
                ff::FrParams::kTwoAdicity,
                static_cast<unsigned long long>(ff::FrParams::kMultiplicativeGenerator),
                ff::kFrRootOfUnity.to_hex().c_str());
    std::printf("G1 generator       %s (compressed)\n",
                util::to_hex(ec::g1_compress(ec::kG1Generator)).c_str());
    std::printf("G2 generator       %s (compressed)\n",
                util::to_hex(ec::g2_compress(ec::kG2Generator)).c_str());
    std::printf("encodings          ZCash/bellperson: G1 48/96 B, G2 96/192 B (compressed/uncompressed)\n");
    return 0;
}

}  // namespace cuzk::cli
