// The engine's Prometheus text exposition (format version 0.0.4).
//   cuzk_jobs_total{state="completed"|"failed"|"cancelled"}          counter
//   cuzk_jobs{state="queued"|"running"}                               gauge
//   cuzk_queue_depth{stage="queued"|"synthesizing"|"ready"|"proving"} gauge (partitions)
//   cuzk_phase_ms{phase=...}                                          histogram over completed
//                                                                     jobs (per-job phase sums)
//   cuzk_prover_busy_fraction                                         gauge, since start
//   cuzk_prover_memory_retries_total                                  counter
//   cuzk_host_memory_bytes{kind="budget"|"reserved"|"reserved_peak"|"rss"|"rss_peak"}  gauge
//   cuzk_params_loaded{path=...}                                      gauge (host bytes)
#include <cstdio>
#include <string>

#include "engine/engine_impl.hpp"
#include "engine/str_cat.hpp"

namespace cuzk::engine {
namespace {

// Bucket upper bounds in milliseconds (+Inf implied).
constexpr double kBucketsMs[] = {1,    5,    10,    50,    100,   250,    500,    1000,
                                 2500, 5000, 10000, 30000, 60000, 120000, 300000, 900000};
constexpr size_t kBuckets = sizeof(kBucketsMs) / sizeof(kBucketsMs[0]);

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Prometheus label values escape backslash, double quote and newline.
std::string label_value(const std::string& v) {
    std::string out;
    for (char c : v) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

}  // namespace

void EngineImpl::record_phases_locked(const util::PhaseTimes& phases) {
    for (const auto& [phase, ms] : phases.entries()) {
        Histogram& h = phase_hist_[phase];
        if (h.counts.empty()) h.counts.assign(kBuckets, 0);
        for (size_t i = 0; i < kBuckets; ++i)
            if (ms <= kBucketsMs[i]) {
                ++h.counts[i];
                break;
            }
        ++h.count;
        h.sum += ms;
    }
}

std::string EngineImpl::metrics_text() const {
    const EngineStatus s = status();
    std::lock_guard<std::mutex> lock(mu_);
    std::string o;
    auto line = [&o](std::initializer_list<std::string_view> parts) {
        o += str_cat(parts);
        o += "\n";
    };
    line({"# HELP cuzk_jobs_total Jobs that ended, by final state."});
    line({"# TYPE cuzk_jobs_total counter"});
    line({"cuzk_jobs_total{state=\"completed\"} ", std::to_string(s.jobs_completed)});
    line({"cuzk_jobs_total{state=\"failed\"} ", std::to_string(s.jobs_failed)});
    line({"cuzk_jobs_total{state=\"cancelled\"} ", std::to_string(s.jobs_cancelled)});
    line({"# HELP cuzk_jobs Unfinished jobs, by state."});
    line({"# TYPE cuzk_jobs gauge"});
    line({"cuzk_jobs{state=\"queued\"} ", std::to_string(s.jobs_queued)});
    line({"cuzk_jobs{state=\"running\"} ", std::to_string(s.jobs_running)});
    line({"# HELP cuzk_queue_depth Partitions in each stage of the pipeline."});
    line({"# TYPE cuzk_queue_depth gauge"});
    line({"cuzk_queue_depth{stage=\"queued\"} ", std::to_string(s.partitions_queued)});
    line({"cuzk_queue_depth{stage=\"synthesizing\"} ", std::to_string(s.partitions_synthesizing)});
    line({"cuzk_queue_depth{stage=\"ready\"} ", std::to_string(s.partitions_ready)});
    line({"cuzk_queue_depth{stage=\"proving\"} ", std::to_string(s.partitions_proving)});
    line({"# HELP cuzk_phase_ms Per-job phase milliseconds of completed jobs."});
    line({"# TYPE cuzk_phase_ms histogram"});
    for (const auto& [phase, h] : phase_hist_) {
        const std::string p = label_value(phase);
        uint64_t cum = 0;
        for (size_t i = 0; i < kBuckets; ++i) {
            cum += h.counts[i];
            line({"cuzk_phase_ms_bucket{phase=\"", p, "\",le=\"", num(kBucketsMs[i]), "\"} ",
                  std::to_string(cum)});
        }
        line({"cuzk_phase_ms_bucket{phase=\"", p, "\",le=\"+Inf\"} ", std::to_string(h.count)});
        line({"cuzk_phase_ms_sum{phase=\"", p, "\"} ", num(h.sum)});
        line({"cuzk_phase_ms_count{phase=\"", p, "\"} ", std::to_string(h.count)});
    }
    line(
        {"# HELP cuzk_prover_busy_fraction Fraction of the time since start the prover was busy."});
    line({"# TYPE cuzk_prover_busy_fraction gauge"});
    line({"cuzk_prover_busy_fraction ", num(s.prover_busy_fraction)});
    line({"# HELP cuzk_prover_memory_retries_total Prover calls that ran out of memory and were "
          "queued again, smaller."});
    line({"# TYPE cuzk_prover_memory_retries_total counter"});
    line({"cuzk_prover_memory_retries_total ", std::to_string(s.prover_memory_retries)});
    line({"# HELP cuzk_host_memory_bytes Host memory: budget, reservations, process RSS."});
    line({"# TYPE cuzk_host_memory_bytes gauge"});
    line({"cuzk_host_memory_bytes{kind=\"budget\"} ", std::to_string(s.host_budget_bytes)});
    line({"cuzk_host_memory_bytes{kind=\"reserved\"} ", std::to_string(s.host_reserved_bytes)});
    line({"cuzk_host_memory_bytes{kind=\"reserved_peak\"} ",
          std::to_string(s.host_reserved_peak_bytes)});
    line({"cuzk_host_memory_bytes{kind=\"rss\"} ", std::to_string(s.process_rss_bytes)});
    line({"cuzk_host_memory_bytes{kind=\"rss_peak\"} ", std::to_string(s.process_rss_peak_bytes)});
    if (!s.devices.empty()) {
        line({"# HELP cuzk_gpu_memory_bytes GPU memory: total, free, parameter-cache budget."});
        line({"# TYPE cuzk_gpu_memory_bytes gauge"});
        for (const DeviceStatus& d : s.devices) {
            const std::string dev = std::to_string(d.ordinal);
            line({"cuzk_gpu_memory_bytes{device=\"", dev, "\",kind=\"total\"} ",
                  std::to_string(d.total_bytes)});
            line({"cuzk_gpu_memory_bytes{device=\"", dev, "\",kind=\"free\"} ",
                  std::to_string(d.free_bytes)});
            line({"cuzk_gpu_memory_bytes{device=\"", dev, "\",kind=\"params_budget\"} ",
                  std::to_string(d.params_budget_bytes)});
        }
        line({"# HELP cuzk_gpu_circuits_proved_total Circuits (partitions) proved on each GPU."});
        line({"# TYPE cuzk_gpu_circuits_proved_total counter"});
        for (const DeviceStatus& d : s.devices)
            line({"cuzk_gpu_circuits_proved_total{device=\"", std::to_string(d.ordinal), "\"} ",
                  std::to_string(d.circuits_proved)});
        line({"# HELP cuzk_gpu_busy Whether a prover call holds the GPU (1) or not (0)."});
        line({"# TYPE cuzk_gpu_busy gauge"});
        for (const DeviceStatus& d : s.devices)
            line({"cuzk_gpu_busy{device=\"", std::to_string(d.ordinal), "\"} ",
                  d.busy ? "1" : "0"});
    }
    line({"# HELP cuzk_params_loaded_bytes Loaded parameter sets (host bytes)."});
    line({"# TYPE cuzk_params_loaded_bytes gauge"});
    for (const LoadedParamsInfo& p : s.params)
        line({"cuzk_params_loaded_bytes{path=\"", label_value(p.path), "\"} ",
              std::to_string(p.host_bytes)});
    return o;
}

}  // namespace cuzk::engine
