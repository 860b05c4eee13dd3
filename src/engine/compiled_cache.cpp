#include "engine/compiled_cache.hpp"

#include <cstdio>
#include <string>
#include <thread>
#include <vector>
#include <utility>

#include "porep/circuit/c1_circuits.hpp"
#include "util/timer.hpp"

namespace cuzk::engine {

namespace {

util::Result<groth16::Circuit> porep_blank(porep::RegisteredSealProof proof) {
    CUZK_ASSIGN_OR_RETURN(porep::CircuitFn blank, porep::blank_stacked_circuit(proof));
    return groth16::Circuit(std::move(blank));
}

}  // namespace

CompiledCache::CompiledCache(MemoryBudget& budget, std::chrono::milliseconds idle_evict,
                             std::chrono::milliseconds retry_after, BlankCircuit blank)
    : budget_(budget),
      idle_evict_(idle_evict),
      retry_after_(retry_after),
      blank_(blank ? std::move(blank) : BlankCircuit(porep_blank)) {}

CompiledCache::~CompiledCache() {
    std::vector<std::thread> workers;
    {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto& [proof, e] : entries_)
            if (e.worker.joinable()) workers.push_back(std::move(e.worker));
    }
    for (std::thread& t : workers) t.join();  // without the lock: compile() takes it to finish
    for (auto& [proof, e] : entries_)
        if (e.circuit) budget_.release(e.bytes);
}

std::shared_ptr<const groth16::CompiledCircuit> CompiledCache::get(
    porep::RegisteredSealProof proof) {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = entries_[proof];
    // Being compiled: the caller synthesizes directly meanwhile (compiling a 32 GiB shape
    // takes minutes; no partition waits for it).
    if (e.compiling) return nullptr;
    const Clock::time_point now = Clock::now();
    if (e.circuit) {
        e.last_used = now;
        return e.circuit;
    }
    if (e.retry_at != Clock::time_point{} && now < e.retry_at) return nullptr;
    e.compiling = true;
    // The previous compilation of this type has finished (compiling was false) and released the
    // lock for good, so joining it here cannot wait on us.
    if (e.worker.joinable()) e.worker.join();
    e.worker = std::thread([this, proof] { compile(proof); });
    return nullptr;
}

util::Status CompiledCache::insert(porep::RegisteredSealProof proof,
                                   std::shared_ptr<const groth16::CompiledCircuit> circuit) {
    if (circuit == nullptr) return util::invalid_argument("compiled cache: no circuit to insert");
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = entries_[proof];
    if (e.compiling || e.circuit)
        return util::invalid_argument("compiled cache: the proof type already has a compiled circuit");
    const uint64_t bytes = circuit->bytes();
    if (!budget_.try_reserve(bytes)) {
        std::string m = "compiled cache: the compiled circuit (";
        m += std::to_string(bytes);
        m += " bytes) does not fit the host memory budget";
        return util::Status(util::StatusCode::kResourceExhausted, std::move(m));
    }
    e.circuit = std::move(circuit);
    e.bytes = bytes;
    e.last_used = Clock::now();
    return util::Status();
}

void CompiledCache::compile(porep::RegisteredSealProof proof) {
    util::Stopwatch sw;
    // Measure, reserve, then record into exactly sized arrays.
    std::unique_ptr<groth16::CompiledCircuit> compiled;
    uint64_t bytes = 0;
    std::string why;  // set when nothing is kept
    auto blank = blank_(proof);
    if (!blank.ok()) {
        why = blank.status().message();
    } else if (auto size = groth16::CompiledCircuit::measure(*blank); !size.ok()) {
        why = size.status().message();
    } else if (bytes = size->bytes(); !budget_.try_reserve(bytes)) {
        why = "its shape (";
        why += std::to_string(bytes);
        why += " bytes) does not fit the host memory budget now";
    } else if (auto made = groth16::CompiledCircuit::compile(*blank, &*size); !made.ok()) {
        budget_.release(bytes);
        why = made.status().message();
    } else {
        compiled = std::move(made).value();
    }
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = entries_[proof];
    e.compiling = false;
    if (compiled != nullptr) {
        std::fprintf(stderr,
                     "cuzk engine: compiled synthesis of %s: shape measured and recorded in %.0f ms, "
                     "%zu rows, %.1f MiB\n",
                     porep::seal_proof_info(proof).name, sw.elapsed_ms(), compiled->num_rows(),
                     static_cast<double>(bytes) / (1 << 20));
        e.circuit = std::move(compiled);
        e.bytes = bytes;
        e.last_used = Clock::now();
        e.retry_at = {};
    } else {
        std::fprintf(stderr, "cuzk engine: compiled synthesis of %s not used: %s\n",
                     porep::seal_proof_info(proof).name, why.c_str());
        e.retry_at = Clock::now() + retry_after_;
    }
    compiled_cv_.notify_all();
}

void CompiledCache::wait_idle() {
    std::unique_lock<std::mutex> lock(mu_);
    compiled_cv_.wait(lock, [&] {
        for (const auto& [proof, e] : entries_)
            if (e.compiling) return false;
        return true;
    });
}

bool CompiledCache::evict_idle(Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mu_);
    bool released = false;
    for (auto& [proof, e] : entries_) {
        if (!e.circuit || e.compiling || e.circuit.use_count() > 1) continue;
        if (now - e.last_used < idle_evict_) continue;
        e.circuit.reset();
        budget_.release(e.bytes);
        e.bytes = 0;
        released = true;
    }
    return released;
}

uint64_t CompiledCache::bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t sum = 0;
    for (const auto& [proof, e] : entries_) sum += e.circuit ? e.bytes : 0;
    return sum;
}

size_t CompiledCache::entries() const {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (const auto& [proof, e] : entries_) n += e.circuit ? 1 : 0;
    return n;
}

}  // namespace cuzk::engine
