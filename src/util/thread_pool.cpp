#include "util/thread_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <system_error>

namespace cuzk::util {

namespace {
thread_local bool t_inside_pool = false;
}

ThreadPool::ThreadPool(unsigned threads) {
    const unsigned extra = threads > 1 ? threads - 1 : 0;
    workers_.reserve(extra);
    for (unsigned i = 0; i < extra; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run_items() {
    const bool was_inside = t_inside_pool;
    t_inside_pool = true;
    for (;;) {
        const size_t i = next_.fetch_add(1, std::memory_order_relaxed);
        if (i >= count_) break;
        (*body_)(i);
    }
    t_inside_pool = was_inside;
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        run_items();
        {
            std::lock_guard lock(mutex_);
            if (--active_ == 0) done_.notify_one();
        }
    }
}

void ThreadPool::parallel_for(size_t count, const std::function<void(size_t)>& body) {
    if (count == 0) return;
    if (t_inside_pool || workers_.empty() || count == 1) {
        for (size_t i = 0; i < count; ++i) body(i);
        return;
    }
    std::lock_guard submit(submit_mutex_);
    {
        std::lock_guard lock(mutex_);
        body_ = &body;
        count_ = count;
        next_.store(0, std::memory_order_relaxed);
        active_ = workers_.size();
        ++generation_;
    }
    wake_.notify_all();
    run_items();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return active_ == 0; });
    body_ = nullptr;
}

void ThreadPool::parallel_ranges(size_t n, const std::function<void(size_t, size_t)>& body,
                                 size_t chunks_per_thread) {
    if (n == 0) return;
    const size_t chunks = std::min<size_t>(n, size_t{size()} * std::max<size_t>(1, chunks_per_thread));
    const size_t step = (n + chunks - 1) / chunks;
    const size_t real_chunks = (n + step - 1) / step;
    parallel_for(real_chunks, [&](size_t c) {
        const size_t begin = c * step;
        body(begin, std::min(n, begin + step));
    });
}

void run_on_own_threads(size_t tasks, size_t max_threads,
                        const std::function<void(size_t)>& body) {
    const size_t threads = std::max<size_t>(1, std::min(tasks, max_threads));
    std::atomic<size_t> next{0};
    auto take_tasks = [&] {
        for (size_t k = next.fetch_add(1); k < tasks; k = next.fetch_add(1)) body(k);
    };
    std::vector<std::thread> started;
    started.reserve(threads);
    for (size_t t = 1; t < threads; ++t) {
        try {
            started.emplace_back(take_tasks);
        } catch (const std::system_error&) {
            break;
        }
    }
    take_tasks();
    for (std::thread& th : started) th.join();
}

ThreadPool& ThreadPool::global() {
    static ThreadPool pool([] {
        if (const char* env = std::getenv("CUZK_THREADS")) {
            const long n = std::strtol(env, nullptr, 10);
            if (n > 0) return static_cast<unsigned>(n);
        }
        const unsigned hw = std::thread::hardware_concurrency();
        return hw == 0 ? 1u : hw;
    }());
    return pool;
}

}  // namespace cuzk::util
