// `cuzk bench gpu-ntt | gpu-msm`: GPU NTT and G1/G2 MSM timings on device-resident data
// (gpu/ntt_bench.hpp, gpu/msm_bench.hpp), a table on
// stdout (or one JSON object per size with --json). Median and spread over repetitions; every
// size's results are verified before it is timed. Without a CUDA build or device: exit 1 with
// the reason.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.hpp"
#include "cli/bench_gpu_prove.hpp"
#include "cli/bench_stats.hpp"
#include "cli/bench_pipeline.hpp"
#include "cli/bench_synthesis.hpp"
#include "cli/commands.hpp"
#if CUZK_HAVE_GPU
#include "gpu/arith_bench.hpp"
#include "gpu/device.hpp"
#include "gpu/msm_bench.hpp"
#include "gpu/ntt_bench.hpp"
#endif

namespace cuzk::cli {
namespace {

void print_bench_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: cuzk bench gpu-ntt [--log-min A] [--log-max B] [--reps N]\n"
                 "                          [--algorithm dif|dit|both]\n"
                 "                          [--mul sparse|karatsuba|ptx|wide|both|all] [--json]\n"
                 "  Times forward, inverse, coset forward and coset inverse NTTs of 2^A..2^B\n"
                 "  random Fr values resident on the GPU (defaults: 20..27, 5 repetitions after\n"
                 "  one warm-up, dif; --mul: sparse = the 32-bit PTX arithmetic with the sparse\n"
                 "  Montgomery reduction, karatsuba = that with one level of Karatsuba in the\n"
                 "  product, ptx = without either, wide = the 64-bit limb code, both = sparse\n"
                 "  and wide, all = the four; unset: as CUZK_FR_SPARSE_REDUCTION and\n"
                 "  CUZK_FR_KARATSUBA say).\n"
                 "  Each size is first checked against the CPU transform\n"
                 "  (2^22 and below) or by round trips; prints median, min and max ms.\n"
                 "usage: cuzk bench gpu-msm [--log-min A] [--log-max B] [--reps N] [--window C]\n"
                 "                          [--chunk N] [--curve g1|g2] [--min-blocks N] [--block N]\n"
                 "                          [--prefetch | --no-prefetch] [--agg-threads N]\n"
                 "                          [--batch-affine | --no-batch-affine]\n"
                 "                          [--windows-per-pass N] [--json]\n"
                 "  Times G1 (default) or G2 MSMs of 2^A..2^B random scalars over bases\n"
                 "  resident on the GPU\n"
                 "  (defaults: 16..26, 5 repetitions after a checked run; --window C fixes the\n"
                 "  window size, default by cost model; --chunk N sorted items per bucket\n"
                 "  thread or batch-affine chunk (defaults 32 and by size: 8, 16 or 32);\n"
                 "  --min-blocks 3|4: G1 bucket kernel bounded to 168|128\n"
                 "  registers (0: unbounded); --block 32|64|128: its threads per block;\n"
                 "  --prefetch / --no-prefetch: a load of the next base during an addition or\n"
                 "  not (the curve's own switch); these default\n"
                 "  to the environment's CUZK_MSM_MIN_BLOCKS (0, 3, 4), CUZK_MSM_ACCUMULATE_BLOCK\n"
                 "  (default 128), CUZK_MSM_PREFETCH and\n"
                 "  CUZK_MSM_PREFETCH_G2 (0, 1; on for G1, off for G2 when unset);\n"
                 "  --agg-threads N: threads of the running-sum step, default 65536;\n"
                 "  --batch-affine: batch-affine bucket accumulation at every size;\n"
                 "  --no-batch-affine: XYZZ accumulation at every size; when neither is given,\n"
                 "  CUZK_MSM_BATCH_AFFINE (default on) from CUZK_MSM_BATCH_AFFINE_MIN points\n"
                 "  (G1, default 2^24) / CUZK_MSM_BATCH_AFFINE_MIN_G2 (default 2^21));\n"
                 "  --windows-per-pass N: the windows in passes of N (default: all in one pass\n"
                 "  when the temporaries fit the free memory, CUZK_MSM_WINDOWS_PER_PASS and\n"
                 "  CUZK_MSM_SCRATCH_BUDGET_MIB otherwise); \"passes\" and \"temp GB\" say what\n"
                 "  ran.\n"
                 "  Each size is first checked against\n"
                 "  the CPU MSM of the folded problem; prints median and per-step medians.\n");
    std::fprintf(out,
                 "usage: cuzk bench gpu-arith [--reps N] [--json]\n"
                 "  Throughput of the device arithmetic: Fp and Fr products and the G1 mixed\n"
                 "  addition of the MSM buckets (two dependent chains per thread, 2^20 threads,\n"
                 "  results checked on the host); prints G ops/s and the implied IMAD rate.\n");
    print_bench_gpu_prove_usage(out);
    std::fprintf(out, "usage: cuzk bench pipeline --sector-size SIZE --jobs N ... (see its --help)\n");
    print_bench_synthesis_usage(out);
}

#if CUZK_HAVE_GPU
int bench_gpu_arith(const Args& args) {
    uint64_t reps = 5;
    if (args.has("--reps") && (!parse_u64(args.get("--reps"), reps) || reps == 0 || reps > 1000))
        return fail_json(args, "bench gpu-arith", kExitUsage, "--reps must be 1..1000");
    auto results = gpu::bench_device_arith(static_cast<int>(reps));
    if (!results.ok())
        return fail_json(args, "bench gpu-arith", kExitFail, results.status().to_string());
    if (!args.json) std::printf("%-10s %10s %14s %12s %16s\n", "op", "ms", "ops/launch", "G ops/s",
                                "implied T IMAD/s");
    for (const gpu::ArithBenchResult& r : *results) {
        if (args.json) {
            JsonObject o;
            o.boolean("ok", true).str("bench", "gpu-arith").str("op", r.what).ms("median", r.ms)
                .num("ops", static_cast<uint64_t>(r.ops)).ms("gops", r.gops)
                .ms("implied_tera_imad", r.imad_tera);
            std::printf("%s\n", o.done().c_str());
        } else {
            std::printf("%-10s %10.3f %14.0f %12.3f %16.2f\n", r.what.c_str(), r.ms, r.ops, r.gops,
                        r.imad_tera);
        }
    }
    return kExitOk;
}

int bench_gpu_msm(const Args& args) {
    uint64_t lo = 16, hi = 26, reps = 5, window = 0, chunk = 32, agg_threads = 0, min_blocks = 0,
             block = 0, windows_per_pass = 0;
    const std::string curve = args.has("--curve") ? args.get("--curve") : "g1";
    if ((args.has("--log-min") && !parse_u64(args.get("--log-min"), lo)) ||
        (args.has("--log-max") && !parse_u64(args.get("--log-max"), hi)) ||
        (args.has("--reps") && !parse_u64(args.get("--reps"), reps)) ||
        (args.has("--window") && !parse_u64(args.get("--window"), window)) ||
        (args.has("--chunk") && !parse_u64(args.get("--chunk"), chunk)) ||
        (args.has("--agg-threads") &&
         (!parse_u64(args.get("--agg-threads"), agg_threads) || agg_threads == 0 ||
          agg_threads > (uint64_t{1} << 24))) ||
        (args.has("--min-blocks") && (!parse_u64(args.get("--min-blocks"), min_blocks) ||
                                      (min_blocks != 0 && min_blocks != 3 && min_blocks != 4))) ||
        (args.has("--block") &&
         (!parse_u64(args.get("--block"), block) || (block != 32 && block != 64 && block != 128))) ||
        (args.has("--windows-per-pass") &&
         (!parse_u64(args.get("--windows-per-pass"), windows_per_pass) || windows_per_pass == 0 ||
          windows_per_pass > 256)) ||
        lo > hi || hi > 28 ||
        reps == 0 || reps > 1000 || window > gpu::GpuMsmOptions::kMaxWindowBits || chunk == 0 ||
        chunk > 4096 || (curve != "g1" && curve != "g2"))
        return fail_json(args, "bench gpu-msm", kExitUsage,
                         "--log-min/--log-max must satisfy A <= B <= 28, --reps 1..1000, "
                         "--window 0..22, --chunk 1..4096, --curve g1|g2, "
                         "--agg-threads 1..16777216, --min-blocks 0|3|4, --block 32|64|128, "
                         "--windows-per-pass 1..256");
    const util::Status dev = gpu::check_device_available();
    if (!dev.ok()) return fail_json(args, "bench gpu-msm", kExitFail, dev.to_string());
    if (!args.json)
        std::printf("%-6s %-3s %-12s %-9s %-9s %-9s %-9s %-9s %-7s %-8s %s\n", "size", "c",
                    "total ms", "upload", "digits", "sort", "buckets", "windows", "passes",
                    "temp GB", "accumulation");
    for (unsigned log_n = static_cast<unsigned>(lo); log_n <= hi; ++log_n) {
        gpu::GpuMsmOptions options;
        options.window_bits = static_cast<unsigned>(window);
        if (args.has("--chunk")) {
            options.chunk = static_cast<unsigned>(chunk);
            options.batch_affine_chunk = static_cast<unsigned>(chunk);
        }
        if (args.has("--min-blocks"))
            options.accumulate_min_blocks = static_cast<unsigned>(min_blocks);
        if (args.has("--block")) options.accumulate_block = static_cast<unsigned>(block);
        if (args.has("--prefetch") || args.has("--no-prefetch"))
            (curve == "g2" ? options.prefetch_next_base_g2 : options.prefetch_next_base) =
                args.has("--prefetch");
        if (agg_threads != 0) options.aggregate_threads = static_cast<unsigned>(agg_threads);
        if (windows_per_pass != 0)
            options.windows_per_pass = static_cast<unsigned>(windows_per_pass);
        if (args.has("--batch-affine") || args.has("--no-batch-affine")) {
            options.batch_affine = args.has("--batch-affine");
            options.batch_affine_min_points = options.batch_affine_min_points_g2 = 0;
        }
        const gpu::MsmPlan plan = gpu::plan_msm(options, size_t{1} << log_n, curve == "g2");
        const bool batch_affine = plan.batch_affine;
        auto r = curve == "g2" ? gpu::bench_msm_g2(log_n, static_cast<int>(reps), options)
                               : gpu::bench_msm_g1(log_n, static_cast<int>(reps), options);
        if (!r.ok()) return fail_json(args, "bench gpu-msm", kExitFail, r.status().to_string());
        auto median_of = [&](double gpu::GpuMsmTimings::*field) {
            std::vector<double> v;
            for (const auto& t : r->runs) v.push_back(t.*field);
            return median(std::move(v));
        };
        using T = gpu::GpuMsmTimings;
        const T& last = r->runs.back();  // the passes and temporaries (alike in every run)
        if (args.json) {
            JsonObject o;
            o.boolean("ok", true).str("bench", "gpu-msm");
            o.str("curve", curve == "g2" ? "G2" : "G1");
            o.num("log_size", log_n).num("window_bits", r->window_bits).num("chunk", plan.chunk);
            o.num("repetitions", reps).boolean("batch_affine", batch_affine);
            o.ms("total_ms", median_of(&T::total)).ms("upload_ms", median_of(&T::upload));
            o.ms("digits_ms", median_of(&T::digits)).ms("sort_ms", median_of(&T::sort));
            o.ms("buckets_ms", median_of(&T::buckets)).ms("windows_ms", median_of(&T::windows));
            o.num("passes", last.passes).num("windows_per_pass", last.windows_per_pass);
            o.num("scratch_bytes", last.scratch_bytes);
            std::printf("%s\n", o.done().c_str());
        } else {
            std::printf(
                "2^%-4u %-3u %-12.3f %-9.3f %-9.3f %-9.3f %-9.3f %-9.3f %-7u %-8.2f %s, chunk %u\n",
                log_n, r->window_bits, median_of(&T::total), median_of(&T::upload),
                median_of(&T::digits), median_of(&T::sort), median_of(&T::buckets),
                median_of(&T::windows), last.passes,
                static_cast<double>(last.scratch_bytes) / 1e9,
                batch_affine ? "batch-affine" : "xyzz", plan.chunk);
        }
        std::fflush(stdout);
    }
    return kExitOk;
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
    // The field arithmetics to time (NttOptions' ptx_mul, sparse_reduction, karatsuba_product);
    // unset: the options' default.
    struct Arith {
        bool ptx, sparse, karatsuba;
    };
    const gpu::NttOptions defaults;
    std::vector<Arith> muls = {
        {defaults.ptx_mul, defaults.sparse_reduction, defaults.karatsuba_product}};
    if (args.has("--mul")) {
        const std::string& m = args.get("--mul");
        const Arith sparse{true, true, false}, karatsuba{true, true, true},
            ptx{true, false, false}, wide{false, false, false};
        if (m == "sparse") muls = {sparse};
        else if (m == "karatsuba") muls = {karatsuba};
        else if (m == "ptx") muls = {ptx};
        else if (m == "wide") muls = {wide};
        else if (m == "both") muls = {sparse, wide};
        else if (m == "all") muls = {sparse, karatsuba, ptx, wide};
        else
            return fail_json(args, "bench gpu-ntt", kExitUsage,
                             "--mul must be sparse, karatsuba, ptx, wide, both or all");
    }
    const util::Status dev = gpu::check_device_available();
    if (!dev.ok()) return fail_json(args, "bench gpu-ntt", kExitFail, dev.to_string());
    if (!args.json)
        std::printf("%-6s %-4s %-9s %-28s %-28s %-28s %-28s\n", "size", "alg", "mul",
                    "forward ms (med min-max)",
                    "inverse", "coset_forward", "coset_inverse");
    for (unsigned log_n = static_cast<unsigned>(lo); log_n <= hi; ++log_n) {
        for (gpu::NttAlgorithm alg : algorithms) for (const Arith& mul : muls) {
            gpu::NttOptions options{alg, mul.ptx};
            options.sparse_reduction = mul.sparse;
            options.karatsuba_product = mul.karatsuba;
            auto r = gpu::bench_ntt(log_n, static_cast<int>(reps), options);
            if (!r.ok()) return fail_json(args, "bench gpu-ntt", kExitFail, r.status().to_string());
            const SampleStats s[4] = {sample_stats(r->forward_ms), sample_stats(r->inverse_ms),
                                      sample_stats(r->coset_forward_ms),
                                      sample_stats(r->coset_inverse_ms)};
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
                std::printf("2^%-4u %-4s %-9s %-28s %-28s %-28s %-28s\n", log_n,
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
                 "  bench gpu-ntt|gpu-msm [--log-min A] [--log-max B] [--reps N] [--json] ...\n"
                 "                       time the GPU NTT or G1 MSM (see 'cuzk bench --help')\n"
                 "  bench gpu-prove (--circuit NAME | --sector-size SIZE | --c1 FILE) ...\n"
                 "                       whole proofs on the GPU with the phase breakdown\n"
                 "  bench pipeline --sector-size SIZE --jobs N ...\n"
                 "                       jobs through the proving engine (see 'cuzk bench pipeline --help')\n"
                 "  bench synthesis --sector-size SIZE [--reps R]\n"
                 "                       the CPU synthesis of one partition\n");
}

int run_bench(int argc, char** argv) {
    if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        print_bench_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? kExitUsage : kExitOk;
    }
    const std::string_view what = argv[1];
    if (what == "gpu-prove") return run_bench_gpu_prove(argc - 1, argv + 1);
    if (what == "pipeline") return run_bench_pipeline(argc - 1, argv + 1);
    if (what == "synthesis") return run_bench_synthesis(argc - 1, argv + 1);
    Args args;
    if (!parse_args("bench", argc - 1, argv + 1,
                    {"--log-min", "--log-max", "--reps", "--algorithm", "--mul", "--window",
                     "--chunk", "--curve", "--agg-threads", "--min-blocks", "--block",
                     "--windows-per-pass"},
                    {"--no-prefetch", "--prefetch", "--batch-affine", "--no-batch-affine"},
                    args))
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
    if (what == "gpu-arith") {
#if CUZK_HAVE_GPU
        return bench_gpu_arith(args);
#else
        return fail_json(args, "bench gpu-arith", kExitFail,
                         "this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
#endif
    }
    if (what == "gpu-msm") {
#if CUZK_HAVE_GPU
        return bench_gpu_msm(args);
#else
        return fail_json(args, "bench gpu-msm", kExitFail,
                         "this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
#endif
    }
    std::fprintf(stderr, "cuzk bench: unknown benchmark '%s' (see 'cuzk bench --help')\n", argv[1]);
    return kExitUsage;
}

}  // namespace cuzk::cli
