// `cuzk setup | inspect-params`: Groth16 parameters for the built-in circuits
// (groth16/example_circuits.hpp); prove and verify are in prove_cmds.cpp. Exit codes: 0 ok (verify: valid), 1 failure (verify: the proof
// does not verify), 2 usage error or malformed input. Human progress goes to stderr; with
// --json, one summary line (a JSON object) goes to stdout.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/fr_decimal.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#if CUZK_HAVE_GPU
#include "gpu/device.hpp"
#include "gpu/resident_setup.hpp"
#endif
#include "r1cs/counter.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

constexpr uint64_t kDefaultSetupSeed = 1;

struct Shape {
    size_t constraints = 0, inputs = 0, aux = 0;
};

util::Result<Shape> count_shape(const groth16::Circuit& circuit) {
    r1cs::Counter counter;
    CUZK_RETURN_IF_ERROR(circuit(counter));
    return Shape{counter.num_constraints(), counter.num_inputs(), counter.num_aux()};
}

// The test ceremony with the fixed-base multiplications on the GPU (gpu/resident_setup.hpp),
// the points then copied back into host Parameters for writing.
util::Result<groth16::Parameters> generate_parameters_on_gpu(const groth16::Circuit& circuit,
                                                             uint64_t seed,
                                                             util::PhaseTimes* phases) {
#if CUZK_HAVE_GPU
    CUZK_RETURN_IF_ERROR(gpu::check_device_available());
    gpu::ResidentParams resident;
    {  // the scalars (~16 GB at 32 GiB) are freed before the points come back to the host
        CUZK_ASSIGN_OR_RETURN(groth16::ParameterScalars scalars,
                              groth16::compute_parameter_scalars(
                                  circuit, groth16::ToxicWaste::from_seed(seed), nullptr, phases));
        gpu::GpuSetupOptions options;
        options.times = phases;
        CUZK_ASSIGN_OR_RETURN(resident, gpu::generate_resident_params(scalars, options));
    }
    util::PhaseScope download("setup_download", phases);
    groth16::Parameters params;
    params.vk = resident.vk();
    using groth16::Section;
    CUZK_ASSIGN_OR_RETURN(params.h, resident.download_g1(Section::kH));
    CUZK_ASSIGN_OR_RETURN(params.l, resident.download_g1(Section::kL));
    CUZK_ASSIGN_OR_RETURN(params.a, resident.download_g1(Section::kA));
    CUZK_ASSIGN_OR_RETURN(params.b_g1, resident.download_g1(Section::kBG1));
    CUZK_ASSIGN_OR_RETURN(params.b_g2, resident.download_b_g2());
    return params;
#else
    (void)circuit;
    (void)seed;
    (void)phases;
    return util::Status(util::StatusCode::kUnavailable,
                        "--gpu: this cuzk was built without CUDA (configure with CUZK_CUDA=ON)");
#endif
}

// ---- help ----------------------------------------------------------------------------------

void help_setup(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk setup --circuit NAME --out DIR [--seed N] [--gpu] [--json]\n"
                 "\n"
                 "Generates Groth16 parameters for a built-in circuit from toxic waste derived\n"
                 "from a seed (default %llu). INSECURE: anyone who knows the seed can forge\n"
                 "proofs; for tests and demos only. Writes DIR/<NAME>.params and DIR/<NAME>.vk\n"
                 "(NAME made file-name safe, e.g. random:10 -> random_10; DIR is created).\n"
                 "--gpu: the fixed-base multiplications on the GPU (same points; minutes instead\n"
                 "of hours for 32 GiB-sized circuits; the whole set is held in host memory to be\n"
                 "written: ~47 GB for porep:32GiB).\n"
                 "\n"
                 "circuits: %s\n",
                 static_cast<unsigned long long>(kDefaultSetupSeed),
                 groth16::examples::known_names().c_str());
}

void help_inspect(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk inspect-params FILE [--json]\n"
                 "\n"
                 "Prints the section counts and byte offsets of a .params file (or of a .vk file,\n"
                 "by its extension) after checking its layout, without decoding any point.\n");
}

}  // namespace

void print_groth16_usage(std::FILE* out) {
    std::fprintf(out,
                 "  setup --circuit NAME --out DIR [--seed N]\n"
                 "                       INSECURE test parameters for a built-in circuit:\n"
                 "                       DIR/NAME.params and DIR/NAME.vk\n"
                 "  prove --circuit NAME --params FILE --out PROOF [--public-inputs FILE.json]\n"
                 "        [--seed N] [--no-subgroup-check]\n"
                 "                       prove, self-verify, write the 192-byte proof\n"
                 "  verify --vk FILE --proof PROOF --public-inputs FILE.json\n"
                 "                       exit 0 valid, 1 not valid, 2 malformed input\n"
                 "  inspect-params FILE  section counts and offsets of a .params (or .vk) file\n"
                 "                       (all take --json: one summary line on stdout;\n"
                 "                       circuits: %s)\n",
                 groth16::examples::known_names().c_str());
}

// ---- setup ---------------------------------------------------------------------------------

int run_setup(int argc, char** argv) {
    const char* cmd = "setup";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--circuit", "--out", "--seed"}, {"--gpu"}, args))
        return kExitUsage;
    if (args.help) return help_setup(stdout), kExitOk;
    if (!args.positional.empty()) {
        std::fprintf(stderr, "cuzk setup: unexpected argument '%s'\n", args.positional[0].c_str());
        return kExitUsage;
    }
    if (!require(cmd, args, {"--circuit", "--out"})) return kExitUsage;
    uint64_t seed = kDefaultSetupSeed;
    if (args.has("--seed") && !parse_u64(args.get("--seed"), seed)) {
        return fail_json(args, cmd, kExitUsage, "--seed must be a non-negative decimal integer");
    }
    util::Stopwatch total;
    std::fprintf(stderr, "[1/3] building circuit %s\n", args.get("--circuit").c_str());
    util::Stopwatch sw;
    auto ex = groth16::examples::make_example_circuit(args.get("--circuit"));
    if (!ex.ok()) return fail_json(args, cmd, kExitUsage, ex.status().message());
    auto shape = count_shape(ex->circuit);
    if (!shape.ok()) return fail_json(args, cmd, kExitFail, shape.status().message());
    const double ms_circuit = sw.elapsed_ms();
    std::fprintf(stderr, "      %s: %zu constraints, %zu inputs (ONE included), %zu aux (%.1f ms)\n",
                 ex->name.c_str(), shape->constraints, shape->inputs, shape->aux, ms_circuit);
    std::fprintf(stderr,
                 "WARNING: INSECURE test parameters: the toxic waste comes from seed %llu; anyone\n"
                 "         who knows it can forge proofs. Never use them for anything real.\n",
                 static_cast<unsigned long long>(seed));
    std::fprintf(stderr, "[2/3] generating parameters\n");
    sw.reset();
    util::PhaseTimes phases;
    auto params = args.has("--gpu")
                      ? generate_parameters_on_gpu(ex->circuit, seed, &phases)
                      : groth16::generate_parameters(
                            ex->circuit, groth16::ToxicWaste::from_seed(seed), nullptr, &phases);
    if (!params.ok()) return fail_json(args, cmd, kExitFail, params.status().message());
    const double ms_generate = sw.elapsed_ms();
    std::fprintf(stderr, "      domain %zu, %.1f ms:", params->domain_size(), ms_generate);
    for (const auto& [phase, ms] : phases.entries())
        std::fprintf(stderr, " %s %.1f", phase.c_str(), ms);
    std::fprintf(stderr, " (ms)\n");

    std::error_code ec;
    const std::filesystem::path dir(args.get("--out"));
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::string msg = args.get("--out");
        msg += ": cannot create directory: ";
        msg += ec.message();
        return fail_json(args, cmd, kExitFail, msg);
    }
    const std::string params_path = (dir / (ex->file_name + ".params")).string();
    const std::string vk_path = (dir / (ex->file_name + ".vk")).string();
    std::fprintf(stderr, "[3/3] writing %s and %s\n", params_path.c_str(), vk_path.c_str());
    sw.reset();
    if (auto st = groth16::write_params_file(params_path, *params); !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    if (auto st = groth16::write_vk_file(vk_path, params->vk); !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    const double ms_write = sw.elapsed_ms();
    const double ms_total = total.elapsed_ms();
    std::fprintf(stderr, "      done: circuit %.1f ms, generate %.1f ms, write %.1f ms, total %.1f ms\n",
                 ms_circuit, ms_generate, ms_write, ms_total);
    if (args.json) {
        JsonObject ms;
        ms.ms("circuit", ms_circuit).ms("generate", ms_generate).ms("write", ms_write).ms("total", ms_total);
        for (const auto& [phase, phase_ms] : phases.entries()) ms.ms(phase, phase_ms);
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("circuit", ex->name)
            .num("constraints", shape->constraints).num("inputs", shape->inputs)
            .num("aux", shape->aux).num("domain", params->domain_size()).num("seed", seed)
            .boolean("insecure", true).str("params", params_path).str("vk", vk_path)
            .num("params_bytes", groth16::params_file_size(*params))
            .raw("ms", ms.done());
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
}

// ---- inspect-params ------------------------------------------------------------------------

int run_inspect_params(int argc, char** argv) {
    const char* cmd = "inspect-params";
    Args args;
    if (!parse_args(cmd, argc, argv, {}, {}, args)) return kExitUsage;
    if (args.help) return help_inspect(stdout), kExitOk;
    if (args.positional.size() != 1) {
        std::fprintf(stderr, "cuzk inspect-params: expects exactly one FILE (see --help)\n");
        return kExitUsage;
    }
    const std::string& path = args.positional[0];
    const bool is_vk = path.size() >= 3 && path.ends_with(".vk");
    util::Stopwatch sw;
    auto layout = is_vk ? groth16::inspect_vk_file(path) : groth16::inspect_params_file(path);
    if (!layout.ok()) return fail_json(args, cmd, kExitUsage, layout.status().message());
    const double ms = sw.elapsed_ms();
    if (!args.json) {
        std::printf("%s  %s, %llu bytes\n", path.c_str(), groth16::file_kind_name(layout->kind),
                    static_cast<unsigned long long>(layout->file_size));
        std::printf("  %-6s %12s %14s %14s %14s\n", "section", "count", "count@", "points@", "end");
        for (const auto& s : layout->sections) {
            std::printf("  %-6s %12u %14llu %14llu %14llu\n", groth16::section_name(s.section),
                        s.count, static_cast<unsigned long long>(s.count_offset),
                        static_cast<unsigned long long>(s.offset),
                        static_cast<unsigned long long>(s.end()));
        }
        if (const auto* h = layout->find(groth16::Section::kH)) {
            std::printf("  domain size m = %llu, public inputs (ONE excluded) = %u\n",
                        static_cast<unsigned long long>(uint64_t{h->count} + 1),
                        layout->sections[0].count - 1);
        } else {
            std::printf("  public inputs (ONE excluded) = %u\n", layout->sections[0].count - 1);
        }
    } else {
        JsonObject secs;
        for (const auto& s : layout->sections) {
            JsonObject one;
            one.num("count", s.count).num("count_offset", s.count_offset).num("offset", s.offset)
                .num("end", s.end());
            secs.raw(groth16::section_name(s.section), one.done());
        }
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("file", path)
            .str("kind", groth16::file_kind_name(layout->kind)).num("bytes", layout->file_size)
            .raw("sections", secs.done()).ms("ms", ms);
        std::printf("%s\n", o.done().c_str());
    }
    return kExitOk;
}

}  // namespace cuzk::cli
