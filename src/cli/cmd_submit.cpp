// `cuzk submit --addr ADDR --c1 FILE [--priority P]`: sends a C1 output to the daemon
// (SubmitProof) and prints the job id on stdout. The file goes as it is (raw C1 JSON or the
// {"SectorNum","Phase1Out","SectorSize"} envelope); the daemon checks it and refuses a malformed
// one with INVALID_ARGUMENT (exit 2, message on stderr). Exit codes: daemon_client_util.hpp.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/daemon_client_util.hpp"
#include "cli/fr_decimal.hpp"
#include "cli/registry.hpp"
#include "porep/c1_json.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/registered_proof.hpp"

namespace cuzk::cli {
namespace {

void usage_submit(std::FILE* f) {
    std::fprintf(f,
                 "  submit --addr ADDR --c1 FILE [--priority P] [--request-id ID]\n"
                 "       [--registered-proof P] [--sector-number N] [--miner-id N]\n"
                 "       [--public-inputs OUT.json]\n"
                 "                       queue a C2 proof on the daemon; prints the job id\n");
}

void help_submit(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk submit --addr ADDR --c1 FILE [options] [--json]\n"
        "\n"
        "Sends FILE (rust-fil-proofs SealCommitPhase1Output JSON, or the lotus-bench/Curio\n"
        "envelope {\"SectorNum\",\"Phase1Out\",\"SectorSize\"}) to the daemon at ADDR\n"
        "(unix:///path or host:port) with SubmitProof, and prints the job id on stdout\n"
        "(with --json: {\"ok\":true,\"job_id\":...,\"queue_position\":...}).\n"
        "  --priority P           low | normal | high | critical (default normal)\n"
        "  --request-id ID        idempotency key: submitting the same ID again returns the\n"
        "                         same job\n"
        "  --registered-proof P   name or number; default: the daemon reads it from the C1\n"
        "  --sector-number N, --miner-id N   passed along (default 0)\n"
        "  --public-inputs OUT    also write the proof's public inputs (computed here from\n"
        "                         the C1; the format 'cuzk verify --public-inputs' reads)\n"
        "exit status: 0 queued; 1 the daemon could not take it (unreachable, full:\n"
        "RESOURCE_EXHAUSTED, draining: UNAVAILABLE); 2 usage error or INVALID_ARGUMENT (a\n"
        "malformed C1, a registered proof or size that does not match; the message says which).\n");
}

#if CUZK_HAVE_GRPC
util::Result<v1::Priority> parse_priority(std::string_view s) {
    if (s == "low" || s == "LOW" || s == "1") return v1::LOW;
    if (s == "normal" || s == "NORMAL" || s == "2") return v1::NORMAL;
    if (s == "high" || s == "HIGH" || s == "3") return v1::HIGH;
    if (s == "critical" || s == "CRITICAL" || s == "4") return v1::CRITICAL;
    std::string m = "--priority '";
    m += s;
    m += "': expected low, normal, high or critical";
    return util::invalid_argument(std::move(m));
}

// The public inputs of every partition, as `cuzk prove --public-inputs` writes them.
util::Status write_public_inputs(const std::string& c1_text, const std::string& path) {
    auto file = porep::parse_c1_file(c1_text);
    if (!file.ok()) return file.status();
    CUZK_ASSIGN_OR_RETURN(porep::PartitionCircuits pc, porep::circuits_from_c1(file->c1));
    std::string text;
    if (pc.public_inputs.size() == 1) {
        text = fr_json_array(pc.public_inputs[0]);
    } else {
        text = "[";
        for (size_t k = 0; k < pc.public_inputs.size(); ++k) {
            if (k > 0) text += ",";
            text += fr_json_array(pc.public_inputs[k]);
        }
        text += "]";
    }
    text += "\n";
    return write_file(path, text);
}
#endif

int run_submit(int argc, char** argv) {
    const char* cmd = "submit";
    Args args;
    if (!parse_args(cmd, argc, argv,
                    {"--addr", "--c1", "--priority", "--request-id", "--registered-proof",
                     "--sector-number", "--miner-id", "--public-inputs"},
                    {}, args))
        return kExitUsage;
    if (args.help) return help_submit(stdout), kExitOk;
    if (!args.positional.empty())
        return fail_json(args, cmd, kExitUsage,
                         std::string("unexpected argument ") + args.positional[0]);
    if (!require(cmd, args, {"--addr", "--c1"})) return kExitUsage;
#if CUZK_HAVE_GRPC
    v1::SubmitProofRequest req;
    req.set_proof_kind(v1::POREP_SEAL_COMMIT);
    req.set_priority(v1::NORMAL);
    if (args.has("--priority")) {
        auto p = parse_priority(args.get("--priority"));
        if (!p.ok()) return fail_json(args, cmd, kExitUsage, p.status().message());
        req.set_priority(*p);
    }
    if (args.has("--registered-proof")) {
        auto p = porep::parse_registered_seal_proof(args.get("--registered-proof"));
        if (!p.ok()) return fail_json(args, cmd, kExitUsage, p.status().message());
        req.set_registered_proof(static_cast<uint64_t>(*p));
        req.set_sector_size(porep::seal_proof_info(*p).sector_size);
    }
    uint64_t n = 0;
    if (args.has("--sector-number")) {
        if (!parse_u64(args.get("--sector-number"), n))
            return fail_json(args, cmd, kExitUsage, "--sector-number must be a decimal integer");
        req.set_sector_number(n);
    }
    if (args.has("--miner-id")) {
        if (!parse_u64(args.get("--miner-id"), n))
            return fail_json(args, cmd, kExitUsage, "--miner-id must be a decimal integer");
        req.set_miner_id(n);
    }
    if (args.has("--request-id")) req.set_request_id(args.get("--request-id"));
    auto bytes = read_file(args.get("--c1"));
    if (!bytes.ok()) return fail_json(args, cmd, kExitUsage, bytes.status().message());
    req.set_vanilla_proof(std::string(bytes->begin(), bytes->end()));
    int code = kExitOk;
    auto client = connect_or_fail(args, cmd, code);
    if (!client) return code;
    auto resp = client->submit(req);
    if (!resp.ok()) return rpc_fail(args, cmd, resp.status());
    if (args.has("--public-inputs")) {
        if (auto st = write_public_inputs(req.vanilla_proof(), args.get("--public-inputs"));
            !st.ok()) {
            std::string m = "job ";
            m += resp->job_id();
            m += " was queued, but the public inputs were not written: ";
            m += st.message();
            return fail_json(args, cmd, kExitFail, m);
        }
    }
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("job_id", resp->job_id());
        o.num("queue_position", resp->queue_position());
        std::printf("%s\n", o.done().c_str());
    } else {
        std::printf("%s\n", resp->job_id().c_str());
    }
    return kExitOk;
#else
    return no_grpc(cmd);
#endif
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("submit", 61, cuzk::cli::usage_submit, cuzk::cli::run_submit);
