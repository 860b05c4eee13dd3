#include "r1cs/fork.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "util/env.hpp"

namespace cuzk::r1cs {

namespace {
// -1: not decided yet (read the environment on first use); 0 / 1.
std::atomic<int> g_parallel{-1};
std::atomic<int> g_fork_threads{-1};

bool switch_value(std::atomic<int>& value, const char* env, bool fallback) {
    int v = value.load(std::memory_order_relaxed);
    if (v < 0) {
        v = util::env_switch(env, fallback) ? 1 : 0;
        value.store(v, std::memory_order_relaxed);
    }
    return v == 1;
}

}  // namespace

bool parallel_synthesis_enabled() {
    return switch_value(g_parallel, "CUZK_PARALLEL_SYNTHESIS", true);
}

void set_parallel_synthesis(bool enabled) { g_parallel.store(enabled ? 1 : 0); }

bool fork_threads_enabled() {
    return switch_value(g_fork_threads, "CUZK_SYNTHESIS_FORK_THREADS", true);
}

void set_fork_threads(bool enabled) { g_fork_threads.store(enabled ? 1 : 0); }

size_t max_fork_threads() {
    // CUZK_THREADS set: the user's bound on busy threads holds for the forks too.
    const size_t pool = util::ThreadPool::global().size();
    return std::getenv("CUZK_THREADS") != nullptr ? pool : 4 * pool;
}

util::ThreadPool& synthesis_pool() {
    static util::ThreadPool pool(util::ThreadPool::global().size());
    return pool;
}

util::Status synthesize_independent(ConstraintSystem& cs, size_t n, const IndependentPart& part,
                                    util::ThreadPool* pool) {
    std::vector<std::unique_ptr<ConstraintSystem>> forks;
    if (n > 1 && parallel_synthesis_enabled()) forks = cs.fork(n);
    if (forks.size() != n) {
        for (size_t k = 0; k < n; ++k) CUZK_RETURN_IF_ERROR(part(cs, k));
        return util::Status();
    }
    std::vector<util::Status> status(n);
    auto run_part = [&](size_t k) { status[k] = part(*forks[k], k); };
    if (pool == nullptr && fork_threads_enabled())
        util::run_on_own_threads(n, max_fork_threads(), run_part);
    else
        (pool != nullptr ? *pool : synthesis_pool()).parallel_for(n, run_part);
    for (const util::Status& st : status) CUZK_RETURN_IF_ERROR(st);
    return cs.join_forks(std::move(forks));
}

}  // namespace cuzk::r1cs
