// `--device-memory-gib N` of the GPU bench commands (gpu-prove, pipeline): hold all but N GiB of
// the current CUDA device (device 0 unless set otherwise) from the start, so that the run plans
// as it would on a smaller card — parameter placement, the MSMs' window passes, the engine's
// fallbacks — e.g. 80 on an H200 for an 80 GB H100. The memory is held until the returned
// handle goes.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "cli/args.hpp"

namespace cuzk::cli {

// Without the option: kExitOk and `hold` left empty. With it: the hold taken (kExitOk, its size
// printed on stderr), or the command's error printed (kExitUsage for a bad N, kExitFail when
// there is no device or the hold fails) and that code returned. Built without CUDA, the option
// is refused (kExitFail).
int hold_device_memory_arg(const Args& args, const char* cmd, std::shared_ptr<void>& hold);

// The option's lines for a command's --help, its description starting at `column` (≥ 24).
std::string device_memory_gib_help(size_t column);

}  // namespace cuzk::cli
