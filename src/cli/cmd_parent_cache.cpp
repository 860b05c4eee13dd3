// `cuzk parent-cache`: writes the SDR parent cache of a sector size and graph
// seed (porep_id) in the layout of rust-fil-proofs storage-proofs-porep
// vanilla/cache.rs — for every node in order its 6 DRG parents then 8 expander
// parents, each a little-endian u32 — and prints the file's SHA-256 (the digest
// stored in rust-fil-proofs parent_cache.json). Exit codes: 0 ok, 1 failure, 2
// usage error.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "porep/graph.hpp"
#include "porep/registered_proof.hpp"
#include "util/hex.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void usage_parent_cache(std::FILE* f) {
    std::fprintf(f,
                 "  parent-cache --sector-size S --porep-id HEX32 --out FILE [--api-version V]\n"
                 "                       write the SDR parent cache, print its SHA-256\n");
}

void help_parent_cache(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk parent-cache --sector-size S --porep-id HEX32 --out FILE\n"
        "                         [--api-version 1.0.0|1.1.0|1.2.0] [--json]\n"
        "\n"
        "Writes the SDR parent cache (per node: 6 DRG then 8 expander parents, little-endian\n"
        "u32; 56 bytes per node, so 2^24 nodes = 896 MiB for 512 MiB sectors) and prints its\n"
        "SHA-256. The api version (which orders the DRG parents) follows the registered proof\n"
        "whose porep_id this is; --api-version is needed only for other porep_ids.\n"
        "Example: the 2 KiB V1_1 cache, porep_id 05 00.. 00, has SHA-256 8400577...c25b97.\n");
}

int run_parent_cache(int argc, char** argv) {
    const char* cmd = "parent-cache";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--sector-size", "--porep-id", "--out", "--api-version"}, {},
                    args)) {
        return kExitUsage;
    }
    if (args.help) return help_parent_cache(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::string msg = "unexpected argument ";
        msg += args.positional[0];
        return fail_json(args, cmd, kExitUsage, msg);
    }
    if (!require(cmd, args, {"--sector-size", "--porep-id", "--out"})) return kExitUsage;
    auto size = porep::parse_sector_size(args.get("--sector-size"));
    if (!size.ok()) return fail_json(args, cmd, kExitUsage, size.status().message());
    auto id_bytes = util::from_hex(args.get("--porep-id"));
    if (!id_bytes.ok() || id_bytes->size() != 32) {
        return fail_json(args, cmd, kExitUsage, "--porep-id takes 64 hex digits (32 bytes)");
    }
    porep::PoRepId porep_id;
    std::copy(id_bytes->begin(), id_bytes->end(), porep_id.begin());
    porep::ApiVersion version = porep::ApiVersion::kV1_1_0;
    if (args.has("--api-version")) {
        auto v = porep::parse_api_version(args.get("--api-version"));
        if (!v.ok()) return fail_json(args, cmd, kExitUsage, v.status().message());
        version = *v;
    } else {
        auto proof = porep::seal_proof_from_porep_id(porep_id);
        if (!proof.ok()) {
            return fail_json(args, cmd, kExitUsage,
                             "--porep-id is not a registered proof's; give --api-version");
        }
        version = porep::seal_proof_info(*proof).api_version;
        if (porep::seal_proof_info(*proof).sector_size != *size) {
            std::fprintf(stderr, "cuzk parent-cache: note: porep_id is %s's, another size\n",
                         porep::seal_proof_info(*proof).name);
        }
    }
    const uint64_t nodes = *size / 32;
    auto graph = porep::SdrGraph::create(nodes, porep_id, version);
    if (!graph.ok()) return fail_json(args, cmd, kExitFail, graph.status().message());
    std::fprintf(stderr, "[parent-cache] %llu nodes, api %s: generating ...",
                 static_cast<unsigned long long>(nodes), porep::api_version_name(version));
    std::fflush(stderr);
    util::Stopwatch sw;
    const porep::ParentCache cache = porep::ParentCache::generate(*graph);
    const double gen_ms = sw.elapsed_ms();
    std::fprintf(stderr, " %.1f ms\n", gen_ms);
    sw.reset();
    const std::vector<uint32_t>& data = cache.data();
    std::string bytes(data.size() * 4, '\0');
    for (size_t i = 0; i < data.size(); ++i) {
        for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>(data[i] >> (8 * b));
    }
    if (auto st = write_file(args.get("--out"), bytes); !st.ok()) {
        return fail_json(args, cmd, kExitFail, st.message());
    }
    const double write_ms = sw.elapsed_ms();
    const std::string digest = util::to_hex(cache.digest());
    std::fprintf(stderr, "wrote %s (%zu bytes) in %.1f ms\n", args.get("--out").c_str(),
                 bytes.size(), write_ms);
    if (!args.json) {
        std::printf("%s  %s\n", digest.c_str(), args.get("--out").c_str());
        return kExitOk;
    }
    JsonObject ms;
    ms.ms("generate", gen_ms).ms("write", write_ms);
    JsonObject o;
    o.boolean("ok", true)
        .str("command", cmd)
        .num("sector_size", *size)
        .num("nodes", nodes)
        .str("api_version", porep::api_version_name(version))
        .str("sha256", digest)
        .str("file", args.get("--out"))
        .num("bytes", bytes.size())
        .raw("ms", ms.done());
    std::printf("%s\n", o.done().c_str());
    return kExitOk;
}

}  // namespace
}  // namespace cuzk::cli

CUZK_CLI_COMMAND("parent-cache", 31, cuzk::cli::usage_parent_cache, cuzk::cli::run_parent_cache);
