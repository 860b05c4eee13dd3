// A fixed pool of worker threads running data-parallel loops.
//
// parallel_for(count, body) runs body(i) for every i in [0, count) across the workers and the
// calling thread, and returns when all have finished. Calls from different threads are
// serialized; a parallel_for issued from inside a body runs inline on that thread (no deadlock,
// no oversubscription). body must not throw.
//
// ThreadPool::global() is sized by the environment variable CUZK_THREADS when set, else by
// std::thread::hardware_concurrency().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk::util {

class ThreadPool {
   public:
    explicit ThreadPool(unsigned threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Threads that execute a parallel_for, the caller included.
    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

    void parallel_for(size_t count, const std::function<void(size_t)>& body);

    // Splits [0, n) into about size()*chunks_per_thread contiguous ranges and runs
    // body(begin, end) on each.
    void parallel_ranges(size_t n, const std::function<void(size_t, size_t)>& body,
                         size_t chunks_per_thread = 4);

    static ThreadPool& global();

   private:
    void worker_loop();
    void run_items();

    std::vector<std::thread> workers_;
    std::mutex submit_mutex_;  // one parallel_for at a time
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(size_t)>* body_ = nullptr;
    size_t count_ = 0;
    std::atomic<size_t> next_{0};
    size_t active_ = 0;       // workers still inside the current generation
    uint64_t generation_ = 0;
    bool stopping_ = false;
};

// body(k) for every k < tasks on min(tasks, max_threads) threads started for the call (the
// calling thread among them), each taking the next k until none is left; returns once every
// body has returned. A thread that cannot be started leaves its share to the others. For work
// that must not queue behind a pool (a ThreadPool runs one parallel_for at a time) or that
// wants more runnable threads than cores. body must not throw.
void run_on_own_threads(size_t tasks, size_t max_threads,
                        const std::function<void(size_t)>& body);

}  // namespace cuzk::util
