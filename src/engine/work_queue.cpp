#include "engine/work_queue.hpp"

namespace cuzk::engine {

bool ServedBefore::operator()(const WorkKey& a, const WorkKey& b) const {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.job_seq != b.job_seq) return a.job_seq < b.job_seq;
    return a.partition < b.partition;
}

bool WorkQueue::push(const WorkKey& key) { return keys_.insert(key).second; }

std::optional<WorkKey> WorkQueue::top() const {
    if (keys_.empty()) return std::nullopt;
    return *keys_.begin();
}

std::optional<WorkKey> WorkQueue::pop() {
    if (keys_.empty()) return std::nullopt;
    WorkKey k = *keys_.begin();
    keys_.erase(keys_.begin());
    return k;
}

bool WorkQueue::erase(const WorkKey& key) { return keys_.erase(key) > 0; }

size_t WorkQueue::erase_job(uint64_t job_seq) {
    size_t n = 0;
    for (auto it = keys_.begin(); it != keys_.end();) {
        if (it->job_seq == job_seq) {
            it = keys_.erase(it);
            ++n;
        } else {
            ++it;
        }
    }
    return n;
}

size_t WorkQueue::count_job(uint64_t job_seq) const {
    size_t n = 0;
    for (const WorkKey& k : keys_) n += k.job_seq == job_seq ? 1 : 0;
    return n;
}

}  // namespace cuzk::engine
