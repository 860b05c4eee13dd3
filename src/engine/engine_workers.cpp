// The engine's threads: synthesis workers, the prover (parameter loading, batching, proving)
// and the finisher (assembly, verification, journal). See engine_impl.hpp.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "engine/engine_impl.hpp"
#include "engine/str_cat.hpp"
#include "groth16/compiled_circuit.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/witness.hpp"
#include "util/timer.hpp"

namespace cuzk::engine {
namespace {

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// The K of a "circuit K: ..." prover error, if it has one.
std::optional<size_t> circuit_index_of(const std::string& m) {
    if (!m.starts_with("circuit ")) return std::nullopt;
    char* end = nullptr;
    const unsigned long long k = std::strtoull(m.c_str() + 8, &end, 10);
    if (end == m.c_str() + 8 || *end != ':') return std::nullopt;
    return static_cast<size_t>(k);
}

// The message without its "circuit K: " prefix.
std::string strip_circuit_prefix(const std::string& m) {
    if (!circuit_index_of(m)) return m;
    const size_t colon = m.find(": ");
    return colon == std::string::npos ? m : m.substr(colon + 2);
}

}  // namespace

void EngineImpl::synthesis_loop(unsigned index) {
    const std::string lane = str_cat({"synthesis ", std::to_string(index)});
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
        const std::optional<WorkKey> key = queue_.top();
        if (!key) {
            work_cv_.wait(lock);
            continue;
        }
        auto jit = by_seq_.find(key->job_seq);
        if (jit == by_seq_.end()) {  // cannot happen: finished jobs leave the queue
            queue_.erase(*key);
            continue;
        }
        JobPtr job = jit->second;
        ParamSet& ps = *job->params;
        if (ready_.size() + synthesizing_total_ >= config_.max_ready_partitions) {
            work_cv_.wait(lock);  // woken when a prover takes a batch
            continue;
        }
        // The path decides the reservation: a witness for a backend that proves witnesses
        // holds ~its own size (4.4 GB at 32 GiB), a synthesized assignment partition_bytes
        // (~30 GB at 32 GiB).
        std::shared_ptr<const groth16::CompiledCircuit> compiled;
        if (config_.compiled_synthesis) compiled = compiled_cache_.get(job->spec.registered_proof);
        const bool witness_path =
            compiled != nullptr && backend_->proves_witnesses() && !ps.witnesses_off;
        uint64_t reserved = witness_path
                                ? std::min(ps.partition_bytes, witness_host_bytes(*compiled))
                                : ps.partition_bytes;
        if (!ensure_params_reserved_locked(ps) || !budget_.try_reserve(reserved)) {
            work_cv_.wait(lock);  // woken when memory is released
            continue;
        }
        queue_.erase(*key);
        --ps.queued;
        ++ps.synthesizing;
        ++synthesizing_total_;
        const Clock::time_point now = Clock::now();
        if (!job->started) {
            job->started = true;
            job->state = JobState::kRunning;
            job->timings.queue_wait_ms = ms_between(job->submitted, now);
            job->timings.phases.add("queue_wait", job->timings.queue_wait_ms);
            if (job->trace) {
                util::TraceEvent ev;
                ev.name = "queue_wait";
                ev.category = "queue";
                ev.start_us = 0;
                ev.duration_us = job->trace->now_us();
                ev.tid = 0;
                job->trace->add(std::move(ev));
            }
        }
        const porep::CircuitFn circuit = job->circuits[key->partition];
        const groth16::ParamsShape shape = ps.shape;
        const std::shared_ptr<util::TraceRecorder> trace = job->trace;
        lock.unlock();

        util::PhaseTimes t;
        // Compiled synthesis (witness + sparse products) when switched on and the proof type's
        // compiled circuit is resident; until then (it is compiled on a thread of the cache's
        // own, started by the first partition of the type) partitions are synthesized directly.
        std::unique_ptr<r1cs::ProvingAssignment> assignment;
        std::unique_ptr<groth16::Witness> witness;
        util::Status st;
        if (witness_path) {
            // The backend computes a/b/c from the witness (the GPU's SpMV).
            util::PhaseScope scope("witness", &t, trace.get(), "synthesis");
            witness = std::make_unique<groth16::Witness>();
            st = groth16::generate_witness(circuit, groth16::WitnessShape::of(*compiled),
                                           key->partition, *witness);
            if (!st.ok()) {  // not this shape, or a witness error: the direct path decides
                witness.reset();
                compiled.reset();
            }
        }
        if (witness == nullptr && reserved < ps.partition_bytes) {
            // The witness path gave way to direct synthesis: its smaller reservation goes back
            // and the assignment's is waited for (not held while waiting: no hold-and-wait).
            lock.lock();
            budget_.release(reserved);
            work_cv_.notify_all();
            while (!stopping_ && !budget_.try_reserve(ps.partition_bytes)) work_cv_.wait(lock);
            if (stopping_) {  // the partition stays unfinished: a restart runs its job again
                --ps.synthesizing;
                --synthesizing_total_;
                continue;
            }
            reserved = ps.partition_bytes;
            lock.unlock();
        }
        if (witness == nullptr) {
            assignment = std::make_unique<r1cs::ProvingAssignment>(
                groth16::presized_assignment_options(shape));
            util::PhaseScope scope("witness", &t, trace.get(), "synthesis");
            st = compiled != nullptr
                     ? compiled->synthesize_into(circuit, *assignment, key->partition)
                     : groth16::synthesize_into(circuit, *assignment, key->partition);
            if (compiled != nullptr && !st.ok()) {
                // A circuit that is not the proof type's PoRep partition circuit (other counts),
                // or a witness error: the direct synthesis decides (and reports the error).
                assignment = std::make_unique<r1cs::ProvingAssignment>(
                    groth16::presized_assignment_options(shape));
                st = groth16::synthesize_into(circuit, *assignment, key->partition);
            }
            compiled.reset();
        }
        if (trace != nullptr) trace->set_thread_name(trace->current_tid(), lane);

        lock.lock();
        --ps.synthesizing;
        --synthesizing_total_;
        if (is_final(job->state)) {  // cancelled or failed meanwhile
            budget_.release(reserved);
            work_cv_.notify_all();
            prover_cv_.notify_all();
            continue;
        }
        job->timings.phases += t;
        job->timings.synthesis_ms += t.get("witness");
        if (!st.ok()) {
            budget_.release(reserved);
            finish_job_locked(job, JobState::kFailed,
                              str_cat({"partition ", std::to_string(key->partition), ": ",
                                       strip_circuit_prefix(st.message())}));
            continue;
        }
        // A finished witness holds less than its generation's peak (its forks' values and the
        // joined copy): the rest goes back to the budget now.
        if (witness != nullptr) {
            const uint64_t held =
                uint64_t{witness->inputs.capacity() + witness->aux.capacity()} * sizeof(ff::Fr);
            if (held < reserved) {
                budget_.release(reserved - held);
                reserved = held;
                work_cv_.notify_all();
            }
        }
        ready_.push_back(ReadyItem{*key, job, std::move(assignment), Clock::now(),
                                   std::move(witness), std::move(compiled), reserved});
        ++ps.ready;
        prover_cv_.notify_all();
    }
}

void EngineImpl::evict_idle_locked(Clock::time_point now) {
    if (compiled_cache_.evict_idle(now)) work_cv_.notify_all();
    for (auto& [path, ps] : sets_) {
        if (!ps->reserved || ps->loading || ps->pending() > 0) continue;
        if (ms_between(ps->last_used, now) >= static_cast<double>(config_.params_idle_evict_ms))
            evict_locked(*ps);
    }
}

void EngineImpl::prover_loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
        const Clock::time_point now = Clock::now();
        evict_idle_locked(now);
        // Load a reserved set that has work, while the synthesis pool fills the ready list.
        ParamSet* to_load = nullptr;
        for (auto& [path, ps] : sets_)
            if (ps->reserved && !ps->loaded && !ps->loading && ps->pending() > 0) {
                to_load = ps.get();
                break;
            }
        if (to_load != nullptr) {
            to_load->loading = true;
            load_params_unlocked(*to_load, lock);
            continue;
        }
        if (ready_.empty()) {
            prover_cv_.wait_for(lock, std::chrono::seconds(1));
            continue;
        }
        auto best = std::min_element(
            ready_.begin(), ready_.end(),
            [](const ReadyItem& a, const ReadyItem& b) { return ServedBefore{}(a.key, b.key); });
        ParamSet& ps = *best->job->params;
        if (!ps.loaded) {
            prover_cv_.wait_for(lock, std::chrono::milliseconds(100));
            continue;
        }
        // Fill the batch: wait, up to max_batch_wait_ms after its oldest ready item, for more
        // partitions of this parameter set (from queued jobs or jobs not yet submitted).
        const size_t limit = batch_limit(ps);
        const bool more_may_come = !draining_ || ps.queued + ps.synthesizing > 0;
        if (ps.ready < limit && config_.max_batch_wait_ms > 0 && more_may_come) {
            Clock::time_point oldest = best->ready_at;
            for (const ReadyItem& r : ready_)
                if (r.job->params == &ps) oldest = std::min(oldest, r.ready_at);
            const Clock::time_point deadline =
                oldest + std::chrono::milliseconds(config_.max_batch_wait_ms);
            if (now < deadline) {
                prover_cv_.wait_until(lock, deadline);
                continue;
            }
        }
        prove_batch_locked(ps, lock);
    }
}

void EngineImpl::copy_call_trace(const JobPtr& job, const util::TraceRecorder& call,
                                 uint32_t prover_tid, size_t call_size) {
    util::TraceRecorder& jt = *job->trace;
    const double offset = jt.now_us() - call.now_us();
    const uint32_t tid = jt.current_tid();
    jt.set_thread_name(tid, "prover");
    for (util::TraceEvent ev : call.events()) {
        ev.start_us += offset;
        ev.tid = ev.tid == prover_tid ? tid : 100 + ev.tid;
        ev.args.emplace_back("batch_size", static_cast<double>(call_size));
        jt.add(std::move(ev));
    }
}

void EngineImpl::deliver_locked(ReadyItem& item, const groth16::Proof& proof) {
    if (item.delivered) return;
    item.delivered = true;
    budget_.release(std::exchange(item.reserved_bytes, 0));
    work_cv_.notify_all();
    const JobPtr& job = item.job;
    if (is_final(job->state)) return;
    job->proofs[item.key.partition] = proof;
    ++job->done;
    if (job->done == job->total) {
        to_finish_.push_back(job);
        finish_cv_.notify_all();
    }
}

// The feed of one prover call on witnesses (EngineConfig::stream_witnesses). next(k) takes the
// best ready item of the whole engine (ServedBefore) when it is a witness of the call's set and
// compiled shape; while none is ready it waits — for as long as the device is still busy with
// circuit k − 1 and the set has partitions queued or being synthesized — and then gives up (the
// call ends). done(k) hands circuit k's proof to its job with the circuit's own phases; a job
// whose last proof that was gets the call's trace events so far, since it finishes before the
// call does.
class EngineImpl::CallFeed final : public groth16::WitnessFeed {
   public:
    CallFeed(EngineImpl& engine, ParamSet& ps, std::vector<ReadyItem>& batch,
             util::TraceRecorder& call_trace)
        : e_(engine), ps_(ps), batch_(batch), trace_(call_trace),
          prover_tid_(call_trace.current_tid()), last_done_(Clock::now()) {}

    bool next(size_t k, groth16::Witness*& witness, groth16::ProverRandomness& r) override {
        std::unique_lock<std::mutex> lock(e_.mu_);
        for (;;) {
            if (e_.stopping_ || k != batch_.size()) return false;
            const auto best = std::min_element(
                e_.ready_.begin(), e_.ready_.end(), [](const ReadyItem& a, const ReadyItem& b) {
                    return ServedBefore{}(a.key, b.key);
                });
            if (best != e_.ready_.end()) {
                if (best->job->params != &ps_ || best->witness == nullptr ||
                    best->compiled != batch_[0].compiled)
                    return false;  // another set's (or kind's) partition is due first
                batch_.push_back(std::move(*best));
                e_.ready_.erase(best);
                --ps_.ready;
                ++ps_.proving;
                e_.work_cv_.notify_all();  // room in the look-ahead
                witness = batch_.back().witness.get();
                r = groth16::ProverRandomness::from_os();
                return true;
            }
            if (done_ >= k || ps_.queued + ps_.synthesizing == 0) return false;
            e_.prover_cv_.wait(lock);
        }
    }

    void done(size_t k, const groth16::Proof* proof, const util::PhaseTimes& phases) override {
        std::lock_guard<std::mutex> lock(e_.mu_);
        done_ = std::max(done_, k + 1);
        const Clock::time_point now = Clock::now();
        const double ms = ms_between(last_done_, now);
        last_done_ = now;
        e_.prover_cv_.notify_all();  // a next() waiting for this circuit gives up
        if (proof == nullptr || k >= batch_.size()) return;
        ReadyItem& item = batch_[k];
        const JobPtr job = item.job;
        if (!is_final(job->state)) {
            for (const auto& [phase, v] : phases.entries()) job->timings.phases.add(phase, v);
            job->timings.gpu_compute_ms += ms;
        }
        e_.deliver_locked(item, *proof);
        if (job->trace && job->done == job->total && !is_final(job->state))
            copy_call_trace(job, trace_, prover_tid_, batch_.size());
    }

   private:
    EngineImpl& e_;
    ParamSet& ps_;
    std::vector<ReadyItem>& batch_;  // under e_.mu_
    util::TraceRecorder& trace_;
    const uint32_t prover_tid_;
    size_t done_ = 0;  // circuits the device is done with (under e_.mu_)
    Clock::time_point last_done_;
};

void EngineImpl::prove_batch_locked(ParamSet& ps, std::unique_lock<std::mutex>& lock) {
    const size_t limit = batch_limit(ps);
    // The set's ready items in queue order, the first `limit` of them.
    std::stable_sort(ready_.begin(), ready_.end(), [](const ReadyItem& a, const ReadyItem& b) {
        return ServedBefore{}(a.key, b.key);
    });
    // Items of one kind: assignments, or witnesses of one compiled shape (the first item's).
    std::vector<ReadyItem> batch;
    for (auto it = ready_.begin(); it != ready_.end() && batch.size() < limit;) {
        const bool same_kind =
            batch.empty() || ((it->witness != nullptr) == (batch[0].witness != nullptr) &&
                              it->compiled == batch[0].compiled);
        if (it->job->params == &ps && same_kind) {
            batch.push_back(std::move(*it));
            it = ready_.erase(it);
        } else {
            ++it;
        }
    }
    const size_t first_size = batch.size();  // the call's own items (a feed may add more)
    ps.ready -= first_size;
    ps.proving += first_size;
    const std::string path = ps.path;
    const bool release_shapes = std::exchange(release_compiled_pending_, false);
    work_cv_.notify_all();  // room in the look-ahead
    lock.unlock();
    if (release_shapes) backend_->release_compiled_shapes();

    std::vector<r1cs::ProvingAssignment*> assignments;
    std::vector<groth16::Witness*> witnesses;
    std::vector<groth16::ProverRandomness> randomness;
    for (ReadyItem& item : batch) {
        if (item.witness != nullptr) {
            witnesses.push_back(item.witness.get());
        } else {
            assignments.push_back(item.assignment.get());
        }
        randomness.push_back(groth16::ProverRandomness::from_os());
    }
    const bool from_witnesses = !witnesses.empty();
    util::PhaseTimes bt;
    util::TraceRecorder brec;
    brec.set_thread_name(brec.current_tid(), "prover");
    std::optional<CallFeed> feed;
    if (from_witnesses && config_.stream_witnesses) feed.emplace(*this, ps, batch, brec);
    // A copy: the feed appends to `batch` during the call (its elements move).
    const std::shared_ptr<const groth16::CompiledCircuit> compiled = batch[0].compiled;
    util::Stopwatch sw;
    auto proofs = !from_witnesses
                      ? backend_->prove(path, assignments, randomness, &bt, &brec)
                      : backend_->prove_witnesses(path, compiled, witnesses, randomness, &bt,
                                                  &brec, feed ? &*feed : nullptr);
    const double ms = sw.elapsed_ms();
    const uint32_t prover_tid_b = brec.current_tid();
    // The feed's additions were made under the lock, on the call's threads, all joined by now.
    for (ReadyItem& item : batch) {  // free before taking the lock
        item.assignment.reset();
        item.witness.reset();
        item.compiled.reset();
    }

    lock.lock();
    const size_t n = batch.size();
    busy_ms_ += ms;
    ps.proving -= n;
    ps.last_used = Clock::now();
    for (ReadyItem& item : batch) budget_.release(std::exchange(item.reserved_bytes, 0));
    work_cv_.notify_all();

    // Backend phases and trace events of the items not delivered during the call, shared
    // equally by the partitions of the batch (the delivered ones got their own at delivery).
    std::vector<JobPtr> seen;
    for (const ReadyItem& item : batch) {
        const JobPtr& job = item.job;
        if (is_final(job->state) || item.delivered) continue;
        for (const auto& [phase, v] : bt.entries())
            if (phase != "total") job->timings.phases.add(phase, v / static_cast<double>(n));
        job->timings.gpu_compute_ms += ms / static_cast<double>(n);
        if (std::find(seen.begin(), seen.end(), job) != seen.end() || !job->trace) continue;
        seen.push_back(job);
        copy_call_trace(job, brec, prover_tid_b, n);
    }
    for (const ReadyItem& item : batch) {  // open jobs with partitions delivered (a finished
                                           // one got the events when its last proof came)
        const JobPtr& job = item.job;
        if (is_final(job->state) || !item.delivered || !job->trace || job->done == job->total)
            continue;
        if (std::find(seen.begin(), seen.end(), job) != seen.end()) continue;
        seen.push_back(job);
        copy_call_trace(job, brec, prover_tid_b, n);
    }

    if (proofs.ok() && proofs->size() == n) {
        for (size_t i = 0; i < n; ++i) deliver_locked(batch[i], (*proofs)[i]);
        return;
    }
    const util::Status st =
        proofs.ok()
            ? util::internal_error(str_cat({"the backend returned ", std::to_string(proofs->size()),
                                            " proofs for ", std::to_string(n)}))
            : proofs.status();
    // A "circuit K:" error belongs to one partition: that job fails, the others of the batch go
    // back to the queue (their assignments were consumed, so they are synthesized again).
    const std::optional<size_t> k = circuit_index_of(st.message());
    // Out of memory for the batch as a whole: nobody is guilty while the request can still shrink.
    const bool retry_smaller =
        !k.has_value() && shrink_after_out_of_memory_locked(ps, first_size, from_witnesses, st);
    for (size_t i = 0; i < n; ++i) {
        const JobPtr& job = batch[i].job;
        if (is_final(job->state) || batch[i].delivered) continue;
        const bool guilty = !retry_smaller && (n == 1 || !k.has_value() || *k == i);
        if (guilty) {
            finish_job_locked(job, JobState::kFailed,
                              str_cat({"partition ", std::to_string(batch[i].key.partition), ": ",
                                       strip_circuit_prefix(st.message())}));
        } else if (queue_.push(batch[i].key)) {
            ++ps.queued;
        }
    }
    work_cv_.notify_all();
}

bool EngineImpl::shrink_after_out_of_memory_locked(ParamSet& ps, size_t n, bool from_witnesses,
                                                   const util::Status& st) {
    if (st.code() != util::StatusCode::kResourceExhausted) return false;
    // (A batch formed before an earlier failure changed the set is still retried: its
    // partitions come back under the new limits, so the retries still end.)
    if (n > 1) {
        ps.batch_cap = std::min(ps.batch_cap, std::max<size_t>(1, n / 2));
    } else if (from_witnesses) {
        // Also for a witness made before the switch: its call may have uploaded a shape again,
        // which the assignments after it must not find on the device.
        release_compiled_pending_ = true;
        ps.witnesses_off = true;
    } else {
        return false;  // one assignment alone does not fit: its job fails
    }
    ++memory_retries_;
    std::fprintf(stderr,
                 "cuzk engine: %s: out of memory proving %zu partition(s) (%s); queued again, now "
                 "at most %zu per call%s\n",
                 backend_->name().c_str(), n, st.message().c_str(), batch_limit(ps),
                 ps.witnesses_off ? ", as assignments" : "");
    return true;
}

void EngineImpl::finisher_loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        if (to_finish_.empty()) {
            if (finisher_stop_) break;
            finish_cv_.wait(lock);
            continue;
        }
        JobPtr job = to_finish_.front();
        to_finish_.pop_front();
        if (is_final(job->state)) continue;
        std::vector<groth16::Proof> proofs;
        for (const auto& p : job->proofs) proofs.push_back(*p);
        const std::vector<std::vector<ff::Fr>> inputs = job->inputs;
        const groth16::VerifyingKey vk = job->params->vk;
        const std::shared_ptr<util::TraceRecorder> trace = job->trace;
        lock.unlock();

        util::PhaseTimes t;
        std::vector<uint8_t> bytes = groth16::serialize_proofs(proofs);
        util::Result<bool> valid = true;
        if (config_.verify_proofs) {
            util::PhaseScope scope("verify", &t, trace.get(), "verify");
            valid = hooks_.verify(vk, proofs, inputs);
        }
        if (trace != nullptr) trace->set_thread_name(trace->current_tid(), "finisher");
        util::Status journaled;
        if (journal_ && valid.ok() && *valid) journaled = journal_->write_proof(job->id, bytes);

        lock.lock();
        if (is_final(job->state)) continue;
        job->timings.phases += t;
        if (!valid.ok()) {
            finish_job_locked(job, JobState::kFailed,
                              str_cat({"verification: ", valid.status().message()}));
        } else if (!*valid) {
            finish_job_locked(job, JobState::kFailed,
                              "the assembled proof does not verify against the verifying key "
                              "(not returned)");
        } else if (!journaled.ok()) {
            finish_job_locked(job, JobState::kFailed, str_cat({"journal: ", journaled.message()}));
        } else {
            job->proof_bytes = std::move(bytes);
            finish_job_locked(job, JobState::kCompleted, "");
        }
    }
}

}  // namespace cuzk::engine
