#include "util/trace.hpp"

#include <chrono>
#include <fstream>

#include "util/json.hpp"

namespace cuzk::util {

void PhaseTimes::add(const std::string& phase, double ms) {
    for (auto& [name, total] : entries_) {
        if (name == phase) {
            total += ms;
            return;
        }
    }
    entries_.emplace_back(phase, ms);
}

double PhaseTimes::get(const std::string& phase) const {
    for (const auto& [name, total] : entries_)
        if (name == phase) return total;
    return 0;
}

PhaseTimes& PhaseTimes::operator+=(const PhaseTimes& other) {
    for (const auto& [name, ms] : other.entries_) add(name, ms);
    return *this;
}

double TraceRecorder::now_us() const {
    return std::chrono::duration<double, std::micro>(Clock::now() - origin_).count();
}

uint32_t TraceRecorder::current_tid() {
    std::lock_guard lock(mutex_);
    auto [it, inserted] =
        tids_.try_emplace(std::this_thread::get_id(), static_cast<uint32_t>(tids_.size() + 1));
    return it->second;
}

void TraceRecorder::set_thread_name(uint32_t tid, std::string name, uint32_t pid) {
    std::lock_guard lock(mutex_);
    thread_names_[{pid, tid}] = std::move(name);
}

void TraceRecorder::set_process_name(uint32_t pid, std::string name) {
    std::lock_guard lock(mutex_);
    process_names_[pid] = std::move(name);
}

void TraceRecorder::add(TraceEvent event) {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
}

std::vector<TraceEvent> TraceRecorder::events() const {
    std::lock_guard lock(mutex_);
    return events_;
}

namespace {
void write_metadata(json::Writer& w, const char* kind, uint32_t pid, uint32_t tid,
                    const std::string& name) {
    w.begin_object();
    w.key("name");
    w.string_value(kind);
    w.key("ph");
    w.string_value("M");
    w.key("pid");
    w.u64_value(pid);
    w.key("tid");
    w.u64_value(tid);
    w.key("args");
    w.begin_object();
    w.key("name");
    w.string_value(name);
    w.end_object();
    w.end_object();
}
}  // namespace

// Besides the events, "otherData": {"origin_unix_us": wall-clock microseconds since the Unix
// epoch at ts = 0} (the steady origin placed on the system clock now), so that traces recorded
// from different origins — one per engine job — can be put on one time line
// (scripts/trace-partitions does).
std::string TraceRecorder::to_json() const {
    std::lock_guard lock(mutex_);
    const auto since_origin = Clock::now() - origin_;
    const auto origin_wall = std::chrono::system_clock::now() -
                             std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                 since_origin);
    const double origin_unix_us =
        std::chrono::duration<double, std::micro>(origin_wall.time_since_epoch()).count();
    json::Writer w;
    w.begin_object();
    w.key("displayTimeUnit");
    w.string_value("ms");
    w.key("otherData");
    w.begin_object();
    w.key("origin_unix_us");
    w.double_value(origin_unix_us);
    w.end_object();
    w.key("traceEvents");
    w.begin_array();
    for (const auto& [pid, name] : process_names_) write_metadata(w, "process_name", pid, 0, name);
    for (const auto& [key, name] : thread_names_)
        write_metadata(w, "thread_name", key.first, key.second, name);
    for (const auto& e : events_) {
        w.begin_object();
        w.key("name");
        w.string_value(e.name);
        w.key("cat");
        w.string_value(e.category);
        w.key("ph");
        w.string_value("X");
        w.key("ts");
        w.double_value(e.start_us);
        w.key("dur");
        w.double_value(e.duration_us);
        w.key("pid");
        w.u64_value(e.pid);
        w.key("tid");
        w.u64_value(e.tid);
        if (!e.args.empty()) {
            w.key("args");
            w.begin_object();
            for (const auto& [k, v] : e.args) {
                w.key(k);
                w.double_value(v);
            }
            w.end_object();
        }
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.take();
}

util::Status TraceRecorder::write_file(const std::string& path) const {
    std::string text = to_json();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return util::io_error("cannot create trace file " + path);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) return util::io_error("cannot write trace file " + path);
    return util::Status::ok_status();
}

PhaseScope::PhaseScope(std::string phase, PhaseTimes* times, TraceRecorder* trace,
                       std::string category)
    : phase_(std::move(phase)),
      category_(std::move(category)),
      times_(times),
      trace_(trace),
      start_(TraceRecorder::Clock::now()) {
    if (trace_) start_us_ = trace_->now_us();
}

double PhaseScope::stop() {
    if (stopped_) return ms_;
    stopped_ = true;
    ms_ = std::chrono::duration<double, std::milli>(TraceRecorder::Clock::now() - start_).count();
    if (times_) times_->add(phase_, ms_);
    if (trace_) {
        TraceEvent e;
        e.name = phase_;
        e.category = category_;
        e.start_us = start_us_;
        e.duration_us = ms_ * 1000.0;
        e.tid = trace_->current_tid();
        trace_->add(std::move(e));
    }
    return ms_;
}

PhaseScope::~PhaseScope() { stop(); }

}  // namespace cuzk::util
