// `cuzk gen-c1`: a synthetic but consistent C1 output for any sector size
// (porep/synthetic_c1.hpp), checked by the out-of-circuit verifier before it is
// written. Exit codes: 0 ok, 1 failure, 2 usage error.
#include <sys/resource.h>

#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/porep_args.hpp"
#include "cli/registry.hpp"
#include "porep/c1_json.hpp"
#include "porep/synthetic_c1.hpp"
#include "porep/vanilla_proof.hpp"
#include "util/hex.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void usage_gen_c1(std::FILE* f) {
    std::fprintf(f,
                 "  gen-c1 --sector-size S --out FILE [--seed N] [--registered-proof NAME]\n"
                 "         [--sector-id N] [--zero-data] [--envelope] [--no-verify]\n"
                 "                       synthetic consistent C1 for any size (32/64 GiB too)\n");
}

void help_gen_c1(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk gen-c1 --sector-size S --out FILE [options] [--json]\n"
        "\n"
        "Builds a synthetic C1 output that the C2 circuit accepts: the challenged nodes' labels\n"
        "are SHA-256 of their (random) parents' labels, every data node holds one value D,\n"
        "tree_c and tree_r_last are sparse Poseidon trees whose untouched subtrees are all-zero\n"
        "subtree roots, and comm_r = Poseidon(comm_c, comm_r_last). It is verified out of\n"
        "circuit, then written (raw C1 JSON, or the lotus-bench envelope with --envelope).\n"
        "  --seed N               rng seed of prover_id, ticket, seed, D and the labels (default "
        "0)\n"
        "  --registered-proof P   an interactive proof (V1 or V1_1); default V1_1 of the size\n"
        "  --sector-id N          default 1\n"
        "  --zero-data            D = 0 (a CC sector: comm_d is the published zero commitment)\n");
}

int run_gen_c1(int argc, char** argv) {
    const char* cmd = "gen-c1";
    Args args;
    if (!parse_args(cmd, argc, argv,
                    {"--sector-size", "--out", "--seed", "--registered-proof", "--sector-id"},
                    {"--zero-data", "--envelope", "--no-verify"}, args)) {
        return kExitUsage;
    }
    if (args.help) return help_gen_c1(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::string msg = "unexpected argument ";
        msg += args.positional[0];
        return fail_json(args, cmd, kExitUsage, msg);
    }
    if (!require(cmd, args, {"--sector-size", "--out"})) return kExitUsage;
    porep::SyntheticC1Inputs in;
    auto proof = registered_proof_from_args(args, "--registered-proof");
    if (!proof.ok()) return fail_json(args, cmd, kExitUsage, proof.status().message());
    in.proof = *proof;
    if (args.has("--seed") && !parse_u64(args.get("--seed"), in.rng_seed)) {
        return fail_json(args, cmd, kExitUsage, "--seed must be a decimal integer");
    }
    if (args.has("--sector-id") && !parse_u64(args.get("--sector-id"), in.sector_id)) {
        return fail_json(args, cmd, kExitUsage, "--sector-id must be a decimal integer");
    }
    in.zero_data = args.has("--zero-data");
    const porep::SealProofInfo& info = porep::seal_proof_info(in.proof);

    util::Stopwatch sw;
    auto out = porep::generate_synthetic_c1(in);
    const double gen_ms = sw.elapsed_ms();
    if (!out.ok()) return fail_json(args, cmd, kExitUsage, out.status().message());
    std::fprintf(stderr,
                 "[gen-c1] %s: %u partitions x %u challenges, %llu touched nodes, %.1f ms\n",
                 info.name, info.partitions, info.challenges_per_partition,
                 static_cast<unsigned long long>(out->touched_nodes), gen_ms);
    double verify_ms = 0;
    const bool verify = !args.has("--no-verify");
    if (verify) {
        sw.reset();
        porep::C1VerifyOptions vopt;
        vopt.prover_id = out->prover_id;
        vopt.sector_id = in.sector_id;
        util::Status st = porep::verify_c1(out->c1, vopt);
        verify_ms = sw.elapsed_ms();
        if (!st.ok()) {
            std::string msg = "the synthetic C1 does not verify: ";
            msg += st.message();
            return fail_json(args, cmd, kExitFail, msg);
        }
        std::fprintf(stderr, "[gen-c1] verified out of circuit in %.1f ms\n", verify_ms);
    }
    sw.reset();
    const std::string json =
        args.has("--envelope")
            ? porep::write_c1_envelope(out->c1, static_cast<int64_t>(in.sector_id))
            : porep::write_c1_json(out->c1);
    if (auto st = write_file(args.get("--out"), json); !st.ok()) {
        return fail_json(args, cmd, kExitFail, st.message());
    }
    const double write_ms = sw.elapsed_ms();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const uint64_t peak_kib = static_cast<uint64_t>(ru.ru_maxrss);
    std::fprintf(stderr, "wrote %s (%zu bytes) in %.1f ms; peak RSS %.1f MiB\n",
                 args.get("--out").c_str(), json.size(), write_ms,
                 static_cast<double>(peak_kib) / 1024.0);
    if (!args.json) {
        std::printf("comm_d %s\ncomm_r %s\n", util::to_hex(out->c1.comm_d).c_str(),
                    util::to_hex(out->c1.comm_r).c_str());
        return kExitOk;
    }
    JsonObject ms;
    ms.ms("generate", gen_ms).ms("verify", verify_ms).ms("write", write_ms);
    JsonObject o;
    o.boolean("ok", true)
        .str("command", cmd)
        .str("registered_proof", info.name)
        .num("sector_size", info.sector_size)
        .num("seed", in.rng_seed)
        .str("prover_id", util::to_hex(out->prover_id))
        .num("sector_id", in.sector_id)
        .str("comm_d", util::to_hex(out->c1.comm_d))
        .str("comm_r", util::to_hex(out->c1.comm_r))
        .str("comm_c", util::to_hex(out->comm_c))
        .str("comm_r_last", util::to_hex(out->comm_r_last))
        .num("touched_nodes", out->touched_nodes)
        .str("file", args.get("--out"))
        .num("bytes", json.size())
        .boolean("verified", verify)
        .num("peak_rss_kib", peak_kib)
        .raw("ms", ms.done());
    std::printf("%s\n", o.done().c_str());
    return kExitOk;
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("gen-c1", 32, cuzk::cli::usage_gen_c1, cuzk::cli::run_gen_c1);
