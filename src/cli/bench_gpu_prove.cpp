// `cuzk bench gpu-prove`: N circuits proved in one GPU call (gpu::prove_gpu), repeated, with the
// prover's phase timers (median over repetitions, and per circuit), the proofs verified on the
// CPU, optionally a Chrome trace. The parameters come from a .params file or are generated on the
// GPU from the circuit's shape (gpu/resident_setup.hpp, INSECURE test toxic waste) — how 32 GiB
// PoRep is benchmarked without a 47 GB file. PoRep witnesses come from a C1 file or from a
// synthetic C1 of any sector size (porep/synthetic_c1.hpp).
#include "cli/bench_gpu_prove.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/bench_stats.hpp"
#include "cli/device_memory_arg.hpp"
#include "cli/env_variants.hpp"
#include "cli/porep_args.hpp"

#if CUZK_HAVE_GPU
#include "gpu/coset_convert.hpp"
#include "gpu/device.hpp"
#include "gpu/device_circuit.hpp"
#include "gpu/prover.hpp"
#include "gpu/resident_params.hpp"
#include "gpu/resident_setup.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1_json.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/timer.hpp"
#include "util/trace.hpp"
#endif

namespace cuzk::cli {

void print_bench_gpu_prove_usage(std::FILE* out) {
    std::fprintf(
        out,
        "usage: cuzk bench gpu-prove (--circuit NAME | --sector-size SIZE | --c1 FILE)\n"
        "                            [--count N] [--reps R] [--params FILE] [--seed S]\n"
        "                            [--synthesis-workers W] [--trace FILE] [--no-verify] [--json]\n"
        "                            [--compiled [--no-overlap]] [--variants SPEC]\n"
        "                            [--device-memory-gib N] [--h-basis LIST]\n"
        "                            [--convert-on-gpu]\n"
        "Proves N circuits in one GPU call, R times, and prints the prover's phases (ms): the\n"
        "median call (the mean of the middle two for an even R), the fastest and slowest, and\n"
        "the per-circuit share (synthesis, h2d, ntt_h, msm_h, prep_msm, batch_addition,\n"
        "tail_msm, b_g2, proof_assembly, total). The proofs are verified.\n"
        "  --circuit NAME        an example circuit (cubic, random:K, sha256:N), N copies\n"
        "  --sector-size SIZE    PoRep partitions of a synthetic C1 of that size (2KiB .. 64GiB;\n"
        "                        V1_1); N partitions, cycling when N exceeds the sector's\n"
        "  --c1 FILE             PoRep partitions of this C1 output instead\n"
        "  --count N             circuits per call (default 1)\n"
        "  --reps R              repetitions (default 3)\n"
        "  --params FILE         resident parameters from this file; without it they are\n"
        "                        generated on the GPU from the circuit (INSECURE test toxic\n"
        "                        waste from --seed, default 1)\n"
        "  --h-basis LIST        the parameters' H bases: monomial (a .params file's;\n"
        "                        the default) or coset-lagrange (H in the coset's Lagrange\n"
        "                        basis and C folded into L: the H step in four transforms\n"
        "                        instead of six, the same proofs; groth16/coset_bases.hpp);\n"
        "                        \"monomial,coset-lagrange\" runs both from one setup, one\n"
        "                        parameter set after the other, a table per basis. With\n"
        "                        --params the file's points are converted on the GPU\n"
        "  --convert-on-gpu      generated coset-lagrange parameters by converting the\n"
        "                        monomial set's points on the GPU (as for a .params file:\n"
        "                        two transforms over G1 and C folded into L; phases\n"
        "                        coset_r, coset_s, coset_q) instead of from the toxic waste\n"
        "  --synthesis-workers W circuits synthesized ahead of the GPU (default 2)\n"
        "  --trace FILE          write a Chrome trace (chrome://tracing, ui.perfetto.dev)\n"
        "  --no-verify           skip the CPU verification of the proofs\n"
        "  --compiled            the compiled-circuit path: the circuit's shape recorded once\n"
        "                        and resident on the GPU; per circuit only the witness is\n"
        "                        generated and uploaded, a/b/c computed on the GPU (phases\n"
        "                        witness and spmv replace synthesis)\n"
        "  --no-overlap          with --compiled: do not upload the next witness while the\n"
        "                        current circuit is proved (CUZK_GPU_OVERLAP_H2D=0)\n"
        "  --variants SPEC       A/B of run-time switches on one setup: variants separated by\n"
        "                        ';', each a ','-separated list of CUZK_NAME=VALUE (an empty\n"
        "                        variant: the defaults), e.g. \"CUZK_MSM_CACHE_SCRATCH=1;\"; the\n"
        "                        repetitions alternate between the variants, and each variant\n"
        "                        gets its own table and its proofs verified\n"
        "%s",
        device_memory_gib_help(24).c_str());
}

#if !CUZK_HAVE_GPU

int run_bench_gpu_prove(int argc, char** argv) {
    Args args;
    (void)parse_args("bench gpu-prove", argc, argv, {}, {}, args);
    return fail_json(args, "bench gpu-prove", kExitFail,
                     "this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
}

#else

namespace {

const char* kCmd = "bench gpu-prove";
constexpr const char* kPhases[] = {"synthesis", "witness",  "h2d",       "spmv",
                                   "ntt_h",     "msm_h",    "prep_msm",  "batch_addition",
                                   "tail_msm",  "b_g2",     "split_msms", "proof_assembly",
                                   "total"};

struct Workload {
    std::string name;
    std::vector<groth16::Circuit> circuits;
    std::vector<std::vector<ff::Fr>> inputs;
    groth16::Circuit shape;  // for the GPU setup
};

util::Result<Workload> make_workload(const Args& args, size_t count) {
    Workload w;
    if (args.has("--circuit")) {
        CUZK_ASSIGN_OR_RETURN(auto ex, groth16::examples::make_example_circuit(args.get("--circuit")));
        if (ex.shape_only)
            return util::invalid_argument(ex.name + " has no witness; use --sector-size for PoRep");
        w.name = ex.name;
        w.shape = ex.circuit;
        w.circuits.assign(count, ex.circuit);
        w.inputs.assign(count, ex.public_inputs);
        return w;
    }
    porep::SealCommitPhase1Output c1;
    if (args.has("--c1")) {
        CUZK_ASSIGN_OR_RETURN(auto bytes, read_file(args.get("--c1")));
        CUZK_ASSIGN_OR_RETURN(auto file,
                              porep::parse_c1_file(std::string(bytes.begin(), bytes.end())));
        c1 = std::move(file.c1);
    } else {
        porep::SyntheticC1Inputs in;
        CUZK_ASSIGN_OR_RETURN(in.proof, registered_proof_from_args(args, "--registered-proof"));
        util::Stopwatch sw;
        CUZK_ASSIGN_OR_RETURN(auto synthetic, porep::generate_synthetic_c1(in));
        std::fprintf(stderr, "      synthetic C1 (%s) in %.0f ms\n",
                     porep::seal_proof_info(in.proof).name, sw.elapsed_ms());
        c1 = std::move(synthetic.c1);
    }
    CUZK_ASSIGN_OR_RETURN(porep::PartitionCircuits pc, porep::circuits_from_c1(c1));
    CUZK_ASSIGN_OR_RETURN(w.shape, porep::blank_stacked_circuit(pc.proof));
    w.name = std::string("porep:") + porep::seal_proof_info(pc.proof).name;
    for (size_t k = 0; k < count; ++k) {
        w.circuits.push_back(pc.circuits[k % pc.circuits.size()]);
        w.inputs.push_back(pc.public_inputs[k % pc.circuits.size()]);
    }
    return w;
}

// The parameters of one H basis: from --params (monomial only), or generated on the GPU from
// `scalars` — made on the first call from `shape`, and converted in place for a later basis.
util::Result<gpu::ResidentParams> make_params(const Args& args, const Workload& w,
                                              const r1cs::ShapeRecorder* shape, uint64_t seed,
                                              groth16::HBasis basis,
                                              std::optional<groth16::ParameterScalars>& scalars,
                                              util::PhaseTimes& setup_times) {
    if (basis == groth16::HBasis::kCosetLagrange &&
        (args.has("--params") || args.has("--convert-on-gpu"))) {
        // A monomial set (the file's, or generated), its points converted on the GPU.
        CUZK_ASSIGN_OR_RETURN(gpu::ResidentParams p,
                              make_params(args, w, shape, seed, groth16::HBasis::kMonomial,
                                          scalars, setup_times));
        std::fprintf(stderr, "      converting the H bases to coset-Lagrange on the GPU\n");
        gpu::CosetConvertOptions co;
        co.times = &setup_times;
        co.progress = [](const char* step, uint64_t done, uint64_t total) {
            if (done == total || std::string_view(step) != "s")
                std::fprintf(stderr, "\r      %s: %llu / %llu%s", step,
                             static_cast<unsigned long long>(done),
                             static_cast<unsigned long long>(total), done == total ? "\n" : "");
        };
        CUZK_RETURN_IF_ERROR(gpu::convert_params_to_coset_lagrange(p, *shape, co));
        return p;
    }
    if (args.has("--params")) {
        gpu::ResidentLoadOptions lo;
        lo.subgroup_check = ec::SubgroupCheck::kSkip;
        util::PhaseScope phase("load_params", &setup_times);
        return gpu::ResidentParams::load(args.get("--params"), lo);
    }
    std::fprintf(stderr,
                 "      generating INSECURE test parameters on the GPU (toxic waste from seed %llu, "
                 "%s H bases)\n",
                 static_cast<unsigned long long>(seed), groth16::h_basis_name(basis));
    const groth16::ToxicWaste toxic = groth16::ToxicWaste::from_seed(seed);
    if (!scalars.has_value()) {
        CUZK_ASSIGN_OR_RETURN(scalars, groth16::compute_parameter_scalars(*shape, toxic, nullptr,
                                                                          &setup_times, basis));
    } else if (scalars->h_basis != basis) {  // monomial → coset-Lagrange (parse_bases' order)
        util::PhaseScope phase("setup_coset_lagrange", &setup_times);
        CUZK_RETURN_IF_ERROR(groth16::convert_to_coset_lagrange(*shape, toxic, *scalars));
    }
    gpu::GpuSetupOptions so;
    so.times = &setup_times;
    so.label = w.name + " (GPU setup)";
    so.progress = [](const char* section, uint64_t done, uint64_t total) {
        if (done == total)
            std::fprintf(stderr, "      %s: %llu points\n", section,
                         static_cast<unsigned long long>(total));
    };
    return gpu::generate_resident_params(*scalars, so);
}

// "monomial,coset-lagrange" → the bases in that order, each at most once, monomial first (the
// coset-Lagrange set is converted from the monomial one's scalars or points).
util::Result<std::vector<groth16::HBasis>> parse_bases(const std::string& list) {
    std::vector<groth16::HBasis> bases;
    size_t begin = 0;
    for (;;) {
        const size_t comma = list.find(',', begin);
        CUZK_ASSIGN_OR_RETURN(groth16::HBasis b,
                              groth16::parse_h_basis(list.substr(begin, comma - begin)));
        if (std::find(bases.begin(), bases.end(), b) != bases.end())
            return util::invalid_argument(std::string("--h-basis lists ") +
                                          groth16::h_basis_name(b) + " twice");
        if (b == groth16::HBasis::kMonomial && !bases.empty())
            return util::invalid_argument("list monomial before coset-lagrange");
        bases.push_back(b);
        if (comma == std::string::npos) return bases;
        begin = comma + 1;
    }
}

}  // namespace

int run_bench_gpu_prove(int argc, char** argv) {
    Args args;
    if (!parse_args(kCmd, argc, argv,
                    {"--circuit", "--sector-size", "--registered-proof", "--c1", "--count", "--reps",
                     "--params", "--seed", "--synthesis-workers", "--trace", "--variants",
                     "--device-memory-gib", "--h-basis"},
                    {"--no-verify", "--compiled", "--no-overlap", "--convert-on-gpu"}, args))
        return kExitUsage;
    if (args.help) return print_bench_gpu_prove_usage(stdout), kExitOk;
    const int sources = int(args.has("--circuit")) + int(args.has("--sector-size") ||
                                                          args.has("--registered-proof")) +
                        int(args.has("--c1"));
    if (sources != 1)
        return fail_json(args, kCmd, kExitUsage,
                         "give exactly one of --circuit NAME, --sector-size SIZE, --c1 FILE");
    uint64_t count = 1, reps = 3, seed = 1, workers = 2;
    for (auto [key, out] : {std::pair{"--count", &count}, std::pair{"--reps", &reps},
                            std::pair{"--seed", &seed}, std::pair{"--synthesis-workers", &workers}}) {
        if (args.has(key) && !parse_u64(args.get(key), *out))
            return fail_json(args, kCmd, kExitUsage, std::string(key) + " must be a decimal integer");
    }
    if (count == 0 || reps == 0 || workers == 0 || workers > 64)
        return fail_json(args, kCmd, kExitUsage,
                         "--count, --reps and --synthesis-workers must be >= 1 (workers <= 64)");
    std::vector<groth16::HBasis> bases = {groth16::HBasis::kMonomial};
    if (args.has("--h-basis")) {
        auto b = parse_bases(args.get("--h-basis"));
        if (!b.ok()) return fail_json(args, kCmd, kExitUsage, "--h-basis: " + b.status().message());
        bases = std::move(*b);
    }
    std::vector<EnvVariant> envs = {EnvVariant{"defaults", {}}};
    if (args.has("--variants")) {
        auto v = parse_env_variants(args.get("--variants"));
        if (!v.ok()) return fail_json(args, kCmd, kExitUsage, v.status().message());
        envs = std::move(*v);
    }
    // The variants: every basis (one parameter set each, in turn) × every environment (the
    // repetitions alternate between these on one set).
    struct Variant {
        groth16::HBasis basis;
        const EnvVariant* env;
        std::string label;
    };
    std::vector<Variant> variants;
    for (groth16::HBasis b : bases)
        for (const EnvVariant& e : envs)
            variants.push_back({b, &e,
                                bases.size() > 1 ? std::string(groth16::h_basis_name(b)) + "; " +
                                                       e.label
                                                 : e.label});
    const bool labelled = variants.size() > 1;
    std::shared_ptr<void> hold;  // (a bad N is refused before the device is looked for)
    if (int code = hold_device_memory_arg(args, kCmd, hold); code != kExitOk) return code;
    if (auto st = gpu::check_device_available(); !st.ok())
        return fail_json(args, kCmd, kExitFail, st.to_string());

    util::Stopwatch total;
    std::fprintf(stderr, "[1/3] workload\n");
    auto w = make_workload(args, count);
    if (!w.ok()) return fail_json(args, kCmd, kExitUsage, w.status().message());
    std::fprintf(stderr, "      %s, %zu circuit(s) per call\n", w->name.c_str(), w->circuits.size());

    // The shape is recorded once: the compiled circuit's, or (for generated parameters) here.
    std::unique_ptr<groth16::CompiledCircuit> compiled;
    std::unique_ptr<gpu::DeviceCircuit> device_circuit;
    JsonObject compile_info;
    if (args.has("--compiled")) {
        util::Stopwatch sw;
        auto cc = groth16::CompiledCircuit::compile(w->shape);
        if (!cc.ok()) return fail_json(args, kCmd, kExitFail, cc.status().to_string());
        compiled = std::move(*cc);
        const double record_ms = sw.elapsed_ms();
        sw = util::Stopwatch();
        auto dc = gpu::DeviceCircuit::upload(*compiled);
        if (!dc.ok()) return fail_json(args, kCmd, kExitFail, dc.status().to_string());
        device_circuit = std::move(*dc);
        const double upload_ms = sw.elapsed_ms();
        const size_t nnz = compiled->nnz_a() + compiled->nnz_b() + compiled->nnz_c();
        std::fprintf(stderr,
                     "      compiled: %zu rows, nnz %zu (A %zu, B %zu, C %zu), %zu coefficients, "
                     "host %.2f GiB, device %.2f GiB; record %.0f ms, upload %.0f ms\n",
                     compiled->num_rows(), nnz, compiled->nnz_a(), compiled->nnz_b(),
                     compiled->nnz_c(), compiled->num_coefficients(),
                     static_cast<double>(compiled->bytes()) / (1u << 30),
                     static_cast<double>(device_circuit->device_bytes()) / (1u << 30), record_ms,
                     upload_ms);
        compile_info.num("rows", compiled->num_rows()).num("nnz", nnz)
            .num("host_bytes", compiled->bytes()).num("device_bytes", device_circuit->device_bytes())
            .ms("record", record_ms).ms("upload", upload_ms);
    }
    util::PhaseTimes setup_times;
    r1cs::ShapeRecorder recorded;
    const r1cs::ShapeRecorder* shape = compiled != nullptr ? &compiled->shape() : &recorded;
    const bool coset = std::find(bases.begin(), bases.end(), groth16::HBasis::kCosetLagrange) !=
                       bases.end();
    if (compiled == nullptr && (!args.has("--params") || coset)) {
        util::PhaseScope phase("setup_record", &setup_times);
        if (auto st = w->shape(recorded); !st.ok())
            return fail_json(args, kCmd, kExitFail, st.to_string());
        recorded.finish();
    }

    util::TraceRecorder trace;
    // Built inside a variant's ScopedEnv: the option structs read the switches when constructed.
    auto make_options = [&] {
        gpu::GpuProverOptions opt;
        opt.synthesis_workers = static_cast<unsigned>(workers);
        if (args.has("--trace")) opt.trace = &trace;
        opt.compiled = device_circuit.get();
        if (args.has("--no-overlap")) opt.overlap_h2d = false;
        return opt;
    };
    const bool overlap_h2d = make_options().overlap_h2d;
    std::vector<std::vector<util::PhaseTimes>> runs(variants.size());
    bool verified = false;
    size_t domain = 0, aux = 0;
    std::optional<groth16::ParameterScalars> scalars;
    for (size_t bi = 0; bi < bases.size(); ++bi) {
        std::fprintf(stderr, "[2/3] parameters (%s H bases)\n", groth16::h_basis_name(bases[bi]));
        auto params = make_params(args, *w, shape, seed, bases[bi], scalars, setup_times);
        if (!params.ok()) return fail_json(args, kCmd, kExitFail, params.status().to_string());
        domain = params->domain_size();
        aux = params->num_aux();
        std::fprintf(stderr, "      domain %zu, %zu aux, %.2f GiB resident (%s):", domain, aux,
                     static_cast<double>(params->resident_bytes()) / (1u << 30),
                     gpu::placement_name(params->placement()));
        for (const auto& [phase, ms] : setup_times.entries())
            std::fprintf(stderr, " %s %.0f", phase.c_str(), ms);
        std::fprintf(stderr, " (ms)\n");

        std::fprintf(stderr, "[3/3] proving: %llu x %zu circuit(s)\n",
                     static_cast<unsigned long long>(reps), w->circuits.size());
        const size_t first = bi * envs.size();
        std::vector<std::vector<groth16::Proof>> proofs(envs.size());
        for (uint64_t r = 0; r < reps; ++r) {
            for (size_t ei = 0; ei < envs.size(); ++ei) {
                const Variant& v = variants[first + ei];
                std::vector<groth16::ProverRandomness> rnd;
                for (size_t k = 0; k < w->circuits.size(); ++k)
                    rnd.push_back(groth16::ProverRandomness::from_seed(1000 * r + k));
                util::PhaseTimes t;
                util::Result<std::vector<groth16::Proof>> got = [&] {
                    const ScopedEnv env(*v.env);
                    return gpu::prove_gpu(*params, w->circuits, rnd, make_options(), &t);
                }();
                if (!got.ok()) return fail_json(args, kCmd, kExitFail, got.status().to_string());
                std::fprintf(stderr, "      rep %llu%s%s: total %.1f ms\n",
                             static_cast<unsigned long long>(r), labelled ? " " : "",
                             labelled ? v.label.c_str() : "", t.get("total"));
                runs[first + ei].push_back(t);
                if (r == 0) proofs[ei] = std::move(*got);
            }
        }
        if (!args.has("--no-verify")) {
            const auto pvk = groth16::prepare_verifying_key(params->vk());
            for (size_t ei = 0; ei < envs.size(); ++ei) {
                auto ok = groth16::batch_verify(pvk, proofs[ei], w->inputs);
                if (!ok.ok()) return fail_json(args, kCmd, kExitFail, ok.status().to_string());
                if (!*ok)
                    return fail_json(args, kCmd, kExitFail,
                                     "a GPU proof does not verify (variant " +
                                         variants[first + ei].label + ")");
            }
            verified = true;
        }
    }  // each basis's parameters are freed before the next one's are made
    if (args.has("--trace")) {
        if (auto st = trace.write_file(args.get("--trace")); !st.ok())
            return fail_json(args, kCmd, kExitFail, st.message());
    }
    const double n = static_cast<double>(w->circuits.size());
    std::vector<JsonObject> call_ms(variants.size()), per_circuit_ms(variants.size());
    std::vector<JsonObject> min_call_ms(variants.size()), max_call_ms(variants.size());
    for (size_t vi = 0; vi < variants.size(); ++vi) {
        if (!args.json) {
            if (labelled) std::printf("variant %s\n", variants[vi].label.c_str());
            std::printf("%s, %zu circuit(s) per call, %llu rep(s), proofs %s\n", w->name.c_str(),
                        w->circuits.size(), static_cast<unsigned long long>(reps),
                        verified ? "verified" : "not verified");
            std::printf("%-16s %12s %10s %10s %14s\n", "phase", "median ms", "min", "max",
                        "per circuit");
        }
        for (const char* phase : kPhases) {
            std::vector<double> v;
            for (const auto& t : runs[vi]) v.push_back(t.get(phase));
            const SampleStats s = sample_stats(std::move(v));
            call_ms[vi].ms(phase, s.median);
            min_call_ms[vi].ms(phase, s.min);
            max_call_ms[vi].ms(phase, s.max);
            per_circuit_ms[vi].ms(phase, s.median / n);
            if (!args.json)
                std::printf("%-16s %12.1f %10.1f %10.1f %14.1f\n", phase, s.median, s.min, s.max,
                            s.median / n);
        }
    }
    JsonObject setup_ms;
    for (const auto& [phase, ms] : setup_times.entries()) setup_ms.ms(phase, ms);
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("bench", "gpu-prove").str("workload", w->name)
            .num("circuits", w->circuits.size()).num("reps", reps)
            .num("domain", domain).num("aux", aux)
            .str("h_basis", groth16::h_basis_name(variants[0].basis))
            .boolean("verified", verified).raw("setup_ms", setup_ms.done())
            .boolean("compiled", compiled != nullptr)
            .boolean("overlap_h2d", compiled != nullptr && overlap_h2d)
            .raw("median_call_ms", call_ms[0].done())
            .raw("min_call_ms", min_call_ms[0].done())
            .raw("max_call_ms", max_call_ms[0].done())
            .raw("compiled_circuit", compiled != nullptr ? compile_info.done() : "null")
            .raw("per_circuit_ms", per_circuit_ms[0].done());
        if (labelled) {
            std::string list = "[";
            for (size_t vi = 0; vi < variants.size(); ++vi) {
                JsonObject v;
                v.str("env", variants[vi].env->label)
                    .raw("median_call_ms", call_ms[vi].done())
                    .raw("min_call_ms", min_call_ms[vi].done())
                    .raw("max_call_ms", max_call_ms[vi].done())
                    .raw("per_circuit_ms", per_circuit_ms[vi].done())
                    .str("h_basis", groth16::h_basis_name(variants[vi].basis));
                list += (vi > 0 ? "," : "") + v.done();
            }
            o.raw("variants", list + "]");
        }
        o.ms("wall", total.elapsed_ms());
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
}

#endif

}  // namespace cuzk::cli
