// One host-memory budget shared by everything the engine holds: parameter sets and the
// partitions in flight (synthesized assignments and the prover's scalar vectors). Work reserves
// its bytes BEFORE it starts and releases them when the phase that needed them ends, so the sum
// of reservations never exceeds the budget, whatever the configuration (invariant:
// reserved() <= total() at every instant; peak() is the largest reserved() seen).
//
// try_reserve never blocks (the engine calls it under its own lock and waits on its own
// condition); reserve_blocking waits for releases, for callers outside the engine. A request
// larger than the whole budget can never succeed and is refused at once (fits() tells in
// advance). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace cuzk::engine {

class MemoryBudget {
   public:
    explicit MemoryBudget(uint64_t total_bytes) : total_(total_bytes) {}

    uint64_t total() const { return total_; }
    bool fits(uint64_t bytes) const { return bytes <= total_; }
    // Reserves `bytes` if they fit now.
    bool try_reserve(uint64_t bytes);
    // Waits until `bytes` fit, then reserves them. Returns false — nothing reserved — when they
    // can never fit, when `give_up()` turns true (checked at each release and every `poll`), or
    // when the deadline passes.
    bool reserve_blocking(uint64_t bytes, const std::function<bool()>& give_up,
                          std::chrono::milliseconds timeout = std::chrono::hours(24 * 365),
                          std::chrono::milliseconds poll = std::chrono::milliseconds(100));
    // Returns bytes reserved earlier (more than is reserved is a bug: clamped to zero).
    void release(uint64_t bytes);

    uint64_t reserved() const;
    uint64_t available() const;
    uint64_t peak() const;

   private:
    const uint64_t total_;
    mutable std::mutex mutex_;
    std::condition_variable released_;
    uint64_t reserved_ = 0, peak_ = 0;
};

// The physical memory of the machine (sysconf), 0 when unknown.
uint64_t physical_memory_bytes();

// Resident set of this process, now and at its peak (VmRSS, VmHWM of /proc/self/status); zeros
// where unavailable.
struct ProcessMemory {
    uint64_t rss_bytes = 0, rss_peak_bytes = 0;
};
ProcessMemory process_memory();

}  // namespace cuzk::engine
