// `cuzk bench synthesis`: times the synthesis of partition 0 of a synthetic C1, repeated, with
// the challenges forked across r1cs::synthesis_pool() (default) or on one thread
// (--sequential); prints the median and the rate in constraints per second.
//
// --backend picks what the circuit is synthesized into, to split the time:
//   assignment  a presized ProvingAssignment (groth16::synthesize_into: the prover's synthesis)
//   witness     a WitnessOnly (values only; the hot gadgets skip building their linear
//               combinations unless CUZK_WITNESS_SKIP_LC=0)
//   counter     an r1cs::Counter (no values: gadget logic + LC building + density marking;
//               never forks)
// --compiled records the shape once (CompiledCircuit::compile, timed) and then, per rep, runs
// the compiled path (witness + A·z, B·z, C·z into a ProvingAssignment) and the assignment
// path, printing both, and checks that they produced the same a, b, c, assignments and
// densities.
#include "cli/bench_synthesis.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/bench_stats.hpp"
#include "cli/porep_args.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/prover_parts.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/fork.hpp"
#include "r1cs/witness_only.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {

void print_bench_synthesis_usage(std::FILE* out) {
    std::fprintf(
        out,
        "usage: cuzk bench synthesis --sector-size SIZE [--reps R] [--sequential]\n"
        "                            [--backend assignment|witness|counter] [--compiled] [--json]\n"
        "  Synthesizes partition 0 of a synthetic C1 of that size R times (default 3), its\n"
        "  challenges in parallel (or on one thread with --sequential), into a proving\n"
        "  assignment (default), a witness-only or a counting constraint system; prints the\n"
        "  median, the min and the rate (constraints/s). --compiled: records the circuit's\n"
        "  shape once, then times witness generation + sparse products against the\n"
        "  assignment path and checks that both give the same result.\n");
}

namespace {


bool same_assignment(const r1cs::ProvingAssignment& x, const r1cs::ProvingAssignment& y) {
    return x.a() == y.a() && x.b() == y.b() && x.c() == y.c() &&
           x.input_assignment() == y.input_assignment() &&
           x.aux_assignment() == y.aux_assignment() && x.a_aux_density() == y.a_aux_density() &&
           x.b_input_density() == y.b_input_density() && x.b_aux_density() == y.b_aux_density();
}

}  // namespace

int run_bench_synthesis(int argc, char** argv) {
    const char* cmd = "bench synthesis";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--sector-size", "--registered-proof", "--reps", "--backend"},
                    {"--sequential", "--compiled"}, args))
        return kExitUsage;
    if (args.help) return print_bench_synthesis_usage(stdout), kExitOk;
    uint64_t reps = 3;
    if (args.has("--reps") && (!parse_u64(args.get("--reps"), reps) || reps == 0))
        return fail_json(args, cmd, kExitUsage, "--reps must be a positive integer");
    const std::string backend = args.has("--backend") ? args.get("--backend") : "assignment";
    if (backend != "assignment" && backend != "witness" && backend != "counter")
        return fail_json(args, cmd, kExitUsage,
                         "--backend must be assignment, witness or counter");
    const bool compiled = args.has("--compiled");
    if (compiled && backend != "assignment")
        return fail_json(args, cmd, kExitUsage, "--compiled compares with --backend assignment");
    porep::SyntheticC1Inputs in;
    auto proof = registered_proof_from_args(args, "--registered-proof");
    if (!proof.ok()) return fail_json(args, cmd, kExitUsage, proof.status().message());
    in.proof = *proof;
    auto c1 = porep::generate_synthetic_c1(in);
    if (!c1.ok()) return fail_json(args, cmd, kExitFail, c1.status().message());
    auto pc = porep::circuits_from_c1(c1->c1);
    if (!pc.ok()) return fail_json(args, cmd, kExitFail, pc.status().message());
    r1cs::Counter counter;
    if (auto st = pc->circuits[0](counter); !st.ok())
        return fail_json(args, cmd, kExitFail, st.message());
    groth16::ParamsShape shape;
    shape.ic = counter.num_inputs();  // ONE included
    shape.l = counter.num_aux();
    shape.h = counter.num_constraints() + shape.ic;  // presizing hint only
    if (args.has("--sequential")) r1cs::set_parallel_synthesis(false);
    const bool parallel = r1cs::parallel_synthesis_enabled() && backend != "counter";
    const unsigned threads = parallel ? r1cs::synthesis_pool().size() : 1;
    const char* proof_name = porep::seal_proof_info(in.proof).name;

    // The compiled circuit, recorded once from the blank circuit.
    std::unique_ptr<groth16::CompiledCircuit> cc;
    double record_ms = 0;
    if (compiled) {
        auto blank = porep::blank_stacked_circuit(in.proof);
        if (!blank.ok()) return fail_json(args, cmd, kExitFail, blank.status().message());
        util::Stopwatch sw;
        auto made = groth16::CompiledCircuit::compile(*blank);
        if (!made.ok()) return fail_json(args, cmd, kExitFail, made.status().message());
        record_ms = sw.elapsed_ms();
        cc = std::move(made).value();
        std::fprintf(stderr,
                     "compiled: %.1f ms; rows %zu, nnz A %zu B %zu C %zu, %zu coefficients, "
                     "%.1f MiB\n",
                     record_ms, cc->num_rows(), cc->nnz_a(), cc->nnz_b(), cc->nnz_c(),
                     cc->num_coefficients(), static_cast<double>(cc->bytes()) / (1 << 20));
    }

    std::vector<double> ms, witness_ms, multiply_ms, compiled_ms;
    for (uint64_t r = 0; r < reps; ++r) {
        util::Stopwatch sw;
        std::unique_ptr<r1cs::ProvingAssignment> reference;
        if (backend == "assignment") {
            reference = std::make_unique<r1cs::ProvingAssignment>(
                groth16::presized_assignment_options(shape));
            if (auto st = groth16::synthesize_into(pc->circuits[0], *reference, 0); !st.ok())
                return fail_json(args, cmd, kExitFail, st.message());
        } else if (backend == "witness") {
            r1cs::WitnessOnly w(shape.ic, shape.l);
            if (auto st = pc->circuits[0](w); !st.ok())
                return fail_json(args, cmd, kExitFail, st.message());
        } else {
            r1cs::Counter c;
            if (auto st = pc->circuits[0](c); !st.ok())
                return fail_json(args, cmd, kExitFail, st.message());
        }
        ms.push_back(sw.elapsed_ms());
        if (!compiled) {
            std::fprintf(stderr, "rep %llu: %.1f ms\n", static_cast<unsigned long long>(r),
                         ms.back());
            continue;
        }
        sw.reset();
        r1cs::ProvingAssignment pa(groth16::presized_assignment_options(shape));
        groth16::CompiledCircuit::Timing t;
        if (auto st = cc->synthesize_into(pc->circuits[0], pa, 0, nullptr, &t); !st.ok())
            return fail_json(args, cmd, kExitFail, st.message());
        compiled_ms.push_back(sw.elapsed_ms());
        witness_ms.push_back(t.witness_ms);
        multiply_ms.push_back(t.multiply_ms);
        std::fprintf(stderr,
                     "rep %llu: assignment %.1f ms; compiled %.1f ms (witness %.1f + multiply "
                     "%.1f)\n",
                     static_cast<unsigned long long>(r), ms.back(), compiled_ms.back(),
                     t.witness_ms, t.multiply_ms);
        if (!same_assignment(pa, *reference))
            return fail_json(args, cmd, kExitFail,
                             "the compiled path differs from the assignment path");
    }
    const SampleStats stats = sample_stats(ms);
    const double med = stats.median;
    const double rate = static_cast<double>(counter.num_constraints()) / (med / 1000.0);
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("bench", "synthesis").str("proof", proof_name)
            .str("backend", backend).boolean("parallel", parallel).num("threads", threads)
            .num("constraints", counter.num_constraints()).ms("median", med).ms("min", stats.min)
            .num("constraints_per_s", static_cast<uint64_t>(rate));
        if (compiled) {
            o.ms("record", record_ms).ms("compiled_median", median(compiled_ms))
                .ms("witness_median", median(witness_ms))
                .ms("multiply_median", median(multiply_ms))
                .num("nnz_a", cc->nnz_a()).num("nnz_b", cc->nnz_b()).num("nnz_c", cc->nnz_c())
                .num("compiled_bytes", cc->bytes());
        }
        std::printf("%s\n", o.done().c_str());
    } else {
        std::printf("%s partition 0: %zu constraints, %s into %s on %u thread(s): median %.1f ms "
                    "(min %.1f), %.2f M/s\n",
                    proof_name, counter.num_constraints(),
                    parallel ? "challenges forked" : "sequential", backend.c_str(), threads, med,
                    stats.min, rate / 1e6);
        if (compiled)
            std::printf("compiled: record %.1f ms once (%.1f MiB); per proof median %.1f ms = "
                        "witness %.1f + multiply %.1f (results identical)\n",
                        record_ms, static_cast<double>(cc->bytes()) / (1 << 20),
                        median(compiled_ms), median(witness_ms), median(multiply_ms));
    }
    return kExitOk;
}

}  // namespace cuzk::cli
