// `cuzk seal`: seals a small sector (2 KiB, 8 MiB, 512 MiB) in memory and
// writes its C1 output (porep/seal.hpp). Exit codes: 0 ok, 1 failure, 2 usage
// error or malformed input. Progress goes to stderr; with --json one summary
// line goes to stdout.
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "cli/args.hpp"
#include "cli/porep_args.hpp"
#include "cli/registry.hpp"
#include "porep/c1_json.hpp"
#include "porep/fr32.hpp"
#include "porep/seal.hpp"
#include "util/hex.hpp"
#include "util/rng.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

constexpr uint64_t kDefaultDataSeed = 1;

void usage_seal(std::FILE* f) {
    std::fprintf(f,
                 "  seal --sector-size 2KiB|8MiB|512MiB --out DIR [--data FILE] [--data-seed N]\n"
                 "       [--registered-proof NAME] [--prover-id HEX32] [--sector-id N]\n"
                 "       [--ticket HEX32] [--seed HEX32] [--no-verify]\n"
                 "                       seal a small sector in memory, write DIR/c1.json\n");
}

void help_seal(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk seal --sector-size 2KiB|8MiB|512MiB --out DIR [options] [--json]\n"
        "\n"
        "Seals a sector in memory (fr32 padding, tree_d, SDR labels, tree_c, tree_r_last,\n"
        "comm_r), derives the challenges of every partition, builds the vanilla proofs and\n"
        "writes the C1 output (SealCommitPhase1Output JSON, as rust-fil-proofs writes it) to\n"
        "DIR/c1.json. The result is verified out of circuit before it is written.\n"
        "  --data FILE            the unsealed (fr32-unpadded) bytes: at most 127/128 of the\n"
        "                         sector size (2032 for 2 KiB); shorter files are zero-filled\n"
        "  --data-seed N          without --data: the data are N-seeded pseudo-random bytes\n"
        "                         (util::TestRng(N), xoshiro256** seeded by splitmix64;\n"
        "                         default N = %llu)\n"
        "  --registered-proof P   name or id; default the V1_1 proof of the sector size\n"
        "  --prover-id HEX32      default 01 repeated 32 times\n"
        "  --sector-id N          default 1\n"
        "  --ticket HEX32         default 02 repeated\n"
        "  --seed HEX32           interactive seed, default 03 repeated\n"
        "  --no-verify            skip the out-of-circuit verification\n"
        "Memory: about 7x the sector size (512 MiB: ~3.6 GiB); 512 MiB takes minutes.\n",
        static_cast<unsigned long long>(kDefaultDataSeed));
}

bool parse_domain(const Args& args, const char* key, uint8_t fill, porep::Domain& out) {
    out.fill(fill);
    if (!args.has(key)) return true;
    auto bytes = util::from_hex(args.get(key));
    if (!bytes.ok() || bytes->size() != 32) return false;
    std::copy(bytes->begin(), bytes->end(), out.begin());
    return true;
}

int run_seal(int argc, char** argv) {
    const char* cmd = "seal";
    Args args;
    if (!parse_args(cmd, argc, argv,
                    {"--sector-size", "--out", "--data", "--data-seed", "--registered-proof",
                     "--prover-id", "--sector-id", "--ticket", "--seed"},
                    {"--no-verify"}, args)) {
        return kExitUsage;
    }
    if (args.help) return help_seal(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::string msg = "unexpected argument ";
        msg += args.positional[0];
        return fail_json(args, cmd, kExitUsage, msg);
    }
    if (!require(cmd, args, {"--sector-size", "--out"})) return kExitUsage;
    porep::SealInputs in;
    auto proof = registered_proof_from_args(args, "--registered-proof");
    if (!proof.ok()) return fail_json(args, cmd, kExitUsage, proof.status().message());
    in.proof = *proof;
    const porep::SealProofInfo& info = porep::seal_proof_info(in.proof);
    if (info.sector_size > porep::kMaxSealSectorSize) {
        return fail_json(args, cmd, kExitUsage,
                         "sectors above 512 MiB cannot be sealed in memory; use cuzk gen-c1");
    }
    if (!parse_domain(args, "--prover-id", 1, in.prover_id) ||
        !parse_domain(args, "--ticket", 2, in.ticket) ||
        !parse_domain(args, "--seed", 3, in.seed)) {
        return fail_json(args, cmd, kExitUsage,
                         "--prover-id, --ticket and --seed take 64 hex digits (32 bytes)");
    }
    in.sector_id = 1;
    if (args.has("--sector-id") && !parse_u64(args.get("--sector-id"), in.sector_id)) {
        return fail_json(args, cmd, kExitUsage, "--sector-id must be a decimal integer");
    }
    const uint64_t unpadded = porep::fr32_unpadded_size(info.sector_size);
    if (args.has("--data")) {
        auto data = read_file(args.get("--data"));
        if (!data.ok()) return fail_json(args, cmd, kExitUsage, data.status().message());
        if (data->size() > unpadded) {
            std::string msg = "--data holds ";
            msg += std::to_string(data->size());
            msg += " bytes, more than the ";
            msg += std::to_string(unpadded);
            msg += " a sector of this size takes";
            return fail_json(args, cmd, kExitUsage, msg);
        }
        in.unsealed = std::move(*data);
        in.unsealed.resize(unpadded, 0);
    } else {
        uint64_t data_seed = kDefaultDataSeed;
        if (args.has("--data-seed") && !parse_u64(args.get("--data-seed"), data_seed)) {
            return fail_json(args, cmd, kExitUsage, "--data-seed must be a decimal integer");
        }
        in.unsealed.resize(unpadded);
        util::TestRng rng(data_seed);
        rng.fill(in.unsealed.data(), in.unsealed.size());
    }

    std::error_code ec;
    const std::filesystem::path dir(args.get("--out"));
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::string msg = args.get("--out");
        msg += ": cannot create directory: ";
        msg += ec.message();
        return fail_json(args, cmd, kExitFail, msg);
    }

    porep::SealOptions opt;
    opt.verify = !args.has("--no-verify");
    util::Stopwatch phase;
    std::string last;
    opt.progress = [&](std::string_view name) {
        if (!last.empty()) std::fprintf(stderr, " %.1f ms\n", phase.elapsed_ms());
        last = name;
        std::fprintf(stderr, "[seal] %s ...", last.c_str());
        std::fflush(stderr);
        phase.reset();
    };
    std::fprintf(stderr, "[seal] %s, %llu nodes, %u layers, %u partition(s) x %u challenges\n",
                 info.name, static_cast<unsigned long long>(info.nodes()), info.layers,
                 info.partitions, info.challenges_per_partition);
    auto out = porep::seal_sector(in, opt);
    if (!last.empty()) std::fprintf(stderr, " %.1f ms\n", phase.elapsed_ms());
    if (!out.ok()) return fail_json(args, cmd, kExitFail, out.status().message());

    util::Stopwatch sw;
    const std::string path = (dir / "c1.json").string();
    const std::string json = porep::write_c1_json(out->c1);
    if (auto st = write_file(path, json); !st.ok()) {
        return fail_json(args, cmd, kExitFail, st.message());
    }
    const double write_ms = sw.elapsed_ms();
    const porep::SealTimings& t = out->timings;
    std::fprintf(stderr, "comm_d      %s\n", util::to_hex(out->c1.comm_d).c_str());
    std::fprintf(stderr, "comm_r      %s\n", util::to_hex(out->c1.comm_r).c_str());
    std::fprintf(stderr, "comm_c      %s\n", util::to_hex(out->comm_c).c_str());
    std::fprintf(stderr, "comm_r_last %s\n", util::to_hex(out->comm_r_last).c_str());
    std::fprintf(stderr, "replica_id  %s\n", util::to_hex(out->c1.replica_id).c_str());
    std::fprintf(stderr, "wrote %s (%zu bytes) in %.1f ms; seal total %.1f ms\n", path.c_str(),
                 json.size(), write_ms, t.total_ms);
    if (!args.json) {
        std::printf("comm_d %s\ncomm_r %s\n", util::to_hex(out->c1.comm_d).c_str(),
                    util::to_hex(out->c1.comm_r).c_str());
        return kExitOk;
    }
    JsonObject ms;
    ms.ms("parent_cache", t.parent_cache_ms)
        .ms("tree_d", t.tree_d_ms)
        .ms("labels", t.labels_ms)
        .ms("tree_c", t.tree_c_ms)
        .ms("tree_r_last", t.tree_r_last_ms)
        .ms("proofs", t.proofs_ms)
        .ms("verify", t.verify_ms)
        .ms("write", write_ms)
        .ms("total", t.total_ms);
    JsonObject o;
    o.boolean("ok", true)
        .str("command", cmd)
        .str("registered_proof", info.name)
        .num("sector_size", info.sector_size)
        .num("sector_id", in.sector_id)
        .str("comm_d", util::to_hex(out->c1.comm_d))
        .str("comm_r", util::to_hex(out->c1.comm_r))
        .str("comm_c", util::to_hex(out->comm_c))
        .str("comm_r_last", util::to_hex(out->comm_r_last))
        .str("replica_id", util::to_hex(out->c1.replica_id))
        .str("c1", path)
        .num("c1_bytes", json.size())
        .boolean("verified", opt.verify)
        .raw("ms", ms.done());
    std::printf("%s\n", o.done().c_str());
    return kExitOk;
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("seal", 30, cuzk::cli::usage_seal, cuzk::cli::run_seal);
