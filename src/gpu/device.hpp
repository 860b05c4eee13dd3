// Which CUDA devices this process can use. Host C++ only: no CUDA types in this header.
//
// Nothing here aborts or throws when there is no GPU, no driver, or a driver too old for the
// runtime: those are reported as "no device" (device_count() == 0) or as a kUnavailable Status
// carrying the CUDA runtime's reason.
#pragma once

#include "util/status.hpp"

namespace cuzk::gpu {

// The number of CUDA devices usable by this process; 0 when none is usable for any reason.
int device_count();

// OK when at least one CUDA device is usable; otherwise kUnavailable naming the reason
// ("cudaGetDeviceCount: cudaErrorNoDevice: no CUDA-capable device is detected", ...).
util::Status check_device_available();

}  // namespace cuzk::gpu
