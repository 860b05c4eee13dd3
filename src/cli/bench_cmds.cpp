// `cuzk bench gpu-ntt`: GPU NTT timings on device-resident data (gpu/ntt_bench.hpp), a table on
// stdout (or one JSON object per size with --json). Median and spread over repetitions; every
// size's results are verified before it is timed. Without a CUDA build or device: exit 1 with
// the reason.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#if CUZK_HAVE_GPU
#include "gpu/device.hpp"
#include "gpu/ntt_bench.hpp"
#endif

namespace cuzk::cli {
namespace {

void print_bench_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: cuzk bench gpu-ntt [--log-min A] [--log-max B] [--reps N]\n"
                 "                          [--algorithm dif|dit|both] [--mul ptx|wide|both] [--json]\n"
                 "  Times forward, inverse, coset forward and coset inverse NTTs of 2^A..2^B\n"
                 "  random Fr values resident on the GPU (defaults: 20..27, 5 repetitions after\n"
                 "  one warm-up, dif, ptx: the 32-bit PTX field product; wide: the 64-bit one).\n"
                 "  Each size is first checked against the CPU transform\n"
                 "  (2^22 and below) or by round trips; prints median, min and max ms.\n");
}

#if CUZK_HAVE_GPU
struct Stats {
    double median, min, max;
};
Stats stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

int bench_gpu_ntt(const Args& args) {
    uint64_t lo = 20, hi = 27, reps = 5;
    if ((args.has("--log-min") && !parse_u64(args.get("--log-min"), lo)) ||
        (args.has("--log-max") && !parse_u64(args.get("--log-max"), hi)) ||
        (args.has("--reps") && !parse_u64(args.get("--reps"), reps)) || lo > hi || hi > 28 ||
        reps == 0 || reps > 1000)
        return fail_json(args, "bench gpu-ntt", kExitUsage,
                         "--log-min/--log-max must satisfy A <= B <= 28 and --reps 1..1000");
    std::vector<gpu::NttAlgorithm> algorithms = {gpu::NttAlgorithm::kDif};
    if (args.has("--algorithm")) {
        const std::string& a = args.get("--algorithm");
        if (a == "dit") algorithms = {gpu::NttAlgorithm::kDit};
        else if (a == "both") algorithms = {gpu::NttAlgorithm::kDif, gpu::NttAlgorithm::kDit};
        else if (a != "dif")
            return fail_json(args, "bench gpu-ntt", kExitUsage,
                             "--algorithm must be dif, dit or both");
    }
    std::vector<bool> muls = {true};
    if (args.has("--mul")) {
        const std::string& m = args.get("--mul");
        if (m == "wide") muls = {false};
        else if (m == "both") muls = {true, false};
        else if (m != "ptx")
            return fail_json(args, "bench gpu-ntt", kExitUsage, "--mul must be ptx, wide or both");
    }
    const util::Status dev = gpu::check_device_available();
    if (!dev.ok()) return fail_json(args, "bench gpu-ntt", kExitFail, dev.to_string());
    if (!args.json)
        std::printf("%-6s %-4s %-5s %-28s %-28s %-28s %-28s\n", "size", "alg", "mul",
                    "forward ms (med min-max)",
                    "inverse", "coset_forward", "coset_inverse");
    for (unsigned log_n = static_cast<unsigned>(lo); log_n <= hi; ++log_n) {
        for (gpu::NttAlgorithm alg : algorithms) for (bool ptx : muls) {
            auto r = gpu::bench_ntt(log_n, static_cast<int>(reps), gpu::NttOptions{alg, ptx});
            if (!r.ok()) return fail_json(args, "bench gpu-ntt", kExitFail, r.status().to_string());
            const Stats s[4] = {stats(r->forward_ms), stats(r->inverse_ms),
                                stats(r->coset_forward_ms), stats(r->coset_inverse_ms)};
            if (args.json) {
                JsonObject o;
                o.boolean("ok", true).str("bench", "gpu-ntt").num("log_size", log_n);
                o.str("algorithm", r->algorithm).str("mul", r->mul).num("repetitions", reps);
                const char* names[4] = {"forward", "inverse", "coset_forward", "coset_inverse"};
                for (int k = 0; k < 4; ++k) {
                    JsonObject inner;
                    inner.ms("median_ms", s[k].median).ms("min_ms", s[k].min).ms("max_ms", s[k].max);
                    o.raw(names[k], inner.done());
                }
                o.str("verified", r->verified);
                std::printf("%s\n", o.done().c_str());
            } else {
                char cells[4][64];
                for (int k = 0; k < 4; ++k)
                    std::snprintf(cells[k], sizeof cells[k], "%.3f (%.3f-%.3f)", s[k].median,
                                  s[k].min, s[k].max);
                std::printf("2^%-4u %-4s %-5s %-28s %-28s %-28s %-28s\n", log_n,
                            r->algorithm.c_str(), r->mul.c_str(), cells[0], cells[1], cells[2],
                            cells[3]);
            }
            std::fflush(stdout);
        }
    }
    return kExitOk;
}
#endif

}  // namespace

void print_bench_line(std::FILE* out) {
    std::fprintf(out,
                 "  bench gpu-ntt [--log-min A] [--log-max B] [--reps N] [--algorithm X] [--json]\n"
                 "                       time the GPU NTT (see 'cuzk bench --help')\n");
}

int run_bench(int argc, char** argv) {
    if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        print_bench_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? kExitUsage : kExitOk;
    }
    const std::string_view what = argv[1];
    Args args;
    if (!parse_args("bench", argc - 1, argv + 1,
                    {"--log-min", "--log-max", "--reps", "--algorithm", "--mul"},
                    {}, args))
        return kExitUsage;
    if (args.help) {
        print_bench_usage(stdout);
        return kExitOk;
    }
    if (what == "gpu-ntt") {
#if CUZK_HAVE_GPU
        return bench_gpu_ntt(args);
#else
        return fail_json(args, "bench gpu-ntt", kExitFail,
                         "this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
#endif
    }
    std::fprintf(stderr, "cuzk bench: unknown benchmark '%s' (see 'cuzk bench --help')\n", argv[1]);
    return kExitUsage;
}

}  // namespace cuzk::cli
