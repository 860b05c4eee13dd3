// `cuzk prove | verify`: Groth16 proofs of a built-in circuit (--circuit NAME) or of a sealed
// sector's C1 output (--c1 FILE: one proof per partition, concatenated). Exit codes: 0 ok
// (verify: valid), 1 failure (verify: not valid), 2 usage error or malformed input. Progress
// goes to stderr; with --json, one summary line (a JSON object) goes to stdout.
//
// Public-input files: one proof → a JSON array of decimal strings (ONE excluded); several → an
// array of such arrays, one per partition, in partition order. verify reads both.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/fr_decimal.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1_json.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/vanilla_proof.hpp"
#include "util/json.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void help_prove(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk prove (--circuit NAME | --c1 FILE) --params FILE --out PROOF\n"
                 "                  [--public-inputs FILE.json] [--seed N] [--no-subgroup-check]\n"
                 "                  [--no-vanilla-check] [--json]\n"
                 "\n"
                 "Proves, verifies the proofs, and only then writes them to PROOF.\n"
                 "  --circuit NAME       a built-in circuit with its built-in witness: one\n"
                 "                       192-byte proof (A, B, C compressed)\n"
                 "  --c1 FILE            a sealed sector's C1 output (rust-fil-proofs\n"
                 "                       SealCommitPhase1Output JSON, or the lotus-bench wrapper\n"
                 "                       {\"SectorNum\",\"Phase1Out\",\"SectorSize\"}): the vanilla\n"
                 "                       proofs are checked first (errors name the first wrong\n"
                 "                       item), then one proof per partition, concatenated\n"
                 "                       (192 bytes for 2KiB..512MiB, 1,920 for 32/64GiB); params\n"
                 "                       from 'cuzk setup --circuit porep:SIZE'\n"
                 "  --no-vanilla-check   skip the out-of-circuit check of the C1's vanilla proofs\n"
                 "                       (the prover still checks every constraint and names the\n"
                 "                       first one a bad witness breaks)\n"
                 "  --public-inputs F    also write the public inputs (ONE excluded): a JSON\n"
                 "                       array of decimal strings, or one array per partition\n"
                 "  --seed N             deterministic r, s (INSECURE, for reproducible tests;\n"
                 "                       partition k uses N + k); default: the OS CSPRNG\n"
                 "  --no-subgroup-check  skip the order-r subgroup check when reading FILE (faster;\n"
                 "                       only for parameter files you made yourself)\n"
                 "\n"
                 "circuits: %s\n",
                 groth16::examples::known_names().c_str());
}

void help_verify(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk verify --vk FILE --proof PROOF --public-inputs FILE.json [--json]\n"
                 "\n"
                 "Verifies Groth16 proofs (PROOF: one or more concatenated 192-byte proofs)\n"
                 "against a .vk file and the public inputs (a JSON array of decimal strings, ONE\n"
                 "excluded, or one such array per proof).\n"
                 "exit status: 0 all valid, 1 not valid, 2 usage error or malformed input (a bad\n"
                 "file, a proof of the wrong size or with a point off the curve/subgroup, a\n"
                 "non-decimal or out-of-range input, the wrong number of inputs or proofs).\n");
}

// What to prove: circuits with their public inputs, and a name for messages.
struct Job {
    std::string name;
    std::vector<groth16::Circuit> circuits;
    std::vector<std::vector<ff::Fr>> inputs;
    bool from_c1 = false;
};

util::Result<Job> job_from_c1(const std::string& path, bool vanilla_check) {
    CUZK_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_file(path));
    auto file = porep::parse_c1_file(std::string(bytes.begin(), bytes.end()));
    if (!file.ok()) return util::invalid_argument(path + ": " + file.status().message());
    if (vanilla_check) {
        if (auto st = porep::verify_c1(file->c1); !st.ok())
            return util::invalid_argument(path + ": " + st.message());
    }
    CUZK_ASSIGN_OR_RETURN(porep::PartitionCircuits pc, porep::circuits_from_c1(file->c1));
    Job job;
    job.name = porep::seal_proof_info(pc.proof).name;
    job.circuits.assign(pc.circuits.begin(), pc.circuits.end());
    job.inputs = std::move(pc.public_inputs);
    job.from_c1 = true;
    return job;
}

util::Result<Job> job_from_example(const std::string& name) {
    CUZK_ASSIGN_OR_RETURN(groth16::examples::ExampleCircuit ex,
                          groth16::examples::make_example_circuit(name));
    if (ex.shape_only)
        return util::invalid_argument("circuit '" + ex.name +
                                      "' has no built-in witness: prove a sealed sector with "
                                      "--c1 FILE");
    Job job;
    job.name = ex.name;
    job.circuits.push_back(std::move(ex.circuit));
    job.inputs.push_back(std::move(ex.public_inputs));
    return job;
}

// "circuit K: constraint row R is not satisfied" from the prover → the constraint's name, found
// by synthesizing circuit K again into a TestConstraintSystem.
std::string explain_unsatisfied(const Job& job, const util::Status& st) {
    const std::string& m = st.message();
    if (m.find("is not satisfied") == std::string::npos || !m.starts_with("circuit ")) return m;
    const size_t k = std::strtoull(m.c_str() + 8, nullptr, 10);
    if (k >= job.circuits.size()) return m;
    auto name = porep::first_unsatisfied_constraint(job.circuits[k]);
    if (!name.ok() || name->empty()) return m;
    std::string out = job.from_c1 ? "partition " : "circuit ";
    out += std::to_string(k);
    out += ": the witness does not satisfy constraint '";
    out += *name;
    out += "' (nothing written)";
    return out;
}

std::string inputs_json(const std::vector<std::vector<ff::Fr>>& inputs) {
    if (inputs.size() == 1) return fr_json_array(inputs[0]);
    std::string s = "[";
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (k > 0) s += ",";
        s += fr_json_array(inputs[k]);
    }
    return s += "]";
}

// A flat array (one proof) or an array of arrays (one per proof).
util::Result<std::vector<std::vector<ff::Fr>>> parse_inputs_json(std::string text) {
    CUZK_ASSIGN_OR_RETURN(util::json::Document doc, util::json::Document::parse(std::move(text)));
    const util::json::Value root = doc.root();
    if (!root.is_array()) return util::invalid_argument("expected a JSON array");
    std::vector<std::vector<ff::Fr>> out;
    const bool nested = root.size() > 0 && root.at(0).is_array();
    auto parse_flat = [](util::json::Value arr, size_t which,
                         bool in_list) -> util::Result<std::vector<ff::Fr>> {
        if (!arr.is_array()) return util::invalid_argument("expected an array of arrays");
        std::vector<ff::Fr> xs;
        size_t i = 0;
        for (util::json::Value v : arr.elements()) {
            std::string_view digits =
                v.is_string() ? v.string_text() : v.is_number() ? v.number_text() : "";
            auto x = fr_from_decimal(digits);
            if (!x.ok()) {
                std::string m = in_list ? "proof " + std::to_string(which) + ", input " : "input ";
                m += std::to_string(i);
                m += ": ";
                m += v.is_string() || v.is_number() ? x.status().message()
                                                    : std::string("not a decimal string");
                return util::invalid_argument(std::move(m));
            }
            xs.push_back(*x);
            ++i;
        }
        return xs;
    };
    if (!nested) {
        CUZK_ASSIGN_OR_RETURN(std::vector<ff::Fr> xs, parse_flat(root, 0, false));
        out.push_back(std::move(xs));
        return out;
    }
    size_t k = 0;
    for (util::json::Value arr : root.elements()) {
        CUZK_ASSIGN_OR_RETURN(std::vector<ff::Fr> xs, parse_flat(arr, k, true));
        out.push_back(std::move(xs));
        ++k;
    }
    return out;
}

}  // namespace

int run_prove(int argc, char** argv) {
    const char* cmd = "prove";
    Args args;
    if (!parse_args(cmd, argc, argv,
                    {"--circuit", "--c1", "--params", "--out", "--public-inputs", "--seed"},
                    {"--no-subgroup-check", "--no-vanilla-check"}, args))
        return kExitUsage;
    if (args.help) return help_prove(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::fprintf(stderr, "cuzk prove: unexpected argument '%s'\n", args.positional[0].c_str());
        return kExitUsage;
    }
    if (!require(cmd, args, {"--params", "--out"})) return kExitUsage;
    if (args.has("--circuit") == args.has("--c1"))
        return fail_json(args, cmd, kExitUsage, "give exactly one of --circuit NAME and --c1 FILE");
    uint64_t seed = 0;
    const bool seeded = args.has("--seed");
    if (seeded && !parse_u64(args.get("--seed"), seed))
        return fail_json(args, cmd, kExitUsage, "--seed must be a non-negative decimal integer");
    util::Stopwatch total;
    util::Stopwatch sw;
    if (args.has("--c1"))
        std::fprintf(stderr, "[1/5] reading and checking %s\n", args.get("--c1").c_str());
    const bool vanilla_check = !args.has("--no-vanilla-check");
    auto job = args.has("--c1") ? job_from_c1(args.get("--c1"), vanilla_check)
                                : job_from_example(args.get("--circuit"));
    if (!job.ok()) return fail_json(args, cmd, kExitUsage, job.status().message());
    const double ms_input = sw.elapsed_ms();
    if (job->from_c1)
        std::fprintf(stderr, "      %s, %zu partition(s), vanilla proofs %s (%.1f ms)\n",
                     job->name.c_str(), job->circuits.size(),
                     vanilla_check ? "valid" : "NOT checked", ms_input);

    const bool check = !args.has("--no-subgroup-check");
    std::fprintf(stderr, "[2/5] reading %s (subgroup check %s)\n", args.get("--params").c_str(),
                 check ? "on" : "off");
    sw.reset();
    groth16::ReadOptions ropts;
    ropts.subgroup_check = check ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
    auto params = groth16::read_params_file(args.get("--params"), ropts);
    if (!params.ok()) return fail_json(args, cmd, kExitUsage, params.status().message());
    const double ms_read = sw.elapsed_ms();
    std::fprintf(stderr, "      domain %zu, %zu aux, %.1f ms\n", params->domain_size(),
                 params->num_aux(), ms_read);

    const size_t count = job->circuits.size();
    std::fprintf(stderr, "[3/5] proving %s: %zu circuit(s) (%s r, s)\n", job->name.c_str(), count,
                 seeded ? "DETERMINISTIC, insecure" : "random");
    std::vector<groth16::ProverRandomness> rnd;
    for (size_t k = 0; k < count; ++k)
        rnd.push_back(seeded ? groth16::ProverRandomness::from_seed(seed + k)
                             : groth16::ProverRandomness::from_os());
    groth16::ProverTimings t;
    sw.reset();
    auto proofs = groth16::prove(*params, job->circuits, rnd, &t);
    if (!proofs.ok()) return fail_json(args, cmd, kExitFail, explain_unsatisfied(*job, proofs.status()));
    const double ms_prove = sw.elapsed_ms();
    std::fprintf(stderr,
                 "      %.1f ms (synthesis %.1f, ntt %.1f, msm h %.1f l %.1f a %.1f b1 %.1f b2 %.1f,"
                 " assembly %.1f)\n",
                 ms_prove, t.synthesis, t.ntt, t.msm_h, t.msm_l, t.msm_a, t.msm_b1, t.msm_b2,
                 t.assembly);

    std::fprintf(stderr, "[4/5] verifying the proof(s)\n");
    sw.reset();
    const auto pvk = groth16::prepare_verifying_key(params->vk);
    auto valid = groth16::batch_verify(pvk, *proofs, job->inputs);
    const double ms_verify = sw.elapsed_ms();
    if (!valid.ok()) return fail_json(args, cmd, kExitFail, valid.status().message());
    if (!*valid)
        return fail_json(args, cmd, kExitFail,
                         "the proofs do not verify against the parameters' verifying key "
                         "(nothing written)");
    std::fprintf(stderr, "      valid, %.1f ms\n", ms_verify);

    std::fprintf(stderr, "[5/5] writing %s\n", args.get("--out").c_str());
    const std::vector<uint8_t> bytes = groth16::serialize_proofs(*proofs);
    if (auto st = write_file(args.get("--out"),
                             std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    const std::string inputs_text = inputs_json(job->inputs);
    if (args.has("--public-inputs")) {
        if (auto st = write_file(args.get("--public-inputs"), inputs_text + "\n"); !st.ok())
            return fail_json(args, cmd, kExitFail, st.message());
    }
    const double ms_total = total.elapsed_ms();
    std::fprintf(stderr, "      done, %zu bytes, total %.1f ms\n", bytes.size(), ms_total);
    if (args.json) {
        JsonObject ms;
        ms.ms("input", ms_input).ms("read_params", ms_read).ms("prove", ms_prove)
            .ms("synthesis", t.synthesis).ms("ntt", t.ntt).ms("msm_h", t.msm_h)
            .ms("msm_l", t.msm_l).ms("msm_a", t.msm_a).ms("msm_b1", t.msm_b1)
            .ms("msm_b2", t.msm_b2).ms("assembly", t.assembly).ms("verify", ms_verify)
            .ms("total", ms_total);
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("circuit", job->name)
            .num("proofs", count).num("domain", params->domain_size()).num("aux", params->num_aux())
            .boolean("deterministic", seeded).str("proof", args.get("--out"))
            .raw("public_inputs", inputs_text).raw("ms", ms.done());
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
}

int run_verify(int argc, char** argv) {
    const char* cmd = "verify";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--vk", "--proof", "--public-inputs"}, {}, args))
        return kExitUsage;
    if (args.help) return help_verify(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::fprintf(stderr, "cuzk verify: unexpected argument '%s'\n", args.positional[0].c_str());
        return kExitUsage;
    }
    if (!require(cmd, args, {"--vk", "--proof", "--public-inputs"})) return kExitUsage;
    util::Stopwatch total;
    std::fprintf(stderr, "[1/2] reading %s, %s, %s\n", args.get("--vk").c_str(),
                 args.get("--proof").c_str(), args.get("--public-inputs").c_str());
    auto vk = groth16::read_vk_file(args.get("--vk"));
    if (!vk.ok()) return fail_json(args, cmd, kExitUsage, vk.status().message());
    auto proof_bytes = read_file(args.get("--proof"));
    if (!proof_bytes.ok()) return fail_json(args, cmd, kExitUsage, proof_bytes.status().message());
    const size_t n = proof_bytes->size() / groth16::kProofBytes;
    if (proof_bytes->empty() || proof_bytes->size() % groth16::kProofBytes != 0) {
        std::string msg = args.get("--proof");
        msg += ": a proof is ";
        msg += std::to_string(groth16::kProofBytes);
        msg += " bytes (several are concatenated), the file has ";
        msg += std::to_string(proof_bytes->size());
        return fail_json(args, cmd, kExitUsage, msg);
    }
    auto proofs = groth16::parse_proofs(*proof_bytes);
    if (!proofs.ok())
        return fail_json(args, cmd, kExitUsage, args.get("--proof") + ": " + proofs.status().message());
    auto json = read_file(args.get("--public-inputs"));
    if (!json.ok()) return fail_json(args, cmd, kExitUsage, json.status().message());
    auto inputs = parse_inputs_json(std::string(json->begin(), json->end()));
    if (!inputs.ok())
        return fail_json(args, cmd, kExitUsage,
                         args.get("--public-inputs") + ": " + inputs.status().message());
    if (inputs->size() != n) {
        std::string msg = args.get("--public-inputs");
        msg += ": inputs for ";
        msg += std::to_string(inputs->size());
        msg += " proof(s), but the proof file holds ";
        msg += std::to_string(n);
        return fail_json(args, cmd, kExitUsage, msg);
    }
    for (size_t k = 0; k < n; ++k) {
        if ((*inputs)[k].size() + 1 != vk->ic.size()) {
            std::string msg = args.get("--public-inputs");
            msg += ": ";
            msg += std::to_string((*inputs)[k].size());
            msg += " public inputs, but the verifying key expects ";
            msg += std::to_string(vk->ic.size() - 1);
            return fail_json(args, cmd, kExitUsage, msg);
        }
    }
    std::fprintf(stderr, "[2/2] verifying %zu proof(s)\n", n);
    util::Stopwatch sw;
    const auto pvk = groth16::prepare_verifying_key(*vk);
    bool all_valid = true;
    for (size_t k = 0; k < n; ++k) {
        auto valid = groth16::verify(pvk, (*proofs)[k], (*inputs)[k]);
        if (!valid.ok()) return fail_json(args, cmd, kExitUsage, valid.status().message());
        if (!*valid) {
            all_valid = false;
            if (n > 1) std::fprintf(stderr, "      proof %zu: NOT VALID\n", k);
        }
    }
    const double ms_verify = sw.elapsed_ms();
    const double ms_total = total.elapsed_ms();
    std::fprintf(stderr, "      %s (verify %.1f ms, total %.1f ms)\n",
                 all_valid ? "VALID" : "NOT VALID", ms_verify, ms_total);
    if (args.json) {
        JsonObject ms;
        ms.ms("verify", ms_verify).ms("total", ms_total);
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).boolean("valid", all_valid).num("proofs", n)
            .num("public_inputs", (*inputs)[0].size()).raw("ms", ms.done());
        std::printf("%s\n", o.done().c_str());
    }
    return all_valid ? kExitOk : kExitFail;
}

}  // namespace cuzk::cli
