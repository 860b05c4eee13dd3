// The engine's implementation (see engine.hpp for the model and guarantees).
//
// Threads: `synthesis_workers` synthesis threads, `prover_workers` prover threads (feed the
// backend: load parameter sets, form batches, prove), one finisher thread (assembles, verifies,
// journals, writes traces). On destruction the synthesis and prover threads stop after their
// current item; the finisher then still verifies and journals every job whose partitions are
// all proved, so no finished proof is thrown away. All shared state is guarded by one mutex `mu_`,
// held only for bookkeeping — never during synthesis, loading, proving or verification — so
// synthesis of the next partitions overlaps the proving of the current batch.
//
// A partition moves queued → synthesizing → ready → proving → done. Its host memory
// (partition_host_bytes of its parameter set; on the witness path the smaller
// witness_host_bytes of the compiled circuit, topped up — released, then waited for whole —
// should the partition fall back to direct synthesis) is reserved from the budget before
// synthesis starts and released when its proof is made (or when the partition is dropped). A parameter
// set's memory (params_host_bytes) is reserved before the first partition that needs it starts;
// a set with no partition in flight may be evicted to make room for another set, and is evicted
// after params_idle_evict_ms without work. Workers serve the queue strictly in its order: when
// the first item cannot get memory, nobody starts another one (no starvation of big jobs).
// Each unfinished job also holds its parsed inputs (C1 witness, circuits, public inputs), reserved
// at submit as input_bytes = the C1 text's size (the parsed form is smaller: ~1/3). Admission
// keeps Σ input_bytes + (params + one partition of the largest known set) <= budget, so a
// queued job can always get its parameters and a partition once in-flight work drains; when the
// bytes are not free right now, submit answers kResourceExhausted (retry later).
// A batch the backend cannot prove for lack of memory (kResourceExhausted, not pinned on one
// circuit) loses no job: its partitions are queued again and the set's batches are made smaller
// (halved), then — for a single witness — proved from assignments, and only a single assignment
// that does not fit fails its job. Each step shrinks what the backend is asked for, so the retries
// end.
// Synthesis runs ahead of the provers by at most max_ready_partitions (ready + synthesizing), so
// memory is not filled with partitions that will wait long for a prover. Deadlock freedom: submit
// refuses a job unless its set and one partition fit in the whole budget; in-flight partitions
// always finish and release; idle sets are evictable.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/compiled_cache.hpp"
#include "engine/engine_hooks.hpp"
#include "engine/journal.hpp"
#include "engine/memory_budget.hpp"
#include "engine/work_queue.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/witness.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::engine {

class EngineImpl final : public Engine {
   public:
    using Clock = std::chrono::steady_clock;

    EngineImpl(EngineConfig config, std::unique_ptr<ProverBackend> backend, EngineHooks hooks,
               std::optional<Journal> journal);
    ~EngineImpl() override;

    util::Status replay_journal();
    void start_threads();

    util::Result<JobId> submit(JobSpec spec) override;
    util::Result<JobOutcome> await(const JobId& id, std::chrono::milliseconds timeout) override;
    util::Result<JobOutcome> peek(const JobId& id) const override;
    util::Status cancel(const JobId& id) override;
    EngineStatus status() const override;
    std::string metrics_text() const override;
    util::Status preload_params(porep::RegisteredSealProof proof) override;
    util::Status install_compiled(porep::RegisteredSealProof proof,
                                  std::shared_ptr<const groth16::CompiledCircuit> circuit) override {
        return compiled_cache_.insert(proof, std::move(circuit));
    }
    util::Status evict_params(porep::RegisteredSealProof proof) override;
    void drain() override;

   private:
    struct ParamSet {
        std::string path, vk_path;
        groth16::ParamsShape shape;
        uint64_t params_bytes = 0, partition_bytes = 0;
        bool reserved = false, loaded = false, loading = false;
        groth16::VerifyingKey vk;
        uint64_t host_bytes = 0, device_bytes = 0;
        size_t queued = 0, synthesizing = 0, ready = 0, proving = 0;
        Clock::time_point last_used = Clock::now();
        // After the backend ran out of memory (kResourceExhausted) on a batch of this set: the
        // largest batch it may be given now (halved at each such failure, down to 1), and — once
        // one witness alone did not fit — partitions go to the backend as assignments (the
        // compiled shape no longer needed on the device). Kept for the set's lifetime.
        size_t batch_cap = SIZE_MAX;
        bool witnesses_off = false;
        size_t in_flight() const { return synthesizing + ready + proving; }
        size_t pending() const { return queued + in_flight(); }
    };

    struct Job {
        JobId id;
        uint64_t seq = 0;
        JobSpec spec;  // c1_json emptied once journaled
        JobState state = JobState::kQueued;
        std::string error;
        ParamSet* params = nullptr;
        std::vector<porep::CircuitFn> circuits;
        std::vector<std::vector<ff::Fr>> inputs;
        std::vector<std::optional<groth16::Proof>> proofs;
        uint32_t total = 0, done = 0;
        JobTimings timings;
        std::shared_ptr<util::TraceRecorder> trace;  // shared: workers hold it outside the lock
        Clock::time_point submitted = Clock::now();
        bool started = false;
        std::vector<uint8_t> proof_bytes;
        uint64_t input_bytes = 0;  // reserved for the job's parsed inputs until it ends
    };
    using JobPtr = std::shared_ptr<Job>;

    // A partition ready for the prover: its synthesized assignment, or — on the compiled path
    // with a backend that computes a/b/c itself (ProverBackend::proves_witnesses) — only its
    // witness and the compiled shape it belongs to. A batch holds items of one kind and shape.
    struct ReadyItem {
        WorkKey key;
        JobPtr job;
        std::unique_ptr<r1cs::ProvingAssignment> assignment;
        Clock::time_point ready_at;
        std::unique_ptr<groth16::Witness> witness;
        std::shared_ptr<const groth16::CompiledCircuit> compiled;
        // Host bytes this item holds in the budget: the set's partition_bytes for an assignment,
        // the witness's own size for a witness (the rest is released when it becomes ready).
        uint64_t reserved_bytes = 0;
        // Its proof went to its job during the prover call (CallFeed), its budget with it.
        bool delivered = false;
    };
    // A prover call's groth16::WitnessFeed (engine_workers.cpp): more ready partitions while
    // the call runs, each proof handed to its job as it is made.
    class CallFeed;

    // ---- engine.cpp ----
    // The key of the set the backend holds for this proof's sector size
    // (EngineConfig::backend_params), or null: the set comes from params_dir's files.
    const std::string* backend_params_key(porep::RegisteredSealProof proof) const;
    // The files for the proof's sector size, or {backend key, ""} for a set the backend holds.
    ParamsPaths paths_for(porep::RegisteredSealProof proof) const;
    util::Result<ParamSet*> params_for(porep::RegisteredSealProof proof);
    void enqueue_job_locked(const JobPtr& job);
    JobOutcome outcome_locked(const Job& job) const;
    // Ends a job (state final): counters, journal, trace file, waiters.
    void finish_job_locked(const JobPtr& job, JobState state, std::string error);
    // Drops the job's queued and ready partitions (their memory released).
    void drop_pending_locked(const JobPtr& job);
    void journal_state_locked(const Job& job);
    bool ensure_params_reserved_locked(ParamSet& ps);
    void evict_locked(ParamSet& ps);
    // Loads ps (the caller set ps.loading); lock is released during the load.
    void load_params_unlocked(ParamSet& ps, std::unique_lock<std::mutex>& lock);
    void notify_all_locked();

    // ---- engine_workers.cpp ----
    void synthesis_loop(unsigned index);
    void prover_loop();
    void finisher_loop();
    void evict_idle_locked(Clock::time_point now);
    void prove_batch_locked(ParamSet& ps, std::unique_lock<std::mutex>& lock);
    // A proof made for a batch item: to its job (unless the job ended meanwhile), the job to the
    // finisher when it was the last one; the item's budget released. Once per item.
    void deliver_locked(ReadyItem& item, const groth16::Proof& proof);
    // The events of a prover call (recorded in `call`, whose thread `prover_tid` is the prover
    // lane) into the job's trace, on the job's time base; each with the call's size so far.
    static void copy_call_trace(const JobPtr& job, const util::TraceRecorder& call,
                                uint32_t prover_tid, size_t call_size);
    // After the backend answered `st` for a batch of n partitions (from witnesses or not) with
    // no circuit to blame: when it ran out of memory and the request can still shrink, shrinks
    // the set's next requests (see the comment at the top) and returns true — the partitions
    // are then queued again, none failed.
    bool shrink_after_out_of_memory_locked(ParamSet& ps, size_t n, bool from_witnesses,
                                           const util::Status& st);
    // Partitions per backend call for ps: max_batch_size (at least 1), within ps.batch_cap.
    size_t batch_limit(const ParamSet& ps) const {
        return std::min(std::max<size_t>(1, config_.max_batch_size), ps.batch_cap);
    }

    EngineConfig config_;
    std::unique_ptr<ProverBackend> backend_;
    EngineHooks hooks_;
    std::optional<Journal> journal_;
    MemoryBudget budget_;
    // Compiled partition circuits per proof type (compiled synthesis, EngineConfig::compiled_synthesis),
    // charged to budget_ and evicted after params_idle_evict_ms unused (compiled_cache.hpp).
    CompiledCache compiled_cache_{budget_,
                                  std::chrono::milliseconds(config_.params_idle_evict_ms),
                                  std::chrono::milliseconds(config_.params_idle_evict_ms)};
    const Clock::time_point started_at_ = Clock::now();

    mutable std::mutex mu_;
    std::condition_variable work_cv_, prover_cv_, finish_cv_, done_cv_;
    bool stopping_ = false, draining_ = false;
    bool finisher_stop_ = false;  // set once the other threads have ended

    std::map<std::string, std::unique_ptr<ParamSet>> sets_;  // by params path
    std::map<JobId, JobPtr> jobs_;
    std::map<uint64_t, JobPtr> by_seq_;  // unfinished jobs
    std::map<std::string, JobId> request_ids_;
    std::set<std::string> submitting_request_ids_;
    WorkQueue queue_;
    std::vector<ReadyItem> ready_;
    std::deque<JobPtr> to_finish_;
    uint64_t input_bytes_total_ = 0;  // Σ input_bytes of unfinished jobs
    size_t synthesizing_total_ = 0;   // partitions being synthesized, all sets
    uint64_t next_seq_ = 1;
    size_t unfinished_ = 0;
    uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0;
    double busy_ms_ = 0;
    uint64_t memory_retries_ = 0;  // batches put back after the backend ran out of memory
    // A set stopped using witnesses for memory: the next prover call first has the backend drop
    // its copies of compiled shapes (ProverBackend::release_compiled_shapes).
    bool release_compiled_pending_ = false;
    std::vector<std::string> journal_errors_;

    // Per-phase histograms of finished jobs (engine_metrics.cpp).
    struct Histogram {
        std::vector<uint64_t> counts;  // per bucket (cumulative at output time)
        uint64_t count = 0;
        double sum = 0;
    };
    std::map<std::string, Histogram> phase_hist_;
    void record_phases_locked(const util::PhaseTimes& phases);

    std::vector<std::thread> threads_;  // synthesis and prover threads
    std::thread finisher_;
};

}  // namespace cuzk::engine
