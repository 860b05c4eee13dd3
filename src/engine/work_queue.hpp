// The engine's queue of per-partition work items, in the order the synthesis pool takes them:
// higher priority first, then the job submitted earlier (lower submission sequence number), then
// the lower partition index. The queue holds keys only; the engine maps a key's job_seq to its
// job. Invariant: a key is present at most once. Not thread-safe (the engine's lock guards it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>

#include "engine/engine.hpp"

namespace cuzk::engine {

struct WorkKey {
    Priority priority = Priority::kNormal;
    uint64_t job_seq = 0;    // submission order of the job (unique per job)
    uint32_t partition = 0;  // partition index within the job
    bool operator==(const WorkKey&) const = default;
};

// True when `a` is to be served before `b`.
struct ServedBefore {
    bool operator()(const WorkKey& a, const WorkKey& b) const;
};

class WorkQueue {
   public:
    // False when the key was already queued (the queue is unchanged).
    bool push(const WorkKey& key);
    // The next key to serve, without removing it.
    std::optional<WorkKey> top() const;
    std::optional<WorkKey> pop();
    // Removes one key; false when absent.
    bool erase(const WorkKey& key);
    // Removes every key of one job; returns how many were removed.
    size_t erase_job(uint64_t job_seq);
    size_t count_job(uint64_t job_seq) const;
    size_t size() const { return keys_.size(); }
    bool empty() const { return keys_.empty(); }

   private:
    std::set<WorkKey, ServedBefore> keys_;
};

}  // namespace cuzk::engine
