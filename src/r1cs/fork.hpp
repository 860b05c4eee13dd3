// Independent sub-circuits synthesized in parallel when the backend forks
// (ConstraintSystem::fork/join_forks), in order on the backend otherwise — same result.
//
// synthesize_independent(cs, n, part) runs part(cs_k, k) for k = 0 .. n−1, where every part
// uses only variables allocated before the call (never another part's). With parallel synthesis
// on (the run-time switch below) and a backend that forks, part k runs on fork k across
// synthesis_pool() and the forks are joined in order; otherwise part k runs on cs itself, k
// ascending. Either way the constraint system ends up identical. On failure the error of the
// lowest failing k is returned (the others' work is discarded).
//
// Switch: parallel_synthesis_enabled() — on unless the environment sets
// CUZK_PARALLEL_SYNTHESIS=0; set_parallel_synthesis overrides it (tests, benchmarks).
#pragma once

#include <cstddef>
#include <functional>

#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::r1cs {

bool parallel_synthesis_enabled();
void set_parallel_synthesis(bool enabled);

using IndependentPart = std::function<util::Status(ConstraintSystem& cs, size_t k)>;

// pool null: synthesis_pool().
util::Status synthesize_independent(ConstraintSystem& cs, size_t n, const IndependentPart& part,
                                    util::ThreadPool* pool = nullptr);

// The threads forked synthesis runs on: its own pool (as many threads as the global one), so
// that a synthesis — which holds a pool for a whole partition — never makes the provers'
// parallel loops on util::ThreadPool::global() wait. Syntheses from several threads take turns
// on it (each with every core).
util::ThreadPool& synthesis_pool();

}  // namespace cuzk::r1cs
