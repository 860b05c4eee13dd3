// Engine: start, submit, await, cancel, status, parameter control, drain, journal replay.
// Threading and memory model: engine_impl.hpp.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "engine/default_backend.hpp"
#include "engine/engine_impl.hpp"
#include "engine/str_cat.hpp"
#include "groth16/compiled_circuit.hpp"
#include "util/thread_pool.hpp"
#include "util/timer.hpp"

namespace cuzk::engine {
namespace {

int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

util::Status resource_exhausted(std::string m) {
    return util::Status(util::StatusCode::kResourceExhausted, std::move(m));
}

}  // namespace

const char* priority_name(Priority p) {
    switch (p) {
        case Priority::kLow:
            return "low";
        case Priority::kNormal:
            return "normal";
        case Priority::kHigh:
            return "high";
        case Priority::kCritical:
            return "critical";
    }
    return "unknown";
}

const char* job_state_name(JobState s) {
    switch (s) {
        case JobState::kQueued:
            return "queued";
        case JobState::kRunning:
            return "running";
        case JobState::kCompleted:
            return "completed";
        case JobState::kFailed:
            return "failed";
        case JobState::kCancelled:
            return "cancelled";
    }
    return "unknown";
}

unsigned resolve_synthesis_workers(unsigned configured) {
    if (configured != 0) return configured;
    return std::max(1u, util::ThreadPool::global().size() / kAutoThreadsPerSynthesisWorker);
}

util::Result<std::unique_ptr<Engine>> Engine::start(EngineConfig config,
                                                    std::unique_ptr<ProverBackend> backend) {
    return start_engine(std::move(config), std::move(backend), default_hooks());
}

util::Result<std::unique_ptr<Engine>> start_engine(EngineConfig config,
                                                   std::unique_ptr<ProverBackend> backend,
                                                   EngineHooks hooks) {
    config.synthesis_workers = resolve_synthesis_workers(config.synthesis_workers);
    if (config.max_batch_size == 0) config.max_batch_size = 1;
    if (config.host_memory_budget_bytes == 0)
        config.host_memory_budget_bytes = physical_memory_bytes() / 4 * 3;
    if (config.host_memory_budget_bytes == 0)
        return util::invalid_argument("engine: the physical memory is unknown; set a budget");
    const EngineHooks defaults = default_hooks();
    if (!hooks.prepare) hooks.prepare = defaults.prepare;
    if (!hooks.params_shape) hooks.params_shape = defaults.params_shape;
    if (!hooks.verify) hooks.verify = defaults.verify;
    if (!backend) {
        CUZK_ASSIGN_OR_RETURN(backend, make_default_backend(config));
    }
    if (config.prover_workers == 0)
        config.prover_workers = std::max(1u, backend->parallel_provers());
    if (config.max_ready_partitions == 0)
        config.max_ready_partitions =
            std::max(2 * config.max_batch_size * config.prover_workers,
                     config.synthesis_workers + config.prover_workers);
    std::optional<Journal> journal;
    if (!config.journal_dir.empty()) {
        CUZK_ASSIGN_OR_RETURN(Journal j, Journal::open(config.journal_dir));
        journal.emplace(std::move(j));
    }
    if (!config.trace_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(config.trace_dir, ec);
        if (ec)
            return util::io_error(str_cat(
                {"engine: cannot create trace_dir ", config.trace_dir, ": ", ec.message()}));
    }
    auto impl = std::make_unique<EngineImpl>(std::move(config), std::move(backend),
                                             std::move(hooks), std::move(journal));
    CUZK_RETURN_IF_ERROR(impl->replay_journal());
    impl->start_threads();
    return std::unique_ptr<Engine>(std::move(impl));
}

EngineImpl::EngineImpl(EngineConfig config, std::unique_ptr<ProverBackend> backend,
                       EngineHooks hooks, std::optional<Journal> journal)
    : config_(std::move(config)),
      backend_(std::move(backend)),
      hooks_(std::move(hooks)),
      journal_(std::move(journal)),
      budget_(config_.host_memory_budget_bytes) {}

EngineImpl::~EngineImpl() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
        notify_all_locked();
    }
    for (std::thread& t : threads_)
        if (t.joinable()) t.join();
    {
        std::lock_guard<std::mutex> lock(mu_);
        finisher_stop_ = true;
        finish_cv_.notify_all();
    }
    if (finisher_.joinable()) finisher_.join();
    // Unfinished jobs stay "queued"/"running" in the journal and run again after a restart.
}

void EngineImpl::start_threads() {
    for (unsigned i = 0; i < config_.synthesis_workers; ++i)
        threads_.emplace_back([this, i] { synthesis_loop(i); });
    for (unsigned i = 0; i < std::max(1u, config_.prover_workers); ++i)
        threads_.emplace_back([this] { prover_loop(); });
    finisher_ = std::thread([this] { finisher_loop(); });
}

void EngineImpl::notify_all_locked() {
    work_cv_.notify_all();
    prover_cv_.notify_all();
    finish_cv_.notify_all();
    done_cv_.notify_all();
}

const std::string* EngineImpl::backend_params_key(porep::RegisteredSealProof proof) const {
    const uint64_t sector_size = porep::seal_proof_info(proof).sector_size;
    for (const EngineConfig::BackendParams& b : config_.backend_params)
        if (b.sector_size == sector_size) return &b.key;
    return nullptr;
}

ParamsPaths EngineImpl::paths_for(porep::RegisteredSealProof proof) const {
    if (const std::string* key = backend_params_key(proof)) return {*key, ""};
    return params_paths(config_.params_dir, proof);
}

util::Result<EngineImpl::ParamSet*> EngineImpl::params_for(porep::RegisteredSealProof proof) {
    const ParamsPaths paths = paths_for(proof);
    {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = sets_.find(paths.params);
        if (it != sets_.end()) return it->second.get();
    }
    const std::string size = porep::sector_size_name(porep::seal_proof_info(proof).sector_size);
    if (backend_params_key(proof) != nullptr) {
        // A set the backend holds (no file): its shape and memory as the backend reports them.
        auto held = backend_->load_params(paths.params);
        if (!held.ok())
            return util::invalid_argument(
                str_cat({"parameters for ", size, " (", paths.params,
                         ", held by the backend): ", held.status().message()}));
        auto ps = std::make_unique<ParamSet>();
        ps->path = paths.params;
        ps->shape = held->shape;
        ps->params_bytes = held->host_bytes;
        ps->partition_bytes = partition_host_bytes(held->shape);
        std::lock_guard<std::mutex> lock(mu_);
        auto [it, inserted] = sets_.emplace(paths.params, std::move(ps));
        (void)inserted;
        return it->second.get();
    }
    std::error_code ec;
    for (const std::string& p : {paths.params, paths.vk}) {
        if (!std::filesystem::exists(p, ec))
            return util::invalid_argument(str_cat(
                {"parameters for ", size, " not found: ", p,
                 " is missing (make test parameters with `cuzk setup --circuit porep:", size,
                 " --out DIR`)"}));
    }
    auto shape = hooks_.params_shape(paths.params);
    if (!shape.ok())
        return util::invalid_argument(str_cat({"parameters: ", shape.status().message()}));
    auto ps = std::make_unique<ParamSet>();
    ps->path = paths.params;
    ps->vk_path = paths.vk;
    ps->shape = *shape;
    ps->params_bytes = params_host_bytes(*shape);
    ps->partition_bytes = partition_host_bytes(*shape);
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = sets_.emplace(paths.params, std::move(ps));
    (void)inserted;  // another submit may have made it meanwhile: same file, same shape
    return it->second.get();
}

util::Result<JobId> EngineImpl::submit(JobSpec spec) {
    const std::string request_id = spec.request_id;
    {
        std::unique_lock<std::mutex> lock(mu_);
        if (draining_ || stopping_)
            return util::Status(util::StatusCode::kUnavailable,
                                "engine: draining, no new jobs are accepted");
        if (!request_id.empty()) {
            done_cv_.wait(lock, [&] { return submitting_request_ids_.count(request_id) == 0; });
            auto it = request_ids_.find(request_id);
            if (it != request_ids_.end()) return it->second;
        }
        if (unfinished_ >= config_.max_pending_jobs)
            return resource_exhausted(str_cat(
                {"engine: ", std::to_string(unfinished_), " jobs pending (max_pending_jobs = ",
                 std::to_string(config_.max_pending_jobs), "); retry later"}));
        if (!request_id.empty()) submitting_request_ids_.insert(request_id);
    }
    // Whatever happens below, the request id is released again.
    struct Release {
        EngineImpl* self;
        const std::string& rid;
        ~Release() {
            if (rid.empty()) return;
            std::lock_guard<std::mutex> lock(self->mu_);
            self->submitting_request_ids_.erase(rid);
            self->done_cv_.notify_all();
        }
    } release{this, request_id};

    util::Stopwatch parse_sw;
    auto prepared = hooks_.prepare(spec, config_.vanilla_check);
    if (!prepared.ok()) {
        util::Status st = prepared.status();
        return util::invalid_argument(st.message());
    }
    if (prepared->circuits.empty() || prepared->circuits.size() != prepared->public_inputs.size())
        return util::invalid_argument("C1: no partitions to prove");
    CUZK_ASSIGN_OR_RETURN(ParamSet * ps, params_for(prepared->proof));
    if (ps->params_bytes + ps->partition_bytes > budget_.total())
        return resource_exhausted(str_cat(
            {"engine: one partition needs ", std::to_string(ps->partition_bytes),
             " bytes of host memory besides the parameters' ", std::to_string(ps->params_bytes),
             ", more than the budget of ", std::to_string(budget_.total()), " bytes"}));

    auto job = std::make_shared<Job>();
    job->id = make_job_id();
    job->spec = std::move(spec);
    job->params = ps;
    job->circuits = std::move(prepared->circuits);
    job->inputs = std::move(prepared->public_inputs);
    job->total = static_cast<uint32_t>(job->circuits.size());
    job->proofs.resize(job->total);
    job->trace = std::make_shared<util::TraceRecorder>();
    job->trace->set_process_name(1, str_cat({"cuzk job ", job->id}));
    job->timings.phases.add("parse", parse_sw.elapsed_ms());

    std::lock_guard<std::mutex> lock(mu_);
    if (draining_ || stopping_)
        return util::Status(util::StatusCode::kUnavailable,
                            "engine: draining, no new jobs are accepted");
    uint64_t max_need = 0;
    for (const auto& [path, set] : sets_)
        max_need = std::max(max_need, set->params_bytes + set->partition_bytes);
    const uint64_t input_bytes = std::max<uint64_t>(job->spec.c1_json.size(), 1);
    if (input_bytes_total_ + input_bytes + max_need > budget_.total() ||
        !budget_.try_reserve(input_bytes))
        return resource_exhausted(
            str_cat({"engine: the host memory budget has no room now for this job's inputs (",
                     std::to_string(input_bytes), " bytes; pending jobs hold ",
                     std::to_string(input_bytes_total_), "); retry later"}));
    job->input_bytes = input_bytes;
    input_bytes_total_ += input_bytes;
    job->seq = next_seq_++;
    if (journal_) {
        // The C1 first: a record never names a missing C1.
        auto unreserve = [&] {
            budget_.release(input_bytes);
            input_bytes_total_ -= input_bytes;
        };
        if (util::Status st = journal_->write_c1(job->id, job->spec.c1_json); !st.ok()) {
            unreserve();
            return st;
        }
        JournalRecord r;
        r.id = job->id;
        r.request_id = job->spec.request_id;
        r.registered_proof = job->spec.registered_proof;
        r.sector_number = job->spec.sector_number;
        r.miner_id = job->spec.miner_id;
        r.priority = job->spec.priority;
        r.seq = job->seq;
        r.state = JobState::kQueued;
        r.submitted_unix_ms = unix_ms_now();
        if (util::Status st = journal_->write_record(r); !st.ok()) {
            unreserve();
            return st;
        }
    }
    job->spec.c1_json.clear();
    job->spec.c1_json.shrink_to_fit();
    if (!request_id.empty()) request_ids_[request_id] = job->id;
    enqueue_job_locked(job);
    return job->id;
}

void EngineImpl::enqueue_job_locked(const JobPtr& job) {
    jobs_[job->id] = job;
    by_seq_[job->seq] = job;
    ++unfinished_;
    for (uint32_t p = 0; p < job->total; ++p) {
        if (job->proofs[p].has_value()) continue;
        if (queue_.push(WorkKey{job->spec.priority, job->seq, p})) ++job->params->queued;
    }
    work_cv_.notify_all();
    prover_cv_.notify_all();
}

JobOutcome EngineImpl::outcome_locked(const Job& job) const {
    JobOutcome o;
    o.id = job.id;
    o.state = job.state;
    if (job.state == JobState::kCompleted) o.proof = job.proof_bytes;
    o.error = job.error;
    o.timings = job.timings;
    if (!is_final(job.state)) o.timings.total_ms = ms_between(job.submitted, Clock::now());
    o.partitions_total = job.total;
    o.partitions_done = job.done;
    return o;
}

util::Result<JobOutcome> EngineImpl::await(const JobId& id, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return util::Status(util::StatusCode::kNotFound, str_cat({"no job with id '", id, "'"}));
    JobPtr job = it->second;
    done_cv_.wait_for(lock, timeout, [&] { return is_final(job->state) || stopping_; });
    return outcome_locked(*job);
}

util::Result<JobOutcome> EngineImpl::peek(const JobId& id) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return util::Status(util::StatusCode::kNotFound, str_cat({"no job with id '", id, "'"}));
    return outcome_locked(*it->second);
}

util::Status EngineImpl::cancel(const JobId& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return util::Status(util::StatusCode::kNotFound, str_cat({"no job with id '", id, "'"}));
    JobPtr job = it->second;
    if (is_final(job->state)) return util::Status();
    finish_job_locked(job, JobState::kCancelled, "cancelled");
    return util::Status();
}

void EngineImpl::drop_pending_locked(const JobPtr& job) {
    if (job->params == nullptr) return;
    job->params->queued -= queue_.erase_job(job->seq);
    for (auto it = ready_.begin(); it != ready_.end();) {
        if (it->job == job) {
            budget_.release(it->reserved_bytes);
            --job->params->ready;
            it = ready_.erase(it);
        } else {
            ++it;
        }
    }
}

void EngineImpl::journal_state_locked(const Job& job) {
    if (!journal_) return;
    auto r = journal_->read_record(job.id);
    if (!r.ok()) return;  // the record was lost: nothing to update
    r->state = job.state;
    r->error = job.error;
    (void)journal_->write_record(*r);
}

void EngineImpl::finish_job_locked(const JobPtr& job, JobState state, std::string error) {
    if (is_final(job->state)) return;
    drop_pending_locked(job);
    job->state = state;
    job->error = std::move(error);
    job->timings.total_ms = ms_between(job->submitted, Clock::now());
    job->timings.phases.add("total", job->timings.total_ms);
    if (state == JobState::kCompleted) {
        ++completed_;
        record_phases_locked(job->timings.phases);
    } else if (state == JobState::kFailed) {
        ++failed_;
    } else {
        ++cancelled_;
    }
    journal_state_locked(*job);
    if (!config_.trace_dir.empty() && job->trace) {
        util::TraceEvent ev;
        ev.name = job_state_name(state);
        ev.category = "job";
        ev.start_us = 0;
        ev.duration_us = job->trace->now_us();
        ev.tid = 0;
        ev.args = {{"partitions", static_cast<double>(job->total)}};
        job->trace->set_thread_name(0, "job");
        job->trace->add(std::move(ev));
        (void)job->trace->write_file(str_cat({config_.trace_dir, "/", job->id, ".trace.json"}));
    }
    job->trace.reset();
    job->circuits.clear();
    job->inputs.clear();
    budget_.release(job->input_bytes);
    input_bytes_total_ -= std::min(input_bytes_total_, job->input_bytes);
    job->input_bytes = 0;
    by_seq_.erase(job->seq);
    if (unfinished_ > 0) --unfinished_;
    notify_all_locked();
}

bool EngineImpl::ensure_params_reserved_locked(ParamSet& ps) {
    if (ps.reserved) return true;
    if (!budget_.try_reserve(ps.params_bytes)) {
        for (auto& [path, other] : sets_)
            if (other.get() != &ps && other->reserved && other->in_flight() == 0 && !other->loading)
                evict_locked(*other);
        if (!budget_.try_reserve(ps.params_bytes)) return false;
    }
    ps.reserved = true;
    prover_cv_.notify_all();
    return true;
}

void EngineImpl::evict_locked(ParamSet& ps) {
    if (!ps.reserved || ps.loading) return;
    if (ps.loaded) (void)backend_->evict_params(ps.path);
    ps.loaded = false;
    ps.reserved = false;
    ps.host_bytes = ps.device_bytes = 0;
    budget_.release(ps.params_bytes);
    work_cv_.notify_all();
}

void EngineImpl::load_params_unlocked(ParamSet& ps, std::unique_lock<std::mutex>& lock) {
    const std::string path = ps.path;
    lock.unlock();
    util::Stopwatch sw;
    auto loaded = backend_->load_params(path);
    const double ms = sw.elapsed_ms();
    lock.lock();
    ps.loading = false;
    ps.last_used = Clock::now();
    if (!loaded.ok()) {
        const std::string why = str_cat({"parameters: ", loaded.status().message()});
        std::vector<JobPtr> victims;
        for (auto& [seq, job] : by_seq_)
            if (job->params == &ps) victims.push_back(job);
        for (const JobPtr& job : victims) finish_job_locked(job, JobState::kFailed, why);
        evict_locked(ps);
        return;
    }
    ps.loaded = true;
    ps.vk = loaded->vk;
    ps.host_bytes = loaded->host_bytes;
    ps.device_bytes = loaded->device_bytes;
    for (auto& [seq, job] : by_seq_) {
        if (job->params != &ps) continue;
        job->timings.srs_load_ms += ms;
    }
    notify_all_locked();
}

util::Status EngineImpl::preload_params(porep::RegisteredSealProof proof) {
    CUZK_ASSIGN_OR_RETURN(ParamSet * ps, params_for(proof));
    // With compiled synthesis on, the proof type's circuit is compiled now too (waiting for it),
    // so that the partitions after the preload all take the compiled path.
    if (config_.compiled_synthesis) {
        (void)compiled_cache_.get(proof);
        compiled_cache_.wait_idle();
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (ps->params_bytes > budget_.total())
        return resource_exhausted("engine: the parameters alone exceed the memory budget");
    if (!ensure_params_reserved_locked(*ps))
        return resource_exhausted("engine: no room in the memory budget for these parameters now");
    if (ps->loaded) return util::Status();
    if (ps->loading) {
        done_cv_.wait(lock, [&] { return !ps->loading || stopping_; });
        return ps->loaded ? util::Status() : util::internal_error("parameters failed to load");
    }
    ps->loading = true;
    load_params_unlocked(*ps, lock);
    if (!ps->loaded)
        return util::invalid_argument(str_cat({"parameters failed to load: ", ps->path}));
    return util::Status();
}

util::Status EngineImpl::evict_params(porep::RegisteredSealProof proof) {
    const ParamsPaths paths = paths_for(proof);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sets_.find(paths.params);
    if (it == sets_.end() || !it->second->reserved) return util::Status();
    ParamSet& ps = *it->second;
    if (ps.in_flight() > 0 || ps.loading)
        return util::Status(util::StatusCode::kUnavailable,
                            str_cat({"parameters ", ps.path, " are in use by ",
                                     std::to_string(ps.in_flight()), " partition(s)"}));
    evict_locked(ps);
    return util::Status();
}

void EngineImpl::drain() {
    std::unique_lock<std::mutex> lock(mu_);
    draining_ = true;
    done_cv_.wait(lock, [&] { return unfinished_ == 0 || stopping_; });
}

EngineStatus EngineImpl::status() const {
    std::lock_guard<std::mutex> lock(mu_);
    EngineStatus s;
    s.backend = backend_->name();
    s.prover_workers = config_.prover_workers;
    s.synthesis_workers = config_.synthesis_workers;
    s.max_ready_partitions = config_.max_ready_partitions;
    s.draining = draining_;
    for (const auto& [seq, job] : by_seq_) {
        if (job->state == JobState::kQueued) ++s.jobs_queued;
        if (job->state == JobState::kRunning) ++s.jobs_running;
    }
    for (const auto& [path, ps] : sets_) {
        s.partitions_queued += ps->queued;
        s.partitions_synthesizing += ps->synthesizing;
        s.partitions_ready += ps->ready;
        s.partitions_proving += ps->proving;
        if (ps->loaded) s.params.push_back({ps->path, ps->host_bytes, ps->device_bytes});
    }
    s.jobs_completed = completed_;
    s.jobs_failed = failed_;
    s.jobs_cancelled = cancelled_;
    s.prover_memory_retries = memory_retries_;
    s.host_budget_bytes = budget_.total();
    s.host_reserved_bytes = budget_.reserved();
    s.host_reserved_peak_bytes = budget_.peak();
    const ProcessMemory pm = process_memory();
    s.process_rss_bytes = pm.rss_bytes;
    s.process_rss_peak_bytes = pm.rss_peak_bytes;
    const double up = ms_between(started_at_, Clock::now());
    const double workers = static_cast<double>(std::max(1u, config_.prover_workers));
    s.prover_busy_fraction = up > 0 ? std::min(1.0, busy_ms_ / (up * workers)) : 0;
    s.journal_errors = journal_errors_;
    s.devices = backend_->device_status();
    return s;
}

util::Status EngineImpl::replay_journal() {
    if (!journal_) return util::Status();
    Journal::Scan scan = journal_->scan();
    journal_errors_ = scan.errors;
    for (const std::string& e : scan.errors) std::fprintf(stderr, "cuzk engine: %s\n", e.c_str());
    for (JournalRecord& r : scan.records) {
        next_seq_ = std::max(next_seq_, r.seq + 1);
        auto job = std::make_shared<Job>();
        job->id = r.id;
        job->seq = r.seq;
        job->spec.request_id = r.request_id;
        job->spec.registered_proof = r.registered_proof;
        job->spec.sector_number = r.sector_number;
        job->spec.miner_id = r.miner_id;
        job->spec.priority = r.priority;
        if (!r.request_id.empty()) request_ids_[r.request_id] = r.id;
        jobs_[job->id] = job;
        if (r.state == JobState::kCompleted) {
            auto proof = journal_->read_proof(r.id);
            job->state = JobState::kCompleted;
            if (proof.ok() && !proof->empty() && proof->size() % 192 == 0) {
                job->proof_bytes = std::move(*proof);
                job->total = job->done = static_cast<uint32_t>(job->proof_bytes.size() / 192);
            } else {
                job->state = JobState::kFailed;
                job->error = proof.ok() ? "journal: the stored proof has a wrong size"
                                        : str_cat({"journal: ", proof.status().message()});
            }
            continue;
        }
        if (is_final(r.state)) {
            job->state = r.state;
            job->error = r.error;
            continue;
        }
        // Unfinished: prepare it again from the stored C1.
        auto c1 = journal_->read_c1(r.id);
        util::Result<PreparedJob> prepared =
            c1.ok() ? util::Result<PreparedJob>(util::invalid_argument("unset"))
                    : util::Result<PreparedJob>(c1.status());
        uint64_t c1_size = 1;
        if (c1.ok()) {
            c1_size = std::max<uint64_t>(c1->size(), 1);
            job->spec.c1_json = std::move(*c1);
            prepared = hooks_.prepare(job->spec, config_.vanilla_check);
            job->spec.c1_json.clear();
        }
        util::Result<ParamSet*> ps = prepared.ok() ? params_for(prepared->proof)
                                                   : util::Result<ParamSet*>(prepared.status());
        if (!prepared.ok() || !ps.ok() || prepared->circuits.empty()) {
            job->state = JobState::kFailed;
            job->error = str_cat({"after restart: ",
                                  ps.ok() ? std::string("no partitions") : ps.status().message()});
            ++failed_;
            journal_state_locked(*job);
            continue;
        }
        job->params = *ps;
        // Replayed jobs were accepted before: their inputs are reserved without the admission
        // check (the reservation may exceed what a fresh submit would allow only if the budget
        // was lowered between runs; then it is capped at what is free).
        job->input_bytes = std::min<uint64_t>(c1_size, budget_.available());
        (void)budget_.try_reserve(job->input_bytes);
        input_bytes_total_ += job->input_bytes;
        job->circuits = std::move(prepared->circuits);
        job->inputs = std::move(prepared->public_inputs);
        job->total = static_cast<uint32_t>(job->circuits.size());
        job->proofs.resize(job->total);
        job->trace = std::make_shared<util::TraceRecorder>();
        job->trace->set_process_name(1, str_cat({"cuzk job ", job->id, " (resumed)"}));
        std::lock_guard<std::mutex> lock(mu_);
        enqueue_job_locked(job);
    }
    return util::Status();
}

}  // namespace cuzk::engine
