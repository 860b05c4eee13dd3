// `cuzk bench pipeline` (bench_pipeline.hpp).
//
// Method: generate --jobs synthetic C1 outputs (porep::generate_synthetic_c1, seeds
// --seed + k, sector ids k + 1) of the V1_1 proof of --sector-size; start an engine with the
// given configuration; load the parameters (timed apart: "params load"); then submit every job at
// once (a job the engine refuses for now — "retry later": no room in the host budget yet — is
// submitted again every 200 ms until accepted) and await them all. The wall time runs from the
// first submit to the last completion.
//   proofs/hour     = completed jobs / wall hours
//   phase medians   = per phase name, the median over jobs of the job's phase milliseconds
//                     (JobTimings::phases, summed over its partitions)
//   prover busy     = Σ over jobs of gpu_compute_ms (the backend time attributed to the job) /
//                     (wall ms × prover threads) — the fraction of the wall time the provers
//                     (one per device by default) were proving
//   peak host RAM   = the process's peak RSS (VmHWM) and the engine's peak reservation, against
//                     the budget
// Parameters: the files of --params-dir, or with --gpu-setup INSECURE test parameters made on
// the GPU for the sector size's circuit (groth16::compute_parameter_scalars from
// porep::blank_stacked_circuit with the toxic waste of --setup-seed, then
// ProverBackend::install_generated_params: on every device, resident from the start, no file)
// and handed to the engine as EngineConfig::backend_params under "gpu-setup:porep:<size>".
// Their setup time is reported apart ("params setup"), like the load time of files.
#include "cli/bench_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.hpp"
#include "cli/bench_stats.hpp"
#include "cli/device_memory_arg.hpp"
#include "engine/engine.hpp"
#include "engine/gpu_backend.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/coset_bases.hpp"
#include "groth16/setup.hpp"
#include "porep/c1_json.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/registered_proof.hpp"
#include "porep/synthetic_c1.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void help_pipeline(std::FILE* f) {
    std::fprintf(
        f,
        "usage: cuzk bench pipeline --sector-size S (--params-dir DIR | --gpu-setup)\n"
        "                           [--setup-seed N] [--jobs N] [--seed N] [--gpus LIST]\n"
        "                           [--synthesis-workers N] [--prover-workers N]\n"
        "                           [--max-batch-size N] [--max-batch-wait-ms N] [--look-ahead N]\n"
        "                           [--budget-gib G] [--device-memory-gib N]\n"
        "                           [--no-verify] [--no-vanilla-check] [--no-subgroup-check]\n"
        "                           [--cpu] [--compiled|--no-compiled] [--trace-dir DIR]\n"
        "                           [--h-basis NAME] [--h-basis-dir DIR] [--json]\n"
        "\n"
        "Runs N synthetic C1 outputs (cuzk gen-c1's generator) through the proving engine and\n"
        "reports proofs per hour, per-phase medians, the prover's busy fraction and peak host\n"
        "RAM. Parameters: DIR/porep_<size>.params and .vk (cuzk setup --circuit porep:<size>),\n"
        "or --gpu-setup: INSECURE test parameters generated on every GPU for the sector size's\n"
        "circuit, resident from the start (no file; for 32GiB ~44 GiB per device, and ~16 GB of\n"
        "host memory for the scalars while they are made).\n"
        "  --gpu-setup            generate the parameters on the GPU (not with "
        "--params-dir/--cpu)\n"
        "  --setup-seed N         toxic-waste seed of --gpu-setup (default 1)\n"
        "  --jobs N               jobs (default 4)\n"
        "  --seed N               first C1 seed (default 1; job k uses N + k)\n"
        "  --gpus LIST            CUDA devices to prove on, e.g. 0,1 (default: all visible)\n"
        "  --synthesis-workers N  partitions synthesized at once (default 0: automatic, one\n"
        "                         per 5 CPU threads, at least 1)\n"
        "  --prover-workers N     prover threads (default: one per device)\n"
        "  --max-batch-size N     partitions per prover call (default 1)\n"
        "  --max-batch-wait-ms N  wait to fill a batch (default 0)\n"
        "  --look-ahead N         partitions synthesized or being synthesized and not yet\n"
        "                         taken by a prover (default 0: 2 x max-batch-size x\n"
        "                         prover workers, at least synthesis + prover workers)\n"
        "  --budget-gib G         host memory budget (default 3/4 of physical memory)\n"
        "%s"
        "  --no-verify            do not verify the proofs before returning them\n"
        "  --no-vanilla-check     do not check the C1's vanilla proofs at submit\n"
        "  --no-subgroup-check    read the parameters without the subgroup check (trusted\n"
        "                         files only; the check is most of the load time)\n"
        "  --cpu                  the CPU prover even when a GPU is available\n"
        "  --h-basis NAME         monomial (the files', default) or coset-lagrange: each file\n"
        "                         converted on each GPU at its first proof (minutes at 32\n"
        "                         GiB), then the H step in four NTTs instead of six\n"
        "  --h-basis-dir DIR      with coset-lagrange: save each file's converted bases in\n"
        "                         DIR after converting, or read them from there (seconds)\n"
        "  --compiled             compiled synthesis even if CUZK_COMPILED_SYNTHESIS=0 (it is\n"
        "                         the default): the circuit is compiled once before the jobs;\n"
        "                         per partition only the witness is made on the CPU, a/b/c by\n"
        "                         the GPU's SpMV (CUZK_GPU_SPMV=0: on the CPU) or the CPU's\n"
        "                         with --cpu; with --gpu-setup the circuit is recorded once\n"
        "                         for both\n"
        "  --no-compiled          direct synthesis (as CUZK_COMPILED_SYNTHESIS=0)\n"
        "  --trace-dir DIR        a Chrome trace per job, DIR/<job id>.trace.json: its\n"
        "                         synthesis and the prover phases of its partitions, in\n"
        "                         microseconds since the job was made (each file names\n"
        "                         that origin's wall-clock time, otherData.origin_unix_us;\n"
        "                         scripts/trace-partitions DIR aligns the files by it)\n",
        device_memory_gib_help(25).c_str());
}

bool parse_unsigned(const Args& args, const char* key, unsigned& out) {
    if (!args.has(key)) return true;
    uint64_t v = 0;
    if (!parse_u64(args.get(key), v) || v > 1000000) return false;
    out = static_cast<unsigned>(v);
    return true;
}

double gib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

// "0,1,3" → {0, 1, 3}; false on anything else (empty items, non-digits, > 1023).
bool parse_device_list(const std::string& text, std::vector<unsigned>& out) {
    out.clear();
    size_t begin = 0;
    for (;;) {
        const size_t comma = text.find(',', begin);
        const std::string item =
            text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        uint64_t v = 0;
        if (!parse_u64(item, v) || v > 1023) return false;
        out.push_back(static_cast<unsigned>(v));
        if (comma == std::string::npos) return true;
        begin = comma + 1;
    }
}

// The GPU backend with freshly generated parameters for `proof`'s circuit, held under `key`.
// compiled (set with --compiled): the circuit compiled once here, its recorded shape also the
// setup's (no second record); handed to the engine afterwards (Engine::install_compiled).
util::Result<std::unique_ptr<engine::ProverBackend>> gpu_backend_with_generated_params(
    porep::RegisteredSealProof proof, const std::string& key, uint64_t setup_seed,
    const engine::GpuBackendOptions& options, util::PhaseTimes& phases,
    std::shared_ptr<const groth16::CompiledCircuit>* compiled) {
    auto backend = engine::make_gpu_backend(options);
    if (!backend.ok()) {
        std::string m = "--gpu-setup needs a GPU: ";
        m += backend.status().message();
        return util::Status(backend.status().code(), std::move(m));
    }
    std::fprintf(stderr,
                 "[pipeline] generating INSECURE test parameters for %s on %s (toxic waste from "
                 "seed %llu)\n",
                 porep::seal_proof_info(proof).name, (*backend)->name().c_str(),
                 static_cast<unsigned long long>(setup_seed));
    CUZK_ASSIGN_OR_RETURN(porep::CircuitFn circuit, porep::blank_stacked_circuit(proof));
    const groth16::ToxicWaste toxic = groth16::ToxicWaste::from_seed(setup_seed);
    groth16::ParameterScalars scalars;
    if (compiled != nullptr) {
        util::PhaseScope compile_phase("compile", &phases);
        CUZK_ASSIGN_OR_RETURN(std::unique_ptr<groth16::CompiledCircuit> made,
                              groth16::CompiledCircuit::compile(circuit));
        *compiled = std::move(made);
        compile_phase.stop();
        CUZK_ASSIGN_OR_RETURN(scalars, groth16::compute_parameter_scalars((*compiled)->shape(),
                                                                          toxic, nullptr, &phases));
    } else {
        CUZK_ASSIGN_OR_RETURN(scalars,
                              groth16::compute_parameter_scalars(circuit, toxic, nullptr, &phases));
    }
    CUZK_ASSIGN_OR_RETURN(engine::LoadedParams held,
                          (*backend)->install_generated_params(key, scalars, &phases));
    std::fprintf(stderr, "           %.2f GiB on the devices, %.2f GiB in pinned host memory\n",
                 gib(held.device_bytes), gib(held.host_bytes));
    return std::move(*backend);
}

}  // namespace

int run_bench_pipeline(int argc, char** argv) {
    const char* cmd = "bench pipeline";
    Args args;
    if (!parse_args(
            cmd, argc, argv,
            {"--sector-size", "--params-dir", "--jobs", "--seed", "--synthesis-workers",
             "--max-batch-size", "--max-batch-wait-ms", "--budget-gib", "--setup-seed", "--gpus",
             "--prover-workers", "--trace-dir", "--look-ahead", "--device-memory-gib",
             "--h-basis", "--h-basis-dir"},
            {"--no-verify", "--no-vanilla-check", "--cpu", "--no-subgroup-check", "--gpu-setup",
             "--compiled", "--no-compiled"},
            args))
        return kExitUsage;
    if (args.help) return help_pipeline(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::string m = "unexpected argument ";
        m += args.positional[0];
        return fail_json(args, cmd, kExitUsage, m);
    }
    if (!require(cmd, args, {"--sector-size"})) return kExitUsage;
    const bool gpu_setup = args.has("--gpu-setup");
    if (gpu_setup == args.has("--params-dir"))
        return fail_json(args, cmd, kExitUsage,
                         "give exactly one of --params-dir DIR (parameter files) and --gpu-setup "
                         "(parameters generated on the GPU)");
    if (gpu_setup && args.has("--cpu"))
        return fail_json(args, cmd, kExitUsage,
                         "--gpu-setup makes the parameters on the GPU for the GPU prover; it "
                         "cannot be combined with --cpu");
    if (!gpu_setup && args.has("--setup-seed"))
        return fail_json(args, cmd, kExitUsage, "--setup-seed goes with --gpu-setup");
    uint64_t setup_seed = 1;
    if (args.has("--setup-seed") && !parse_u64(args.get("--setup-seed"), setup_seed))
        return fail_json(args, cmd, kExitUsage, "--setup-seed must be a decimal integer");
    auto size = porep::parse_sector_size(args.get("--sector-size"));
    if (!size.ok()) return fail_json(args, cmd, kExitUsage, size.status().message());
    auto proof = porep::find_seal_proof(*size, porep::ApiVersion::kV1_1_0);
    if (!proof.ok()) return fail_json(args, cmd, kExitUsage, proof.status().message());
    uint64_t jobs = 4, seed = 1;
    if (args.has("--jobs") && (!parse_u64(args.get("--jobs"), jobs) || jobs == 0 || jobs > 10000))
        return fail_json(args, cmd, kExitUsage, "--jobs must be an integer in 1..10000");
    if (args.has("--seed") && !parse_u64(args.get("--seed"), seed))
        return fail_json(args, cmd, kExitUsage, "--seed must be a decimal integer");

    engine::EngineConfig config;
    if (!gpu_setup) config.params_dir = args.get("--params-dir");
    config.max_pending_jobs = static_cast<size_t>(jobs);
    if (!parse_unsigned(args, "--synthesis-workers", config.synthesis_workers) ||
        !parse_unsigned(args, "--prover-workers", config.prover_workers) ||
        !parse_unsigned(args, "--max-batch-size", config.max_batch_size) ||
        !parse_unsigned(args, "--max-batch-wait-ms", config.max_batch_wait_ms) ||
        !parse_unsigned(args, "--look-ahead", config.max_ready_partitions))
        return fail_json(args, cmd, kExitUsage,
                         "--synthesis-workers, --prover-workers, --max-batch-size, "
                         "--max-batch-wait-ms and --look-ahead take decimal integers");
    if (args.has("--gpus") && !parse_device_list(args.get("--gpus"), config.gpus))
        return fail_json(args, cmd, kExitUsage,
                         "--gpus takes CUDA device ordinals separated by commas, e.g. 0,1");
    if (args.has("--budget-gib")) {
        char* end = nullptr;
        const double g = std::strtod(args.get("--budget-gib").c_str(), &end);
        if (end == args.get("--budget-gib").c_str() || *end != '\0' || !(g > 0) || g > 1e6)
            return fail_json(args, cmd, kExitUsage, "--budget-gib takes a positive number");
        config.host_memory_budget_bytes = static_cast<uint64_t>(g * 1024.0 * 1024.0 * 1024.0);
    }
    config.verify_proofs = !args.has("--no-verify");
    if (args.has("--compiled") && args.has("--no-compiled"))
        return fail_json(args, cmd, kExitUsage, "--compiled and --no-compiled exclude each other");
    if (args.has("--compiled")) config.compiled_synthesis = true;
    if (args.has("--no-compiled")) config.compiled_synthesis = false;
    config.vanilla_check = !args.has("--no-vanilla-check");
    config.use_gpu = !args.has("--cpu");
    config.params_subgroup_check = !args.has("--no-subgroup-check");
    if (args.has("--h-basis")) {
        auto basis = groth16::parse_h_basis(args.get("--h-basis"));
        if (!basis.ok()) return fail_json(args, cmd, kExitUsage, "--h-basis: " + basis.status().message());
        if (*basis == groth16::HBasis::kCosetLagrange && (gpu_setup || !config.use_gpu))
            return fail_json(args, cmd, kExitUsage,
                             "--h-basis coset-lagrange converts parameter files on the GPU: "
                             "it goes with --params-dir, not with --gpu-setup or --cpu");
        config.params_h_basis = *basis;
    }
    if (args.has("--h-basis-dir")) {
        if (config.params_h_basis != groth16::HBasis::kCosetLagrange)
            return fail_json(args, cmd, kExitUsage,
                             "--h-basis-dir keeps converted bases: it goes with --h-basis "
                             "coset-lagrange");
        config.params_h_basis_dir = args.get("--h-basis-dir");
    }
    if (args.has("--trace-dir")) config.trace_dir = args.get("--trace-dir");
    if (args.has("--device-memory-gib") && !config.use_gpu)
        return fail_json(args, cmd, kExitUsage, "--device-memory-gib is for the GPU, not with --cpu");
    // On CUDA device 0 (the first of --gpus when that is 0): held until the run ends.
    std::shared_ptr<void> hold;
    if (int code = hold_device_memory_arg(args, cmd, hold); code != kExitOk) return code;

    const porep::SealProofInfo& info = porep::seal_proof_info(*proof);
    std::fprintf(stderr, "[pipeline] generating %llu synthetic C1 outputs (%s)\n",
                 static_cast<unsigned long long>(jobs), info.name);
    util::Stopwatch sw;
    std::vector<std::string> c1s;
    for (uint64_t k = 0; k < jobs; ++k) {
        porep::SyntheticC1Inputs in;
        in.proof = *proof;
        in.rng_seed = seed + k;
        in.sector_id = k + 1;
        auto out = porep::generate_synthetic_c1(in);
        if (!out.ok()) return fail_json(args, cmd, kExitFail, out.status().message());
        c1s.push_back(porep::write_c1_json(out->c1));
    }
    const double gen_ms = sw.elapsed_ms();
    std::fprintf(stderr, "           %.1f ms\n", gen_ms);

    // --gpu-setup: the backend is made here, with the parameters generated into it.
    std::unique_ptr<engine::ProverBackend> backend;
    std::shared_ptr<const groth16::CompiledCircuit> compiled;
    util::PhaseTimes setup_phases;
    double setup_ms = 0;
    if (gpu_setup) {
        engine::GpuBackendOptions gpu;
        gpu.devices = config.gpus;
        const std::string key =
            std::string("gpu-setup:porep:") + porep::sector_size_name(info.sector_size);
        sw.reset();
        auto made = gpu_backend_with_generated_params(
            *proof, key, setup_seed, gpu, setup_phases,
            config.compiled_synthesis ? &compiled : nullptr);
        if (!made.ok()) return fail_json(args, cmd, kExitFail, made.status().message());
        backend = std::move(*made);
        setup_ms = sw.elapsed_ms();
        std::fprintf(stderr, "           %.1f ms:", setup_ms);
        for (const auto& [phase, ms] : setup_phases.entries())
            std::fprintf(stderr, " %s %.1f", phase.c_str(), ms);
        std::fprintf(stderr, " (ms)\n");
        config.backend_params.push_back({info.sector_size, key});
    }

    auto started = engine::Engine::start(config, std::move(backend));
    if (!started.ok()) return fail_json(args, cmd, kExitFail, started.status().message());
    engine::Engine& eng = **started;
    if (compiled != nullptr) {
        if (auto st = eng.install_compiled(*proof, std::move(compiled)); !st.ok())
            return fail_json(args, cmd, kExitFail, st.message());
    }
    std::fprintf(stderr, "[pipeline] backend %s, loading parameters\n",
                 eng.status().backend.c_str());
    sw.reset();
    if (auto st = eng.preload_params(*proof); !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    const double load_ms = sw.elapsed_ms();
    std::fprintf(stderr, "           %.1f ms\n", load_ms);

    std::fprintf(stderr, "[pipeline] submitting %llu jobs\n",
                 static_cast<unsigned long long>(jobs));
    sw.reset();
    std::vector<engine::JobId> ids;
    for (uint64_t k = 0; k < jobs; ++k) {
        // A refusal that says "retry later" (no room in the host budget or the pending-job
        // limit now) is waited out, as a client of the daemon would; any other ends the run.
        bool told = false;
        for (;;) {
            engine::JobSpec spec;
            spec.registered_proof = *proof;
            spec.c1_json = c1s[k];
            spec.sector_number = k + 1;
            auto id = eng.submit(std::move(spec));
            if (id.ok()) {
                ids.push_back(*id);
                break;
            }
            const util::Status& refused = id.status();
            if (refused.code() != util::StatusCode::kResourceExhausted ||
                !refused.message().ends_with("retry later"))
                return fail_json(args, cmd, kExitFail, refused.message());
            if (!told)
                std::fprintf(stderr, "[pipeline] job %llu waits to be accepted: %s\n",
                             static_cast<unsigned long long>(k + 1), refused.message().c_str());
            told = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        std::string().swap(c1s[k]);
    }
    std::vector<engine::JobOutcome> outcomes;
    size_t failed = 0;
    for (const engine::JobId& id : ids) {
        auto o = eng.await(id, std::chrono::hours(24 * 7));
        if (!o.ok()) return fail_json(args, cmd, kExitFail, o.status().message());
        if (o->state != engine::JobState::kCompleted) {
            ++failed;
            std::fprintf(stderr, "[pipeline] job %s %s: %s\n", id.c_str(),
                         engine::job_state_name(o->state), o->error.c_str());
        } else {
            std::fprintf(stderr, "[pipeline] job %zu/%llu done at %.1f s\n", outcomes.size() + 1,
                         static_cast<unsigned long long>(jobs), sw.elapsed_ms() / 1000);
        }
        outcomes.push_back(std::move(*o));
    }
    const double wall_ms = sw.elapsed_ms();
    const engine::EngineStatus st = eng.status();
    const size_t completed = outcomes.size() - failed;

    // Per-phase medians over jobs (phases in first-seen order), plus the JobTimings fields.
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> per_phase;
    double busy_ms = 0;
    for (const engine::JobOutcome& o : outcomes) {
        busy_ms += o.timings.gpu_compute_ms;
        auto add = [&](const std::string& name, double v) {
            if (!per_phase.count(name)) order.push_back(name);
            per_phase[name].push_back(v);
        };
        for (const auto& [name, v] : o.timings.phases.entries()) add(name, v);
        add("job:queue_wait", o.timings.queue_wait_ms);
        add("job:synthesis", o.timings.synthesis_ms);
        add("job:prover", o.timings.gpu_compute_ms);
        add("job:total", o.timings.total_ms);
    }
    const double proofs_per_hour =
        wall_ms > 0 ? static_cast<double>(completed) * 3.6e6 / wall_ms : 0;
    const double provers = std::max(1u, st.prover_workers);
    const double busy = wall_ms > 0 ? std::min(1.0, busy_ms / (wall_ms * provers)) : 0;

    std::FILE* table = args.json ? stderr : stdout;
    std::fprintf(table, "\ncuzk bench pipeline: %s, %zu/%llu jobs completed, backend %s\n",
                 info.name, completed, static_cast<unsigned long long>(jobs), st.backend.c_str());
    std::fprintf(table,
                 "config: synthesis_workers %u, prover_workers %u, max_batch_size %u, "
                 "look_ahead %u, max_batch_wait_ms %u, verify %s, compiled synthesis %s, "
                 "budget %.2f GiB, parameters %s\n",
                 st.synthesis_workers, st.prover_workers, config.max_batch_size,
                 st.max_ready_partitions,
                 config.max_batch_wait_ms, config.verify_proofs ? "on" : "off",
                 config.compiled_synthesis ? "on" : "off",
                 gib(st.host_budget_bytes),
                 gpu_setup ? "generated on the GPU" : config.params_dir.c_str());
    std::fprintf(table, "%-24s %14s\n", "metric", "value");
    std::fprintf(table, "%-24s %14.1f\n", "wall s", wall_ms / 1000);
    std::fprintf(table, "%-24s %14.2f\n", "proofs per hour", proofs_per_hour);
    std::fprintf(table, "%-24s %14.3f\n", "prover busy fraction", busy);
    if (gpu_setup) std::fprintf(table, "%-24s %14.1f\n", "params setup ms (GPU)", setup_ms);
    std::fprintf(table, "%-24s %14.1f\n", "params load ms", load_ms);
    std::fprintf(table, "%-24s %14.3f\n", "peak RSS GiB", gib(st.process_rss_peak_bytes));
    std::fprintf(table, "%-24s %14.3f\n", "peak reserved GiB", gib(st.host_reserved_peak_bytes));
    std::fprintf(table, "%-24s %14.3f\n", "budget GiB", gib(st.host_budget_bytes));
    std::fprintf(table, "%-24s %14s\n", "phase (median per job)", "ms");
    for (const std::string& name : order)
        std::fprintf(table, "  %-22s %14.1f\n", name.c_str(), median(per_phase[name]));

    if (args.json) {
        JsonObject phases;
        for (const std::string& name : order) phases.ms(name, median(per_phase[name]));
        JsonObject setup;
        for (const auto& [phase, ms] : setup_phases.entries()) setup.ms(phase, ms);
        JsonObject o;
        o.boolean("ok", failed == 0)
            .str("command", cmd)
            .str("proof", info.name)
            .str("backend", st.backend)
            .num("jobs", jobs)
            .num("completed", completed)
            .num("failed", failed)
            .num("synthesis_workers", st.synthesis_workers)
            .num("prover_workers", st.prover_workers)
            .num("max_batch_size", config.max_batch_size)
            .num("look_ahead", st.max_ready_partitions)
            .num("max_batch_wait_ms", config.max_batch_wait_ms)
            .boolean("verify", config.verify_proofs)
            .boolean("compiled_synthesis", config.compiled_synthesis)
            .ms("wall_ms", wall_ms)
            .ms("proofs_per_hour", proofs_per_hour)
            .ms("prover_busy_fraction", busy)
            .str("params", gpu_setup ? "gpu-setup" : config.params_dir)
            .ms("params_setup_ms", setup_ms)
            .raw("params_setup_phase_ms", setup.done())
            .num("devices", st.devices.size())
            .ms("params_load_ms", load_ms)
            .ms("c1_generation_ms", gen_ms)
            .num("peak_rss_bytes", st.process_rss_peak_bytes)
            .num("peak_reserved_bytes", st.host_reserved_peak_bytes)
            .num("budget_bytes", st.host_budget_bytes)
            .raw("phase_median_ms", phases.done());
        std::printf("%s\n", o.done().c_str());
    }
    return failed == 0 ? kExitOk : kExitFail;
}

}  // namespace cuzk::cli
