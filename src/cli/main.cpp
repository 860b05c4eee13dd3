// cuzk — command-line entry point. Each subcommand is a thin main over the libraries.
#include <malloc.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/registry.hpp"

namespace {

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "cuzk — Groth16 proving engine for Filecoin PoRep C2 (BLS12-381)\n"
                 "\n"
                 "usage: cuzk <command> [options]\n"
                 "\n"
                 "commands:\n"
                 "  info                 print the BLS12-381 parameters cuzk uses\n"
                 "  selfcheck [--json] [--log-size K] [--seed N]\n"
                 "                       run the CPU arithmetic end to end (fields, curves,\n"
                 "                       encodings, pairing, MSM, NTT) on random inputs, check\n"
                 "                       every result by a second route, and report timings\n"
                 "                       (inputs are fresh each run; --seed N repeats a run)\n"
                 "  help                 this text\n");
    cuzk::cli::print_groth16_usage(out);
    cuzk::cli::print_bench_line(out);
    for (const cuzk::cli::CommandSpec& c : cuzk::cli::registered_commands()) c.usage(out);
    std::fprintf(out,
                 "\n"
                 "'cuzk <command> --help' explains a command's options.\n"
                 "Environment: CUZK_THREADS (worker threads, default: all cores),\n"
                 "             CUZK_PARALLEL_SYNTHESIS=0 (synthesize each circuit on one thread),\n"
                 "             CUZK_SYNTHESIS_FORK_THREADS=0 (a circuit's independent parts on\n"
                 "               the synthesis pool instead of each on a thread of its own),\n"
                 "             CUZK_FF_ASM=0 (disable the assembly field product, where built).\n");
}

}  // namespace

int main(int argc, char** argv) {
    // Big buffers (assignments, forks, scalars: MBs to GBs) straight from the OS and back on
    // free. A fixed threshold also stops glibc from raising it after the first large free, which
    // would keep freed fork buffers of one synthesis in the heap through the next one.
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    const std::string_view cmd = argv[1];
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
        print_usage(stdout);
        return 0;
    }
    if (cmd == "info") return cuzk::cli::run_info(argc - 1, argv + 1);
    if (cmd == "selfcheck") return cuzk::cli::run_selfcheck(argc - 1, argv + 1);
    if (cmd == "setup") return cuzk::cli::run_setup(argc - 1, argv + 1);
    if (cmd == "prove") return cuzk::cli::run_prove(argc - 1, argv + 1);
    if (cmd == "verify") return cuzk::cli::run_verify(argc - 1, argv + 1);
    if (cmd == "inspect-params") return cuzk::cli::run_inspect_params(argc - 1, argv + 1);
    if (cmd == "bench") return cuzk::cli::run_bench(argc - 1, argv + 1);
    if (const cuzk::cli::CommandSpec* c = cuzk::cli::find_command(cmd))
        return c->run(argc - 1, argv + 1);
    std::fprintf(stderr, "cuzk: unknown command '%s' (see 'cuzk help')\n", argv[1]);
    return 2;
}
