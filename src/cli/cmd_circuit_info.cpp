// `cuzk circuit-info`: the size of the PoRep C2 partition circuit (porep/circuit/
// stacked_circuit.hpp) for a sector size, measured by synthesizing it into an r1cs::Counter:
// constraints, inputs (ONE included), aux variables, the density popcounts bellperson's prover
// uses (a_aux, b_input, b_aux) and the FFT domain (the smallest 2^k ≥ constraints + inputs —
// bellperson appends one row per input). Exit codes: 0 ok, 2 usage error, 1 failure.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/porep_args.hpp"
#include "cli/registry.hpp"
#include "porep/circuit/stacked_circuit.hpp"
#include "porep/registered_proof.hpp"
#include "r1cs/counter.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void usage_circuit_info(std::FILE* f) {
    std::fprintf(f,
                 "  circuit-info --sector-size S [--proof NAME] [--json]\n"
                 "                       constraints, inputs, aux and densities of the C2 "
                 "circuit\n");
}

void help_circuit_info(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk circuit-info --sector-size S [--proof NAME] [--json]\n"
        "\n"
        "Synthesizes one PoRep C2 partition circuit (StackedCircuit, bellperson-identical) in\n"
        "counting mode and prints its size: constraints, public inputs (ONE included), aux\n"
        "variables, the density popcounts a_aux / b_input / b_aux (how many A, B_G1/B_G2 bases\n"
        "the proof's MSMs use) and the FFT domain 2^k >= constraints + inputs.\n"
        "  --sector-size S  2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count\n"
        "  --proof NAME     a registered proof (e.g. StackedDrg32GiBV1_1); default: the V1_1\n"
        "                   proof of the sector size (every variant has the same circuit)\n"
        "  --json           one JSON object on stdout: constraints, inputs, aux,\n"
        "                   a_aux_popcount, b_input_popcount, b_aux_popcount, domain,\n"
        "                   domain_log2, ms\n"
        "Progress goes to stderr for sizes of 32 GiB and up (about 25 s each).\n"
        "Example: 2KiB gives 2687921 constraints, 40 inputs, domain 2^22.\n");
}

int run_circuit_info(int argc, char** argv) {
    const char* cmd = "circuit-info";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--sector-size", "--proof"}, {}, args)) return kExitUsage;
    if (args.help) return help_circuit_info(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::string msg = "unexpected argument ";
        msg += args.positional[0];
        return fail_json(args, cmd, kExitUsage, msg);
    }
    auto proof_r = registered_proof_from_args(args, "--proof");
    if (!proof_r.ok()) return fail_json(args, cmd, kExitUsage, proof_r.status().message());
    const porep::RegisteredSealProof proof = *proof_r;
    const porep::SealProofInfo& info = porep::seal_proof_info(proof);
    const auto params = porep::StackedCircuitParams::for_proof(info);
    auto witness = porep::blank_witness(params);
    if (!witness.ok()) return fail_json(args, cmd, kExitFail, witness.status().to_string());

    const bool show_progress = info.sector_size >= (uint64_t{32} << 30);
    porep::StackedProgress progress;
    if (show_progress) {
        // On a terminal one line is rewritten; elsewhere (logs) one line per challenge.
        const bool tty = isatty(fileno(stderr)) != 0;
        progress = [tty](size_t done, size_t total) {
            std::fprintf(stderr, "%scuzk circuit-info: challenge %zu/%zu", tty ? "\r" : "", done,
                         total);
            if (!tty || done == total) std::fprintf(stderr, "\n");
            std::fflush(stderr);
        };
    }
    util::Stopwatch timer;
    r1cs::Counter cs;
    util::Status st = porep::synthesize_stacked_circuit(cs, params, *witness, progress);
    if (!st.ok()) return fail_json(args, cmd, kExitFail, st.to_string());
    const double ms = timer.elapsed_ms();

    const uint64_t rows = cs.num_constraints() + cs.num_inputs();
    uint32_t log_domain = 0;
    while ((uint64_t{1} << log_domain) < rows) ++log_domain;
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("proof", info.name);
        o.num("sector_size", info.sector_size).num("constraints", cs.num_constraints());
        o.num("inputs", cs.num_inputs()).num("aux", cs.num_aux());
        o.num("a_aux_popcount", cs.a_aux_popcount()).num("b_input_popcount", cs.b_input_popcount());
        o.num("b_aux_popcount", cs.b_aux_popcount()).num("domain", uint64_t{1} << log_domain);
        o.num("domain_log2", log_domain).ms("ms", ms);
        std::printf("%s\n", o.done().c_str());
        return kExitOk;
    }
    std::printf("circuit      %s (%s; %u layers, %u challenges, tree %u-%u-%u)\n", info.name,
                porep::sector_size_name(info.sector_size).c_str(), params.layers, params.challenges,
                params.shape.base, params.shape.sub, params.shape.top);
    std::printf("constraints  %zu\n", cs.num_constraints());
    std::printf("inputs       %zu (ONE included)\n", cs.num_inputs());
    std::printf("aux          %zu\n", cs.num_aux());
    std::printf("a_aux        %zu\n", cs.a_aux_popcount());
    std::printf("b_input      %zu\n", cs.b_input_popcount());
    std::printf("b_aux        %zu\n", cs.b_aux_popcount());
    std::printf("domain       2^%u (%llu rows used)\n", log_domain,
                static_cast<unsigned long long>(rows));
    std::printf("time         %s ms\n", ms_str(ms).c_str());
    return kExitOk;
}

}  // namespace

CUZK_CLI_COMMAND("circuit-info", 40, usage_circuit_info, run_circuit_info);

}  // namespace cuzk::cli
