// Phase timers and the Chrome-trace recorder.
//
// A TraceRecorder collects complete events ("ph":"X": name, category, start, duration, process
// and thread ids, optional numeric args) and writes them as Chrome-trace JSON (the "JSON Object
// Format" with a "traceEvents" array; chrome://tracing and ui.perfetto.dev open it). Times are
// microseconds since the recorder was created (steady clock). Thread-safe: any thread may add
// events; "tid" defaults to a small number assigned per OS thread in order of first use, and a
// caller may name lanes it owns (GPU streams) with explicit tids and set_thread_name.
//
// PhaseScope measures one phase with RAII: on destruction it adds the elapsed milliseconds to a
// PhaseTimes total (named phase → ms, summed) and, when a recorder is given, records the event.
// Both pointers may be null (the scope then only measures nothing and costs one clock read).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "util/status.hpp"

namespace cuzk::util {

// Milliseconds per named phase, summed over everything that reported into it.
class PhaseTimes {
   public:
    void add(const std::string& phase, double ms);
    double get(const std::string& phase) const;  // 0 when absent
    PhaseTimes& operator+=(const PhaseTimes& other);
    // In first-report order.
    const std::vector<std::pair<std::string, double>>& entries() const { return entries_; }

   private:
    std::vector<std::pair<std::string, double>> entries_;
};

struct TraceEvent {
    std::string name, category;
    double start_us = 0, duration_us = 0;
    uint32_t pid = 1, tid = 0;
    std::vector<std::pair<std::string, double>> args;
};

class TraceRecorder {
   public:
    using Clock = std::chrono::steady_clock;
    TraceRecorder() : origin_(Clock::now()) {}

    double now_us() const;
    // The calling thread's lane id (assigned on first use, from 1).
    uint32_t current_tid();
    void set_thread_name(uint32_t tid, std::string name, uint32_t pid = 1);
    void set_process_name(uint32_t pid, std::string name);
    void add(TraceEvent event);

    std::vector<TraceEvent> events() const;
    // The whole trace as Chrome-trace JSON text.
    std::string to_json() const;
    util::Status write_file(const std::string& path) const;

   private:
    Clock::time_point origin_;
    mutable std::mutex mutex_;
    std::vector<TraceEvent> events_;
    std::map<std::thread::id, uint32_t> tids_;
    std::map<std::pair<uint32_t, uint32_t>, std::string> thread_names_;  // (pid, tid) → name
    std::map<uint32_t, std::string> process_names_;
};

class PhaseScope {
   public:
    PhaseScope(std::string phase, PhaseTimes* times, TraceRecorder* trace = nullptr,
               std::string category = "phase");
    ~PhaseScope();
    PhaseScope(const PhaseScope&) = delete;
    PhaseScope& operator=(const PhaseScope&) = delete;
    // Ends the phase now (idempotent); returns its milliseconds.
    double stop();

   private:
    std::string phase_, category_;
    PhaseTimes* times_;
    TraceRecorder* trace_;
    TraceRecorder::Clock::time_point start_;
    double start_us_ = 0;
    bool stopped_ = false;
    double ms_ = 0;
};

}  // namespace cuzk::util
