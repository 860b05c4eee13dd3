// The cuzk.v1.ProvingEngine gRPC service (proto/cuzk/v1/proving.proto) over an engine::Engine.
//
// Mapping. Proto Priority LOW..CRITICAL (1..4) ↔ engine kLow..kCritical; UNSPECIFIED → NORMAL.
// Job states: kCompleted/kFailed/kCancelled → AwaitProofResponse COMPLETED/FAILED/CANCELLED; a
// job still queued or running when timeout_ms passes → TIMEOUT (with progress in the cuzk
// extension fields). Timings: the engine's milliseconds, rounded. util::StatusCode →
// grpc::StatusCode: kInvalidArgument → INVALID_ARGUMENT, kOutOfRange → OUT_OF_RANGE,
// kResourceExhausted → RESOURCE_EXHAUSTED, kNotFound → NOT_FOUND, kUnavailable → UNAVAILABLE,
// kCancelled → CANCELLED, kIoError/kInternal → INTERNAL; the message is kept.
//
// Requests are checked before the engine sees them: only PoRep C2 (proof_kind
// POREP_SEAL_COMMIT or UNSPECIFIED); registered_proof a RegisteredSealProof number; sector_size
// (when given) the registered proof's; a non-empty vanilla_proof; an unknown priority value is
// refused. The engine then checks the C1 itself (malformed JSON, a registered proof that does not
// match the C1's, bad vanilla proofs) — every refusal is INVALID_ARGUMENT with a message naming
// the problem, and the service keeps serving.
//
// Blocking calls (AwaitProof, Prove) wait in slices of at most one second so that a client that
// goes away or a daemon shutdown (begin_shutdown) releases the server thread promptly; a job is
// never cancelled because its waiting client went away (await it again, or submit again with the
// same request_id).
//
// Thread-safety: gRPC calls the handlers from many threads; the service's own state is a few
// atomics and a mutex-guarded counter map.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "util/status.hpp"

namespace cuzk::daemon {

grpc::Status to_grpc_status(const util::Status& status);
util::Status from_grpc_status(const grpc::Status& status);

util::Result<engine::Priority> priority_from_proto(int value);
v1::Priority priority_to_proto(engine::Priority p);

// The registered proof meant by a PreloadSRS/EvictSRS circuit_id: Curio's "porep-32g" style
// ("porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g"; also "porep-32GiB") — the
// V1_1 proof of that size — or a RegisteredSealProof name or number.
util::Result<porep::RegisteredSealProof> proof_from_circuit_id(std::string_view id);
// "porep-2k", ... for the parameter file names porep_<size>.params; "" for other paths.
std::string circuit_id_from_params_path(std::string_view path);

// Message limits as cuzk's daemon: a request may be up to kMaxReceiveBytes (128 MiB; a 32 GiB C1
// is ~50 MB), an answer up to kMaxSendBytes (256 MiB, Curio's client receive limit).
inline constexpr int kMaxReceiveBytes = 128 << 20;
inline constexpr int kMaxSendBytes = 256 << 20;
void apply_server_limits(grpc::ServerBuilder& builder);

// The engine's JobSpec for a SubmitProofRequest (the checks above), or kInvalidArgument.
util::Result<engine::JobSpec> job_spec_from_request(const v1::SubmitProofRequest& request);

class ProvingService final : public v1::ProvingEngine::Service {
   public:
    explicit ProvingService(engine::Engine& engine);

    grpc::Status SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                             v1::SubmitProofResponse* resp) override;
    grpc::Status AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                            v1::AwaitProofResponse* resp) override;
    grpc::Status Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req,
                       v1::ProveResponse* resp) override;
    grpc::Status CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* req,
                             v1::CancelProofResponse* resp) override;
    grpc::Status GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest* req,
                           v1::GetStatusResponse* resp) override;
    grpc::Status GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest* req,
                            v1::GetMetricsResponse* resp) override;
    grpc::Status PreloadSRS(grpc::ServerContext* ctx, const v1::PreloadSrsRequest* req,
                            v1::PreloadSrsResponse* resp) override;
    grpc::Status EvictSRS(grpc::ServerContext* ctx, const v1::EvictSrsRequest* req,
                          v1::EvictSrsResponse* resp) override;

    // Waiting handlers return UNAVAILABLE ("shutting down") at their next slice.
    void begin_shutdown() { shutting_down_ = true; }
    // Marks the daemon as draining (GetStatus.draining, /status); the engine refuses new jobs.
    void set_draining() { draining_ = true; }
    bool draining() const { return draining_; }

    // Receives one line per accepted or refused submission and per cancellation (the daemon
    // prints them); unset: silent. Set before serving.
    void set_logger(std::function<void(const std::string&)> log) { log_ = std::move(log); }

    uint64_t uptime_seconds() const;
    // The engine's exposition followed by the daemon's own series: uptime, RPCs by method and
    // code, proofs by kind and status (with cuzk's cuzk_proofs_completed_total /
    // cuzk_proofs_failed_total names).
    std::string metrics_text() const;

   private:
    grpc::Status count(const char* method, grpc::Status status);
    // Waits for `id` up to `timeout` (zero: no limit) and fills `resp`.
    grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& id,
                          std::chrono::milliseconds timeout, v1::AwaitProofResponse* resp);

    void log(const std::string& line) const {
        if (log_) log_(line);
    }
    // Submits a checked request; logs the outcome.
    util::Result<engine::JobId> submit_logged(const char* method, const v1::SubmitProofRequest& r);

    engine::Engine& engine_;
    std::function<void(const std::string&)> log_;
    const std::chrono::steady_clock::time_point started_;
    std::atomic<bool> shutting_down_{false};
    std::atomic<bool> draining_{false};
    mutable std::mutex mu_;
    std::map<std::pair<std::string, std::string>, uint64_t> rpc_counts_;  // (method, code)
};

// Fills an AwaitProofResponse from an engine outcome (status TIMEOUT when not final).
void fill_await_response(const engine::JobOutcome& outcome, v1::AwaitProofResponse* resp);

}  // namespace cuzk::daemon
