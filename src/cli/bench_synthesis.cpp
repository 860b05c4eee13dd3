// `cuzk bench synthesis`: times the synthesis of PoRep partitions of a synthetic C1 into a
// presized ProvingAssignment (groth16::synthesize_into — the prover's "synthesis" phase without
// the checks), one partition at a time, repeated — with the challenges forked across
// r1cs::synthesis_pool() (default) or on one thread (--sequential); prints the median and the
// rate in constraints per second. The phase that bounds whole-sector throughput today.
#include "cli/bench_synthesis.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/porep_args.hpp"
#include "groth16/prover_parts.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "porep/synthetic_c1.hpp"
#include "r1cs/counter.hpp"
#include "r1cs/fork.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {

void print_bench_synthesis_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: cuzk bench synthesis --sector-size SIZE [--reps R] [--sequential] [--json]\n"
                 "  Synthesizes partition 0 of a synthetic C1 of that size into a proving\n"
                 "  assignment R times (default 3), its challenges in parallel (or on one thread\n"
                 "  with --sequential); prints the median, the min and the rate (constraints/s).\n");
}

int run_bench_synthesis(int argc, char** argv) {
    const char* cmd = "bench synthesis";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--sector-size", "--registered-proof", "--reps"},
                    {"--sequential"}, args))
        return kExitUsage;
    if (args.help) return print_bench_synthesis_usage(stdout), kExitOk;
    uint64_t reps = 3;
    if (args.has("--reps") && (!parse_u64(args.get("--reps"), reps) || reps == 0))
        return fail_json(args, cmd, kExitUsage, "--reps must be a positive integer");
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
    const bool parallel = r1cs::parallel_synthesis_enabled();
    const unsigned threads = parallel ? r1cs::synthesis_pool().size() : 1;
    std::vector<double> ms;
    for (uint64_t r = 0; r < reps; ++r) {
        r1cs::ProvingAssignment pa(groth16::presized_assignment_options(shape));
        util::Stopwatch sw;
        if (auto st = groth16::synthesize_into(pc->circuits[0], pa, 0); !st.ok())
            return fail_json(args, cmd, kExitFail, st.message());
        ms.push_back(sw.elapsed_ms());
        std::fprintf(stderr, "rep %llu: %.1f ms\n", static_cast<unsigned long long>(r), ms.back());
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const double med = sorted[sorted.size() / 2];
    const double rate = static_cast<double>(counter.num_constraints()) / (med / 1000.0);
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("bench", "synthesis")
            .str("proof", porep::seal_proof_info(in.proof).name)
            .boolean("parallel", parallel).num("threads", threads)
            .num("constraints", counter.num_constraints()).ms("median", med).ms("min", sorted[0])
            .num("constraints_per_s", static_cast<uint64_t>(rate));
        std::printf("%s\n", o.done().c_str());
    } else {
        std::printf("%s partition 0: %zu constraints, %s on %u thread(s): median %.1f ms "
                    "(min %.1f), %.2f M/s\n",
                    porep::seal_proof_info(in.proof).name, counter.num_constraints(),
                    parallel ? "challenges forked" : "sequential", threads, med, sorted[0],
                    rate / 1e6);
    }
    return kExitOk;
}

}  // namespace cuzk::cli
