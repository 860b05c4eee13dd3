#include "groth16/example_circuits.hpp"

#include <charconv>
#include <cstdint>
#include <optional>

#include "gadgets/sha256_example.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/registered_proof.hpp"
#include "r1cs/witness_only.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16::examples {
namespace {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Variable;

constexpr unsigned kRandomMinLog = 3;
constexpr unsigned kRandomMaxLog = 26;
constexpr size_t kRandomPublic = 3;
constexpr size_t kSha256MaxBytes = 65536;  // ≈ 46 M constraints, a 2^26 domain

// The sha256:N preimage: N bytes from util::TestRng seeded with N (deterministic, not zeros).
std::vector<uint8_t> sha256_example_preimage(size_t n) {
    util::TestRng rng(0x7368613235360000ULL + n);  // "sha256"
    std::vector<uint8_t> bytes(n);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.next_u64() >> 56);
    return bytes;
}

util::Status cubic_circuit(ConstraintSystem& cs, const Fr& x_value) {
    r1cs::Namespace ns(cs, "cubic");
    const bool values = cs.computes_values();
    const Fr x_sq_value = x_value * x_value;
    const Fr x_cu_value = x_sq_value * x_value;
    auto x = cs.alloc("x", values ? std::optional<Fr>(x_value) : std::nullopt);
    if (!x.ok()) return x.status();
    auto x_sq = cs.alloc("x_sq", values ? std::optional<Fr>(x_sq_value) : std::nullopt);
    if (!x_sq.ok()) return x_sq.status();
    cs.enforce("x_sq", *x, *x, *x_sq);
    auto x_cu = cs.alloc("x_cu", values ? std::optional<Fr>(x_cu_value) : std::nullopt);
    if (!x_cu.ok()) return x_cu.status();
    cs.enforce("x_cu", *x_sq, *x, *x_cu);
    const Fr y_value = x_cu_value + x_value + Fr::from_u64(5);
    auto y = cs.alloc_input("y", values ? std::optional<Fr>(y_value) : std::nullopt);
    if (!y.ok()) return y.status();
    LC lhs(*x_cu);
    lhs += *x;
    lhs += Fr::from_u64(5) * Variable::one();
    cs.enforce("y", lhs, Variable::one(), *y);
    return util::Status();
}

// rows = 2^k; circuit constraints = rows − (1 + kRandomPublic) (the input rows fill the rest).
// Two seed aux variables, then one new aux per multiplication constraint
//   w_i = (c_i·u + ONE) · (v + d_i·ONE)
// with v the previous aux (a chain) and u an earlier aux drawn at random; finally the last
// kRandomPublic aux are made public (input · ONE = aux). All choices come from a TestRng seeded
// by k, drawn identically whether or not values are computed.
util::Status random_circuit(ConstraintSystem& cs, unsigned k) {
    r1cs::Namespace ns(cs, "random");
    const bool values = cs.computes_values();
    const size_t rows = size_t{1} << k;
    const size_t constraints = rows - (1 + kRandomPublic);
    const size_t muls = constraints - kRandomPublic;
    util::TestRng rng(0x5eed'0000'0000'0000ULL + k);
    std::vector<Variable> vars;
    std::vector<Fr> vals;
    vars.reserve(muls + 2);
    if (values) vals.reserve(muls + 2);
    for (int s = 0; s < 2; ++s) {
        const Fr v = Fr::random(rng);
        auto var = cs.alloc(r1cs::Name("seed ", static_cast<uint64_t>(s)),
                            values ? std::optional<Fr>(v) : std::nullopt);
        if (!var.ok()) return var.status();
        vars.push_back(*var);
        if (values) vals.push_back(v);
    }
    for (size_t i = 0; i < muls; ++i) {
        const size_t ui = static_cast<size_t>(rng.uniform(vars.size()));
        const size_t vi = vars.size() - 1;
        const Fr c = Fr::random(rng);
        const Fr d = Fr::random(rng);
        std::optional<Fr> w;
        if (values) w = (c * vals[ui] + Fr::one()) * (vals[vi] + d);
        auto var = cs.alloc(r1cs::Name("w ", i), w);
        if (!var.ok()) return var.status();
        LC a(c * vars[ui]);
        a += Variable::one();
        LC b(vars[vi]);
        b += d * Variable::one();
        cs.enforce(r1cs::Name("mul ", i), a, b, *var);
        vars.push_back(*var);
        if (values) vals.push_back(*w);
    }
    for (size_t j = 0; j < kRandomPublic; ++j) {
        const size_t idx = vars.size() - kRandomPublic + j;
        auto in = cs.alloc_input(r1cs::Name("out ", j),
                                 values ? std::optional<Fr>(vals[idx]) : std::nullopt);
        if (!in.ok()) return in.status();
        cs.enforce(r1cs::Name("inputize ", j), *in, Variable::one(), vars[idx]);
    }
    return util::Status();
}

util::Status unknown(std::string_view name, std::string_view why) {
    std::string msg = "unknown circuit '";
    msg += name;
    msg += "'";
    if (!why.empty()) {
        msg += ": ";
        msg += why;
    }
    msg += " (known: ";
    msg += known_names();
    msg += ")";
    return util::invalid_argument(std::move(msg));
}

}  // namespace

std::string known_names() {
    std::string s = "cubic, random:K (";
    s += std::to_string(kRandomMinLog);
    s += " <= K <= ";
    s += std::to_string(kRandomMaxLog);
    s += "), sha256:N (0 <= N <= ";
    s += std::to_string(kSha256MaxBytes);
    s += " bytes), porep:SIZE (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a registered proof name)";
    return s;
}

std::string file_safe_name(std::string_view name) {
    std::string out(name);
    for (char& ch : out) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_';
        if (!ok) ch = '_';
    }
    if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
    return out;
}

util::Result<ExampleCircuit> make_example_circuit(std::string_view name) {
    ExampleCircuit ex;
    if (name == "cubic") {
        ex.name = "cubic";
        ex.description = "x^3 + x + 5 = y, y public, witness x = 3";
        const Fr x = Fr::from_u64(3);
        ex.circuit = [x](ConstraintSystem& cs) { return cubic_circuit(cs, x); };
    } else if (name.starts_with("random:")) {
        const std::string_view arg = name.substr(7);
        unsigned k = 0;
        const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), k);
        if (arg.empty() || ec != std::errc() || end != arg.data() + arg.size()) {
            return unknown(name, "K must be a decimal integer");
        }
        if (k < kRandomMinLog || k > kRandomMaxLog) return unknown(name, "K out of range");
        ex.name = "random:";
        ex.name += std::to_string(k);
        ex.description = std::to_string((size_t{1} << k) - 1 - kRandomPublic);
        ex.description += " constraints + 4 input rows = 2^";
        ex.description += std::to_string(k);
        ex.description += " rows (random multiplications, 3 public inputs)";
        ex.circuit = [k](ConstraintSystem& cs) { return random_circuit(cs, k); };
    } else if (name.starts_with("sha256:")) {
        const std::string_view arg = name.substr(7);
        size_t n = 0;
        const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
        if (arg.empty() || ec != std::errc() || end != arg.data() + arg.size()) {
            return unknown(name, "N must be a decimal number of bytes");
        }
        if (n > kSha256MaxBytes) return unknown(name, "N out of range");
        ex.name = "sha256:";
        ex.name += std::to_string(n);
        ex.description = "knowledge of a ";
        ex.description += std::to_string(n);
        ex.description += "-byte SHA-256 preimage (fixed pseudo-random bytes); the digest is public";
        ex.circuit = [n](ConstraintSystem& cs) -> util::Status {
            if (!cs.computes_values())
                return gadgets::synthesize_sha256_example(cs, std::span<const uint8_t>(), n);
            const std::vector<uint8_t> preimage = sha256_example_preimage(n);
            return gadgets::synthesize_sha256_example(cs, preimage, n);
        };
    } else if (name.starts_with("porep:")) {
        // A sector size ("2KiB": its V1_1 proof) or a registered proof name.
        const std::string_view arg = name.substr(6);
        util::Result<porep::RegisteredSealProof> proof = porep::parse_registered_seal_proof(arg);
        if (!proof.ok()) {
            auto size = porep::parse_sector_size(arg);
            if (!size.ok()) return unknown(name, size.status().message());
            proof = porep::find_seal_proof(*size, porep::ApiVersion::kV1_1_0);
            if (!proof.ok()) return unknown(name, proof.status().message());
        }
        const porep::SealProofInfo& info = porep::seal_proof_info(*proof);
        CUZK_ASSIGN_OR_RETURN(porep::CircuitFn blank, porep::blank_stacked_circuit(*proof));
        ex.name = "porep:";
        ex.name += porep::sector_size_name(info.sector_size);
        ex.description = "the SDR PoRep partition circuit of ";
        ex.description += info.name;
        ex.description += " (shape only: prove with --c1)";
        ex.circuit = std::move(blank);
        ex.shape_only = true;
        ex.file_name = file_safe_name(ex.name);
        return ex;
    } else {
        return unknown(name, "");
    }
    ex.file_name = file_safe_name(ex.name);
    r1cs::WitnessOnly w;
    CUZK_RETURN_IF_ERROR(ex.circuit(w));
    const auto& inputs = w.input_assignment();
    ex.public_inputs.assign(inputs.begin() + 1, inputs.end());
    return ex;
}

}  // namespace cuzk::groth16::examples
