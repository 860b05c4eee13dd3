#include "daemon/service.hpp"

#include <algorithm>
#include <cmath>

#include "porep/c1_json.hpp"

namespace cuzk::daemon {
namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

constexpr milliseconds kWaitSlice{1000};

const char* grpc_code_name(grpc::StatusCode code) {
    switch (code) {
        case grpc::StatusCode::OK:
            return "OK";
        case grpc::StatusCode::CANCELLED:
            return "CANCELLED";
        case grpc::StatusCode::UNKNOWN:
            return "UNKNOWN";
        case grpc::StatusCode::INVALID_ARGUMENT:
            return "INVALID_ARGUMENT";
        case grpc::StatusCode::DEADLINE_EXCEEDED:
            return "DEADLINE_EXCEEDED";
        case grpc::StatusCode::NOT_FOUND:
            return "NOT_FOUND";
        case grpc::StatusCode::ALREADY_EXISTS:
            return "ALREADY_EXISTS";
        case grpc::StatusCode::PERMISSION_DENIED:
            return "PERMISSION_DENIED";
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
            return "RESOURCE_EXHAUSTED";
        case grpc::StatusCode::FAILED_PRECONDITION:
            return "FAILED_PRECONDITION";
        case grpc::StatusCode::ABORTED:
            return "ABORTED";
        case grpc::StatusCode::OUT_OF_RANGE:
            return "OUT_OF_RANGE";
        case grpc::StatusCode::UNIMPLEMENTED:
            return "UNIMPLEMENTED";
        case grpc::StatusCode::INTERNAL:
            return "INTERNAL";
        case grpc::StatusCode::UNAVAILABLE:
            return "UNAVAILABLE";
        case grpc::StatusCode::DATA_LOSS:
            return "DATA_LOSS";
        case grpc::StatusCode::UNAUTHENTICATED:
            return "UNAUTHENTICATED";
        default:
            return "UNKNOWN";
    }
}

uint64_t round_ms(double ms) {
    if (!(ms > 0)) return 0;  // also NaN
    return static_cast<uint64_t>(std::llround(ms));
}

grpc::Status invalid(std::string message) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::move(message));
}

bool is_final(engine::JobState s) {
    return s == engine::JobState::kCompleted || s == engine::JobState::kFailed ||
           s == engine::JobState::kCancelled;
}

const char* state_name(engine::JobState s) {
    switch (s) {
        case engine::JobState::kQueued:
            return "queued";
        case engine::JobState::kRunning:
            return "running";
        case engine::JobState::kCompleted:
            return "completed";
        case engine::JobState::kFailed:
            return "failed";
        case engine::JobState::kCancelled:
            return "cancelled";
    }
    return "unknown";
}

// Matches the parameter file naming porep_<size>.params of EngineConfig::params_dir.
bool params_path_is_for(std::string_view path, porep::RegisteredSealProof proof) {
    std::string name = "porep_";
    name += porep::sector_size_name(porep::seal_proof_info(proof).sector_size);
    name += ".params";
    return path.ends_with(name);
}

void append_metric_header(std::string& out, const char* name, const char* type, const char* help) {
    out += "# HELP ";
    out += name;
    out += " ";
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += " ";
    out += type;
    out += "\n";
}

}  // namespace

grpc::Status to_grpc_status(const util::Status& st) {
    grpc::StatusCode code = grpc::StatusCode::INTERNAL;
    switch (st.code()) {
        case util::StatusCode::kOk:
            return grpc::Status::OK;
        case util::StatusCode::kInvalidArgument:
            code = grpc::StatusCode::INVALID_ARGUMENT;
            break;
        case util::StatusCode::kOutOfRange:
            code = grpc::StatusCode::OUT_OF_RANGE;
            break;
        case util::StatusCode::kNotFound:
            code = grpc::StatusCode::NOT_FOUND;
            break;
        case util::StatusCode::kResourceExhausted:
            code = grpc::StatusCode::RESOURCE_EXHAUSTED;
            break;
        case util::StatusCode::kCancelled:
            code = grpc::StatusCode::CANCELLED;
            break;
        case util::StatusCode::kUnavailable:
            code = grpc::StatusCode::UNAVAILABLE;
            break;
        case util::StatusCode::kIoError:
        case util::StatusCode::kInternal:
            code = grpc::StatusCode::INTERNAL;
            break;
    }
    return grpc::Status(code, st.message());
}

util::Status from_grpc_status(const grpc::Status& st) {
    util::StatusCode code = util::StatusCode::kInternal;
    switch (st.error_code()) {
        case grpc::StatusCode::OK:
            return util::Status();
        case grpc::StatusCode::INVALID_ARGUMENT:
            code = util::StatusCode::kInvalidArgument;
            break;
        case grpc::StatusCode::OUT_OF_RANGE:
            code = util::StatusCode::kOutOfRange;
            break;
        case grpc::StatusCode::NOT_FOUND:
            code = util::StatusCode::kNotFound;
            break;
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
            code = util::StatusCode::kResourceExhausted;
            break;
        case grpc::StatusCode::CANCELLED:
            code = util::StatusCode::kCancelled;
            break;
        case grpc::StatusCode::UNAVAILABLE:
        case grpc::StatusCode::DEADLINE_EXCEEDED:
            code = util::StatusCode::kUnavailable;
            break;
        default:
            code = util::StatusCode::kInternal;
            break;
    }
    std::string m = st.error_message();
    if (code == util::StatusCode::kInternal ||
        st.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
        std::string tagged = grpc_code_name(st.error_code());
        tagged += ": ";
        tagged += m;
        m = std::move(tagged);
    }
    return util::Status(code, std::move(m));
}

util::Result<engine::Priority> priority_from_proto(int value) {
    switch (value) {
        case v1::PRIORITY_UNSPECIFIED:
        case v1::NORMAL:
            return engine::Priority::kNormal;
        case v1::LOW:
            return engine::Priority::kLow;
        case v1::HIGH:
            return engine::Priority::kHigh;
        case v1::CRITICAL:
            return engine::Priority::kCritical;
        default: {
            std::string m = "unknown priority ";
            m += std::to_string(value);
            m += " (LOW=1, NORMAL=2, HIGH=3, CRITICAL=4)";
            return util::invalid_argument(std::move(m));
        }
    }
}

v1::Priority priority_to_proto(engine::Priority p) {
    switch (p) {
        case engine::Priority::kLow:
            return v1::LOW;
        case engine::Priority::kNormal:
            return v1::NORMAL;
        case engine::Priority::kHigh:
            return v1::HIGH;
        case engine::Priority::kCritical:
            return v1::CRITICAL;
    }
    return v1::NORMAL;
}

util::Result<porep::RegisteredSealProof> proof_from_circuit_id(std::string_view id) {
    struct Alias {
        const char* short_name;
        const char* size_name;
        porep::RegisteredSealProof proof;
    };
    static constexpr Alias kAliases[] = {
        {"porep-2k", "porep-2KiB", porep::RegisteredSealProof::kStackedDrg2KiBV1_1},
        {"porep-8m", "porep-8MiB", porep::RegisteredSealProof::kStackedDrg8MiBV1_1},
        {"porep-512m", "porep-512MiB", porep::RegisteredSealProof::kStackedDrg512MiBV1_1},
        {"porep-32g", "porep-32GiB", porep::RegisteredSealProof::kStackedDrg32GiBV1_1},
        {"porep-64g", "porep-64GiB", porep::RegisteredSealProof::kStackedDrg64GiBV1_1},
    };
    for (const Alias& a : kAliases) {
        if (id == a.short_name || id == a.size_name) return a.proof;
    }
    auto parsed = porep::parse_registered_seal_proof(id);
    if (parsed.ok()) return parsed;
    std::string m = "unknown circuit_id '";
    m += id;
    m += "' (expected porep-2k, porep-8m, porep-512m, porep-32g, porep-64g or a "
         "RegisteredSealProof name)";
    return util::invalid_argument(std::move(m));
}

std::string circuit_id_from_params_path(std::string_view path) {
    static constexpr std::pair<const char*, const char*> kNames[] = {
        {"porep_2KiB.params", "porep-2k"},     {"porep_8MiB.params", "porep-8m"},
        {"porep_512MiB.params", "porep-512m"}, {"porep_32GiB.params", "porep-32g"},
        {"porep_64GiB.params", "porep-64g"},
    };
    for (const auto& [file, id] : kNames) {
        if (path.ends_with(file)) return id;
    }
    return "";
}

void apply_server_limits(grpc::ServerBuilder& builder) {
    builder.SetMaxReceiveMessageSize(kMaxReceiveBytes);
    builder.SetMaxSendMessageSize(kMaxSendBytes);
}

util::Result<engine::JobSpec> job_spec_from_request(const v1::SubmitProofRequest& r) {
    switch (r.proof_kind()) {
        case v1::PROOF_KIND_UNSPECIFIED:
        case v1::POREP_SEAL_COMMIT:
            break;
        case v1::SNAP_DEALS_UPDATE:
        case v1::WINDOW_POST_PARTITION:
        case v1::WINNING_POST: {
            std::string m = "proof_kind ";
            m += v1::ProofKind_Name(r.proof_kind());
            m += " is not supported by this daemon (PoRep C2 only: POREP_SEAL_COMMIT)";
            return util::invalid_argument(std::move(m));
        }
        default: {
            std::string m = "unknown proof_kind ";
            m += std::to_string(r.proof_kind());
            return util::invalid_argument(std::move(m));
        }
    }
    engine::JobSpec spec;
    CUZK_ASSIGN_OR_RETURN(spec.priority, priority_from_proto(r.priority()));
    if (r.vanilla_proof().empty())
        return util::invalid_argument(
            "vanilla_proof is empty (expected the C1 output: SealCommitPhase1Output JSON or the "
            "{\"SectorNum\",\"Phase1Out\",\"SectorSize\"} envelope)");
    if (r.registered_proof() >= static_cast<uint64_t>(porep::kNumRegisteredSealProofs)) {
        std::string m = "registered_proof ";
        m += std::to_string(r.registered_proof());
        m += " is not a RegisteredSealProof (0..";
        m += std::to_string(porep::kNumRegisteredSealProofs - 1);
        m += ")";
        return util::invalid_argument(std::move(m));
    }
    // proto3 cannot tell registered_proof 0 (StackedDrg2KiBV1) from "not set": 0 counts as set
    // only together with a 2 KiB sector_size.
    const bool proof_given = r.registered_proof() != 0 || r.sector_size() == 2048;
    if (proof_given) {
        spec.registered_proof = static_cast<porep::RegisteredSealProof>(r.registered_proof());
    } else {
        auto file = porep::parse_c1_file(r.vanilla_proof());
        if (!file.ok()) {
            std::string m = "vanilla_proof: ";
            m += file.status().message();
            return util::invalid_argument(std::move(m));
        }
        spec.registered_proof = file->c1.registered_proof;
    }
    const porep::SealProofInfo& info = porep::seal_proof_info(spec.registered_proof);
    if (r.sector_size() != 0 && r.sector_size() != info.sector_size) {
        std::string m = "sector_size ";
        m += std::to_string(r.sector_size());
        m += " does not match registered_proof ";
        m += info.name;
        m += " (";
        m += std::to_string(info.sector_size);
        m += " bytes)";
        return util::invalid_argument(std::move(m));
    }
    spec.request_id = r.request_id();
    spec.c1_json = r.vanilla_proof();
    spec.sector_number = r.sector_number();
    spec.miner_id = r.miner_id();
    return spec;
}

void fill_await_response(const engine::JobOutcome& o, v1::AwaitProofResponse* resp) {
    resp->set_job_id(o.id);
    switch (o.state) {
        case engine::JobState::kCompleted:
            resp->set_status(v1::AwaitProofResponse::COMPLETED);
            resp->set_proof(std::string(o.proof.begin(), o.proof.end()));
            break;
        case engine::JobState::kFailed:
            resp->set_status(v1::AwaitProofResponse::FAILED);
            break;
        case engine::JobState::kCancelled:
            resp->set_status(v1::AwaitProofResponse::CANCELLED);
            break;
        case engine::JobState::kQueued:
        case engine::JobState::kRunning:
            resp->set_status(v1::AwaitProofResponse::TIMEOUT);
            break;
    }
    resp->set_error_message(o.error);
    resp->set_queue_wait_ms(round_ms(o.timings.queue_wait_ms));
    resp->set_srs_load_ms(round_ms(o.timings.srs_load_ms));
    resp->set_synthesis_ms(round_ms(o.timings.synthesis_ms));
    resp->set_gpu_compute_ms(round_ms(o.timings.gpu_compute_ms));
    resp->set_total_ms(round_ms(o.timings.total_ms));
    resp->set_state(state_name(o.state));
    resp->set_partitions_total(o.partitions_total);
    resp->set_partitions_done(o.partitions_done);
}

ProvingService::ProvingService(engine::Engine& engine)
    : engine_(engine), started_(SteadyClock::now()) {}

uint64_t ProvingService::uptime_seconds() const {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::seconds>(SteadyClock::now() - started_).count());
}

grpc::Status ProvingService::count(const char* method, grpc::Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    ++rpc_counts_[{method, grpc_code_name(status.error_code())}];
    return status;
}

util::Result<engine::JobId> ProvingService::submit_logged(const char* method,
                                                          const v1::SubmitProofRequest& r) {
    auto spec = job_spec_from_request(r);
    util::Result<engine::JobId> id =
        spec.ok() ? engine_.submit(std::move(*spec)) : util::Result<engine::JobId>(spec.status());
    std::string line = method;
    if (id.ok()) {
        line += ": accepted job ";
        line += *id;
        line += " (priority ";
        line += v1::Priority_Name(r.priority());
        line += ", ";
        line += std::to_string(r.vanilla_proof().size());
        line += " bytes";
        if (!r.request_id().empty()) {
            line += ", request_id ";
            line += r.request_id();
        }
        line += ")";
    } else {
        line += ": refused: ";
        line += grpc_code_name(to_grpc_status(id.status()).error_code());
        line += ": ";
        line += id.status().message();
    }
    log(line);
    return id;
}

grpc::Status ProvingService::SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
    auto id = submit_logged("SubmitProof", *req);
    if (!id.ok()) return count("SubmitProof", to_grpc_status(id.status()));
    resp->set_job_id(*id);
    const engine::EngineStatus st = engine_.status();
    const size_t ahead = st.jobs_queued + st.jobs_running;
    resp->set_queue_position(
        static_cast<uint32_t>(std::min<size_t>(ahead > 0 ? ahead - 1 : 0, UINT32_MAX)));
    return count("SubmitProof", grpc::Status::OK);
}

grpc::Status ProvingService::wait_for(grpc::ServerContext* ctx, const std::string& id,
                                      milliseconds timeout, v1::AwaitProofResponse* resp) {
    const bool bounded = timeout.count() > 0;
    const auto deadline = SteadyClock::now() + timeout;
    while (true) {
        milliseconds slice = kWaitSlice;
        if (bounded) {
            const auto left =
                std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
            slice = std::clamp(left, milliseconds(0), kWaitSlice);
        }
        auto outcome = engine_.await(id, slice);
        if (!outcome.ok()) return to_grpc_status(outcome.status());
        if (is_final(outcome->state) || (bounded && SteadyClock::now() >= deadline)) {
            fill_await_response(*outcome, resp);
            return grpc::Status::OK;
        }
        if (ctx != nullptr && ctx->IsCancelled())
            return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
        if (shutting_down_) {
            std::string m = "the daemon is shutting down; job ";
            m += id;
            m += " stays in the journal: await it again after the restart";
            return grpc::Status(grpc::StatusCode::UNAVAILABLE, std::move(m));
        }
    }
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                                        v1::AwaitProofResponse* resp) {
    if (req->job_id().empty()) return count("AwaitProof", invalid("job_id is empty"));
    const uint64_t t = std::min<uint64_t>(req->timeout_ms(), uint64_t{1} << 40);
    return count("AwaitProof",
                 wait_for(ctx, req->job_id(), milliseconds(static_cast<int64_t>(t)), resp));
}

grpc::Status ProvingService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req,
                                   v1::ProveResponse* resp) {
    if (!req->has_submit()) return count("Prove", invalid("the submit field is missing"));
    auto id = submit_logged("Prove", req->submit());
    if (!id.ok()) return count("Prove", to_grpc_status(id.status()));
    return count("Prove", wait_for(ctx, *id, milliseconds(0), resp->mutable_result()));
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext*, const v1::CancelProofRequest* req,
                                         v1::CancelProofResponse* resp) {
    if (req->job_id().empty()) return count("CancelProof", invalid("job_id is empty"));
    auto before = engine_.peek(req->job_id());
    if (!before.ok()) return count("CancelProof", to_grpc_status(before.status()));
    auto st = engine_.cancel(req->job_id());
    if (!st.ok()) return count("CancelProof", to_grpc_status(st));
    resp->set_was_running(before->state == engine::JobState::kRunning);
    std::string line = "CancelProof: job ";
    line += req->job_id();
    line += is_final(before->state) ? " had already finished" : " cancelled";
    log(line);
    return count("CancelProof", grpc::Status::OK);
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*,
                                       v1::GetStatusResponse* resp) {
    const engine::EngineStatus st = engine_.status();
    // One entry per device of the backend (none for the CPU backend).
    for (const engine::DeviceStatus& d : st.devices) {
        v1::GPUStatus* g = resp->add_gpus();
        g->set_ordinal(d.ordinal);
        g->set_name(d.name);
        g->set_vram_total_bytes(d.total_bytes);
        g->set_vram_free_bytes(d.free_bytes);
    }
    for (const engine::LoadedParamsInfo& p : st.params) {
        v1::SRSStatus* s = resp->add_loaded_srs();
        std::string id = circuit_id_from_params_path(p.path);
        s->set_circuit_id(id.empty() ? p.path : id);
        s->set_tier(v1::SRSStatus::HOT);
        s->set_size_bytes(p.host_bytes + p.device_bytes);
    }
    v1::QueueStatus* q = resp->add_queues();
    q->set_proof_kind("porep");
    q->set_pending(static_cast<uint32_t>(std::min<size_t>(st.jobs_queued, UINT32_MAX)));
    q->set_in_progress(static_cast<uint32_t>(std::min<size_t>(st.jobs_running, UINT32_MAX)));
    resp->set_total_proofs_completed(st.jobs_completed);
    resp->set_total_proofs_failed(st.jobs_failed);
    resp->set_uptime_seconds(uptime_seconds());
    resp->set_pinned_memory_bytes(st.host_reserved_bytes);
    resp->set_pinned_memory_limit_bytes(st.host_budget_bytes);
    resp->set_total_proofs_cancelled(st.jobs_cancelled);
    resp->set_backend(st.backend);
    resp->set_draining(st.draining || draining_);
    return count("GetStatus", grpc::Status::OK);
}

grpc::Status ProvingService::GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*,
                                        v1::GetMetricsResponse* resp) {
    resp->set_prometheus_text(metrics_text());
    return count("GetMetrics", grpc::Status::OK);
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* req,
                                        v1::PreloadSrsResponse* resp) {
    auto proof = proof_from_circuit_id(req->circuit_id());
    if (!proof.ok()) return count("PreloadSRS", to_grpc_status(proof.status()));
    bool loaded = false;
    for (const auto& p : engine_.status().params) loaded |= params_path_is_for(p.path, *proof);
    const auto t0 = SteadyClock::now();
    auto st = engine_.preload_params(*proof);
    if (!st.ok()) return count("PreloadSRS", to_grpc_status(st));
    resp->set_already_loaded(loaded);
    resp->set_load_time_ms(static_cast<uint64_t>(
        std::chrono::duration_cast<milliseconds>(SteadyClock::now() - t0).count()));
    return count("PreloadSRS", grpc::Status::OK);
}

grpc::Status ProvingService::EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* req,
                                      v1::EvictSrsResponse* resp) {
    auto proof = proof_from_circuit_id(req->circuit_id());
    if (!proof.ok()) return count("EvictSRS", to_grpc_status(proof.status()));
    bool loaded = false;
    uint64_t bytes = 0;
    for (const auto& p : engine_.status().params) {
        if (params_path_is_for(p.path, *proof)) {
            loaded = true;
            bytes += p.host_bytes + p.device_bytes;
        }
    }
    auto st = engine_.evict_params(*proof);
    if (!st.ok()) return count("EvictSRS", to_grpc_status(st));
    resp->set_was_loaded(loaded);
    resp->set_freed_bytes(loaded ? bytes : 0);
    return count("EvictSRS", grpc::Status::OK);
}

std::string ProvingService::metrics_text() const {
    std::string out = engine_.metrics_text();
    if (!out.empty() && out.back() != '\n') out += '\n';
    const engine::EngineStatus st = engine_.status();
    append_metric_header(out, "cuzk_daemon_uptime_seconds", "gauge",
                         "Seconds since the daemon started serving.");
    out += "cuzk_daemon_uptime_seconds ";
    out += std::to_string(uptime_seconds());
    out += "\n";
    append_metric_header(out, "cuzk_daemon_draining", "gauge",
                         "1 after SIGTERM/SIGINT: no new jobs, finishing accepted ones.");
    out += "cuzk_daemon_draining ";
    out += (st.draining || draining_) ? "1\n" : "0\n";
    append_metric_header(out, "cuzk_proofs_total", "counter",
                         "Jobs that ended since the daemon started, by proof kind and status.");
    const std::pair<const char*, uint64_t> by_status[] = {{"completed", st.jobs_completed},
                                                          {"failed", st.jobs_failed},
                                                          {"cancelled", st.jobs_cancelled}};
    for (const auto& [name, n] : by_status) {
        out += "cuzk_proofs_total{proof_kind=\"porep\",status=\"";
        out += name;
        out += "\"} ";
        out += std::to_string(n);
        out += "\n";
    }
    append_metric_header(out, "cuzk_proofs_completed_total", "counter",
                         "Proofs completed (the name cuzk's daemon uses).");
    out += "cuzk_proofs_completed_total ";
    out += std::to_string(st.jobs_completed);
    out += "\n";
    append_metric_header(out, "cuzk_proofs_failed_total", "counter",
                         "Proofs failed (the name cuzk's daemon uses).");
    out += "cuzk_proofs_failed_total ";
    out += std::to_string(st.jobs_failed);
    out += "\n";
    append_metric_header(out, "cuzk_rpc_requests_total", "counter",
                         "gRPC requests answered, by method and status code.");
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, n] : rpc_counts_) {
        out += "cuzk_rpc_requests_total{method=\"";
        out += key.first;
        out += "\",code=\"";
        out += key.second;
        out += "\"} ";
        out += std::to_string(n);
        out += "\n";
    }
    return out;
}

}  // namespace cuzk::daemon
