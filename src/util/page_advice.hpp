// Advice to the kernel about large anonymous buffers (Linux madvise), best effort: where the
// kernel or the platform refuses, nothing happens and the buffer behaves as before.
//
// advise_huge_pages: back the buffer with transparent huge pages (MADV_HUGEPAGE; the systems'
// default "madvise" mode gives them only to buffers that ask), so that filling it takes one
// page fault per 2 MiB instead of per 4 KiB.
// populate_pages: fault the buffer's pages in now, writable (MADV_POPULATE_WRITE, Linux 5.14+),
// on up to `threads` threads of its own, each a contiguous share — so that the faults and the
// kernel's zeroing of a multi-gigabyte destination run in parallel instead of inside the one
// thread that then copies into it. The contents are not touched.
// Both act on the whole pages inside [p, p + bytes) only.
// Users (r1cs::WitnessOnly's value buffers, the compiled circuit's sparse products' outputs)
// advise buffers of at least kPageAdviceMinBytes while page_advice_enabled().
#pragma once

#include <cstddef>

namespace cuzk::util {

void advise_huge_pages(void* p, size_t bytes);
void populate_pages(void* p, size_t bytes, unsigned threads);

// The switch: on unless the environment sets CUZK_PAGE_ADVICE=0.
bool page_advice_enabled();
inline constexpr size_t kPageAdviceMinBytes = size_t{64} << 20;

}  // namespace cuzk::util
