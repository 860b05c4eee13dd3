// The engine's scheduling over a fake ProverBackend (no parameters, instant "proofs"): batching
// across jobs, max_batch_wait_ms, priority order, cancellation while queued and while proving,
// backpressure, drain, the memory budget, malformed input, bad witnesses, failed verification,
// idempotency, traces, metrics and a restart on the journal; calls that run out of device
// memory (retried smaller, then as assignments, and only then failed); the compiled path with a
// backend that proves from witnesses.
//
// The fake proofs cannot pass a pairing check, so these tests replace the verification step
// (EngineHooks::verify) with a counter that accepts — or, in one test, rejects — every batch;
// the job preparation is replaced too (a "fake:N" spec gives N one-constraint circuits whose
// public input encodes (sector_number, partition), so the backend can tell which partitions it
// was given). The real path (C1, CPU prover, pairing verification) is engine_cpu_test.cpp.
// The multi-device tests use a fake backend of N "devices" that picks one per call with the GPU
// backend's DevicePicker, and check that the default prover_workers keeps all of them busy at
// once, each call on a device of its own; and that a parameter set held by the backend
// (EngineConfig::backend_params) is used without any file.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "engine/device_picker.hpp"
#include "engine/engine.hpp"
#include "engine/engine_hooks.hpp"
#include "engine/journal.hpp"
#include "groth16/compiled_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr uint64_t kTag = 1000;  // public input = sector_number * kTag + partition

// What the fake backend saw, shared with the test.
struct FakeState {
    std::mutex mu;
    std::condition_variable cv;
    bool gate_closed = false;  // prove() waits while closed
    int in_prove = 0;
    std::vector<std::vector<uint64_t>> batches;  // tags per prove() call
    std::vector<Clock::time_point> batch_times;
    int loads = 0;
    std::vector<std::string> load_paths, prove_paths;
    // Multi-device backend: the device of each prove() call, and the devices in use now.
    std::vector<size_t> batch_devices;
    std::vector<int> device_users;
    int device_collisions = 0;
    std::atomic<int> verify_calls{0};
    std::atomic<bool> verify_result{true};
    // Device memory: a call of more than max_fit circuits (witnesses: max_fit_witnesses) answers
    // kResourceExhausted, as the GPU backend does when cudaMalloc fails.
    size_t max_fit = SIZE_MAX, max_fit_witnesses = SIZE_MAX;
    bool proves_witnesses = false;  // the backend takes witnesses (ProverBackend::prove_witnesses)
    bool use_feed = true;  // prove_witnesses goes on with the engine's feed (when it gets one)
    int fed = 0;           // witnesses the feed handed over
    std::vector<bool> batch_witnesses;  // per call: witnesses (true) or assignments
    std::vector<bool> batch_ok;         // per call: proofs returned
    std::vector<size_t> shape_releases;  // per release_compiled_shapes(): calls made before it

    void close_gate() {
        std::lock_guard<std::mutex> l(mu);
        gate_closed = true;
    }
    void open_gate() {
        {
            std::lock_guard<std::mutex> l(mu);
            gate_closed = false;
        }
        cv.notify_all();
    }
    bool wait_for(const std::function<bool()>& pred, milliseconds timeout = milliseconds(10000)) {
        std::unique_lock<std::mutex> l(mu);
        return cv.wait_for(l, timeout, pred);
    }
    std::vector<uint64_t> all_tags() {
        std::lock_guard<std::mutex> l(mu);
        std::vector<uint64_t> out;
        for (auto& b : batches) out.insert(out.end(), b.begin(), b.end());
        return out;
    }
};

groth16::ParamsShape fake_shape() { return {2, 7, 1, 3, 1, 1}; }

class FakeBackend final : public ProverBackend {
   public:
    explicit FakeBackend(std::shared_ptr<FakeState> s) : s_(std::move(s)) {}
    std::string name() const override { return "fake"; }
    std::vector<DeviceStatus> device_status() const override {
        return {DeviceStatus{3, uint64_t{80} << 30, uint64_t{50} << 30, uint64_t{40} << 30,
                             "fake device", 7, true, {}}};
    }
    util::Result<LoadedParams> load_params(const std::string& path) override {
        std::lock_guard<std::mutex> l(s_->mu);
        ++s_->loads;
        s_->load_paths.push_back(path);
        LoadedParams p;
        p.shape = fake_shape();
        p.host_bytes = 1000;
        return p;
    }
    util::Status evict_params(const std::string&) override { return util::Status(); }
    util::Result<std::vector<groth16::Proof>> prove(const std::string& path,
                                                    std::span<r1cs::ProvingAssignment* const> as,
                                                    std::span<const groth16::ProverRandomness>,
                                                    util::PhaseTimes* times,
                                                    util::TraceRecorder* trace) override {
        std::vector<uint64_t> tags;
        for (const auto* a : as) tags.push_back(a->input_assignment().at(1).to_int().limb[0]);
        const util::Result<size_t> call = enter(path, tags, false);
        if (!call.ok()) return call.status();
        util::PhaseScope scope("msm_h", times, trace, "prover");
        for (size_t i = 0; i < as.size(); ++i)
            if (util::Status st = check_rows(i, as[i]->a(), as[i]->b(), as[i]->c()); !st.ok())
                return st;
        return succeeded(*call);
    }
    bool proves_witnesses() const override { return s_->proves_witnesses; }
    void release_compiled_shapes() override {
        std::lock_guard<std::mutex> l(s_->mu);
        s_->shape_releases.push_back(s_->batches.size());
    }
    // The compiled path: a, b, c = A·z, B·z, C·z on the CPU from the shape the engine passes.
    // With a feed (and FakeState::use_feed), the call goes on with the feed's witnesses, their
    // tags appended to the call's record, and reports each circuit to the feed.
    util::Result<std::vector<groth16::Proof>> prove_witnesses(
        const std::string& path, const std::shared_ptr<const groth16::CompiledCircuit>& compiled,
        std::span<groth16::Witness* const> ws, std::span<const groth16::ProverRandomness>,
        util::PhaseTimes* times, util::TraceRecorder* trace,
        groth16::WitnessFeed* feed) override {
        if (compiled == nullptr) return util::internal_error("prove_witnesses without a shape");
        if (!s_->use_feed) feed = nullptr;
        std::vector<uint64_t> tags;
        for (const auto* w : ws) tags.push_back(w->inputs.at(1).to_int().limb[0]);
        const util::Result<size_t> call = enter(path, tags, true);
        if (!call.ok()) return call.status();
        util::PhaseScope scope("msm_h", times, trace, "prover");
        auto prove_one = [&](size_t k, const groth16::Witness& w) -> util::Status {
            std::vector<ff::Fr> a, b, c;
            util::Status st = compiled->shape().multiply(w.inputs, w.aux, a, b, c);
            if (st.ok()) st = check_rows(k, a, b, c);
            util::PhaseTimes own;
            own.add("msm_h", 1.0);
            const groth16::Proof proof;
            if (feed != nullptr) feed->done(k, st.ok() ? &proof : nullptr, own);
            return st;
        };
        for (size_t i = 0; i < ws.size(); ++i) CUZK_RETURN_IF_ERROR(prove_one(i, *ws[i]));
        groth16::Witness* w = nullptr;
        groth16::ProverRandomness r;
        for (size_t k = ws.size(); feed != nullptr && feed->next(k, w, r); ++k) {
            {
                std::lock_guard<std::mutex> l(s_->mu);
                s_->batches[*call].push_back(w->inputs.at(1).to_int().limb[0]);
                ++s_->fed;
            }
            CUZK_RETURN_IF_ERROR(prove_one(k, *w));
        }
        return succeeded(*call);
    }

   private:
    // Records the call (its index into FakeState's per-call vectors), waits at the gate, then
    // answers kResourceExhausted when the call is larger than the fake device holds.
    util::Result<size_t> enter(const std::string& path, const std::vector<uint64_t>& tags,
                       bool witnesses) {
        std::unique_lock<std::mutex> l(s_->mu);
        s_->prove_paths.push_back(path);
        s_->batches.push_back(tags);
        s_->batch_times.push_back(Clock::now());
        s_->batch_witnesses.push_back(witnesses);
        s_->batch_ok.push_back(false);
        const size_t call = s_->batches.size() - 1;
        ++s_->in_prove;
        s_->cv.notify_all();
        s_->cv.wait(l, [&] { return !s_->gate_closed; });
        --s_->in_prove;
        s_->cv.notify_all();
        if (tags.size() > (witnesses ? s_->max_fit_witnesses : s_->max_fit))
            return util::Status(util::StatusCode::kResourceExhausted,
                                "fake device: out of memory for " + std::to_string(tags.size()) +
                                    " circuits");
        return call;
    }
    // The call's (unverifiable) proofs, recorded as returned.
    std::vector<groth16::Proof> succeeded(size_t call) {
        std::lock_guard<std::mutex> l(s_->mu);
        s_->batch_ok[call] = true;
        return std::vector<groth16::Proof>(s_->batches[call].size());
    }
    static util::Status check_rows(size_t i, const std::vector<ff::Fr>& a,
                                   const std::vector<ff::Fr>& b, const std::vector<ff::Fr>& c) {
        for (size_t r = 0; r < a.size(); ++r)
            if (a[r] * b[r] != c[r]) {
                std::string m = "circuit ";
                m += std::to_string(i);
                m += ": constraint row ";
                m += std::to_string(r);
                m += " is not satisfied (a*b != c)";
                return util::invalid_argument(m);
            }
        return util::Status();
    }

   public:

   private:
    std::shared_ptr<FakeState> s_;
};

// N fake devices: prove() picks one with a DevicePicker (as the GPU backend does), records it,
// counts a collision if another call is on it, then behaves as FakeBackend (gate included).
class MultiDeviceFakeBackend final : public ProverBackend {
   public:
    MultiDeviceFakeBackend(std::shared_ptr<FakeState> s, size_t devices)
        : s_(std::move(s)), inner_(s_), picker_(devices) {
        std::lock_guard<std::mutex> l(s_->mu);
        s_->device_users.assign(devices, 0);
    }
    std::string name() const override { return "fake-multi"; }
    unsigned parallel_provers() const override { return static_cast<unsigned>(picker_.devices()); }
    std::vector<DeviceStatus> device_status() const override {
        std::vector<DeviceStatus> out;
        for (size_t i = 0; i < picker_.devices(); ++i)
            out.push_back({static_cast<uint32_t>(i), uint64_t{80} << 30, uint64_t{50} << 30,
                           uint64_t{40} << 30, "fake device", 0, false, {}});
        return out;
    }
    util::Result<LoadedParams> load_params(const std::string& p) override {
        return inner_.load_params(p);
    }
    util::Status evict_params(const std::string& p) override { return inner_.evict_params(p); }
    util::Result<std::vector<groth16::Proof>> prove(const std::string& path,
                                                    std::span<r1cs::ProvingAssignment* const> as,
                                                    std::span<const groth16::ProverRandomness> r,
                                                    util::PhaseTimes* times,
                                                    util::TraceRecorder* trace) override {
        DevicePicker::Lease lease = picker_.acquire();
        const size_t d = lease.index();
        {
            std::lock_guard<std::mutex> l(s_->mu);
            if (s_->device_users[d]++ > 0) ++s_->device_collisions;
            s_->batch_devices.push_back(d);
        }
        auto out = inner_.prove(path, as, r, times, trace);
        std::lock_guard<std::mutex> l(s_->mu);
        --s_->device_users[d];
        return out;
    }

   private:
    std::shared_ptr<FakeState> s_;
    FakeBackend inner_;
    DevicePicker picker_;
};

// "fake:N" → N partitions; "fake:N:badK" → partition K's witness is wrong.
util::Result<PreparedJob> fake_prepare(const JobSpec& spec, bool) {
    const std::string& t = spec.c1_json;
    if (!t.starts_with("fake:")) return util::invalid_argument("C1: not a fake job: '" + t + "'");
    const int n = std::atoi(t.c_str() + 5);
    if (n <= 0 || n > 100) return util::invalid_argument("C1: bad partition count");
    int bad = -1;
    if (const size_t at = t.find(":bad"); at != std::string::npos)
        bad = std::atoi(t.c_str() + at + 4);
    PreparedJob job;
    for (int k = 0; k < n; ++k) {
        const uint64_t tag = spec.sector_number * kTag + static_cast<uint64_t>(k);
        const ff::Fr x = ff::Fr::from_u64(tag);
        const ff::Fr y = ff::Fr::from_u64(tag);  // the input is the tag itself: x·1 = y
        const bool wrong = k == bad;
        job.circuits.push_back([x, y, wrong](r1cs::ConstraintSystem& cs) -> util::Status {
            auto xv = cs.alloc("x", wrong ? x + ff::Fr::one() : x);
            if (!xv.ok()) return xv.status();
            auto yv = cs.alloc_input("y", y);
            if (!yv.ok()) return yv.status();
            cs.enforce("x*1=y", r1cs::LC(*xv), r1cs::LC(r1cs::Variable::one()), r1cs::LC(*yv));
            return util::Status();
        });
        job.public_inputs.push_back({y});
    }
    return job;
}

// The shape of the fake jobs' circuit, compiled (every fake partition has it).
std::shared_ptr<const groth16::CompiledCircuit> compiled_fake_circuit() {
    JobSpec spec;
    spec.c1_json = "fake:1";
    auto job = fake_prepare(spec, false);
    EXPECT_TRUE(job.ok());
    auto compiled = groth16::CompiledCircuit::compile(job->circuits[0]);
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    return std::shared_ptr<const groth16::CompiledCircuit>(std::move(*compiled));
}

struct Harness {
    std::shared_ptr<FakeState> state = std::make_shared<FakeState>();
    std::string dir;
    EngineConfig config;
    size_t devices = 0;  // > 0: MultiDeviceFakeBackend with this many devices

    explicit Harness(const std::string& name) {
        dir = (fs::temp_directory_path() / ("cuzk_engine_fake_" + name)).string();
        fs::remove_all(dir);
        fs::create_directories(dir + "/params");
        std::ofstream(dir + "/params/porep_2KiB.params") << "fake";
        std::ofstream(dir + "/params/porep_2KiB.vk") << "fake";
        config.params_dir = dir + "/params";
        config.synthesis_workers = 2;
        config.host_memory_budget_bytes = uint64_t{1} << 30;
        // The fake jobs' one-constraint circuits are not the proof type's PoRep circuit: no
        // compiled synthesis (it would compile the 2 KiB shape in the background for nothing).
        config.compiled_synthesis = false;
    }
    util::Result<std::unique_ptr<Engine>> start() {
        EngineHooks h;
        h.prepare = fake_prepare;
        h.params_shape = [](const std::string&) -> util::Result<groth16::ParamsShape> {
            return fake_shape();
        };
        auto s = state;
        h.verify = [s](const groth16::VerifyingKey&, std::span<const groth16::Proof> p,
                       std::span<const std::vector<ff::Fr>> in) -> util::Result<bool> {
            ++s->verify_calls;
            if (p.size() != in.size()) return util::invalid_argument("size mismatch");
            return s->verify_result.load();
        };
        if (devices > 0)
            return start_engine(config, std::make_unique<MultiDeviceFakeBackend>(state, devices),
                                h);
        return start_engine(config, std::make_unique<FakeBackend>(state), h);
    }
    // Compiled synthesis with a backend that proves from witnesses (the GPU backend's path):
    // the fake circuit's shape installed as the proof type's compiled circuit, so the engine
    // hands the backend witnesses and that shape.
    util::Result<std::unique_ptr<Engine>> start_proving_witnesses() {
        config.compiled_synthesis = true;
        state->proves_witnesses = true;
        auto e = start();
        if (!e.ok()) return e;
        CUZK_RETURN_IF_ERROR((*e)->install_compiled(
            porep::RegisteredSealProof::kStackedDrg2KiBV1_1, compiled_fake_circuit()));
        return e;
    }
};

JobSpec fake_spec(uint64_t sector, int partitions, Priority p = Priority::kNormal,
                  std::string extra = "") {
    JobSpec s;
    s.c1_json = "fake:" + std::to_string(partitions) + extra;
    s.sector_number = sector;
    s.priority = p;
    return s;
}

JobOutcome await_final(Engine& e, const JobId& id) {
    auto o = e.await(id, milliseconds(20000));
    EXPECT_TRUE(o.ok());
    return o.ok() ? *o : JobOutcome{};
}

// Submits one fake job per (sector, partitions) pair and expects every one to complete.
void submit_and_expect_completed(Engine& e,
                                 std::initializer_list<std::pair<uint64_t, int>> jobs) {
    std::vector<JobId> ids;
    for (const auto& [sector, partitions] : jobs) {
        auto id = e.submit(fake_spec(sector, partitions));
        ASSERT_TRUE(id.ok()) << id.status().message();
        ids.push_back(*id);
    }
    for (const JobId& id : ids) {
        const JobOutcome o = await_final(e, id);
        EXPECT_EQ(o.state, JobState::kCompleted) << id << ": " << o.error;
    }
}

// Submits `spec` (accepted) and expects the job to fail, with no proof and `why` in its error.
void submit_and_expect_failed(Engine& e, const JobSpec& spec, const std::string& why) {
    auto id = e.submit(spec);
    ASSERT_TRUE(id.ok()) << id.status().message();
    const JobOutcome o = await_final(e, *id);
    EXPECT_EQ(o.state, JobState::kFailed);
    EXPECT_TRUE(o.proof.empty());
    EXPECT_NE(o.error.find(why), std::string::npos) << o.error;
}

TEST(EngineFake, CompletesAndAssemblesInPartitionOrder) {
    Harness h("basic");
    auto e = h.start();
    ASSERT_TRUE(e.ok()) << e.status().message();
    auto id = (*e)->submit(fake_spec(7, 3));
    ASSERT_TRUE(id.ok()) << id.status().message();
    const JobOutcome o = await_final(**e, *id);
    EXPECT_EQ(o.state, JobState::kCompleted) << o.error;
    EXPECT_EQ(o.proof.size(), 3u * 192);
    EXPECT_EQ(o.partitions_done, 3u);
    auto tags = h.state->all_tags();
    std::sort(tags.begin(), tags.end());
    EXPECT_EQ(tags, (std::vector<uint64_t>{7000, 7001, 7002}));  // each partition proved once
    EXPECT_EQ(h.state->verify_calls.load(), 1);
    EXPECT_GT(o.timings.total_ms, 0);
    EXPECT_GT(o.timings.phases.get("witness"), 0);
    EXPECT_EQ((*e)->status().backend, "fake");
}

TEST(EngineFake, PartitionsOfSeveralJobsShareOneProveCall) {
    Harness h("batch");
    h.config.max_batch_size = 4;
    h.config.max_batch_wait_ms = 3000;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    submit_and_expect_completed(**e, {{1, 2}, {2, 2}});
    std::lock_guard<std::mutex> l(h.state->mu);
    ASSERT_EQ(h.state->batches.size(), 1u);
    EXPECT_EQ(h.state->batches[0], (std::vector<uint64_t>{1000, 1001, 2000, 2001}));
}

TEST(EngineFake, MaxBatchWaitIsHonoured) {
    Harness h("wait");
    h.config.max_batch_size = 8;
    h.config.max_batch_wait_ms = 400;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    const auto t0 = Clock::now();
    auto a = (*e)->submit(fake_spec(1, 1));
    std::this_thread::sleep_for(milliseconds(100));
    auto b = (*e)->submit(fake_spec(2, 1));  // arrives within the window: same batch
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(await_final(**e, *a).state, JobState::kCompleted);
    EXPECT_EQ(await_final(**e, *b).state, JobState::kCompleted);
    std::lock_guard<std::mutex> l(h.state->mu);
    ASSERT_EQ(h.state->batches.size(), 1u);
    EXPECT_EQ(h.state->batches[0].size(), 2u);
    const double waited =
        std::chrono::duration<double, std::milli>(h.state->batch_times[0] - t0).count();
    EXPECT_GE(waited, 390);   // not before the window closed (the batch never filled)
    EXPECT_LT(waited, 5000);  // and not much after
}

TEST(EngineFake, QueueOrderIsPriorityThenSubmission) {
    Harness h("priority");
    h.config.synthesis_workers = 2;
    // Room for one partition at a time: nothing is synthesized ahead, so the prove order is
    // exactly the order in which the queue hands out items.
    h.config.host_memory_budget_bytes =
        params_host_bytes(fake_shape()) + partition_host_bytes(fake_shape()) * 3 / 2;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    auto first = (*e)->submit(fake_spec(1, 1));
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
    // Queued behind the gate, in an order that differs from their priorities.
    std::vector<JobId> ids;
    ids.push_back(*(*e)->submit(fake_spec(2, 2, Priority::kLow)));
    ids.push_back(*(*e)->submit(fake_spec(3, 1, Priority::kNormal)));
    ids.push_back(*(*e)->submit(fake_spec(4, 1, Priority::kCritical)));
    ids.push_back(*(*e)->submit(fake_spec(5, 1, Priority::kNormal)));
    ids.push_back(*(*e)->submit(fake_spec(6, 2, Priority::kHigh)));
    h.state->open_gate();
    for (const JobId& id : ids) EXPECT_EQ(await_final(**e, id).state, JobState::kCompleted);
    EXPECT_EQ(await_final(**e, *first).state, JobState::kCompleted);
    EXPECT_EQ(h.state->all_tags(),
              (std::vector<uint64_t>{1000, 4000, 6000, 6001, 3000, 5000, 2000, 2001}));
}

TEST(EngineFake, SynthesisRunsAheadByAtMostTheLookAhead) {
    Harness h("lookahead");
    h.config.synthesis_workers = 3;
    h.config.max_ready_partitions = 2;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    auto id = (*e)->submit(fake_spec(1, 8));
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
    // One partition in prove(), two synthesized ahead, the rest still queued.
    EngineStatus s;
    for (int i = 0; i < 200; ++i) {
        s = (*e)->status();
        if (s.partitions_ready == 2) break;
        std::this_thread::sleep_for(milliseconds(5));
    }
    std::this_thread::sleep_for(milliseconds(50));
    s = (*e)->status();
    EXPECT_EQ(s.partitions_proving, 1u);
    EXPECT_EQ(s.partitions_ready + s.partitions_synthesizing, 2u);
    EXPECT_EQ(s.partitions_queued, 5u);
    EXPECT_EQ(s.jobs_running, 1u);
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *id).state, JobState::kCompleted);
    EXPECT_EQ((*e)->status().partitions_queued, 0u);
}

TEST(EngineFake, CancelWhileQueuedAndWhileProving) {
    Harness h("cancel");
    h.config.synthesis_workers = 1;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    auto a = (*e)->submit(fake_spec(1, 1));
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
    auto b = (*e)->submit(fake_spec(2, 3));
    auto c = (*e)->submit(fake_spec(3, 1));
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    // b: queued (at most one partition synthesized meanwhile); a: inside prove().
    ASSERT_TRUE((*e)->cancel(*b).ok());
    ASSERT_TRUE((*e)->cancel(*a).ok());
    auto oa = (*e)->peek(*a);
    auto ob = (*e)->peek(*b);
    ASSERT_TRUE(oa.ok() && ob.ok());
    EXPECT_EQ(oa->state, JobState::kCancelled);  // at once, while its proof is still running
    EXPECT_EQ(ob->state, JobState::kCancelled);
    EXPECT_TRUE(oa->proof.empty());
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *c).state, JobState::kCompleted);
    EXPECT_EQ(await_final(**e, *a).state, JobState::kCancelled);
    // Cancelling a finished job changes nothing; unknown ids are kNotFound.
    EXPECT_TRUE((*e)->cancel(*c).ok());
    EXPECT_EQ((*e)->peek(*c)->state, JobState::kCompleted);
    EXPECT_EQ((*e)->cancel("nope").code(), util::StatusCode::kNotFound);
    for (uint64_t t : h.state->all_tags()) EXPECT_NE(t / kTag, 2u) << "cancelled job proved";
    const EngineStatus s = (*e)->status();
    EXPECT_EQ(s.jobs_cancelled, 2u);
    EXPECT_EQ(s.jobs_completed, 1u);
    // Every partition's memory came back; only the parameter set stays reserved.
    EXPECT_EQ(s.host_reserved_bytes, params_host_bytes(fake_shape()));
}

TEST(EngineFake, BackpressureAndDrain) {
    Harness h("backpressure");
    h.config.max_pending_jobs = 2;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    auto a = (*e)->submit(fake_spec(1, 1));
    auto b = (*e)->submit(fake_spec(2, 1));
    ASSERT_TRUE(a.ok() && b.ok());
    auto c = (*e)->submit(fake_spec(3, 1));
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), util::StatusCode::kResourceExhausted);
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *a).state, JobState::kCompleted);
    EXPECT_EQ(await_final(**e, *b).state, JobState::kCompleted);
    std::vector<JobId> more;
    for (uint64_t s = 10; s < 12; ++s) more.push_back(*(*e)->submit(fake_spec(s, 2)));
    (*e)->drain();
    for (const JobId& id : more) EXPECT_EQ((*e)->peek(id)->state, JobState::kCompleted);
    auto late = (*e)->submit(fake_spec(20, 1));
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.status().code(), util::StatusCode::kUnavailable);
    EXPECT_TRUE((*e)->status().draining);
}

TEST(EngineFake, MemoryBudgetLimitsPartitionsInFlight) {
    Harness h("budget");
    const uint64_t part = partition_host_bytes(fake_shape());
    const uint64_t params = params_host_bytes(fake_shape());
    h.config.synthesis_workers = 4;
    h.config.max_batch_size = 8;
    h.config.max_batch_wait_ms = 50;
    h.config.host_memory_budget_bytes = params + 2 * part + part / 2;  // room for 2 partitions
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    std::vector<JobId> ids;
    for (uint64_t s = 1; s <= 4; ++s) ids.push_back(*(*e)->submit(fake_spec(s, 3)));
    for (const JobId& id : ids) EXPECT_EQ(await_final(**e, id).state, JobState::kCompleted);
    const EngineStatus st = (*e)->status();
    EXPECT_LE(st.host_reserved_peak_bytes, st.host_budget_bytes);
    // Two partitions at once, plus the four jobs' inputs (their "C1" text, 6 bytes each).
    EXPECT_EQ(st.host_reserved_peak_bytes, params + 2 * part + 4 * 6);
    std::lock_guard<std::mutex> l(h.state->mu);
    size_t proved = 0;
    for (const auto& b : h.state->batches) {
        EXPECT_LE(b.size(), 2u);  // never more than the budget holds
        proved += b.size();
    }
    EXPECT_EQ(proved, 12u);
}

TEST(EngineFake, RefusesAJobWhosePartitionCannotFit) {
    Harness h("nofit");
    h.config.host_memory_budget_bytes =
        params_host_bytes(fake_shape()) + partition_host_bytes(fake_shape()) - 1;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    auto id = (*e)->submit(fake_spec(1, 1));
    ASSERT_FALSE(id.ok());
    EXPECT_EQ(id.status().code(), util::StatusCode::kResourceExhausted);
    EXPECT_NE(id.status().message().find("budget"), std::string::npos) << id.status().message();
}

TEST(EngineFake, InputsOfPendingJobsCountInTheBudget) {
    Harness h("inputs");
    h.config.host_memory_budget_bytes =
        params_host_bytes(fake_shape()) + partition_host_bytes(fake_shape()) + 300;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    const std::string pad = ":" + std::string(200, 'x');
    auto a = (*e)->submit(fake_spec(1, 1, Priority::kNormal, pad));
    ASSERT_TRUE(a.ok()) << a.status().message();
    // A second 206-byte input would leave no room for a partition of the set: refused for now.
    auto b = (*e)->submit(fake_spec(2, 1, Priority::kNormal, pad));
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.status().code(), util::StatusCode::kResourceExhausted);
    EXPECT_NE(b.status().message().find("inputs"), std::string::npos) << b.status().message();
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *a).state, JobState::kCompleted);
    // Released with the job: the same input fits again.
    auto c = (*e)->submit(fake_spec(3, 1, Priority::kNormal, pad));
    ASSERT_TRUE(c.ok()) << c.status().message();
    EXPECT_EQ(await_final(**e, *c).state, JobState::kCompleted);
    EXPECT_EQ((*e)->status().host_reserved_bytes, params_host_bytes(fake_shape()));
}

TEST(EngineFake, BadInputsAndBadWitnesses) {
    Harness h("bad");
    h.config.max_batch_size = 4;
    h.config.max_batch_wait_ms = 2000;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    JobSpec garbage;
    garbage.c1_json = "{not json";
    auto g = (*e)->submit(garbage);
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.status().code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(g.status().message().find("C1"), std::string::npos);
    // Missing parameter files name the path.
    fs::remove(h.config.params_dir + "/porep_2KiB.vk");
    auto missing = (*e)->submit(fake_spec(1, 1));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(missing.status().message().find("porep_2KiB.vk"), std::string::npos)
        << missing.status().message();
    std::ofstream(h.config.params_dir + "/porep_2KiB.vk") << "fake";
    // A bad witness in one job of a shared batch fails that job only.
    auto bad = (*e)->submit(fake_spec(1, 2, Priority::kNormal, ":bad1"));
    auto good = (*e)->submit(fake_spec(2, 2));
    ASSERT_TRUE(bad.ok() && good.ok());
    const JobOutcome ob = await_final(**e, *bad);
    EXPECT_EQ(ob.state, JobState::kFailed);
    EXPECT_NE(ob.error.find("partition 1: constraint row 0 is not satisfied"), std::string::npos)
        << ob.error;
    EXPECT_TRUE(ob.proof.empty());
    EXPECT_EQ(await_final(**e, *good).state, JobState::kCompleted);
}

TEST(EngineFake, AProofThatDoesNotVerifyIsNeverReturned) {
    Harness h("verify");
    h.state->verify_result = false;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    submit_and_expect_failed(**e, fake_spec(1, 2), "does not verify");
    // verify_proofs off: the check is skipped.
    Harness h2("noverify");
    h2.state->verify_result = false;
    h2.config.verify_proofs = false;
    auto e2 = h2.start();
    ASSERT_TRUE(e2.ok());
    auto id2 = (*e2)->submit(fake_spec(1, 1));
    EXPECT_EQ(await_final(**e2, *id2).state, JobState::kCompleted);
    EXPECT_EQ(h2.state->verify_calls.load(), 0);
}

TEST(EngineFake, IdempotencyTracesAndMetrics) {
    Harness h("trace");
    h.config.trace_dir = h.dir + "/traces";
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    JobSpec s = fake_spec(1, 2);
    s.request_id = "sector-1";
    auto a = (*e)->submit(s);
    auto b = (*e)->submit(s);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(await_final(**e, *a).state, JobState::kCompleted);
    std::ifstream f(h.config.trace_dir + "/" + *a + ".trace.json");
    ASSERT_TRUE(f.good());
    const std::string trace((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (const char* name : {"traceEvents", "\"witness\"", "\"msm_h\"", "\"verify\"",
                             "\"queue_wait\"", "\"completed\"", "\"synthesis ", "\"prover\""})
        EXPECT_NE(trace.find(name), std::string::npos) << name;
    const std::string m = (*e)->metrics_text();
    for (const char* line :
         {"cuzk_jobs_total{state=\"completed\"} 1", "cuzk_queue_depth{stage=\"queued\"} 0",
          "cuzk_phase_ms_count{phase=\"witness\"} 1",
          "cuzk_host_memory_bytes{kind=\"budget\"} 1073741824", "cuzk_prover_busy_fraction ",
          "cuzk_gpu_memory_bytes{device=\"3\",kind=\"free\"} 53687091200",
          "cuzk_gpu_memory_bytes{device=\"3\",kind=\"params_budget\"} 42949672960",
          "cuzk_gpu_circuits_proved_total{device=\"3\"} 7", "cuzk_gpu_busy{device=\"3\"} 1"})
        EXPECT_NE(m.find(line), std::string::npos) << line << "\n" << m;
    EXPECT_EQ((*e)->await("no-such-job", milliseconds(1)).status().code(),
              util::StatusCode::kNotFound);
}

TEST(EngineFake, RestartResumesJournaledJobsExactlyOnce) {
    Harness h("journal");
    h.config.journal_dir = h.dir + "/journal";
    h.config.synthesis_workers = 1;
    JobId done_id, running_id;
    std::vector<JobId> queued_ids;
    {
        auto e = h.start();
        ASSERT_TRUE(e.ok());
        done_id = *(*e)->submit(fake_spec(1, 2));
        ASSERT_EQ(await_final(**e, done_id).state, JobState::kCompleted);
        h.state->close_gate();
        running_id = *(*e)->submit(fake_spec(2, 1));
        ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
        queued_ids.push_back(*(*e)->submit(fake_spec(3, 2, Priority::kHigh)));
        queued_ids.push_back(*(*e)->submit(fake_spec(4, 1)));
        // Stop the engine with one job inside prove() and two queued: the destructor waits
        // for the running prove() (released shortly after) and still verifies and journals
        // that job, but starts nothing new.
        std::thread opener([&] {
            std::this_thread::sleep_for(milliseconds(200));
            h.state->open_gate();
        });
        e->reset();
        opener.join();
    }
    const size_t proved_before = h.state->all_tags().size();
    {
        auto j = Journal::open(h.config.journal_dir);
        ASSERT_TRUE(j.ok());
        EXPECT_EQ(j->read_record(running_id)->state, JobState::kCompleted);
        for (const JobId& id : queued_ids) EXPECT_EQ(j->read_record(id)->state, JobState::kQueued);
    }
    auto e = h.start();
    ASSERT_TRUE(e.ok()) << e.status().message();
    const JobOutcome od = await_final(**e, done_id);
    EXPECT_EQ(od.state, JobState::kCompleted);
    EXPECT_EQ(od.proof.size(), 2u * 192);
    for (const JobId& id : queued_ids) EXPECT_EQ(await_final(**e, id).state, JobState::kCompleted);
    EXPECT_EQ(await_final(**e, running_id).state, JobState::kCompleted);
    // Only the unfinished jobs ran again, each partition once more; the finished job did not.
    std::vector<uint64_t> after = h.state->all_tags();
    after.erase(after.begin(), after.begin() + static_cast<std::ptrdiff_t>(proved_before));
    std::sort(after.begin(), after.end());
    EXPECT_EQ(after, (std::vector<uint64_t>{3000, 3001, 4000}));
    EXPECT_EQ((*e)->status().jobs_completed, 2u);
    // New ids do not collide with journaled ones, and the journal says "completed" for all.
    auto fresh = (*e)->submit(fake_spec(5, 1));
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(await_final(**e, *fresh).state, JobState::kCompleted);
    auto j = Journal::open(h.config.journal_dir);
    ASSERT_TRUE(j.ok());
    const Journal::Scan scan = j->scan();
    EXPECT_TRUE(scan.errors.empty());
    ASSERT_EQ(scan.records.size(), 5u);
    for (const JournalRecord& r : scan.records) EXPECT_EQ(r.state, JobState::kCompleted) << r.id;
}

// With the default prover_workers (0: one per device) every device of a 3-device backend gets a
// prove() call at once, each on a device of its own; a longer run spreads over all of them.
TEST(EngineFake, EveryDeviceGetsAProverThreadOfItsOwn) {
    Harness h("multi_device");
    h.devices = 3;
    h.config.synthesis_workers = 3;
    auto e = h.start();
    ASSERT_TRUE(e.ok()) << e.status().message();
    EXPECT_EQ((*e)->status().devices.size(), 3u);
    h.state->close_gate();
    std::vector<JobId> ids;
    for (uint64_t sector = 1; sector <= 3; ++sector)
        ids.push_back(*(*e)->submit(fake_spec(sector, 1)));
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 3; }))
        << "in prove(): " << h.state->in_prove;
    {
        std::lock_guard<std::mutex> l(h.state->mu);
        EXPECT_EQ(h.state->device_users, (std::vector<int>{1, 1, 1}));
        std::vector<size_t> used = h.state->batch_devices;
        std::sort(used.begin(), used.end());
        EXPECT_EQ(used, (std::vector<size_t>{0, 1, 2}));
    }
    h.state->open_gate();
    for (const JobId& id : ids) EXPECT_EQ(await_final(**e, id).state, JobState::kCompleted);
    auto big = (*e)->submit(fake_spec(9, 12));
    ASSERT_TRUE(big.ok());
    EXPECT_EQ(await_final(**e, *big).state, JobState::kCompleted);
    std::lock_guard<std::mutex> l(h.state->mu);
    EXPECT_EQ(h.state->device_collisions, 0);
    EXPECT_EQ(h.state->batch_devices.size(), 15u);
    for (size_t d = 0; d < 3; ++d)
        EXPECT_NE(std::find(h.state->batch_devices.begin(), h.state->batch_devices.end(), d),
                  h.state->batch_devices.end())
            << "device " << d << " never used";
}

// synthesis_workers 0 (the default) resolves to one worker per kAutoThreadsPerSynthesisWorker
// threads of the global pool, at least one, and the engine reports what it runs; an explicit
// count is kept.
TEST(EngineFake, SynthesisWorkersDefaultToOnePerFiveThreads) {
    EXPECT_EQ(EngineConfig{}.synthesis_workers, 0u);
    const unsigned threads = util::ThreadPool::global().size();
    const unsigned automatic = std::max(1u, threads / kAutoThreadsPerSynthesisWorker);
    EXPECT_EQ(resolve_synthesis_workers(0), automatic) << threads << " threads";
    EXPECT_EQ(resolve_synthesis_workers(7), 7u);
    for (unsigned configured : {0u, 3u}) {
        Harness h(configured == 0 ? "auto_workers" : "three_workers");
        h.config.synthesis_workers = configured;
        auto e = h.start();
        ASSERT_TRUE(e.ok());
        EXPECT_EQ((*e)->status().synthesis_workers, configured == 0 ? automatic : 3u);
        auto id = (*e)->submit(fake_spec(1, 2));
        ASSERT_TRUE(id.ok());
        EXPECT_EQ(await_final(**e, *id).state, JobState::kCompleted);
    }
}

// The default look-ahead keeps every synthesis worker busy: with max_batch_size 1, one prover
// and three workers it is 3 + 1 = 4 partitions (2 × 1 × 1 would idle a worker), so with the
// prover held at the gate four partitions become ready, and no more.
TEST(EngineFake, DefaultLookAheadKeepsEverySynthesisWorkerBusy) {
    Harness h("look_ahead_default");
    h.config.synthesis_workers = 3;
    h.config.max_batch_size = 1;
    h.state->close_gate();
    auto e = h.start();
    ASSERT_TRUE(e.ok()) << e.status().message();
    auto id = (*e)->submit(fake_spec(11, 8));
    ASSERT_TRUE(id.ok()) << id.status().message();
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while ((*e)->status().partitions_ready < 4 && Clock::now() < deadline)
        std::this_thread::sleep_for(milliseconds(5));
    EXPECT_EQ((*e)->status().partitions_ready, 4u);
    std::this_thread::sleep_for(milliseconds(200));  // and it stays there
    const EngineStatus st = (*e)->status();
    EXPECT_EQ(st.partitions_ready + st.partitions_synthesizing, 4u);
    EXPECT_EQ(st.max_ready_partitions, 4u);
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *id).state, JobState::kCompleted);
}

// An explicit prover_workers is kept: one thread drives the 3 devices one call at a time.
TEST(EngineFake, ExplicitProverWorkersIsKept) {
    Harness h("multi_device_one");
    h.devices = 3;
    h.config.synthesis_workers = 3;
    h.config.prover_workers = 1;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    h.state->close_gate();
    auto id = (*e)->submit(fake_spec(1, 3));
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
    EXPECT_FALSE(h.state->wait_for([&] { return h.state->in_prove > 1; }, milliseconds(300)));
    h.state->open_gate();
    EXPECT_EQ(await_final(**e, *id).state, JobState::kCompleted);
}

// A set the backend holds (EngineConfig::backend_params) is used for its sector size without
// any parameter file: loaded and proved under its key.
// The proved tags of the calls that returned proofs, sorted, and the sizes of all calls.
struct CallSummary {
    std::vector<uint64_t> proved;
    std::vector<size_t> ok_sizes, failed_sizes;
    std::vector<bool> ok_witnesses;
};
// With streaming calls (EngineConfig::stream_witnesses) a job completes as its last proof is
// made, possibly before the call that made it returns: waits until no call is in progress.
void await_calls_returned(Engine& e) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (e.status().partitions_proving > 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(milliseconds(5));
    EXPECT_EQ(e.status().partitions_proving, 0u);
}

CallSummary summarize_calls(FakeState& s) {
    std::lock_guard<std::mutex> l(s.mu);
    CallSummary out;
    for (size_t i = 0; i < s.batches.size(); ++i) {
        if (s.batch_ok[i]) {
            out.proved.insert(out.proved.end(), s.batches[i].begin(), s.batches[i].end());
            out.ok_sizes.push_back(s.batches[i].size());
            out.ok_witnesses.push_back(s.batch_witnesses[i]);
        } else {
            out.failed_sizes.push_back(s.batches[i].size());
        }
    }
    std::sort(out.proved.begin(), out.proved.end());
    return out;
}

TEST(EngineFake, OutOfMemoryBatchesAreRetriedSmaller) {
    Harness h("oom_batches");
    h.config.max_batch_size = 8;
    h.config.max_batch_wait_ms = 3000;
    h.state->max_fit = 2;  // the fake device holds two circuits per call
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    submit_and_expect_completed(**e, {{1, 4}, {2, 4}});
    const CallSummary c = summarize_calls(*h.state);
    // Every partition proved exactly once, by calls the device could hold, after at least one
    // call that it could not.
    EXPECT_EQ(c.proved, (std::vector<uint64_t>{1000, 1001, 1002, 1003, 2000, 2001, 2002, 2003}));
    for (size_t n : c.ok_sizes) EXPECT_LE(n, 2u);
    ASSERT_FALSE(c.failed_sizes.empty());
    for (size_t n : c.failed_sizes) EXPECT_GT(n, 2u);
    const EngineStatus st = (*e)->status();
    EXPECT_EQ(st.prover_memory_retries, c.failed_sizes.size());
    EXPECT_EQ(st.jobs_failed, 0u);
    EXPECT_NE((*e)->metrics_text().find("cuzk_prover_memory_retries_total " +
                                        std::to_string(c.failed_sizes.size()) + "\n"),
              std::string::npos);
}

TEST(EngineFake, APartitionThatNeverFitsFailsItsJobAndTheEngineGoesOn) {
    Harness h("oom_single");
    h.config.max_batch_size = 4;
    h.config.max_batch_wait_ms = 1000;
    h.state->max_fit = 0;
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    submit_and_expect_failed(**e, fake_spec(3, 2), "out of memory");
    {
        std::lock_guard<std::mutex> l(h.state->mu);
        h.state->max_fit = SIZE_MAX;
    }
    submit_and_expect_completed(**e, {{4, 2}});
}

TEST(EngineFake, WitnessesGoToABackendThatProvesThem) {
    Harness h("witnesses");
    h.config.max_batch_size = 4;
    h.config.max_batch_wait_ms = 3000;
    auto e = h.start_proving_witnesses();
    ASSERT_TRUE(e.ok()) << e.status().message();
    submit_and_expect_completed(**e, {{5, 3}, {6, 1}});
    await_calls_returned(**e);
    const CallSummary c = summarize_calls(*h.state);
    EXPECT_EQ(c.proved, (std::vector<uint64_t>{5000, 5001, 5002, 6000}));
    EXPECT_TRUE(c.failed_sizes.empty());
    for (bool w : c.ok_witnesses) EXPECT_TRUE(w);
    // A wrong witness is caught by the backend's products and fails only its job.
    submit_and_expect_failed(**e, fake_spec(7, 2, Priority::kNormal, ":bad1"),
                             "partition 1: constraint row 0 is not satisfied");
}

// A call on witnesses goes on with the partitions that become ready while it runs
// (EngineConfig::stream_witnesses): with max_batch_size 1, the first call, held at the gate
// until the look-ahead has filled, proves those too, and a later job's partitions join a running
// call; every partition is proved once and every job completes. Off: one partition per call.
// A backend that ignores the feed gets calls of one partition either way.
TEST(EngineFake, WitnessCallsGoOnWithPartitionsThatBecomeReady) {
    struct Case {
        bool stream, backend_uses_feed;
        const char* name;
    };
    for (const Case& c : {Case{true, true, "stream_on"}, Case{false, true, "stream_off"},
                          Case{true, false, "stream_ignored"}}) {
        SCOPED_TRACE(c.name);
        Harness h(c.name);
        h.config.max_batch_size = 1;
        h.config.max_ready_partitions = 2;  // the default would be synthesis_workers + 1
        h.config.stream_witnesses = c.stream;
        h.state->use_feed = c.backend_uses_feed;
        h.state->close_gate();
        auto e = h.start_proving_witnesses();
        ASSERT_TRUE(e.ok()) << e.status().message();
        auto first = (*e)->submit(fake_spec(9, 6));
        ASSERT_TRUE(first.ok()) << first.status().message();
        ASSERT_TRUE(h.state->wait_for([&] { return h.state->in_prove == 1; }));
        // The look-ahead (2) fills while the first call waits at the gate.
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        while ((*e)->status().partitions_ready < 2 && Clock::now() < deadline)
            std::this_thread::sleep_for(milliseconds(5));
        ASSERT_EQ((*e)->status().partitions_ready, 2u);
        h.state->open_gate();
        auto second = (*e)->submit(fake_spec(10, 3));
        ASSERT_TRUE(second.ok()) << second.status().message();
        EXPECT_EQ(await_final(**e, *first).state, JobState::kCompleted);
        EXPECT_EQ(await_final(**e, *second).state, JobState::kCompleted);
        await_calls_returned(**e);

        const CallSummary calls = summarize_calls(*h.state);
        EXPECT_EQ(calls.proved, (std::vector<uint64_t>{9000, 9001, 9002, 9003, 9004, 9005,
                                                       10000, 10001, 10002}));
        EXPECT_TRUE(calls.failed_sizes.empty());
        std::lock_guard<std::mutex> l(h.state->mu);
        if (c.stream && c.backend_uses_feed) {
            // The first call took at least the two partitions ready when the gate opened.
            ASSERT_FALSE(h.state->batches.empty());
            EXPECT_GE(h.state->batches[0].size(), 3u);
            EXPECT_EQ(h.state->fed, 9 - static_cast<int>(h.state->batches.size()));
        } else {
            EXPECT_EQ(h.state->fed, 0);
            for (size_t size : calls.ok_sizes) EXPECT_EQ(size, 1u);
        }
        // The first call begins with its own partition and the two that were ready when the
        // gate opened — the first three of the queue, in the order two synthesis workers
        // finished them; later ones come as synthesis finishes them.
        std::vector<uint64_t> call0 = h.state->batches[0];
        if (c.stream && c.backend_uses_feed) {
            ASSERT_GE(call0.size(), 3u);
            call0.resize(3);
            std::sort(call0.begin(), call0.end());
            EXPECT_EQ(call0, (std::vector<uint64_t>{9000, 9001, 9002}));
        } else {
            EXPECT_EQ(call0.size(), 1u);
        }
    }
}

TEST(EngineFake, WitnessesThatDoNotFitAreProvedAsAssignments) {
    Harness h("witnesses_oom");
    h.config.max_batch_size = 2;
    h.config.max_batch_wait_ms = 2000;
    h.state->max_fit_witnesses = 0;  // the compiled shape leaves no room on the fake device
    auto e = h.start_proving_witnesses();
    ASSERT_TRUE(e.ok()) << e.status().message();
    submit_and_expect_completed(**e, {{8, 3}});
    const CallSummary c = summarize_calls(*h.state);
    EXPECT_EQ(c.proved, (std::vector<uint64_t>{8000, 8001, 8002}));
    ASSERT_FALSE(c.failed_sizes.empty());
    for (bool w : c.ok_witnesses) EXPECT_FALSE(w);  // every proof came from an assignment
    EXPECT_EQ((*e)->status().prover_memory_retries, c.failed_sizes.size());
    // The backend was told to drop its compiled shapes before the first assignment call, and
    // again after the last witness call (a witness synthesized before the switch may still come).
    std::lock_guard<std::mutex> l(h.state->mu);
    const std::vector<size_t>& releases = h.state->shape_releases;  // calls made before each
    ASSERT_FALSE(releases.empty());
    size_t witness_calls = 0;
    for (size_t call = 0; call < h.state->batches.size(); ++call) {
        if (h.state->batch_witnesses[call])
            witness_calls = call + 1;
        else
            EXPECT_GE(call, releases.front()) << "call " << call;
    }
    EXPECT_GE(releases.back(), witness_calls);
}

TEST(EngineFake, BackendHeldParamsNeedNoFile) {
    Harness h("held_params");
    fs::remove_all(h.config.params_dir);
    h.config.backend_params = {{2048, "gpu-setup:porep:2KiB"}};
    auto e = h.start();
    ASSERT_TRUE(e.ok());
    ASSERT_TRUE((*e)->preload_params(porep::RegisteredSealProof::kStackedDrg2KiBV1_1).ok());
    auto id = (*e)->submit(fake_spec(4, 2));
    ASSERT_TRUE(id.ok()) << id.status().message();
    EXPECT_EQ(await_final(**e, *id).state, JobState::kCompleted);
    {
        std::lock_guard<std::mutex> l(h.state->mu);
        ASSERT_FALSE(h.state->load_paths.empty());
        for (const std::string& p : h.state->load_paths) EXPECT_EQ(p, "gpu-setup:porep:2KiB");
        ASSERT_EQ(h.state->prove_paths.size(), 2u);
        for (const std::string& p : h.state->prove_paths) EXPECT_EQ(p, "gpu-setup:porep:2KiB");
    }
    const EngineStatus st = (*e)->status();
    ASSERT_EQ(st.params.size(), 1u);
    EXPECT_EQ(st.params[0].path, "gpu-setup:porep:2KiB");
    // Without the entry the same engine configuration looks for the files, and says so.
    Harness files("held_params_files");
    fs::remove_all(files.config.params_dir);
    auto e2 = files.start();
    ASSERT_TRUE(e2.ok());
    auto missing = (*e2)->submit(fake_spec(4, 2));
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.status().message().find("porep_2KiB.params"), std::string::npos)
        << missing.status().message();
}

}  // namespace
}  // namespace cuzk::engine
