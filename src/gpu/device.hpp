// Which CUDA devices this process can use. Host C++ only: no CUDA types in this header.
//
// Nothing here aborts or throws when there is no GPU, no driver, or a driver too old for the
// runtime: those are reported as "no device" (device_count() == 0) or as a kUnavailable Status
// carrying the CUDA runtime's reason.
#pragma once

#include <cstddef>
#include <memory>

#include "util/status.hpp"

namespace cuzk::gpu {

// The number of CUDA devices usable by this process; 0 when none is usable for any reason.
int device_count();

// OK when at least one CUDA device is usable; otherwise kUnavailable naming the reason
// ("cudaGetDeviceCount: cudaErrorNoDevice: no CUDA-capable device is detected", ...).
util::Status check_device_available();

// Device memory of the current device held back from the rest of the process, so that it runs
// as on a card with less memory (benchmarks: an 80 GB card's plan on the 141 GB H200). Released
// when destroyed.
class DeviceMemoryHold {
   public:
    // Holds all but `keep_bytes` of the device's total memory (nothing when the device has no
    // more than that); kResourceExhausted when the memory to hold is not free.
    static util::Result<std::unique_ptr<DeviceMemoryHold>> leave_only(size_t keep_bytes);
    ~DeviceMemoryHold();
    DeviceMemoryHold(const DeviceMemoryHold&) = delete;
    DeviceMemoryHold& operator=(const DeviceMemoryHold&) = delete;
    size_t held_bytes() const { return bytes_; }
    size_t total_bytes() const { return total_; }

   private:
    DeviceMemoryHold() = default;
    void* ptr_ = nullptr;
    size_t bytes_ = 0, total_ = 0;
};

}  // namespace cuzk::gpu
