#include "cli/device_memory_arg.hpp"

#include <cstdint>
#include <cstdio>
#include <utility>

#if CUZK_HAVE_GPU
#include "gpu/device.hpp"
#endif

namespace cuzk::cli {

int hold_device_memory_arg(const Args& args, const char* cmd, std::shared_ptr<void>& hold) {
    if (!args.has("--device-memory-gib")) return kExitOk;
    uint64_t gib = 0;
    if (!parse_u64(args.get("--device-memory-gib"), gib) || gib == 0 || gib > 4096)
        return fail_json(args, cmd, kExitUsage, "--device-memory-gib must be 1..4096");
#if CUZK_HAVE_GPU
    auto h = gpu::DeviceMemoryHold::leave_only(gib << 30);  // (checks the device first)
    if (!h.ok()) return fail_json(args, cmd, kExitFail, h.status().to_string());
    std::fprintf(stderr, "      holding %.2f of the device's %.2f GiB: as on a %llu GiB card\n",
                 static_cast<double>((*h)->held_bytes()) / (1u << 30),
                 static_cast<double>((*h)->total_bytes()) / (1u << 30),
                 static_cast<unsigned long long>(gib));
    hold = std::shared_ptr<gpu::DeviceMemoryHold>(std::move(*h));
    return kExitOk;
#else
    return fail_json(args, cmd, kExitFail, "--device-memory-gib needs a build with CUDA");
#endif
}

std::string device_memory_gib_help(size_t column) {
    const char* lines[] = {"prove as on a card of N GiB: the rest of the device's memory",
                           "is held from the start (e.g. 80 on an H200 to check the plan",
                           "of an 80 GB card: parameter placement, MSM passes, fallbacks)"};
    std::string out;
    std::string first = "  --device-memory-gib N";
    for (const char* line : lines) {
        const std::string lead = std::exchange(first, "");
        out += lead;
        out.append(column > lead.size() ? column - lead.size() : 1, ' ');
        out += line;
        out += '\n';
    }
    return out;
}

}  // namespace cuzk::cli
