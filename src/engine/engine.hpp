// The proving engine: a long-lived service that turns C1 outputs into C2 proofs and keeps the
// prover busy. This header is the engine's public interface — what the daemon (src/daemon), the
// CLI and the pipeline benchmark use. Everything else in src/engine is an implementation detail.
//
// Model. A job is one sector's C1 output. submit() parses and checks it (a malformed C1, a
// registered proof that does not match it, missing parameters: kInvalidArgument naming the
// problem — the job is then NOT accepted), journals it (EngineConfig::journal_dir) and splits it
// into one work item per partition. Work items wait in one priority queue ordered by
// (priority desc, job submission order asc, partition asc). A synthesis pool
// (synthesis_workers threads) takes items in that order, after reserving their host memory from
// the budget, and synthesizes each into a ProvingAssignment; a prover thread (one per device by
// default) takes up to max_batch_size synthesized partitions that share a parameter set — of any
// jobs — waiting at most max_batch_wait_ms to fill a batch, and proves them in one backend call, so
// synthesis of the next partitions overlaps proving of the current ones; a call on witnesses goes
// on with the set's partitions that become ready while it runs (stream_witnesses), and each proof
// goes to its job as it is made. A job's partition proofs
// are assembled in partition order (192 bytes each; 1,920 for 32 GiB), batch-verified against the
// verifying key when verify_proofs is on (the default: a proof that does not verify is never
// returned — the job fails with the reason), and the job completes exactly once.
//
// Guarantees. An accepted job ends in exactly one of kCompleted, kFailed, kCancelled. After a
// restart with the same journal_dir, jobs that were accepted but not finished are run again, and
// finished ones can still be awaited (their proofs are in the journal). Submitting the same
// non-empty request_id again returns the existing job's id (idempotency). Host memory reserved by
// the engine never exceeds host_memory_budget_bytes; a job whose single partition cannot fit is
// refused at submit with kResourceExhausted, and so is a job whose parsed inputs (counted as the
// C1 text's size) have no room in the budget at that moment (retry later). Backpressure: more than
// max_pending_jobs unfinished jobs → kResourceExhausted. After drain() begins, submit() answers
// kUnavailable.
//
// Thread-safety: every member may be called from any thread concurrently.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/prover_backend.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/coset_bases.hpp"
#include "porep/registered_proof.hpp"
#include "util/env.hpp"
#include "util/status.hpp"
#include "util/trace.hpp"

namespace cuzk::engine {

enum class Priority : uint8_t { kLow = 0, kNormal = 1, kHigh = 2, kCritical = 3 };
const char* priority_name(Priority p);  // "low", "normal", "high", "critical"

enum class JobState : uint8_t { kQueued, kRunning, kCompleted, kFailed, kCancelled };
const char* job_state_name(JobState s);  // "queued", "running", "completed", "failed", "cancelled"

using JobId = std::string;  // opaque, unique across restarts of one journal

struct JobSpec {
    std::string request_id;  // idempotency key; empty = none
    porep::RegisteredSealProof registered_proof = porep::RegisteredSealProof::kStackedDrg2KiBV1_1;
    std::string c1_json;  // rust-fil-proofs' C1 output, plain or in the {"...": ...} wrapper
    uint64_t sector_number = 0;
    uint64_t miner_id = 0;
    Priority priority = Priority::kNormal;
};

struct JobTimings {
    double queue_wait_ms = 0;   // submit → first partition starts synthesis
    double srs_load_ms = 0;     // parameter loading attributed to this job
    double synthesis_ms = 0;    // summed over partitions
    double gpu_compute_ms = 0;  // prover backend time attributed to this job
    double total_ms = 0;        // submit → end
    util::PhaseTimes phases;    // DESIGN.md §5 phase names, summed over partitions
};

struct JobOutcome {
    JobId id;
    JobState state = JobState::kQueued;
    std::vector<uint8_t> proof;  // kCompleted: partitions × 192 bytes
    std::string error;           // kFailed / kCancelled: why
    JobTimings timings;
    uint32_t partitions_total = 0, partitions_done = 0;  // progress
};

// Threads of the global pool per synthesis worker when EngineConfig::synthesis_workers is 0.
inline constexpr unsigned kAutoThreadsPerSynthesisWorker = 5;
// EngineConfig::synthesis_workers resolved: `configured`, or for 0 the automatic count.
unsigned resolve_synthesis_workers(unsigned configured);

struct EngineConfig {
    // Parameter files: <params_dir>/porep_<size>.params and .vk (size as "2KiB", "32GiB"; the
    // names `cuzk setup --circuit porep:<size>` writes).
    std::string params_dir;
    std::string journal_dir;  // empty: no journal (jobs do not survive a restart)
    std::string trace_dir;    // non-empty: <trace_dir>/<job id>.trace.json per finished job
    // Partitions synthesized at once; 0: automatic — one per 5 threads of the global pool
    // (CUZK_THREADS, else the hardware's), at least 1 (kAutoThreadsPerSynthesisWorker). A 32
    // GiB witness alone took 2.2 s on an H200 host's 16 cores, under the GPU's ~1.2 s per
    // partition; three at once kept up with the GPU (a sector every 11–14 s, 2026-12-03).
    unsigned synthesis_workers = 0;
    // Threads feeding the backend; 0: one per device (ProverBackend::parallel_provers(): the
    // GPU backend's device count, 1 for the CPU backend).
    unsigned prover_workers = 0;
    unsigned max_batch_size = 1;  // partitions per prover call (at its start; see below)
    unsigned max_batch_wait_ms = 0;
    // A prover call on witnesses (the GPU's compiled path) goes on with the set's partitions that
    // become ready while it runs, for as long as they come in time (each asked for while the
    // previous one is proved) and no other set's partition is due first; each proof goes to its
    // job as soon as it is made: no new call's set-up and first, unhidden upload (~0.3–0.6 s
    // per call at 32 GiB on the H200) while witnesses keep coming, and no sector waits for the
    // end of a call. Measured (3 × 32 GiB, H200, 2026-12-03, witnesses then bounding the engine):
    // the same throughput (51.5 s against 50.4), the first sector 3.7 s sooner. Off: calls of at
    // most max_batch_size. Default: on unless CUZK_ENGINE_STREAM_WITNESSES=0.
    bool stream_witnesses = util::env_switch("CUZK_ENGINE_STREAM_WITNESSES", true);
    // Look-ahead: partitions synthesized or being synthesized but not yet taken by a prover
    // (double buffering). 0: 2 × max_batch_size × prover_workers, but at least
    // synthesis_workers + prover_workers — every synthesis worker busy while each prover has a
    // partition waiting (with max_batch_size 1 and three workers the look-ahead of 2 idled one
    // worker).
    unsigned max_ready_partitions = 0;
    size_t max_pending_jobs = 64;
    uint64_t host_memory_budget_bytes = 0;  // 0: 3/4 of physical memory
    bool verify_proofs = true;
    bool vanilla_check = true;  // check the C1's vanilla proofs at submit (porep::verify_c1)
    bool use_gpu = true;        // when built with CUDA and a device exists; else the CPU prover
    // Compiled synthesis (groth16/compiled_circuit.hpp): each proof type's circuit compiled once,
    // partitions synthesized as witness + sparse products — on the GPU when the backend proves
    // from witnesses. Default: groth16::compiled_synthesis_enabled() (CUZK_COMPILED_SYNTHESIS).
    bool compiled_synthesis = groth16::compiled_synthesis_enabled();
    // CUDA device ordinals the GPU backend uses (each once); empty: every visible device. A
    // listed device that does not exist makes Engine::start fail (kInvalidArgument).
    std::vector<unsigned> gpus;
    // Parameter sets the backend already holds (ProverBackend::install_generated_params, e.g.
    // made on the GPU: `cuzk bench pipeline --gpu-setup`): jobs of `sector_size` (bytes) use
    // the set under `key` instead of params_dir's files, and no file is looked for. Their
    // memory budget share is the host bytes the backend reports for them (0 when on the device).
    struct BackendParams {
        uint64_t sector_size = 0;
        std::string key;
    };
    std::vector<BackendParams> backend_params;
    // A loaded parameter set with no work for this long is dropped (its memory released); a set
    // with nothing in flight is also dropped at once when another set needs the memory.
    uint64_t params_idle_evict_ms = 600000;
    // Subgroup-check parameter points when loading (see CpuBackendOptions); off only for
    // trusted files.
    bool params_subgroup_check = true;
    // The GPU backend's H bases for the compiled path (GpuBackendOptions::h_basis): kMonomial
    // as in the files, or kCosetLagrange converted on each device at first use.
    groth16::HBasis params_h_basis = groth16::HBasis::kMonomial;
    // Where converted sets are kept across restarts (GpuBackendOptions::coset_bases_dir); empty:
    // each process converts again.
    std::string params_h_basis_dir;
};

struct LoadedParamsInfo {
    std::string path;
    uint64_t host_bytes = 0, device_bytes = 0;
};

struct EngineStatus {
    std::string backend;          // ProverBackend::name()
    unsigned prover_workers = 0;  // prover threads (EngineConfig::prover_workers, resolved)
    unsigned synthesis_workers = 0;  // synthesis threads (EngineConfig's, resolved)
    unsigned max_ready_partitions = 0;  // the look-ahead (EngineConfig's, resolved)
    bool draining = false;
    size_t jobs_queued = 0, jobs_running = 0;
    size_t partitions_queued = 0, partitions_synthesizing = 0, partitions_ready = 0,
           partitions_proving = 0;
    uint64_t jobs_completed = 0, jobs_failed = 0, jobs_cancelled = 0;
    uint64_t host_budget_bytes = 0, host_reserved_bytes = 0, host_reserved_peak_bytes = 0;
    uint64_t process_rss_bytes = 0, process_rss_peak_bytes = 0;
    double prover_busy_fraction = 0;  // since start
    // Prover calls that ran out of memory and whose partitions were queued again (smaller
    // batches, or assignments instead of witnesses).
    uint64_t prover_memory_retries = 0;
    std::vector<LoadedParamsInfo> params;
    std::vector<DeviceStatus> devices;        // per GPU (empty on the CPU backend)
    std::vector<std::string> journal_errors;  // journal records that could not be read at start
};

class Engine {
   public:
    // backend null: the GPU backend when config.use_gpu and one is available, else the CPU's.
    // Replays the journal (unfinished jobs are queued again) before returning.
    static util::Result<std::unique_ptr<Engine>> start(EngineConfig config,
                                                       std::unique_ptr<ProverBackend> backend = {});
    virtual ~Engine() = default;  // cancels what is still running (the journal keeps it)

    virtual util::Result<JobId> submit(JobSpec spec) = 0;
    // Blocks until the job ends or `timeout` passes. kNotFound: unknown id. On timeout returns the
    // outcome in its current (non-final) state. A finished job can be awaited any number of times.
    virtual util::Result<JobOutcome> await(const JobId& id, std::chrono::milliseconds timeout) = 0;
    // Non-blocking look at a job.
    virtual util::Result<JobOutcome> peek(const JobId& id) const = 0;
    // kNotFound: unknown id; a finished job: OK, unchanged. Work items not yet proved are dropped
    // and their memory released; the job ends kCancelled.
    virtual util::Status cancel(const JobId& id) = 0;

    virtual EngineStatus status() const = 0;
    // Prometheus text exposition (version 0.0.4): cuzk_jobs_total{state=…},
    // cuzk_queue_depth{stage=…}, cuzk_phase_ms histograms per phase, cuzk_prover_busy_fraction,
    // cuzk_host_memory_bytes{kind=…}.
    virtual std::string metrics_text() const = 0;

    // Compiled synthesis: uses `circuit` (the proof type's partition circuit, compiled by the
    // caller — e.g. once for the GPU setup and the engine alike) instead of compiling it again;
    // its bytes are charged to the host budget. Errors: kInvalidArgument (the type has one),
    // kResourceExhausted (budget).
    virtual util::Status install_compiled(
        porep::RegisteredSealProof proof,
        std::shared_ptr<const groth16::CompiledCircuit> circuit) = 0;
    // Loads the proof type's parameters (and, with compiled synthesis on, compiles its circuit),
    // waiting for both.
    virtual util::Status preload_params(porep::RegisteredSealProof proof) = 0;
    virtual util::Status evict_params(porep::RegisteredSealProof proof) = 0;

    // Stops accepting jobs and returns when every accepted job has finished.
    virtual void drain() = 0;
};

}  // namespace cuzk::engine
