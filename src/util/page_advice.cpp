#include "util/page_advice.hpp"

#include <cstdint>

#include "util/env.hpp"
#include "util/thread_pool.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace cuzk::util {

namespace {

// The whole pages of [p, p + bytes): [begin, end), empty when there are none.
struct PageRange {
    uintptr_t begin = 0, end = 0;
};
PageRange whole_pages(void* p, size_t bytes, uintptr_t page) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const uintptr_t begin = (lo + page - 1) / page * page;
    const uintptr_t end = (lo + bytes) / page * page;
    return begin < end ? PageRange{begin, end} : PageRange{};
}

uintptr_t page_size() {
#if defined(__linux__)
    const long s = sysconf(_SC_PAGESIZE);
    return s > 0 ? static_cast<uintptr_t>(s) : 4096;
#else
    return 4096;
#endif
}

}  // namespace

bool page_advice_enabled() {
    static const bool on = env_switch("CUZK_PAGE_ADVICE", true);
    return on;
}

void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const PageRange r = whole_pages(p, bytes, page_size());
    if (r.begin < r.end)
        (void)madvise(reinterpret_cast<void*>(r.begin), r.end - r.begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void populate_pages(void* p, size_t bytes, unsigned threads) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = page_size();
    const PageRange r = whole_pages(p, bytes, page);
    if (r.begin >= r.end) return;
    const uintptr_t pages = (r.end - r.begin) / page;
    const uintptr_t shares = threads == 0 ? 1 : (threads < pages ? threads : pages);
    run_on_own_threads(shares, shares, [&](size_t k) {
        const uintptr_t lo = r.begin + pages * k / shares * page;
        const uintptr_t hi = r.begin + pages * (k + 1) / shares * page;
        if (lo < hi) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE);
    });
#else
    (void)p;
    (void)bytes;
    (void)threads;
#endif
}

}  // namespace cuzk::util
