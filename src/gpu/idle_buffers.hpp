// Idle buffers kept for reuse — the pinned host pool (pinned_pool.hpp) and the device scratch
// cache (scratch_cache.hpp) share this bookkeeping. Each buffer sits under a tag (the device it
// belongs to, or 0), oldest first. Buffer: movable, with size(); its destructor frees it.
// Not thread-safe: the owners lock around every call, and free what they get back (evicted or
// released buffers) after unlocking.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace cuzk::gpu {

template <class Buffer>
class IdleBuffers {
   public:
    // Removes and returns the smallest idle buffer of `tag` whose size is in [bytes, max_size].
    std::optional<Buffer> take(int tag, size_t bytes, size_t max_size) {
        auto best = entries_.end();
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            const size_t size = it->buffer.size();
            if (it->tag != tag || size < bytes || size > max_size) continue;
            if (best == entries_.end() || size < best->buffer.size()) best = it;
        }
        if (best == entries_.end()) return std::nullopt;
        Buffer out = std::move(best->buffer);
        bytes_ -= out.size();
        entries_.erase(best);
        return out;
    }

    // Adds `buffer` under `tag`; then, while the tag's idle bytes exceed `cap`, moves its oldest
    // buffers (possibly `buffer` itself) to `evicted`.
    void put(int tag, Buffer buffer, size_t cap, std::vector<Buffer>& evicted) {
        bytes_ += buffer.size();
        entries_.push_back({tag, std::move(buffer)});
        size_t tagged = 0;
        for (const Entry& e : entries_)
            if (e.tag == tag) tagged += e.buffer.size();
        for (auto it = entries_.begin(); tagged > cap && it != entries_.end();) {
            if (it->tag != tag) {
                ++it;
                continue;
            }
            tagged -= it->buffer.size();
            bytes_ -= it->buffer.size();
            evicted.push_back(std::move(it->buffer));
            it = entries_.erase(it);
        }
    }

    // Removes every idle buffer.
    std::vector<Buffer> take_all() {
        std::vector<Buffer> out;
        for (Entry& e : entries_) out.push_back(std::move(e.buffer));
        entries_.clear();
        bytes_ = 0;
        return out;
    }

    size_t bytes() const { return bytes_; }
    size_t count() const { return entries_.size(); }

   private:
    struct Entry {
        int tag;
        Buffer buffer;
    };
    std::deque<Entry> entries_;
    size_t bytes_ = 0;
};

}  // namespace cuzk::gpu
