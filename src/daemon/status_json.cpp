#include "daemon/status_json.hpp"

#include "daemon/service.hpp"
#include "util/json.hpp"

namespace cuzk::daemon {

std::string status_json(const engine::EngineStatus& st, const DaemonInfo& info, bool pretty) {
    util::json::Writer w(pretty);
    const auto u64 = [&](const char* key, uint64_t v) {
        w.key(key);
        w.u64_value(v);
    };
    const auto str = [&](const char* key, const std::string& v) {
        w.key(key);
        w.string_value(v);
    };
    w.begin_object();
    str("service", "cuzk");
    str("version", info.version);
    u64("uptime_seconds", info.uptime_seconds);
    str("listen", info.listen);
    str("status_listen", info.status_listen);
    str("backend", st.backend);
    w.key("draining");
    w.bool_value(st.draining || info.draining);
    w.key("jobs");
    w.begin_object();
    u64("queued", st.jobs_queued);
    u64("running", st.jobs_running);
    u64("completed", st.jobs_completed);
    u64("failed", st.jobs_failed);
    u64("cancelled", st.jobs_cancelled);
    w.end_object();
    w.key("partitions");
    w.begin_object();
    u64("queued", st.partitions_queued);
    u64("synthesizing", st.partitions_synthesizing);
    u64("ready", st.partitions_ready);
    u64("proving", st.partitions_proving);
    u64("look_ahead", st.max_ready_partitions);
    w.end_object();
    w.key("memory");
    w.begin_object();
    u64("host_budget_bytes", st.host_budget_bytes);
    u64("host_reserved_bytes", st.host_reserved_bytes);
    u64("host_reserved_peak_bytes", st.host_reserved_peak_bytes);
    u64("process_rss_bytes", st.process_rss_bytes);
    u64("process_rss_peak_bytes", st.process_rss_peak_bytes);
    w.end_object();
    w.key("prover_busy_fraction");
    w.double_value(st.prover_busy_fraction);
    u64("prover_memory_retries", st.prover_memory_retries);
    w.key("params");
    w.begin_array();
    for (const engine::LoadedParamsInfo& p : st.params) {
        w.begin_object();
        str("path", p.path);
        str("circuit_id", circuit_id_from_params_path(p.path));
        u64("host_bytes", p.host_bytes);
        u64("device_bytes", p.device_bytes);
        w.end_object();
    }
    w.end_array();
    w.key("gpus");
    w.begin_array();
    for (const engine::DeviceStatus& d : st.devices) {
        w.begin_object();
        u64("ordinal", d.ordinal);
        u64("total_bytes", d.total_bytes);
        u64("free_bytes", d.free_bytes);
        u64("params_budget_bytes", d.params_budget_bytes);
        w.key("name");
        w.string_value(d.name);
        u64("circuits_proved", d.circuits_proved);
        w.key("busy");
        w.bool_value(d.busy);
        w.key("params");
        w.begin_array();
        for (const std::string& key : d.params) w.string_value(key);
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("journal_errors");
    w.begin_array();
    for (const std::string& e : st.journal_errors) w.string_value(e);
    w.end_array();
    w.end_object();
    std::string out = w.take();
    out += '\n';
    return out;
}

}  // namespace cuzk::daemon
