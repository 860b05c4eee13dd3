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
}  // namespace

bool parallel_synthesis_enabled() {
    int v = g_parallel.load(std::memory_order_relaxed);
    if (v < 0) {
        v = util::env_switch("CUZK_PARALLEL_SYNTHESIS", true) ? 1 : 0;
        g_parallel.store(v, std::memory_order_relaxed);
    }
    return v == 1;
}

void set_parallel_synthesis(bool enabled) { g_parallel.store(enabled ? 1 : 0); }

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
    util::ThreadPool& p = pool != nullptr ? *pool : synthesis_pool();
    std::vector<util::Status> status(n);
    p.parallel_for(n, [&](size_t k) { status[k] = part(*forks[k], k); });
    for (const util::Status& st : status) CUZK_RETURN_IF_ERROR(st);
    return cs.join_forks(std::move(forks));
}

}  // namespace cuzk::r1cs
