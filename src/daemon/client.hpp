// A synchronous client of the cuzk.v1.ProvingEngine service for the CLI commands (submit, await,
// status, cancel). One channel per Client (insecure: the daemon listens on a Unix socket or a
// trusted network, as Curio's does), messages up to 256 MiB each way (Curio's client limit).
// Errors come back as util::Status with the gRPC code mapped (from_grpc_status); a daemon that
// cannot be reached is kUnavailable. Not thread-safe per object.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "util/status.hpp"

namespace cuzk::daemon {

class Client {
   public:
    // Parses `address` (address.hpp) and makes the channel; nothing is sent yet.
    static util::Result<Client> connect(const std::string& address);

    util::Result<v1::SubmitProofResponse> submit(const v1::SubmitProofRequest& req);
    // timeout_ms 0: wait until the job ends.
    util::Result<v1::AwaitProofResponse> await(const std::string& job_id, uint64_t timeout_ms);
    util::Result<v1::CancelProofResponse> cancel(const std::string& job_id);
    util::Result<v1::GetStatusResponse> status();
    util::Result<std::string> metrics();

    const std::string& address() const { return address_; }

   private:
    Client(std::string address, std::unique_ptr<v1::ProvingEngine::Stub> stub)
        : address_(std::move(address)), stub_(std::move(stub)) {}
    // Adds "daemon at ADDR: " to connection failures.
    util::Status wrap(const grpc::Status& st) const;

    std::string address_;
    std::shared_ptr<v1::ProvingEngine::Stub> stub_;
};

}  // namespace cuzk::daemon
