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

// Where the forks run when no pool is given: on synthesis_pool(), or, with fork threads on,
// each fork on a thread of its own (at most max_fork_threads(); beyond that those threads take
// the forks in turn), started for the call and joined before it returns. The pool runs a
// partition's forks in waves of its size — a 32 GiB partition's 18 challenges on 16 threads
// take two waves, the second with 2 threads busy — and one synthesis at a time; with threads of
// their own the OS spreads the forks over every core, including cores another synthesis running
// at once leaves idle. Same constraint system either way.
// Switch: fork_threads_enabled() — on unless the environment sets CUZK_SYNTHESIS_FORK_THREADS=0;
// set_fork_threads overrides it (tests, benchmarks). Measured on the 2-core development VM
// (2026-12-03, a 32 GiB partition's witness, median of 3): 5.9 s on the pool, 4.2 s on threads of
// their own (with 18 runnable threads, one whose page fault blocks leaves its core to another).
bool fork_threads_enabled();
void set_fork_threads(bool enabled);
// 4 × the global pool's size (CUZK_THREADS unset: all cores), or that size when CUZK_THREADS
// sets it — the user's bound on busy threads then holds for the forks too.
size_t max_fork_threads();

// pool null: synthesis_pool(), or threads of their own (fork_threads_enabled()).
util::Status synthesize_independent(ConstraintSystem& cs, size_t n, const IndependentPart& part,
                                    util::ThreadPool* pool = nullptr);

// The threads forked synthesis runs on: its own pool (as many threads as the global one), so
// that a synthesis — which holds a pool for a whole partition — never makes the provers'
// parallel loops on util::ThreadPool::global() wait. Syntheses from several threads take turns
// on it (each with every core).
util::ThreadPool& synthesis_pool();

}  // namespace cuzk::r1cs
