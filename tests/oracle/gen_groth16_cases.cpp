// Writes Groth16 test cases made by cuzk (test ceremony, prover, .vk writer, proof codec) for the
// independent Node verifier verify_groth16.mjs (built on @noble/curves) to check.
//
// Usage: oracle_gen_groth16_cases OUT_DIR
//
// For each case NAME it writes into OUT_DIR:
//   NAME.vk           the verifying key (groth16::write_vk_file, bellperson's .vk layout)
//   NAME.proof        192·k bytes, k ≥ 1 concatenated compressed proofs
//   NAME.inputs.json  public inputs as decimal strings, ONE excluded: either one flat array
//                     (the same inputs for every proof in the file) or an array of arrays,
//                     one per proof
// and OUT_DIR/manifest.txt, one line per check: "VK PROOF INPUTS EXPECT" (file names relative to
// OUT_DIR, EXPECT is valid or invalid). Every proof written as valid is first checked with
// groth16::verify; tampered variants are checked to be rejected by it too, so the manifest
// states what cuzk itself concludes and the Node verifier must agree.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_circuits.hpp"
#include "util/rng.hpp"

namespace {

using namespace cuzk;
using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Affine;
using ec::G2Jacobian;
using ff::Fr;
using groth16::Circuit;
using groth16::Proof;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "oracle_gen_groth16_cases: %s\n", msg.c_str());
    std::exit(1);
}

// Decimal text of a canonical Fr value (long division of 32-bit words by 10).
std::string decimal(const Fr& x) {
    const ff::BigInt<4> v = x.to_int();
    uint32_t words[8];
    for (size_t i = 0; i < 4; ++i) {
        words[2 * i] = static_cast<uint32_t>(v.limb[i]);
        words[2 * i + 1] = static_cast<uint32_t>(v.limb[i] >> 32);
    }
    std::string rev;
    do {
        uint64_t rem = 0;
        for (size_t i = 8; i-- > 0;) {
            const uint64_t cur = (rem << 32) | words[i];
            words[i] = static_cast<uint32_t>(cur / 10);
            rem = cur % 10;
        }
        rev.push_back(static_cast<char>('0' + rem));
    } while (std::any_of(std::begin(words), std::end(words), [](uint32_t w) { return w != 0; }));
    return std::string(rev.rbegin(), rev.rend());
}

std::string json_array(const std::vector<Fr>& xs) {
    std::string out = "[";
    for (size_t i = 0; i < xs.size(); ++i) {
        if (i) out += ",";
        out += "\"";
        out += decimal(xs[i]);
        out += "\"";
    }
    out += "]";
    return out;
}

std::string json_array_of_arrays(const std::vector<std::vector<Fr>>& xss) {
    std::string out = "[";
    for (size_t i = 0; i < xss.size(); ++i) {
        if (i) out += ",";
        out += json_array(xss[i]);
    }
    out += "]";
    return out;
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text << "\n";
    if (!f) die("cannot write " + path);
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) die("cannot write " + path);
}

// ---- circuits -----------------------------------------------------------------------------------

Circuit cubic_circuit(uint64_t x) {
    return [x](ConstraintSystem& cs) { return r1cs::testing::cubic(cs, Fr::from_u64(x)); };
}

// A random circuit: `inputs` public inputs, then `constraints` rows, row k allocating aux w_k with
//   (Σ c·z) · (Σ c·z) = w_k [+ c·x_i]
// over ONE, the inputs and the earlier aux. The structure (which variables, which coefficients)
// depends only on structure_seed, the values only on value_seed, so circuits with the same
// structure seed share parameters.
struct RandomShape {
    size_t inputs = 5;
    size_t constraints = 1000;
    uint64_t structure_seed = 11;
};

util::Status random_circuit(ConstraintSystem& cs, const RandomShape& shape, uint64_t value_seed) {
    util::TestRng srng(shape.structure_seed);
    util::TestRng vrng(value_seed);
    std::vector<Variable> vars{Variable::one()};
    std::vector<Fr> vals{Fr::one()};
    for (size_t i = 0; i < shape.inputs; ++i) {
        const Fr v = Fr::random(vrng);
        auto var = cs.alloc_input(Name("in", i), v);
        if (!var.ok()) return var.status();
        vars.push_back(*var);
        vals.push_back(v);
    }
    const size_t num_inputs = vars.size();
    auto random_lc = [&](Fr& value) {
        LC lc;
        value = Fr::zero();
        const uint64_t terms = 1 + srng.uniform(3);
        for (uint64_t t = 0; t < terms; ++t) {
            const size_t j = static_cast<size_t>(srng.uniform(vars.size()));
            const Fr coeff = Fr::random(srng);
            lc.add(coeff, vars[j]);
            value += coeff * vals[j];
        }
        return lc;
    };
    for (size_t k = 0; k < shape.constraints; ++k) {
        Fr av, bv;
        const LC a = random_lc(av);
        const LC b = random_lc(bv);
        Fr w = av * bv;
        LC c;
        if (srng.uniform(3) == 0) {
            const size_t i = static_cast<size_t>(srng.uniform(num_inputs));
            const Fr coeff = Fr::random(srng);
            c.add(coeff, vars[i]);
            w -= coeff * vals[i];
        }
        auto var = cs.alloc(Name("w", k), w);
        if (!var.ok()) return var.status();
        c.add(Fr::one(), *var);
        cs.enforce(Name("row", k), a, b, c);
        vars.push_back(*var);
        vals.push_back(w);
    }
    return util::Status();
}

Circuit random_circuit_fn(const RandomShape& shape, uint64_t value_seed) {
    return [shape, value_seed](ConstraintSystem& cs) {
        return random_circuit(cs, shape, value_seed);
    };
}

std::vector<Fr> public_inputs_of(const Circuit& circuit) {
    r1cs::ProvingAssignment pa;
    const util::Status st = circuit(pa);
    if (!st.ok()) die("synthesis failed: " + std::string(st.message()));
    const std::vector<Fr>& in = pa.input_assignment();
    return std::vector<Fr>(in.begin() + 1, in.end());
}

// ---- one case -----------------------------------------------------------------------------------

struct Generator {
    std::string dir;
    std::ofstream manifest;
    size_t lines = 0;

    std::string path(const std::string& file) const { return dir + "/" + file; }

    void expect(const std::string& vk, const std::string& proof, const std::string& inputs,
                bool valid) {
        manifest << vk << " " << proof << " " << inputs << " " << (valid ? "valid" : "invalid")
                 << "\n";
        ++lines;
    }

    void proofs_file(const std::string& name, const std::vector<Proof>& proofs) {
        write_bytes(path(name), groth16::serialize_proofs(proofs));
    }
};

groth16::Parameters setup(const Circuit& circuit, uint64_t seed) {
    auto params = groth16::generate_parameters(circuit, groth16::ToxicWaste::from_seed(seed));
    if (!params.ok()) die("setup failed: " + std::string(params.status().message()));
    return std::move(*params);
}

std::vector<Proof> prove_all(const groth16::Parameters& params, const std::vector<Circuit>& circuits,
                             uint64_t seed) {
    std::vector<groth16::ProverRandomness> rs;
    for (size_t i = 0; i < circuits.size(); ++i)
        rs.push_back(groth16::ProverRandomness::from_seed(seed + i));
    auto proofs = groth16::prove(params, std::span<const Circuit>(circuits),
                                 std::span<const groth16::ProverRandomness>(rs));
    if (!proofs.ok()) die("prove failed: " + std::string(proofs.status().message()));
    return std::move(*proofs);
}

bool cuzk_verifies(const groth16::PreparedVerifyingKey& pvk, const Proof& proof,
                   const std::vector<Fr>& inputs) {
    auto ok = groth16::verify(pvk, proof, std::span<const Fr>(inputs));
    if (!ok.ok()) die("verify failed: " + std::string(ok.status().message()));
    return *ok;
}

// A case: one key, proofs for `circuits` (inputs per proof), the valid files plus tampered ones.
// flat: write the inputs as one flat array (all circuits must have the same inputs).
void make_case(Generator& gen, const std::string& name, const Circuit& shape_circuit,
               const std::vector<Circuit>& circuits, uint64_t seed, bool flat) {
    const groth16::Parameters params = setup(shape_circuit, seed);
    const std::vector<Proof> proofs = prove_all(params, circuits, 1000 * seed);
    std::vector<std::vector<Fr>> inputs;
    for (const Circuit& c : circuits) inputs.push_back(public_inputs_of(c));
    const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(params.vk);
    for (size_t i = 0; i < proofs.size(); ++i)
        if (!cuzk_verifies(pvk, proofs[i], inputs[i])) die(name + ": cuzk rejects its own proof");

    std::string vk = name;
    vk += ".vk";
    const util::Status st = groth16::write_vk_file(gen.path(vk), params.vk);
    if (!st.ok()) die("write_vk_file: " + std::string(st.message()));

    auto inputs_file = [&](const std::string& suffix, const std::vector<std::vector<Fr>>& xs) {
        std::string f = name;
        f += suffix;
        f += ".inputs.json";
        if (flat) {
            for (const auto& x : xs)
                if (x != xs[0]) die(name + ": flat inputs differ between proofs");
            write_text(gen.path(f), json_array(xs[0]));
        } else {
            write_text(gen.path(f), json_array_of_arrays(xs));
        }
        return f;
    };
    auto proof_file = [&](const std::string& suffix, const std::vector<Proof>& ps) {
        std::string f = name;
        f += suffix;
        f += ".proof";
        gen.proofs_file(f, ps);
        return f;
    };

    const std::string good_inputs = inputs_file("", inputs);
    gen.expect(vk, proof_file("", proofs), good_inputs, true);

    // Tampering hits the last proof of the file; each replaced point is another valid point.
    const size_t t = proofs.size() - 1;
    const G1Jacobian g1 = G1Jacobian::from_affine(ec::kG1Generator);
    const G2Jacobian g2 = G2Jacobian::from_affine(ec::kG2Generator);
    auto tampered = [&](const std::string& suffix, const Proof& bad) {
        if (cuzk_verifies(pvk, bad, inputs[t])) die(name + suffix + ": cuzk accepts a tampered proof");
        std::vector<Proof> ps = proofs;
        ps[t] = bad;
        gen.expect(vk, proof_file(suffix, ps), good_inputs, false);
    };
    Proof bad = proofs[t];
    bad.a = (G1Jacobian::from_affine(bad.a) + g1).to_affine();
    tampered("_bad_a", bad);
    bad = proofs[t];
    bad.b = (G2Jacobian::from_affine(bad.b) + g2).to_affine();
    tampered("_bad_b", bad);
    bad = proofs[t];
    bad.c = (G1Jacobian::from_affine(bad.c) + g1 + g1).to_affine();
    tampered("_bad_c", bad);
    // A and C swapped roles: C := A (valid point, wrong place).
    bad = proofs[t];
    bad.c = proofs[t].a;
    tampered("_c_is_a", bad);

    // One public input changed (the last one, +1).
    std::vector<std::vector<Fr>> changed = inputs;
    if (flat) {
        for (auto& x : changed) x.back() += Fr::one();
    } else {
        changed[t].back() += Fr::one();
    }
    if (cuzk_verifies(pvk, proofs[t], changed[t])) die(name + ": cuzk accepts a changed input");
    gen.expect(vk, proof_file("", proofs), inputs_file("_bad_input", changed), false);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
        return 2;
    }
    Generator gen;
    gen.dir = argv[1];
    gen.manifest.open(gen.path("manifest.txt"), std::ios::binary);
    if (!gen.manifest) die("cannot write " + gen.path("manifest.txt"));

    // cubic: one proof, one input (y = 35 for x = 3), flat inputs.
    make_case(gen, "cubic", cubic_circuit(3), {cubic_circuit(3)}, 1, true);
    // cubic, two partitions with the same witness (different randomness), flat inputs.
    make_case(gen, "cubic_x2", cubic_circuit(3), {cubic_circuit(3), cubic_circuit(3)}, 2, true);
    // random circuit, 5 inputs, 1000 constraints (+ 6 input rows: domain 2^10), one proof.
    const RandomShape shape;
    make_case(gen, "random", random_circuit_fn(shape, 1), {random_circuit_fn(shape, 21)}, 3,
              false);
    // random circuit, three partitions with different witnesses, one inputs array per proof.
    make_case(gen, "random_x3", random_circuit_fn(shape, 1),
              {random_circuit_fn(shape, 31), random_circuit_fn(shape, 32),
               random_circuit_fn(shape, 33)},
              4, false);

    gen.manifest.close();
    if (!gen.manifest) die("cannot write manifest");
    std::printf("oracle_gen_groth16_cases: %zu manifest lines in %s\n", gen.lines, gen.dir.c_str());
    return 0;
}
