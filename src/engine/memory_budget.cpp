#include "engine/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace cuzk::engine {

bool MemoryBudget::try_reserve(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes > total_ - reserved_) return false;
    reserved_ += bytes;
    peak_ = std::max(peak_, reserved_);
    return true;
}

bool MemoryBudget::reserve_blocking(uint64_t bytes, const std::function<bool()>& give_up,
                                    std::chrono::milliseconds timeout,
                                    std::chrono::milliseconds poll) {
    if (!fits(bytes)) return false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock<std::mutex> lock(mutex_);
    while (bytes > total_ - reserved_) {
        if (give_up && give_up()) return false;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        released_.wait_for(lock, poll);
    }
    reserved_ += bytes;
    peak_ = std::max(peak_, reserved_);
    return true;
}

void MemoryBudget::release(uint64_t bytes) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        reserved_ -= std::min(bytes, reserved_);
    }
    released_.notify_all();
}

uint64_t MemoryBudget::reserved() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reserved_;
}

uint64_t MemoryBudget::available() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_ - reserved_;
}

uint64_t MemoryBudget::peak() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_;
}

uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

ProcessMemory process_memory() {
    ProcessMemory out;
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (f == nullptr) return out;
    char line[256];
    while (std::fgets(line, sizeof line, f) != nullptr) {
        unsigned long long kib = 0;
        if (std::strncmp(line, "VmRSS:", 6) == 0 && std::sscanf(line + 6, "%llu", &kib) == 1)
            out.rss_bytes = kib * 1024;
        if (std::strncmp(line, "VmHWM:", 6) == 0 && std::sscanf(line + 6, "%llu", &kib) == 1)
            out.rss_peak_bytes = kib * 1024;
    }
    std::fclose(f);
    return out;
}

}  // namespace cuzk::engine
