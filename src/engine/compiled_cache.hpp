// CompiledCache: the compiled PoRep partition circuit (groth16::CompiledCircuit) of each
// registered proof the engine proves, for compiled synthesis (on unless CUZK_COMPILED_SYNTHESIS=0): the
// circuit's shape is recorded once per proof type and every partition after that is
// synthesized as witness + sparse products.
//
// Memory: the shape is first measured (CompiledCircuit::measure, a counting pass) and its bytes
// (~69 per constraint: ~9 GB at 32 GiB) reserved from the engine's host budget BEFORE it is
// recorded, into arrays allocated once and exactly (no transient peak above the reservation);
// when they do not fit, nothing is recorded and get() returns null (the caller synthesizes
// directly) until `retry_after` has passed. Entries unused for `idle_evict` and held by no caller are evicted
// (evict_idle), releasing their bytes.
//
// Concurrency: get() may be called from every synthesis thread, without the engine's lock. It
// never waits for a compilation: the first call for a proof type starts one on a thread of its
// own and returns null, as do the calls while it runs (those partitions are synthesized
// directly); later calls get the compiled circuit. Each proof type has at most one compilation
// thread: a finished one is joined when the next compilation of its type starts, and the
// destructor joins the rest.
// Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/memory_budget.hpp"
#include "groth16/compiled_circuit.hpp"
#include "porep/registered_proof.hpp"

namespace cuzk::engine {

class CompiledCache {
   public:
    using Clock = std::chrono::steady_clock;
    // The blank circuit whose shape is compiled for a proof type.
    using BlankCircuit =
        std::function<util::Result<groth16::Circuit>(porep::RegisteredSealProof)>;

    // blank: null = the PoRep partition circuit of the proof (porep::blank_stacked_circuit).
    CompiledCache(MemoryBudget& budget, std::chrono::milliseconds idle_evict,
                  std::chrono::milliseconds retry_after, BlankCircuit blank = nullptr);
    ~CompiledCache();  // releases every entry's bytes
    CompiledCache(const CompiledCache&) = delete;
    CompiledCache& operator=(const CompiledCache&) = delete;

    // The compiled circuit of `proof`; null while it is being compiled (the first call starts
    // the compilation), or when it failed to compile or did not fit the budget (the caller
    // then synthesizes directly).
    std::shared_ptr<const groth16::CompiledCircuit> get(porep::RegisteredSealProof proof);
    // Installs a circuit compiled elsewhere as `proof`'s (e.g. the shape recorded once for the
    // GPU setup and compiled synthesis alike), charging its bytes to the budget. Errors:
    // kInvalidArgument when the proof has one or is being compiled, kResourceExhausted when it
    // does not fit the budget.
    util::Status insert(porep::RegisteredSealProof proof,
                        std::shared_ptr<const groth16::CompiledCircuit> circuit);
    // Waits until no compilation is running (tests, benchmarks).
    void wait_idle();
    // Evicts idle entries (see above); true when bytes were released.
    bool evict_idle(Clock::time_point now);

    uint64_t bytes() const;  // reserved by the resident entries
    size_t entries() const;  // resident entries

   private:
    void compile(porep::RegisteredSealProof proof);

    struct Entry {
        bool compiling = false;
        std::shared_ptr<const groth16::CompiledCircuit> circuit;
        uint64_t bytes = 0;
        Clock::time_point last_used{};
        Clock::time_point retry_at{};  // after a failure: null until then
        std::thread worker;            // the latest compilation (finished unless `compiling`)
    };

    MemoryBudget& budget_;
    const std::chrono::milliseconds idle_evict_, retry_after_;
    BlankCircuit blank_;
    mutable std::mutex mu_;
    std::condition_variable compiled_cv_;
    std::map<porep::RegisteredSealProof, Entry> entries_;  // never erased (threads use them)
};

}  // namespace cuzk::engine
