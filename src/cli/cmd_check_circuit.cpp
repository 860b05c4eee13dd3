// `cuzk check-circuit --c1 FILE`: synthesizes the C2 circuit of every (or one) partition of a
// C1 output into r1cs::TestConstraintSystem and reports whether each is satisfied, naming the
// first unsatisfied constraint. A diagnostic for C1 files (and the full-partition check of
// synthetic 32/64 GiB C1s); proving needs no such pass (the prover checks every row itself).
// Exit codes: 0 every checked partition satisfied, 1 one is not, 2 usage or malformed input.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "porep/c1_json.hpp"
#include "porep/circuit/c1_circuits.hpp"
#include "r1cs/test_cs.hpp"
#include "util/timer.hpp"

namespace cuzk::cli {
namespace {

void usage_check_circuit(std::FILE* f) {
    std::fprintf(f,
                 "  check-circuit --c1 FILE [--partition K] [--json]\n"
                 "                       check that a C1's witness satisfies the C2 circuit,\n"
                 "                       naming the first unsatisfied constraint\n");
}

void help_check_circuit(std::FILE* f) {
    std::fprintf(f,
                 "usage: cuzk check-circuit --c1 FILE [--partition K] [--json]\n"
                 "\n"
                 "Builds each partition's circuit from the C1 output (witness and public\n"
                 "inputs, no parameters needed) and synthesizes it with every constraint\n"
                 "evaluated and named. Prints, per partition, the counts and either\n"
                 "'satisfied' or the full name of the first unsatisfied constraint.\n"
                 "  --partition K  check only partition K (0-based)\n"
                 "Cost: a full synthesis per partition (32 GiB: 130 M constraints, minutes and\n"
                 "a few GiB of memory each).\n");
}

int run_check_circuit(int argc, char** argv) {
    const char* cmd = "check-circuit";
    Args args;
    if (!parse_args(cmd, argc, argv, {"--c1", "--partition"}, {}, args)) return kExitUsage;
    if (args.help) return help_check_circuit(stdout), kExitOk;
    if (!require(cmd, args, {"--c1"})) return kExitUsage;
    uint64_t only = 0;
    const bool one = args.has("--partition");
    if (one && !parse_u64(args.get("--partition"), only))
        return fail_json(args, cmd, kExitUsage, "--partition must be a non-negative integer");
    auto bytes = read_file(args.get("--c1"));
    if (!bytes.ok()) return fail_json(args, cmd, kExitUsage, bytes.status().message());
    auto file = porep::parse_c1_file(std::string(bytes->begin(), bytes->end()));
    if (!file.ok()) return fail_json(args, cmd, kExitUsage, file.status().message());
    auto pc = porep::circuits_from_c1(file->c1);
    if (!pc.ok()) return fail_json(args, cmd, kExitUsage, pc.status().message());
    if (one && only >= pc->circuits.size())
        return fail_json(args, cmd, kExitUsage,
                         "--partition " + std::to_string(only) + ": the C1 has " +
                             std::to_string(pc->circuits.size()) + " partition(s)");
    bool all_ok = true;
    std::string first_failure;
    size_t checked = 0;
    util::Stopwatch total;
    for (size_t k = 0; k < pc->circuits.size(); ++k) {
        if (one && k != only) continue;
        util::Stopwatch sw;
        r1cs::TestConstraintSystem cs;
        if (auto st = pc->circuits[k](cs); !st.ok())
            return fail_json(args, cmd, kExitUsage,
                             "partition " + std::to_string(k) + ": " + st.message());
        // The circuit's public inputs must be the ones computed outside it.
        const auto& allocated = cs.input_assignment();
        const bool inputs_match = allocated.size() == pc->public_inputs[k].size() + 1 &&
                                  std::equal(pc->public_inputs[k].begin(),
                                             pc->public_inputs[k].end(), allocated.begin() + 1);
        const bool ok = cs.is_satisfied() && inputs_match;
        std::fprintf(stderr, "partition %zu: %zu constraints, %zu inputs, %zu aux: %s (%.1f s)\n",
                     k, cs.num_constraints(), cs.num_inputs(), cs.num_aux(),
                     ok ? "satisfied"
                        : (!cs.is_satisfied() ? ("NOT satisfied: " + *cs.which_is_unsatisfied()).c_str()
                                              : "public inputs differ from the C1's"),
                     sw.elapsed_ms() / 1000.0);
        if (!ok && all_ok)
            first_failure = "partition " + std::to_string(k) + ": " +
                            (cs.is_satisfied() ? std::string("public inputs differ")
                                               : *cs.which_is_unsatisfied());
        all_ok = all_ok && ok;
        ++checked;
    }
    if (args.json) {
        JsonObject o;
        o.boolean("ok", true).str("command", cmd).str("proof", porep::seal_proof_info(pc->proof).name)
            .num("partitions_checked", checked).boolean("satisfied", all_ok)
            .str("first_failure", first_failure).ms("ms", total.elapsed_ms());
        std::printf("%s\n", o.done().c_str());
    }
    return all_ok ? kExitOk : kExitFail;
}

}  // namespace

CUZK_CLI_COMMAND("check-circuit", 45, usage_check_circuit, run_check_circuit);

}  // namespace cuzk::cli
