// The gRPC service over a scripted fake engine, called through daemon::Client over a real TCP
// channel on 127.0.0.1: request checks (INVALID_ARGUMENT naming the problem), the priority,
// state, timing and status-code mappings, blocking awaits and their release on shutdown,
// cancellation, status and metrics, SRS preload/evict, and the 128 MiB receive limit.
#include "daemon/service.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "daemon/client.hpp"
#include "daemon/status_json.hpp"
#include "util/json.hpp"

namespace cuzk::daemon {
namespace {

using std::chrono::milliseconds;

// An Engine whose jobs the test drives by hand.
class FakeEngine final : public engine::Engine {
   public:
    util::Result<engine::JobId> submit(engine::JobSpec spec) override {
        std::lock_guard<std::mutex> lock(mu_);
        if (!submit_error_.ok()) return submit_error_;
        const engine::JobId id = std::string("job-") + std::to_string(next_++);
        engine::JobOutcome o;
        o.id = id;
        o.partitions_total = 1;
        jobs_[id] = o;
        specs_.push_back(std::move(spec));
        return id;
    }
    util::Result<engine::JobOutcome> await(const engine::JobId& id, milliseconds timeout) override {
        std::unique_lock<std::mutex> lock(mu_);
        auto it = jobs_.find(id);
        if (it == jobs_.end())
            return util::Status(util::StatusCode::kNotFound, std::string("no job ") + id);
        cv_.wait_for(lock, timeout, [&] { return final_state(jobs_[id].state); });
        return jobs_[id];
    }
    util::Result<engine::JobOutcome> peek(const engine::JobId& id) const override {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = jobs_.find(id);
        if (it == jobs_.end())
            return util::Status(util::StatusCode::kNotFound, std::string("no job ") + id);
        return it->second;
    }
    util::Status cancel(const engine::JobId& id) override {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = jobs_.find(id);
        if (it == jobs_.end())
            return util::Status(util::StatusCode::kNotFound, std::string("no job ") + id);
        if (!final_state(it->second.state)) {
            it->second.state = engine::JobState::kCancelled;
            it->second.error = "cancelled by request";
        }
        cv_.notify_all();
        return util::Status();
    }
    engine::EngineStatus status() const override {
        std::lock_guard<std::mutex> lock(mu_);
        return status_;
    }
    std::string metrics_text() const override { return "cuzk_fake_engine_metric 1\n"; }
    // The service never installs compiled circuits (the CLI's GPU setup does); refuse loudly so a
    // test that reaches this learns it.
    util::Status install_compiled(porep::RegisteredSealProof,
                                  std::shared_ptr<const groth16::CompiledCircuit>) override {
        return util::Status(util::StatusCode::kUnavailable,
                            "the fake engine holds no compiled circuits");
    }
    util::Status preload_params(porep::RegisteredSealProof proof) override {
        std::lock_guard<std::mutex> lock(mu_);
        preloaded_.push_back(proof);
        return util::Status();
    }
    util::Status evict_params(porep::RegisteredSealProof proof) override {
        std::lock_guard<std::mutex> lock(mu_);
        evicted_.push_back(proof);
        return util::Status();
    }
    void drain() override {}

    // Test controls.
    void set(const engine::JobId& id, const engine::JobOutcome& o) {
        std::lock_guard<std::mutex> lock(mu_);
        jobs_[id] = o;
        cv_.notify_all();
    }
    void set_submit_error(util::Status st) {
        std::lock_guard<std::mutex> lock(mu_);
        submit_error_ = std::move(st);
    }
    void set_status(engine::EngineStatus st) {
        std::lock_guard<std::mutex> lock(mu_);
        status_ = std::move(st);
    }
    std::vector<engine::JobSpec> specs() const {
        std::lock_guard<std::mutex> lock(mu_);
        return specs_;
    }
    std::vector<porep::RegisteredSealProof> preloaded_copy() const {
        std::lock_guard<std::mutex> lock(mu_);
        return preloaded_;
    }
    std::vector<porep::RegisteredSealProof> evicted_copy() const {
        std::lock_guard<std::mutex> lock(mu_);
        return evicted_;
    }

   private:
    static bool final_state(engine::JobState s) {
        return s == engine::JobState::kCompleted || s == engine::JobState::kFailed ||
               s == engine::JobState::kCancelled;
    }
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::map<engine::JobId, engine::JobOutcome> jobs_;
    std::vector<engine::JobSpec> specs_;
    std::vector<porep::RegisteredSealProof> preloaded_, evicted_;
    engine::EngineStatus status_;
    util::Status submit_error_;
    int next_ = 1;
};

class ServiceTest : public ::testing::Test {
   protected:
    void SetUp() override {
        service_ = std::make_unique<ProvingService>(engine_);
        grpc::ServerBuilder b;
        int port = 0;
        b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
        apply_server_limits(b);
        b.RegisterService(service_.get());
        server_ = b.BuildAndStart();
        ASSERT_NE(server_, nullptr);
        ASSERT_GT(port, 0);
        std::string addr = "127.0.0.1:";
        addr += std::to_string(port);
        auto c = Client::connect(addr);
        ASSERT_TRUE(c.ok());
        client_ = std::make_unique<Client>(std::move(*c));
    }
    void TearDown() override {
        service_->begin_shutdown();
        server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    }

    static v1::SubmitProofRequest porep_request() {
        v1::SubmitProofRequest r;
        r.set_request_id("porep-1000-7");
        r.set_proof_kind(v1::POREP_SEAL_COMMIT);
        r.set_sector_size(2048);
        r.set_registered_proof(5);  // StackedDrg2KiBV1_1
        r.set_priority(v1::HIGH);
        r.set_vanilla_proof("{\"c1\":\"bytes passed through\"}");
        r.set_sector_number(7);
        r.set_miner_id(1000);
        return r;
    }

    // Submits and expects INVALID_ARGUMENT whose message contains `part`.
    void expect_invalid(const v1::SubmitProofRequest& r, const std::string& part) {
        auto s = client_->submit(r);
        ASSERT_FALSE(s.ok());
        EXPECT_EQ(s.status().code(), util::StatusCode::kInvalidArgument);
        EXPECT_NE(s.status().message().find(part), std::string::npos) << s.status().message();
    }

    FakeEngine engine_;
    std::unique_ptr<ProvingService> service_;
    std::unique_ptr<grpc::Server> server_;
    std::unique_ptr<Client> client_;
};

TEST_F(ServiceTest, SubmitPassesTheRequestThrough) {
    auto r = client_->submit(porep_request());
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->job_id(), "job-1");
    const auto specs = engine_.specs();
    ASSERT_EQ(specs.size(), 1u);
    EXPECT_EQ(specs[0].request_id, "porep-1000-7");
    EXPECT_EQ(specs[0].registered_proof, porep::RegisteredSealProof::kStackedDrg2KiBV1_1);
    EXPECT_EQ(specs[0].c1_json, "{\"c1\":\"bytes passed through\"}");
    EXPECT_EQ(specs[0].sector_number, 7u);
    EXPECT_EQ(specs[0].miner_id, 1000u);
    EXPECT_EQ(specs[0].priority, engine::Priority::kHigh);
    // registered_proof 0 with a 2 KiB sector size is StackedDrg2KiBV1, not "unset".
    auto v1_req = porep_request();
    v1_req.set_registered_proof(0);
    ASSERT_TRUE(client_->submit(v1_req).ok());
    EXPECT_EQ(engine_.specs()[1].registered_proof, porep::RegisteredSealProof::kStackedDrg2KiBV1);
}

TEST_F(ServiceTest, PriorityMapping) {
    const std::pair<v1::Priority, engine::Priority> cases[] = {
        {v1::PRIORITY_UNSPECIFIED, engine::Priority::kNormal},
        {v1::LOW, engine::Priority::kLow},
        {v1::NORMAL, engine::Priority::kNormal},
        {v1::HIGH, engine::Priority::kHigh},
        {v1::CRITICAL, engine::Priority::kCritical}};
    size_t n = 0;
    for (const auto& [proto, want] : cases) {
        auto r = porep_request();
        r.set_priority(proto);
        ASSERT_TRUE(client_->submit(r).ok());
        EXPECT_EQ(engine_.specs()[n++].priority, want) << v1::Priority_Name(proto);
        if (proto != v1::PRIORITY_UNSPECIFIED) {
            EXPECT_EQ(priority_to_proto(want), proto);
        }
    }
    auto r = porep_request();
    r.set_priority(static_cast<v1::Priority>(9));
    expect_invalid(r, "unknown priority 9");
}

TEST_F(ServiceTest, InvalidRequestsAreNamed) {
    auto r = porep_request();
    r.clear_vanilla_proof();
    expect_invalid(r, "vanilla_proof is empty");
    r = porep_request();
    r.set_proof_kind(v1::SNAP_DEALS_UPDATE);
    expect_invalid(r, "proof_kind SNAP_DEALS_UPDATE is not supported");
    r.set_proof_kind(v1::WINNING_POST);
    expect_invalid(r, "WINNING_POST is not supported");
    r.set_proof_kind(static_cast<v1::ProofKind>(42));
    expect_invalid(r, "unknown proof_kind 42");
    r = porep_request();
    r.set_registered_proof(20);
    expect_invalid(r, "registered_proof 20 is not a RegisteredSealProof (0..19)");
    r = porep_request();
    r.set_registered_proof(8);  // 32 GiB V1_1 with a 2 KiB sector size
    expect_invalid(r, "sector_size 2048 does not match registered_proof StackedDrg32GiBV1_1");
    // No registered proof: the C1 decides, and a malformed one is named.
    r = porep_request();
    r.set_registered_proof(0);
    r.set_sector_size(0);
    r.set_vanilla_proof("{\"registered_proof\": 17");
    expect_invalid(r, "vanilla_proof: ");
    EXPECT_TRUE(engine_.specs().empty()) << "nothing reached the engine";
}

TEST_F(ServiceTest, EngineRefusalsKeepCodeAndMessage) {
    const std::pair<util::StatusCode, util::StatusCode> cases[] = {
        {util::StatusCode::kInvalidArgument, util::StatusCode::kInvalidArgument},
        {util::StatusCode::kResourceExhausted, util::StatusCode::kResourceExhausted},
        {util::StatusCode::kUnavailable, util::StatusCode::kUnavailable},
        {util::StatusCode::kNotFound, util::StatusCode::kNotFound},
        {util::StatusCode::kOutOfRange, util::StatusCode::kOutOfRange}};
    for (const auto& [engine_code, want] : cases) {
        engine_.set_submit_error(util::Status(engine_code, "C1: comm_r does not match"));
        auto s = client_->submit(porep_request());
        ASSERT_FALSE(s.ok());
        EXPECT_EQ(s.status().code(), want);
        EXPECT_NE(s.status().message().find("C1: comm_r does not match"), std::string::npos)
            << s.status().message();
    }
    EXPECT_EQ(to_grpc_status(util::Status(util::StatusCode::kInternal, "x")).error_code(),
              grpc::StatusCode::INTERNAL);
    EXPECT_EQ(to_grpc_status(util::Status(util::StatusCode::kIoError, "x")).error_code(),
              grpc::StatusCode::INTERNAL);
    EXPECT_EQ(to_grpc_status(util::Status(util::StatusCode::kCancelled, "x")).error_code(),
              grpc::StatusCode::CANCELLED);
    EXPECT_TRUE(to_grpc_status(util::Status()).ok());
    // The service keeps serving after refusals.
    engine_.set_submit_error(util::Status());
    EXPECT_TRUE(client_->submit(porep_request()).ok());
}

TEST_F(ServiceTest, AwaitMapsOutcomes) {
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    engine::JobOutcome o;
    o.id = "job-1";
    o.state = engine::JobState::kCompleted;
    o.proof.assign(192, 0xAB);
    o.timings.queue_wait_ms = 12.4;
    o.timings.srs_load_ms = 0.6;
    o.timings.synthesis_ms = 1500.5;
    o.timings.gpu_compute_ms = 250;
    o.timings.total_ms = 1800.49;
    o.partitions_total = o.partitions_done = 1;
    engine_.set("job-1", o);
    auto a = client_->await("job-1", 0);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(a->job_id(), "job-1");
    EXPECT_EQ(a->proof(), std::string(192, '\xAB'));
    EXPECT_EQ(a->queue_wait_ms(), 12u);
    EXPECT_EQ(a->srs_load_ms(), 1u);
    EXPECT_EQ(a->synthesis_ms(), 1501u);  // llround: half away from zero
    EXPECT_EQ(a->gpu_compute_ms(), 250u);
    EXPECT_EQ(a->total_ms(), 1800u);
    EXPECT_EQ(a->state(), "completed");
    EXPECT_EQ(a->partitions_done(), 1u);

    o.state = engine::JobState::kFailed;
    o.proof.clear();
    o.error = "partition 0: the proof does not verify";
    engine_.set("job-1", o);
    a = client_->await("job-1", 0);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->status(), v1::AwaitProofResponse::FAILED);
    EXPECT_EQ(a->error_message(), "partition 0: the proof does not verify");
    EXPECT_TRUE(a->proof().empty());

    o.state = engine::JobState::kCancelled;
    o.error = "cancelled";
    engine_.set("job-1", o);
    a = client_->await("job-1", 0);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->status(), v1::AwaitProofResponse::CANCELLED);

    auto missing = client_->await("job-999", 0);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), util::StatusCode::kNotFound);
    auto empty = client_->await("", 0);
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.status().code(), util::StatusCode::kInvalidArgument);
}

TEST_F(ServiceTest, AwaitTimesOutWithProgressAndBlocksUntilDone) {
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    engine::JobOutcome o;
    o.id = "job-1";
    o.state = engine::JobState::kRunning;
    o.partitions_total = 10;
    o.partitions_done = 3;
    engine_.set("job-1", o);
    const auto t0 = std::chrono::steady_clock::now();
    auto a = client_->await("job-1", 300);
    const auto waited = std::chrono::steady_clock::now() - t0;
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->status(), v1::AwaitProofResponse::TIMEOUT);
    EXPECT_EQ(a->state(), "running");
    EXPECT_EQ(a->partitions_total(), 10u);
    EXPECT_EQ(a->partitions_done(), 3u);
    EXPECT_GE(waited, milliseconds(290));
    EXPECT_LT(waited, milliseconds(3000));

    // timeout_ms 0: blocks across several wait slices until the job ends.
    std::thread finisher([&] {
        std::this_thread::sleep_for(milliseconds(1500));
        engine::JobOutcome done = o;
        done.state = engine::JobState::kCompleted;
        done.partitions_done = 10;
        done.proof.assign(1920, 1);
        engine_.set("job-1", done);
    });
    auto b = client_->await("job-1", 0);
    finisher.join();
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(b->proof().size(), 1920u);
}

TEST_F(ServiceTest, ShutdownReleasesWaitingAwaits) {
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    std::thread stopper([&] {
        std::this_thread::sleep_for(milliseconds(300));
        service_->begin_shutdown();
    });
    const auto t0 = std::chrono::steady_clock::now();
    auto a = client_->await("job-1", 0);
    stopper.join();
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.status().code(), util::StatusCode::kUnavailable);
    EXPECT_NE(a.status().message().find("await it again after the restart"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3));
}

TEST_F(ServiceTest, ProveSubmitsAndWaits) {
    std::thread finisher([&] {
        std::this_thread::sleep_for(milliseconds(200));
        engine::JobOutcome done;
        done.id = "job-1";
        done.state = engine::JobState::kCompleted;
        done.proof.assign(192, 7);
        engine_.set("job-1", done);
    });
    // Through the raw stub: Client has no Prove (the CLI does not use it).
    v1::ProveRequest req;
    *req.mutable_submit() = porep_request();
    v1::ProveResponse resp;
    auto channel = grpc::CreateChannel(client_->address(), grpc::InsecureChannelCredentials());
    auto stub = v1::ProvingEngine::NewStub(channel);
    grpc::ClientContext ctx;
    grpc::Status st = stub->Prove(&ctx, req, &resp);
    finisher.join();
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(resp.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(resp.result().job_id(), "job-1");
    EXPECT_EQ(resp.result().proof(), std::string(192, '\x07'));
    grpc::ClientContext ctx2;
    v1::ProveRequest no_submit;
    st = stub->Prove(&ctx2, no_submit, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServiceTest, CancelReportsWhetherTheJobWasRunning) {
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    engine::JobOutcome running;
    running.id = "job-2";
    running.state = engine::JobState::kRunning;
    engine_.set("job-2", running);
    auto c1 = client_->cancel("job-1");
    ASSERT_TRUE(c1.ok());
    EXPECT_FALSE(c1->was_running());
    auto c2 = client_->cancel("job-2");
    ASSERT_TRUE(c2.ok());
    EXPECT_TRUE(c2->was_running());
    auto a = client_->await("job-2", 0);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->status(), v1::AwaitProofResponse::CANCELLED);
    auto missing = client_->cancel("job-77");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), util::StatusCode::kNotFound);
}

engine::EngineStatus sample_status() {
    engine::EngineStatus st;
    st.backend = "gpu:0,1 NVIDIA H200";
    st.jobs_queued = 4;
    st.jobs_running = 2;
    st.jobs_completed = 11;
    st.jobs_failed = 1;
    st.jobs_cancelled = 3;
    st.partitions_queued = 37;
    st.partitions_synthesizing = 3;
    st.partitions_ready = 1;
    st.max_ready_partitions = 6;
    st.host_budget_bytes = 96ull << 30;
    st.host_reserved_bytes = 5ull << 30;
    st.prover_busy_fraction = 0.75;
    st.prover_memory_retries = 2;
    st.params.push_back({"/params/porep_32GiB.params", 1000, 47ull << 30});
    st.devices.push_back({0, 141ull << 30, 80ull << 30, 100ull << 30, "NVIDIA H200", 12, true,
                          {"/params/porep_32GiB.params#coset-lagrange"}});
    st.devices.push_back({1, 141ull << 30, 90ull << 30, 100ull << 30, "NVIDIA H200", 9, false, {}});
    st.journal_errors.push_back("job x: truncated record");
    return st;
}

TEST_F(ServiceTest, StatusMapsTheEngineStatus) {
    engine_.set_status(sample_status());
    auto s = client_->status();
    ASSERT_TRUE(s.ok());
    // One entry per device, not only the first one the backend name lists.
    ASSERT_EQ(s->gpus_size(), 2);
    EXPECT_EQ(s->gpus(0).ordinal(), 0u);
    EXPECT_EQ(s->gpus(0).name(), "NVIDIA H200");
    EXPECT_EQ(s->gpus(0).vram_total_bytes(), 141ull << 30);
    EXPECT_EQ(s->gpus(0).vram_free_bytes(), 80ull << 30);
    EXPECT_EQ(s->gpus(1).ordinal(), 1u);
    EXPECT_EQ(s->gpus(1).name(), "NVIDIA H200");
    EXPECT_EQ(s->gpus(1).vram_free_bytes(), 90ull << 30);
    ASSERT_EQ(s->loaded_srs_size(), 1);
    EXPECT_EQ(s->loaded_srs(0).circuit_id(), "porep-32g");
    EXPECT_EQ(s->loaded_srs(0).tier(), v1::SRSStatus::HOT);
    EXPECT_EQ(s->loaded_srs(0).size_bytes(), 1000 + (47ull << 30));
    ASSERT_EQ(s->queues_size(), 1);
    EXPECT_EQ(s->queues(0).pending(), 4u);
    EXPECT_EQ(s->queues(0).in_progress(), 2u);
    EXPECT_EQ(s->total_proofs_completed(), 11u);
    EXPECT_EQ(s->total_proofs_failed(), 1u);
    EXPECT_EQ(s->total_proofs_cancelled(), 3u);
    EXPECT_EQ(s->pinned_memory_limit_bytes(), 96ull << 30);
    EXPECT_EQ(s->backend(), "gpu:0,1 NVIDIA H200");
    EXPECT_FALSE(s->draining());
    service_->set_draining();
    EXPECT_TRUE(client_->status()->draining());
    // A CPU backend reports no GPU.
    auto cpu = sample_status();
    cpu.backend = "cpu";
    cpu.devices.clear();  // as the CPU backend reports
    engine_.set_status(cpu);
    EXPECT_EQ(client_->status()->gpus_size(), 0);
}

TEST_F(ServiceTest, StatusJsonIsWellFormed) {
    DaemonInfo info;
    info.version = "0.1.0";
    info.listen = "unix:///tmp/x.sock";
    info.uptime_seconds = 5;
    const std::string text = status_json(sample_status(), info);
    auto doc = util::json::Document::parse(text);
    ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << text;
    EXPECT_NE(text.find("\"jobs\":{\"queued\":4,\"running\":2,\"completed\":11,\"failed\":1,"
                        "\"cancelled\":3}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\"prover_memory_retries\":2"), std::string::npos) << text;
    EXPECT_NE(text.find("\"partitions\":{\"queued\":37,\"synthesizing\":3,\"ready\":1,"
                        "\"proving\":0,\"look_ahead\":6}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\"circuit_id\":\"porep-32g\""), std::string::npos);
    EXPECT_NE(text.find("\"journal_errors\":[\"job x: truncated record\"]"), std::string::npos);
    EXPECT_NE(text.find("\"gpus\":[{\"ordinal\":0,\"total_bytes\":151397597184,"
                        "\"free_bytes\":85899345920,\"params_budget_bytes\":107374182400,"
                        "\"name\":\"NVIDIA H200\",\"circuits_proved\":12,\"busy\":true,"
                        "\"params\":[\"/params/porep_32GiB.params#coset-lagrange\"]},"
                        "{\"ordinal\":1,"),
              std::string::npos)
        << text;
    EXPECT_TRUE(util::json::Document::parse(status_json(sample_status(), info, true)).ok());
}

TEST_F(ServiceTest, MetricsHaveEngineAndDaemonSeries) {
    engine_.set_status(sample_status());
    ASSERT_TRUE(client_->submit(porep_request()).ok());
    auto bad = porep_request();
    bad.clear_vanilla_proof();
    EXPECT_FALSE(client_->submit(bad).ok());
    auto m = client_->metrics();
    ASSERT_TRUE(m.ok());
    EXPECT_NE(m->find("cuzk_fake_engine_metric 1\n"), std::string::npos);
    EXPECT_NE(m->find("cuzk_rpc_requests_total{method=\"SubmitProof\",code=\"OK\"} 1\n"),
              std::string::npos)
        << *m;
    EXPECT_NE(
        m->find("cuzk_rpc_requests_total{method=\"SubmitProof\",code=\"INVALID_ARGUMENT\"} 1"),
        std::string::npos);
    EXPECT_NE(m->find("cuzk_proofs_total{proof_kind=\"porep\",status=\"completed\"} 11\n"),
              std::string::npos);
    EXPECT_NE(m->find("cuzk_proofs_completed_total 11\n"), std::string::npos);
    EXPECT_NE(m->find("# TYPE cuzk_daemon_uptime_seconds gauge\n"), std::string::npos);
    // Every sample line is "name{labels} value" or "name value"; comments start with '#'.
    size_t start = 0;
    while (start < m->size()) {
        const size_t end = m->find('\n', start);
        ASSERT_NE(end, std::string::npos) << "the exposition ends with a newline";
        const std::string line = m->substr(start, end - start);
        if (!line.starts_with("#")) {
            EXPECT_NE(line.rfind(' '), std::string::npos) << line;
        }
        start = end + 1;
    }
}

TEST_F(ServiceTest, PreloadAndEvictSrs) {
    grpc::ClientContext c1;
    auto stub = v1::ProvingEngine::NewStub(
        grpc::CreateChannel(client_->address(), grpc::InsecureChannelCredentials()));
    v1::PreloadSrsRequest pre;
    pre.set_circuit_id("porep-2k");
    v1::PreloadSrsResponse pre_resp;
    ASSERT_TRUE(stub->PreloadSRS(&c1, pre, &pre_resp).ok());
    EXPECT_FALSE(pre_resp.already_loaded());
    ASSERT_EQ(engine_.preloaded_copy().size(), 1u);
    EXPECT_EQ(engine_.preloaded_copy()[0], porep::RegisteredSealProof::kStackedDrg2KiBV1_1);

    engine_.set_status(sample_status());  // porep_32GiB.params is loaded
    grpc::ClientContext c2;
    v1::EvictSrsRequest ev;
    ev.set_circuit_id("StackedDrg32GiBV1_1");
    v1::EvictSrsResponse ev_resp;
    ASSERT_TRUE(stub->EvictSRS(&c2, ev, &ev_resp).ok());
    EXPECT_TRUE(ev_resp.was_loaded());
    EXPECT_EQ(ev_resp.freed_bytes(), 1000 + (47ull << 30));
    EXPECT_EQ(engine_.evicted_copy()[0], porep::RegisteredSealProof::kStackedDrg32GiBV1_1);

    grpc::ClientContext c3;
    pre.set_circuit_id("wpost-32g");
    grpc::Status st = stub->PreloadSRS(&c3, pre, &pre_resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("unknown circuit_id 'wpost-32g'"), std::string::npos);
    EXPECT_EQ(proof_from_circuit_id("porep-32GiB").value(),
              porep::RegisteredSealProof::kStackedDrg32GiBV1_1);
    EXPECT_EQ(proof_from_circuit_id("7").value(),
              porep::RegisteredSealProof::kStackedDrg512MiBV1_1);
}

TEST_F(ServiceTest, RequestsOverTheReceiveLimitAreRefused) {
    auto r = porep_request();
    r.set_vanilla_proof(std::string(size_t{kMaxReceiveBytes} + 1024, 'x'));
    auto s = client_->submit(r);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), util::StatusCode::kResourceExhausted) << s.status().message();
    EXPECT_TRUE(engine_.specs().empty());
    // Just under the limit passes.
    r.set_vanilla_proof(std::string(size_t{kMaxReceiveBytes} - 4096, 'x'));
    EXPECT_TRUE(client_->submit(r).ok());
}

}  // namespace
}  // namespace cuzk::daemon
