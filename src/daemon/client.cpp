#include "daemon/client.hpp"

#include <grpcpp/grpcpp.h>

#include "daemon/address.hpp"
#include "daemon/service.hpp"

namespace cuzk::daemon {
namespace {

constexpr int kMaxMessageBytes = 256 << 20;
constexpr std::chrono::seconds kShortCall{30};
constexpr std::chrono::minutes kUploadCall{10};

void set_deadline(grpc::ClientContext& ctx, std::chrono::milliseconds d) {
    ctx.set_deadline(std::chrono::system_clock::now() + d);
}

}  // namespace

util::Result<Client> Client::connect(const std::string& address) {
    CUZK_ASSIGN_OR_RETURN(Address a, parse_address(address));
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(kMaxMessageBytes);
    args.SetMaxSendMessageSize(kMaxMessageBytes);
    auto channel =
        grpc::CreateCustomChannel(grpc_target(a), grpc::InsecureChannelCredentials(), args);
    return Client(address, v1::ProvingEngine::NewStub(channel));
}

util::Status Client::wrap(const grpc::Status& st) const {
    util::Status s = from_grpc_status(st);
    if (s.code() == util::StatusCode::kUnavailable) {
        std::string m = "daemon at ";
        m += address_;
        m += ": ";
        m += s.message();
        return util::Status(s.code(), std::move(m));
    }
    return s;
}

util::Result<v1::SubmitProofResponse> Client::submit(const v1::SubmitProofRequest& req) {
    grpc::ClientContext ctx;
    set_deadline(ctx, kUploadCall);
    v1::SubmitProofResponse resp;
    grpc::Status st = stub_->SubmitProof(&ctx, req, &resp);
    if (!st.ok()) return wrap(st);
    return resp;
}

util::Result<v1::AwaitProofResponse> Client::await(const std::string& job_id, uint64_t timeout_ms) {
    grpc::ClientContext ctx;
    // Bounded calls get a deadline with slack for the proof transfer; unbounded ones none.
    if (timeout_ms > 0) set_deadline(ctx, std::chrono::milliseconds(timeout_ms) + kShortCall);
    v1::AwaitProofRequest req;
    req.set_job_id(job_id);
    req.set_timeout_ms(timeout_ms);
    v1::AwaitProofResponse resp;
    grpc::Status st = stub_->AwaitProof(&ctx, req, &resp);
    if (!st.ok()) return wrap(st);
    return resp;
}

util::Result<v1::CancelProofResponse> Client::cancel(const std::string& job_id) {
    grpc::ClientContext ctx;
    set_deadline(ctx, kShortCall);
    v1::CancelProofRequest req;
    req.set_job_id(job_id);
    v1::CancelProofResponse resp;
    grpc::Status st = stub_->CancelProof(&ctx, req, &resp);
    if (!st.ok()) return wrap(st);
    return resp;
}

util::Result<v1::GetStatusResponse> Client::status() {
    grpc::ClientContext ctx;
    set_deadline(ctx, kShortCall);
    v1::GetStatusResponse resp;
    grpc::Status st = stub_->GetStatus(&ctx, v1::GetStatusRequest(), &resp);
    if (!st.ok()) return wrap(st);
    return resp;
}

util::Result<std::string> Client::metrics() {
    grpc::ClientContext ctx;
    set_deadline(ctx, kShortCall);
    v1::GetMetricsResponse resp;
    grpc::Status st = stub_->GetMetrics(&ctx, v1::GetMetricsRequest(), &resp);
    if (!st.ok()) return wrap(st);
    return resp.prometheus_text();
}

}  // namespace cuzk::daemon
